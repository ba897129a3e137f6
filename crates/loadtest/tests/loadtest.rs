//! `ludus-loadtest` end to end, kept to a few seconds: against a server it spawns and against
//! a running `ludus serve`, the clients play, nothing acknowledged is lost or doubled in the
//! store, and no error happens; with accounts the games are made by seeks, the lobby sockets
//! hear every seek come and go, and rated games are rated once per seat; bad arguments and an
//! unreachable server are refused with a short error and the right exit code. No timing is
//! asserted (the machine is shared).
//!
//! The server is the `ludus` binary beside `ludus-loadtest` in the target folder, as
//! `--spawn` finds it: `cargo test --workspace` builds it; alone, run `cargo build -p ludus`
//! first.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

#[path = "../../cli/tests/support/mod.rs"]
mod support;

use support::{host_of, ludus_bin, serve_with, Spawned};

/// `ludus-loadtest ARGS`.
fn loadtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus-loadtest"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// A running `ludus serve` on a free port with a database in `dir`, and its URL. A load test
/// is one client playing many games as fast as allowed: no per-client limits.
fn unlimited_server(dir: &Path) -> (Spawned, String) {
    let db = dir.join("games.sqlite3");
    let flags = ["--games-per-client", "0", "--actions-per-second", "0"];
    let mut server = serve_with("127.0.0.1:0", &db, &flags);
    let host = host_of(&mut server);
    // Its later output is drained: a full pipe would stop the server.
    let mut stderr = server.stderr.take().expect("stderr is piped");
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (server, format!("http://{host}"))
}

/// The JSON report of a load test that must succeed.
fn report(args: &[&str]) -> Value {
    let output = loadtest(args);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?} failed: {err}");
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(out.trim_end().lines().count(), 1, "one JSON line: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The clients played and the store holds exactly what they were told.
fn assert_played_and_nothing_lost(report: &Value) {
    let moves = report["moves"].as_u64().unwrap();
    assert!(moves > 0, "{report}");
    assert_eq!(report["errors"], 0, "{report}");
    assert_eq!(report["lost"], 0, "{report}");
    assert_eq!(report["doubled"], 0, "{report}");
    let check = &report["check"];
    assert_eq!(check["mismatched"], 0, "{report}");
    assert_eq!(check["missing"], 0, "{report}");
    // Every game played was checked, every acknowledged move in it.
    assert_eq!(check["games"], report["games_played"], "{report}");
    assert_eq!(check["decisions"].as_u64(), Some(moves), "{report}");
    let latency = &report["latency_ms"];
    assert!(latency["p50"].as_f64().unwrap() > 0.0, "{report}");
    assert!(
        latency["p99"].as_f64() <= latency["max"].as_f64(),
        "{report}"
    );
}

#[test]
fn a_spawned_server_loses_and_doubles_nothing_and_reports_its_memory() {
    let server = ludus_bin();
    let report = report(&[
        "--spawn",
        "--server-bin",
        server.to_str().unwrap(),
        "--games",
        "4",
        "--seconds",
        "2",
        "--json",
    ]);
    assert_played_and_nothing_lost(&report);
    assert_eq!(report["spawned"], true);
    assert_eq!(report["sockets"], 8);
    let every_game: Vec<&str> = ludus_games::GAMES.iter().map(|info| info.id).collect();
    assert_eq!(
        report["game_ids"],
        serde_json::json!(every_game),
        "{report}"
    );
    let server = &report["server"];
    let start = server["rss_start_kib"].as_u64().unwrap();
    let idle = server["rss_idle_kib"].as_u64().unwrap();
    assert!(start > 0 && idle >= start, "{report}");
    assert!(server["idle_kib_per_game"].as_f64().is_some(), "{report}");
    assert!(server["rss_load_max_kib"].as_u64() > Some(0), "{report}");
}

#[test]
fn accounts_pair_every_game_by_seeks_that_the_lobby_sockets_see_come_and_go() {
    let report = report(&[
        "--spawn",
        "--games",
        "10",
        "--seconds",
        "2",
        "--accounts",
        "20",
        "--lobby",
        "5",
        "--json",
    ]);
    assert_played_and_nothing_lost(&report);
    let accounts = &report["accounts"];
    assert_eq!(accounts["count"], 20, "{report}");
    assert_eq!(accounts["signed_up"], 20, "{report}");
    assert_eq!(accounts["bots"], 4, "{report}");
    assert!(accounts["seconds"].as_f64().unwrap() > 0.0, "{report}");
    // Every game played was made by a seek and its acceptance.
    let pairing = &report["pairing"];
    let paired = pairing["games_paired"].as_u64().unwrap();
    assert_eq!(Some(paired), report["games_played"].as_u64(), "{report}");
    assert_eq!(pairing["rated"], false, "{report}");
    // One seek per game, ten kept open (the default with --lobby), and the marker.
    assert_eq!(pairing["open_seeks"], 10, "{report}");
    assert_eq!(
        pairing["seeks_posted"].as_u64(),
        Some(paired + 11),
        "{report}"
    );
    // Seekers with a signed-in lobby socket (load0001..load0003) got their token there, the
    // others from their game list.
    assert!(pairing["tokens_via_lobby"].as_u64() > Some(0), "{report}");
    assert!(
        pairing["tokens_via_account_games"].as_u64() > Some(0),
        "{report}"
    );
    // Ten made while the load was set up, the rest replacing finished games.
    assert_eq!(
        pairing["games_paired_during_play"].as_u64(),
        Some(paired - 10),
        "{report}"
    );
    assert!(
        pairing["setup_latency_ms"]["p50"].as_f64() > Some(0.0),
        "{report}"
    );
    assert_lobby_heard_every_seek(&report);
    assert_eq!(report["ratings"], Value::Null, "{report}");
    // The sign-ups' password hashing muddles the server's memory: no figure per game.
    assert_eq!(
        report["server"]["idle_kib_per_game"],
        Value::Null,
        "{report}"
    );
}

/// The five lobby sockets (three signed in) heard every seek of the run come, then go, and
/// their own `started` frames.
fn assert_lobby_heard_every_seek(report: &Value) {
    let pairing = &report["pairing"];
    let lobby = &report["lobby"];
    assert_eq!(lobby["sockets"], 5, "{report}");
    assert_eq!(lobby["signed_in"], 3, "{report}");
    assert!(lobby["frames_per_s"].as_f64() > Some(0.0), "{report}");
    assert_eq!(lobby["drained"], true, "{report}");
    // Each socket saw every seek of the run come, then go; none is left shown.
    assert_eq!(lobby["sockets_complete"], 5, "{report}");
    assert_eq!(lobby["seeks_of_run"], pairing["seeks_posted"], "{report}");
    assert_eq!(lobby["missed"], 0, "{report}");
    assert_eq!(lobby["resyncs"], 0, "{report}");
    assert_eq!(lobby["stale"], 0, "{report}");
    assert_eq!(lobby["unmatched"], 0, "{report}");
    let seeks = pairing["seeks_posted"].as_u64().unwrap();
    assert_eq!(lobby["seek_frames"].as_u64(), Some(5 * seeks), "{report}");
    assert_eq!(lobby["unseek_frames"].as_u64(), Some(5 * seeks), "{report}");
    assert!(lobby["started_frames"].as_u64() > Some(0), "{report}");
    assert_eq!(
        lobby["started_frames"], lobby["started_expected"],
        "{report}"
    );
}

#[test]
fn rated_games_get_exactly_one_rating_row_per_seat() {
    let report = report(&[
        "--spawn",
        "--game",
        "qawale",
        "--games",
        "6",
        "--seconds",
        "2",
        "--accounts",
        "6",
        "--rated",
        "--json",
    ]);
    assert_played_and_nothing_lost(&report);
    assert_eq!(report["pairing"]["rated"], true, "{report}");
    assert_eq!(report["lobby"], Value::Null, "{report}");
    let ratings = &report["ratings"];
    assert_eq!(ratings["made"], true, "{report}");
    assert_eq!(ratings["games"], report["games_played"], "{report}");
    let ended = ratings["finished"].as_u64().unwrap();
    assert!(ended > 0, "no rated game ended: {report}");
    assert_eq!(
        ratings["rows_expected"].as_u64(),
        Some(2 * ended),
        "{report}"
    );
    assert_eq!(ratings["rows_found"], ratings["rows_expected"], "{report}");
    for field in ["missing", "doubled", "unexpected", "unverifiable"] {
        assert_eq!(ratings[field], 0, "{field}: {report}");
    }
}

#[test]
fn the_summary_names_the_accounts_pairing_lobby_and_ratings() {
    let output = loadtest(&[
        "--spawn",
        "--games",
        "2",
        "--seconds",
        "0.5",
        "--accounts",
        "4",
        "--lobby",
        "2",
        "--rated",
    ]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    for needle in [
        "accounts: 4 signed up in",
        "rated games made by seek and accept",
        "pairing latency",
        "lobby: 2 sockets (1 signed in)",
        "lobby check: 2 of 2 sockets saw all",
        "0 missed (0 while playing), 0 stale",
        "ratings check:",
        "0 missing, 0 doubled, 0 unexpected",
        "0 lost, 0 doubled",
    ] {
        assert!(out.contains(needle), "'{needle}' missing: {out}");
    }
}

#[test]
fn a_running_server_is_loaded_with_one_chosen_game() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, url) = unlimited_server(dir.path());
    let pid = server.id().to_string();
    let args = [
        "--url",
        url.trim(),
        "--pid",
        &pid,
        "--game",
        "qawale",
        "--games",
        "3",
        "--seconds",
        "1",
        "--seed",
        "7",
        "--rate",
        "300",
        "--json",
    ];
    let report = report(&args);
    server.kill().unwrap();
    server.wait().unwrap();
    assert_played_and_nothing_lost(&report);
    assert_eq!(report["spawned"], false);
    assert_eq!(report["game_ids"], serde_json::json!(["qawale"]));
    assert_eq!(report["rate"], 300);
    assert_eq!(report["server"]["pid"].as_u64(), pid.parse().ok());
}

#[test]
fn the_summary_names_the_rate_latency_and_check() {
    let output = loadtest(&["--spawn", "--games", "1", "--seconds", "0.5"]);
    assert!(output.status.success());
    let out = String::from_utf8_lossy(&output.stdout);
    for needle in ["moves/s", "p99", "0 lost, 0 doubled", "per idle game"] {
        assert!(out.contains(needle), "'{needle}' missing: {out}");
    }
}

#[test]
fn bad_arguments_are_refused_by_clap_with_status_2() {
    for (args, needle) in [
        (&[][..], "--url"),
        (&["--spawn", "--games", "0"], "from 1 to 10000"),
        (&["--spawn", "--seconds", "-1"], "at most 3600"),
        (&["--spawn", "--rate", "2000000"], "from 0 to 1000000"),
        (&["--spawn", "--url", "http://x:1"], "cannot be used"),
        (&["--spawn", "--pid", "12"], "cannot be used"),
        (&["--spawn", "--accounts", "10001"], "from 0 to 10000"),
    ] {
        let output = loadtest(args);
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error:") && err.contains(needle),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn bad_values_and_an_unreachable_server_are_one_line_errors_with_status_1() {
    // Port 9 (discard) on the loopback is not a Ludus server: nothing listens there.
    for (args, needle) in [
        (
            &["--url", "http://127.0.0.1:9"][..],
            "cannot reach the server",
        ),
        (&["--url", "localhost:8080"], "expected http://HOST:PORT"),
        (&["--spawn", "--game", "chess"], "unknown game 'chess'"),
        (&["--spawn", "--accounts", "1"], "at least 2"),
        (&["--spawn", "--lobby", "5"], "need accounts"),
        (
            &["--spawn", "--server-bin", "/nonexistent/ludus"],
            "expected the ludus binary",
        ),
        (
            &["--spawn", "--accounts", "4", "--open-seeks", "5"],
            "at most --accounts",
        ),
    ] {
        let output = loadtest(args);
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_server_that_dies_mid_run_fails_the_check_instead_of_passing_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, url) = unlimited_server(dir.path());
    let load = Command::new(env!("CARGO_BIN_EXE_ludus-loadtest"))
        .args(["--url", url.trim(), "--game", "qawale"])
        .args(["--games", "2", "--seconds", "3", "--rate", "50"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Spawned)
        .unwrap();
    // Killed while the games are played: nothing can be read back for the check.
    std::thread::sleep(std::time::Duration::from_secs(1));
    server.kill().unwrap();
    server.wait().unwrap();
    let output = load.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("check: could not be made"), "{out}");
    assert!(!out.contains("0 lost"), "{out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("the check could not be made"), "{err}");
}

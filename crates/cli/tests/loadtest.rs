//! `ludus loadtest` end to end, kept to a few seconds: against a server it spawns and against
//! a running `ludus serve`, the clients play, nothing acknowledged is lost or doubled in the
//! store, and no error happens; bad arguments and an unreachable server are refused with a
//! short error and the right exit code. No timing is asserted (the machine is shared).

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// The JSON report of a load test that must succeed.
fn report(args: &[&str]) -> Value {
    let output = ludus(args);
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
    let report = report(&[
        "loadtest",
        "--spawn",
        "--games",
        "4",
        "--seconds",
        "2",
        "--json",
    ]);
    assert_played_and_nothing_lost(&report);
    assert_eq!(report["spawned"], true);
    assert_eq!(report["sockets"], 8);
    assert_eq!(report["game_ids"].as_array().unwrap().len(), 5, "{report}");
    let server = &report["server"];
    let start = server["rss_start_kib"].as_u64().unwrap();
    let idle = server["rss_idle_kib"].as_u64().unwrap();
    assert!(start > 0 && idle >= start, "{report}");
    assert!(server["idle_kib_per_game"].as_f64().is_some(), "{report}");
    assert!(server["rss_load_max_kib"].as_u64() > Some(0), "{report}");
}

#[test]
fn a_running_server_is_loaded_with_one_chosen_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("games.sqlite3"))
        // A load test is one client playing many games as fast as allowed: no per-client limits.
        .args(["--games-per-client", "0", "--actions-per-second", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let pid = server.id().to_string();
    let args = [
        "loadtest",
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
    let output = ludus(&["loadtest", "--spawn", "--games", "1", "--seconds", "0.5"]);
    assert!(output.status.success());
    let out = String::from_utf8_lossy(&output.stdout);
    for needle in ["moves/s", "p99", "0 lost, 0 doubled", "per idle game"] {
        assert!(out.contains(needle), "'{needle}' missing: {out}");
    }
}

#[test]
fn bad_arguments_are_refused_by_clap_with_status_2() {
    for (args, needle) in [
        (&["loadtest"][..], "--url"),
        (&["loadtest", "--spawn", "--games", "0"], "from 1 to 10000"),
        (&["loadtest", "--spawn", "--seconds", "-1"], "at most 3600"),
        (
            &["loadtest", "--spawn", "--rate", "2000000"],
            "from 0 to 1000000",
        ),
        (
            &["loadtest", "--spawn", "--url", "http://x:1"],
            "cannot be used",
        ),
        (&["loadtest", "--spawn", "--pid", "12"], "cannot be used"),
    ] {
        let output = ludus(args);
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
            &["loadtest", "--url", "http://127.0.0.1:9"][..],
            "cannot reach the server",
        ),
        (
            &["loadtest", "--url", "localhost:8080"],
            "expected http://HOST:PORT",
        ),
        (
            &["loadtest", "--spawn", "--game", "chess"],
            "unknown game 'chess'",
        ),
    ] {
        let output = ludus(args);
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
    let mut server = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("games.sqlite3"))
        .args(["--games-per-client", "0", "--actions-per-second", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let load = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["loadtest", "--url", url.trim(), "--game", "qawale"])
        .args(["--games", "2", "--seconds", "3", "--rate", "50"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
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

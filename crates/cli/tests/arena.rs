//! `ludus arena` with outside engines and across machines: `ludus ugi` itself and a small
//! Python random engine as players, broken engines that must lose with the right reason while
//! the arena finishes, openings played in game pairs, the SPRT's verdicts, and shards merged
//! into exactly the report of one run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

fn ludus(args: &[&str]) -> Output {
    Command::new(LUDUS)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// The JSON report of a successful `ludus arena ... --json`.
fn arena_json(args: &[&str]) -> Value {
    let mut all = vec!["arena"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = ludus(&all);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {err}");
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

fn python_engine(name: &str, game: &str, mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/random_ugi.py");
    format!("{name}=python3 {} {LUDUS} {game} {mode}", script.display())
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-arena-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn ludus_ugi_and_a_python_engine_play_a_round_robin() {
    let python = python_engine("random.py", "qawale", "random");
    let ludus_ugi = format!("self={LUDUS} ugi qawale");
    let report = arena_json(&[
        "qawale",
        "--ai",
        "ai:1",
        "--engine",
        &python,
        "--engine",
        &ludus_ugi,
        "--games",
        "2",
        "--movetime",
        "30",
    ]);
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 6, "three pairs of two games");
    for game in games {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            !reason.contains("random.py") && !reason.contains("self "),
            "nobody forfeits: {reason}"
        );
        assert!(game["plies"].as_u64().unwrap() > 4);
    }
    let names: Vec<&str> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["spec"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ai:random", "random.py", "self"]);
}

#[test]
fn engines_start_from_an_opening_position_string() {
    let dir = temp_dir("fen");
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "fen NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L moves d1\n",
    )
    .unwrap();
    let python = python_engine("random.py", "qawale", "random");
    let ludus_ugi = format!("self={LUDUS} ugi qawale --agent ai:2");
    let report = arena_json(&[
        "qawale",
        "--engine",
        &python,
        "--engine",
        &ludus_ugi,
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    for game in report["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            !reason.contains("illegal") && !reason.contains("crashed"),
            "{reason}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn broken_engines_lose_with_the_reason_and_the_arena_finishes() {
    let saved = temp_dir("broken");
    for (mode, reason) in [
        ("illegal", "played an illegal move 'z99'"),
        ("crash", "crashed or closed its pipe"),
        ("hang", "exceeded its time"),
        ("garbage", "sent garbage"),
    ] {
        let engine = python_engine("broken", "replica", mode);
        let dir = saved.join(mode);
        let report = arena_json(&[
            "replica",
            "--engine",
            &engine,
            "--ai",
            "ai:1",
            "--games",
            "2",
            "--movetime",
            "50",
            "--margin",
            "300",
            "--save-games",
            dir.to_str().unwrap(),
        ]);
        let broken = &report["agents"][1];
        assert_eq!(broken["spec"], "broken");
        assert_eq!(broken["losses"], 2, "{mode}: {report}");
        for game in report["games"].as_array().unwrap() {
            assert!(
                game["reason"].as_str().unwrap().contains(reason),
                "{mode}: {game}"
            );
        }
        // The saved game says why, and replays through the rules.
        let record = std::fs::read_to_string(dir.join("replica-0001.json")).unwrap();
        assert!(record.contains(reason), "{record}");
        let replay = ludus(&["replay", dir.join("replica-0001.json").to_str().unwrap()]);
        assert!(replay.status.success(), "{mode}");
    }
    // With three seats the crashed engine's team leaves and the others play on.
    let engine = python_engine("broken", "splut", "crash");
    let three = arena_json(&[
        "splut",
        "-o",
        "players=3",
        "--engine",
        &engine,
        "--ai",
        "ai:1",
        "--games",
        "2",
    ]);
    for game in three["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            reason.contains("crashed") && reason.contains("; then "),
            "{reason}"
        );
    }
    std::fs::remove_dir_all(&saved).unwrap();
}

#[test]
fn each_opening_is_played_twice_with_the_seats_swapped() {
    let dir = temp_dir("openings");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\nstartpos moves a1:NEN\nd1:WNW\n").unwrap();
    let saved = dir.join("games");
    let first_moves = |game: &str, saved: &Path, i: usize, n: usize| -> Vec<String> {
        let path = saved.join(format!("{game}-{i:04}.json"));
        let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let all = record["moves"].as_array().unwrap();
        all.iter()
            .take(n)
            .map(|m| m.as_str().unwrap().to_string())
            .collect()
    };
    let report = arena_json(&[
        "qawale",
        "--ai",
        "ai:4:depth=1",
        "--ai",
        "ai:2",
        "--games",
        "4",
        "--openings",
        openings.to_str().unwrap(),
        "--save-games",
        saved.to_str().unwrap(),
    ]);
    let seats = |i: usize| report["games"][i]["seats"][0].as_str().unwrap().to_string();
    assert_eq!(seats(0), "ai:alphabeta:depth=1");
    assert_eq!(seats(1), "ai:greedy");
    // Games 1 and 2 start with the first opening, games 3 and 4 with the second.
    for (game, opening) in [(1, "a1:NEN"), (2, "a1:NEN"), (3, "d1:WNW"), (4, "d1:WNW")] {
        assert_eq!(
            first_moves("qawale", &saved, game, 1),
            [opening],
            "game {game}"
        );
    }
    // Random openings (one decision per turn in Replica): shared within a game pair only.
    let random = dir.join("random");
    arena_json(&[
        "replica",
        "--ai",
        "ai:2",
        "--ai",
        "ai:1",
        "--games",
        "4",
        "--random-opening",
        "4",
        "--save-games",
        random.to_str().unwrap(),
    ]);
    let opening = |i| first_moves("replica", &random, i, 4);
    assert_eq!(opening(1), opening(2));
    assert_eq!(opening(3), opening(4));
    assert_ne!(opening(1), opening(3));
    // A bad line is refused with its number.
    std::fs::write(&openings, "startpos\nz9\n").unwrap();
    let bad = ludus(&[
        "arena",
        "qawale",
        "--ai",
        "ai:1",
        "--ai",
        "ai:1",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && err.contains("line 2"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sprt_stops_when_it_decides() {
    // A limit of a million games: the schedule is lazy, so nothing is prepared for games the
    // test never reaches.
    let strong_first = arena_json(&[
        "replica",
        "--ai",
        "ai:4:depth=2",
        "--ai",
        "ai:1",
        "--games",
        "1000000",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
    ]);
    let sprt = &strong_first["sprt"];
    assert_eq!(sprt["verdict"], "H1 accepted", "{sprt}");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());
    assert!(strong_first["games"].as_array().unwrap().len() < 200);
    let weak_first = arena_json(&[
        "replica",
        "--ai",
        "ai:1",
        "--ai",
        "ai:4:depth=2",
        "--games",
        "200",
        "--sprt",
        "elo0=0,elo1=50",
    ]);
    assert_eq!(weak_first["sprt"]["verdict"], "H0 accepted");
    let table = ludus(&[
        "arena",
        "replica",
        "--ai",
        "ai:1",
        "--ai",
        "ai:4:depth=2",
        "--games",
        "200",
        "--sprt",
        "elo0=0,elo1=50",
    ]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("H0 accepted"));
    let bad = ludus(&[
        "arena",
        "replica",
        "--ai",
        "ai:1",
        "--ai",
        "ai:2",
        "--sprt",
        "elo0=5,elo1=1",
    ]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad sprt"));
}

#[test]
fn two_shards_merge_into_exactly_the_unsharded_run() {
    let dir = temp_dir("shards");
    let players = [
        "replica",
        "--ai",
        "ai:4:depth=1",
        "--ai",
        "ai:2",
        "--ai",
        "ai:1",
        "--games",
        "4",
        "--seed",
        "5",
    ];
    let whole = ludus(&[&["arena"][..], &players].concat());
    let whole_json = ludus(&[&["arena"][..], &players, &["--json"]].concat());
    let mut files = Vec::new();
    for shard in ["0/2", "1/2"] {
        let file = dir.join(format!("shard-{}.jsonl", &shard[..1]));
        let out = file.to_str().unwrap().to_string();
        let run = ludus(&[&["arena"][..], &players, &["--shard", shard, "--out", &out]].concat());
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        files.push(out);
    }
    let merged = ludus(
        &[
            &["arena", "merge"][..],
            &files.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    let merged_json = ludus(&["arena", "merge", &files[0], &files[1], "--json"]);
    assert_eq!(merged_json.stdout, whole_json.stdout);
    // One shard alone is not the tournament; a shard of another tournament is refused.
    let alone = ludus(&["arena", "merge", &files[0]]);
    assert!(String::from_utf8_lossy(&alone.stderr).contains("missing"));
    let other = dir.join("other.jsonl");
    let other_text = other.to_str().unwrap();
    let mut other_seed = players.to_vec();
    other_seed[10] = "6";
    ludus(
        &[
            &["arena"][..],
            &other_seed,
            &["--shard", "1/2", "--out", other_text],
        ]
        .concat(),
    );
    let mixed = ludus(&["arena", "merge", &files[0], other_text]);
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("another tournament"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
/// Each refusal names the setting and the range it takes (clap's own errors for the ranges it
/// checks, the arena's for the rest) and nothing panics.
fn numbers_out_of_range_are_refused_with_their_range() {
    for (args, needle) in [
        (
            &[
                "arena",
                "replica",
                "--ai",
                "ai:1",
                "--ai",
                "ai:1",
                "--games",
                "18446744073709551615",
            ][..],
            "from 1 to 1000000",
        ),
        (
            &[
                "arena",
                "replica",
                "--ai",
                "ai:1",
                "--ai",
                "ai:1",
                "--threads",
                "1000000",
            ][..],
            "four per core",
        ),
        (
            &[
                "arena", "replica", "--ai", "ai:1", "--ai", "ai:1", "--shard", "2/2",
            ][..],
            "0 <= I < N",
        ),
        (
            &[
                "arena",
                "replica",
                "--ai",
                "ai:1",
                "--ai",
                "ai:1",
                "--movetime",
                "0",
            ][..],
            "from 1 to 3600000",
        ),
        (
            &["arena", "replica", "--ai", "ai:1", "--engine", "noequals"][..],
            "bad engine",
        ),
        (
            &["bench", "replica", "--seconds", "inf"][..],
            "at most 3600",
        ),
        (&["bench", "replica", "--seconds", "nan"][..], "--seconds"),
        (&["bench", "replica", "--seconds", "-1"][..], "--seconds"),
        (&["bench", "replica", "--seconds", "1e30"][..], "--seconds"),
    ] {
        let output = ludus(args);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

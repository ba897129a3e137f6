//! `ludus arena` with outside engines and across machines: `ludus ugi` itself and a small
//! Python random engine as players, broken engines that must lose with the right reason while
//! the arena finishes, openings played in game pairs, the SPRT's verdicts, and shards merged
//! into exactly the report of one run.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// Runs `ludus` with the words of `text`, then `extra` (arguments holding spaces or paths).
fn ludus(text: &str, extra: &[&str]) -> Output {
    Command::new(LUDUS)
        .args(text.split_whitespace())
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The JSON report of a successful `ludus arena TEXT EXTRA --json`.
fn arena_json(text: &str, extra: &[&str]) -> Value {
    let output = ludus(&format!("arena {text} --json"), extra);
    assert!(
        output.status.success(),
        "{text} {extra:?}: {}",
        stderr(&output)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

fn python_engine(name: &str, game: &str, mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/random_ugi.py");
    format!("{name}=python3 {} {LUDUS} {game} {mode}", script.display())
}

/// A fresh folder (`ludus-arena-NAME-` and random letters), removed with all in it when the
/// guard drops, also when the test fails: the test keeps the guard to its end.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::TempDir::with_prefix(format!("ludus-arena-{name}-")).unwrap()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The first `n` moves of saved game number `i` of `game` in `dir`.
fn first_moves(dir: &Path, game: &str, i: usize, n: usize) -> Vec<String> {
    let path = dir.join(format!("{game}-{i:04}.json"));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let moves = record["moves"].as_array().unwrap().iter().take(n);
    moves.map(|m| m.as_str().unwrap().to_string()).collect()
}

#[test]
fn ludus_ugi_and_a_python_engine_play_a_round_robin() {
    let python = python_engine("random.py", "qawale", "random");
    let ludus_ugi = format!("self={LUDUS} ugi qawale");
    // The Python engine runs `ludus moves` for every decision: a margin of 3 s keeps a busy
    // machine's slow start of that process from losing it the game on time.
    let report = arena_json(
        "qawale --ai ai:1 --games 2 --movetime 30 --margin 3000",
        &["--engine", &python, "--engine", &ludus_ugi],
    );
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 6, "three pairs of two games");
    for game in games {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            !reason.contains("random.py") && !reason.contains("self "),
            "{reason}"
        );
        assert!(game["plies"].as_u64().unwrap() > 4);
    }
    let agents = report["agents"].as_array().unwrap();
    let names: Vec<&str> = agents.iter().map(|a| a["spec"].as_str().unwrap()).collect();
    assert_eq!(names, ["ai:random", "random.py", "self"]);
}

#[test]
fn engines_start_from_an_opening_position_string() {
    let dir = temp_dir("fen");
    let openings = dir.path().join("openings.txt");
    let line = "fen NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L moves d1\n";
    std::fs::write(&openings, line).unwrap();
    let python = python_engine("random.py", "qawale", "random");
    let ludus_ugi = format!("self={LUDUS} ugi qawale --agent ai:2");
    let report = arena_json(
        "qawale --games 2",
        &[
            "--engine",
            &python,
            "--engine",
            &ludus_ugi,
            "--openings",
            text(&openings),
        ],
    );
    for game in report["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            !reason.contains("illegal") && !reason.contains("crashed"),
            "{reason}"
        );
    }
}

/// A position string of several lines (Splut!'s) travels on its one line, `;` between its
/// lines: engines read it and play whole games from it.
#[test]
fn engines_read_a_position_of_several_lines_sent_on_one_line() {
    let dir = temp_dir("fen-lines");
    let openings = dir.path().join("openings.txt");
    let line = "fen size=9 seats=south,north tomove=south turn=0 used=0 lev=unused locked=-; \
                south: Sd2 De2 Tf2; north: Sf8 De8 Td8; rocks: e1 a5 e9 i5 moves De2-e3\n";
    std::fs::write(&openings, line).unwrap();
    let one = format!("one={LUDUS} ugi splut --agent ai:1");
    let two = format!("two={LUDUS} ugi splut --agent ai:2");
    let report = arena_json(
        "splut --games 2 --movetime 10",
        &[
            "--engine",
            &one,
            "--engine",
            &two,
            "--openings",
            text(&openings),
        ],
    );
    for game in report["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(game["plies"].as_u64().unwrap() > 4, "{reason}");
        for forfeit in ["illegal", "crashed", "garbage", "exceeded", "did not start"] {
            assert!(!reason.contains(forfeit), "{reason}");
        }
    }
}

#[test]
fn engines_with_a_name_already_taken_are_refused() {
    let one = format!("same={LUDUS} ugi replica --agent ai:1");
    for players in [
        vec!["--engine", &one, "--engine", &one],
        vec!["--ai", "ai:1", "--engine", "ai:random=python3 x.py"],
    ] {
        let output = ludus("arena replica --games 2", &players);
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains("two players are named"),
            "{}",
            stderr(&output)
        );
    }
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
        let dir = saved.path().join(mode);
        let report = arena_json(
            "replica --ai ai:1 --games 2 --movetime 50 --margin 300",
            &["--engine", &engine, "--save-games", text(&dir)],
        );
        let broken = &report["agents"][1];
        assert_eq!(broken["spec"], "broken");
        assert_eq!(broken["losses"], 2, "{mode}: {report}");
        for game in report["games"].as_array().unwrap() {
            let why = game["reason"].as_str().unwrap();
            assert!(why.contains(reason), "{mode}: {why}");
        }
        // The saved game says why, and replays through the rules.
        let saved_game = dir.join("replica-0001.json");
        let record = std::fs::read_to_string(&saved_game).unwrap();
        assert!(record.contains(reason), "{record}");
        assert!(
            ludus("replay", &[text(&saved_game)]).status.success(),
            "{mode}"
        );
    }
}

#[test]
fn a_crashed_engine_leaves_a_three_player_game_and_the_others_play_on() {
    let engine = python_engine("broken", "splut", "crash");
    let three = arena_json(
        "splut -o players=3 --ai ai:1 --games 2",
        &["--engine", &engine],
    );
    for game in three["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            reason.contains("crashed") && reason.contains("; then "),
            "{reason}"
        );
    }
}

#[test]
fn each_opening_is_played_twice_with_the_seats_swapped() {
    let dir = temp_dir("openings");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "# two openings\nstartpos moves a1:NEN\nd1:WNW\n").unwrap();
    let saved = dir.path().join("games");
    let report = arena_json(
        "qawale --ai ai:4:depth=1 --ai ai:2 --games 4",
        &["--openings", text(&openings), "--save-games", text(&saved)],
    );
    let seat_1 = |i: usize| report["games"][i]["seats"][0].as_str().unwrap().to_string();
    assert_eq!(seat_1(0), "ai:alphabeta:depth=1");
    assert_eq!(seat_1(1), "ai:greedy");
    // Games 1 and 2 start with the first opening, games 3 and 4 with the second.
    for (game, opening) in [(1, "a1:NEN"), (2, "a1:NEN"), (3, "d1:WNW"), (4, "d1:WNW")] {
        assert_eq!(
            first_moves(&saved, "qawale", game, 1),
            [opening],
            "game {game}"
        );
    }
    // A bad line is refused with its number.
    std::fs::write(&openings, "startpos\nz9\n").unwrap();
    let bad = ludus(
        "arena qawale --ai ai:1 --ai ai:1 --openings",
        &[text(&openings)],
    );
    assert!(
        !bad.status.success() && stderr(&bad).contains("line 2"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn random_openings_are_shared_within_a_game_pair_only() {
    // Replica takes one decision per turn, so the first four moves are the random opening.
    let dir = temp_dir("random");
    arena_json(
        "replica --ai ai:2 --ai ai:1 --games 4 --random-opening 4",
        &["--save-games", text(dir.path())],
    );
    let opening = |i| first_moves(dir.path(), "replica", i, 4);
    assert_eq!(opening(1), opening(2));
    assert_eq!(opening(3), opening(4));
    assert_ne!(opening(1), opening(3));
}

#[test]
fn sprt_stops_when_it_decides() {
    // A limit of a million games: the schedule is lazy, so nothing is prepared for games the
    // test never reaches.
    let strong_first = arena_json(
        "replica --ai ai:4:depth=2 --ai ai:1 --games 1000000 \
         --sprt elo0=0,elo1=50,alpha=0.05,beta=0.05",
        &[],
    );
    let sprt = &strong_first["sprt"];
    assert_eq!(sprt["verdict"], "H1 accepted", "{sprt}");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());
    assert!(strong_first["games"].as_array().unwrap().len() < 200);
    let weak_first = "replica --ai ai:1 --ai ai:4:depth=2 --games 200 --sprt elo0=0,elo1=50";
    assert_eq!(
        arena_json(weak_first, &[])["sprt"]["verdict"],
        "H0 accepted"
    );
    let table = ludus(&format!("arena {weak_first}"), &[]);
    assert!(stdout(&table).contains("H0 accepted"), "{}", stdout(&table));
    let bad = ludus(
        "arena replica --ai ai:1 --ai ai:2 --sprt elo0=5,elo1=1",
        &[],
    );
    assert!(stderr(&bad).contains("bad sprt"));
}

#[test]
fn the_sprt_names_its_player_in_the_command_lines_order() {
    // The engine comes first on the command line: it is player 1 and the tested player.
    let engine = format!("u={LUDUS} ugi replica");
    let run = |extra: &str| {
        let args = format!("arena replica --engine {extra} --games 4 --movetime 5 --json");
        let output = Command::new(LUDUS)
            .args(args.split_whitespace().take(3))
            .arg(&engine)
            .args(args.split_whitespace().skip(3))
            .output()
            .unwrap();
        (stdout(&output), stderr(&output))
    };
    let (out, err) = run("--ai ai:1 --sprt elo0=0,elo1=10");
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out} {err}"));
    assert_eq!(report["agents"][0]["spec"], "u", "{report}");
    let sprt = &report["sprt"];
    assert_eq!(
        (&sprt["player"], &sprt["model"]),
        (&json!("u"), &json!("normalized"))
    );
    let words = "H1: u is stronger than the rest (ai:random) by ≥ 10 nElo; H0: by ≤ 0 nElo";
    assert_eq!(sprt["hypotheses"], words, "{sprt}");
    assert!(sprt["conclusion"]
        .as_str()
        .unwrap()
        .contains("no decision about u after 2 pairs"));
    assert!(err.contains("--games 4 gives 2 game pairs"), "{err}");
    assert!(report["agents"][0]["pentanomial"].as_array().unwrap().len() == 5);
    for key in ["penta_elo", "penta_elo_ci95", "nelo", "nelo_ci95", "los"] {
        assert!(report["agents"][1][key].is_number(), "{key}: {report}");
    }

    let (out, _) = run("--ai ai:1 --sprt elo0=0,elo1=10,model=logistic --sprt-player ai:random");
    let sprt = &serde_json::from_str::<Value>(&out).unwrap()["sprt"];
    assert_eq!(
        (&sprt["player"], &sprt["opponent"]),
        (&json!("ai:random"), &json!("u"))
    );
    assert!(sprt["hypotheses"].as_str().unwrap().contains("by ≥ 10 Elo"));
    let (_, err) = run("--ai ai:1 --sprt elo0=0,elo1=10 --sprt-player nobody");
    assert!(
        err.contains("'nobody' is not a player: expected one of u, ai:random"),
        "{err}"
    );
}

#[test]
fn a_log_gets_a_progress_line_every_n_games() {
    // stderr is a pipe here, as in a cluster's log: no bar, plain lines.
    let output = ludus(
        "arena replica --ai ai:1 --ai ai:random --games 6 --progress-every 2",
        &[],
    );
    let lines: Vec<&str> = std::str::from_utf8(&output.stderr)
        .unwrap()
        .lines()
        .collect();
    let expected = ["2/6 games", "4/6 games", "6/6 games"].map(|l| format!("ludus arena: {l}"));
    assert_eq!(lines, expected, "{}", stdout(&output));
}

const SHARDED: &str = "replica --ai ai:4:depth=1 --ai ai:2 --ai ai:1 --games 4";

/// Runs shard `shard` of the `SHARDED` tournament with `seed` into `file`.
fn run_shard(seed: u32, shard: &str, file: &Path) {
    let args = format!("arena {SHARDED} --seed {seed} --shard {shard} --out");
    let run = ludus(&args, &[text(file)]);
    assert!(run.status.success(), "{}", stderr(&run));
}

#[test]
fn two_shards_merge_into_exactly_the_unsharded_run() {
    let dir = temp_dir("shards");
    let files = [
        dir.path().join("shard-0.jsonl"),
        dir.path().join("shard-1.jsonl"),
    ];
    run_shard(5, "0/2", &files[0]);
    run_shard(5, "1/2", &files[1]);
    let whole = ludus(&format!("arena {SHARDED} --seed 5"), &[]);
    let merged = ludus("arena merge", &[text(&files[0]), text(&files[1])]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&whole));
    let whole_json = ludus(&format!("arena {SHARDED} --seed 5 --json"), &[]);
    let merged_json = ludus("arena merge --json", &[text(&files[0]), text(&files[1])]);
    assert_eq!(stdout(&merged_json), stdout(&whole_json));
}

/// A shard killed while writing a game: its cut last line is dropped with a warning, and the
/// shard run again for that game gives the whole tournament.
#[test]
fn a_cut_last_line_is_dropped_with_a_warning() {
    let dir = temp_dir("cut");
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    run_shard(9, "0/2", &a);
    run_shard(9, "1/2", &b);
    let whole = std::fs::read_to_string(&b).unwrap();
    let cut = &whole[..whole.len() - 20];
    std::fs::write(&b, cut).unwrap();
    let output = ludus("arena merge", &[text(&a), text(&b)]);
    let warning = stderr(&output);
    assert!(
        warning.contains("cut short") && warning.contains("dropped"),
        "{warning}"
    );
    // The game of the dropped line is missing now, and said so.
    assert!(!output.status.success());
    assert!(warning.contains("1 of "), "{warning}");
    // Cut in the middle, a line is still refused with its number.
    let lines: Vec<&str> = whole.lines().collect();
    std::fs::write(&b, format!("{}\n{{\"index\n{}\n", lines[0], lines[1])).unwrap();
    let refused = stderr(&ludus("arena merge", &[text(&a), text(&b)]));
    assert!(refused.contains("line 2"), "{refused}");
}

#[test]
fn merge_refuses_missing_games_and_other_tournaments() {
    let dir = temp_dir("foreign");
    let (mine, other) = (
        dir.path().join("mine.jsonl"),
        dir.path().join("other.jsonl"),
    );
    run_shard(5, "0/2", &mine);
    run_shard(6, "1/2", &other);
    let alone = ludus("arena merge", &[text(&mine)]);
    assert!(stderr(&alone).contains("missing"), "{}", stderr(&alone));
    let mixed = ludus("arena merge", &[text(&mine), text(&other)]);
    assert!(
        stderr(&mixed).contains("another tournament"),
        "{}",
        stderr(&mixed)
    );
    let twice = ludus("arena merge", &[text(&mine), text(&mine)]);
    assert!(stderr(&twice).contains("twice"), "{}", stderr(&twice));
}

/// Each refusal names the setting or the range it takes, and nothing panics.
#[test]
fn numbers_out_of_range_are_refused_with_their_range() {
    let match_ = "arena replica --ai ai:1 --ai ai:1";
    for (args, needle) in [
        (
            format!("{match_} --games 18446744073709551615"),
            "from 1 to 1000000",
        ),
        (format!("{match_} --threads 1000000"), "four per core"),
        (format!("{match_} --shard 2/2"), "0 <= I < N"),
        (format!("{match_} --movetime 0"), "from 1 to 3600000"),
        (format!("{match_} --random-opening 5000"), "from 0 to 1000"),
        (
            "arena replica --ai ai:1 --engine noequals".to_string(),
            "bad engine",
        ),
        ("bench replica --seconds inf".to_string(), "at most 3600"),
        ("bench replica --seconds nan".to_string(), "--seconds"),
        ("bench replica --seconds -1".to_string(), "--seconds"),
        ("bench replica --seconds 1e30".to_string(), "--seconds"),
    ] {
        let output = ludus(&args, &[]);
        let err = stderr(&output);
        assert!(
            !output.status.success() && err.contains(needle),
            "{args}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_balanced_book_keeps_the_levelest_openings_and_the_arena_plays_them() {
    let dir = temp_dir("book");
    let book = dir.path().join("book.txt");
    let make = |keep: &str, out: &Path| {
        let output = ludus(
            &format!("book replica --openings {keep} --candidates 12 --plies 4 --agent ai:4:depth=2 --seed 5 --json --out"),
            &[text(out)],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_slice::<Value>(&output.stdout).expect("one JSON object")
    };
    let summary = make("3", &book);
    assert_eq!(summary["openings"], 3, "{summary}");
    let lines = |path: &Path| -> Vec<(f64, String)> {
        let content = std::fs::read_to_string(path).unwrap();
        let rows: Vec<&str> = content.lines().skip(1).collect();
        rows.chunks(2)
            .map(|pair| {
                let score = pair[0].rsplit(' ').next().unwrap().parse::<f64>().unwrap();
                (score.abs(), pair[1].to_string())
            })
            .collect()
    };
    let kept = lines(&book);
    assert_eq!(kept.len(), 3);
    // Every candidate left out scores at least as far from level as every one kept.
    let all_path = dir.path().join("all.txt");
    make("12", &all_path);
    let widest_kept = kept.iter().map(|(s, _)| *s).fold(0.0, f64::max);
    for (score, line) in lines(&all_path) {
        if !kept.iter().any(|(_, l)| *l == line) {
            assert!(score >= widest_kept, "{line} ({score}) left out");
        }
    }
    // The arena starts each game pair from a kept line.
    let saved = dir.path().join("games");
    arena_json(
        "replica --ai ai:2 --ai ai:1 --games 6",
        &["--openings", text(&book), "--save-games", text(&saved)],
    );
    for game in 1..=6 {
        let moves = first_moves(&saved, "replica", game, 4).join(" ");
        assert_eq!(kept[(game - 1) / 2].1, format!("startpos moves {moves}"));
    }
    let refused = ludus("book replica --agent ai:1 --out", &[text(&book)]);
    assert!(
        !refused.status.success() && stderr(&refused).contains("no evaluation"),
        "{}",
        stderr(&refused)
    );
}

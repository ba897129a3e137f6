//! The `ludus` binary end to end: the query commands, line-mode play, records, and the
//! one-line errors for bad input.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod support;
use support::{ludus, Spawned};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts a failure with exactly one line on stderr containing `needle`.
fn fails_with(args: &[&str], needle: &str) {
    let output = ludus(args);
    assert!(!output.status.success(), "{args:?} should fail");
    let err = stderr(&output);
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
}

/// A path named `name` in a fresh folder, and the folder's guard: the folder goes when the
/// guard drops (also when the test fails), so the test keeps it to its end.
fn temp_file(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::TempDir::with_prefix("ludus-cli-").unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

#[test]
fn moves_lists_the_four_opening_stacks_of_qawale() {
    let output = ludus(&["moves", "qawale"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "a1\nd1\na4\nd4\n");
}

#[test]
fn after_plays_whole_turns_and_decisions() {
    let whole = stdout(&ludus(&["position", "qawale", "--after", "a1:NEN"]));
    let split = stdout(&ludus(&["position", "qawale", "--after", "a1 N E N"]));
    assert_eq!(whole, split);
    assert!(
        whole.starts_with("NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L\n"),
        "{whole}"
    );
    assert!(whole.contains("to move: Light"), "{whole}");
}

/// A position string that starts with an empty cell (`-`) is a value, not a flag.
#[test]
fn a_position_starting_with_a_dash_is_read_as_the_position() {
    let position = "-,-,-,NN/N,-,-,-/N,D,-,-/NN,-,-,NN L";
    let output = ludus(&["position", "qawale", "--position", position]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().next(), Some(position));
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let output = ludus(&["perft", "qawale", "--turns", "1"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output).lines().last(), Some("40"));
    let divided = stdout(&ludus(&["perft", "qawale", "--turns", "1", "--divide"]));
    assert!(divided.contains("a1 10\n"), "{divided}");
    assert_eq!(divided.lines().last(), Some("40"));
}

#[test]
fn bad_input_is_one_clear_line_and_a_failure() {
    fails_with(&["moves", "chess"], "unknown game 'chess'");
    fails_with(
        &["moves", "qawale", "-o", "colour=red"],
        "unknown option 'colour'",
    );
    fails_with(&["moves", "qawale", "-o", "both_lines=maybe"], "both_lines");
    fails_with(&["moves", "qawale", "--position", "NN,NN"], "bad position");
    fails_with(&["moves", "qawale", "--after", "a1:NEN b7"], "move 2 'b7'");
    fails_with(&["play", "qawale", "--p2", "ai:9"], "bad player 'ai:9'");
    fails_with(&["replay", "/nonexistent/game.json"], "cannot access");
    fails_with(&["bench", "replica", "--agent", "ai:4:speed=9"], "speed");
}

#[test]
fn numbers_out_of_range_and_endless_files_are_refused() {
    fails_with(
        &["play", "qawale", "--p2", "ai:alphabeta:hash=12000"],
        "bad parameter 'hash=12000' for alphabeta: expected a number from 0 to 1024",
    );
    fails_with(
        &["play", "qawale", "--p2", "ai:mcts:c=nan"],
        "expected a number above 0 and at most 100",
    );
    fails_with(&["play", "qawale", "--p2", "ai:mcts:c=-1"], "c=-1");
    fails_with(&["play", "qawale", "--p2", "ai:mcts:time=0"], "time=0");
    fails_with(&["replay", "/dev/zero"], "larger than 16 MiB");
    fails_with(
        &["play", "qawale", "--theme", "neon"],
        "unknown theme 'neon': expected one of Classic, Dracula, Gruvbox, Monochrome",
    );
}

#[test]
fn load_refuses_a_conflicting_game_option_or_position() {
    let (_dir, path) = temp_file("conflict.json");
    let text = r#"{"format":1,"game":"qawale","options":{},"moves":["a1:NEN"]}"#;
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    fails_with(
        &["play", "yoxii", "--load", path],
        "holds a qawale game, not yoxii",
    );
    fails_with(
        &["play", "--load", path, "-o", "both_lines=draw"],
        "drop -o/--option",
    );
    fails_with(
        &["play", "--load", path, "--position", "x"],
        "drop --position",
    );
    let output = ludus(&[
        "play", "qawale", "--load", path, "--p1", "ai:1", "--p2", "ai:1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn errors_say_each_reason_once_in_plain_words() {
    let (_dir, path) = temp_file("options.json");
    let text = r#"{"format":1,"game":"splut","options":{"max_turns":-1},"moves":[]}"#;
    std::fs::write(&path, text).unwrap();
    let output = ludus(&["replay", path.to_str().unwrap()]);
    let err = stderr(&output);
    assert!(
        err.ends_with(
            "record options: bad value '-1' for option 'max_turns': expected 0 (off) to 100000\n"
        ),
        "{err}"
    );
    assert_eq!(err.matches("max_turns").count(), 1, "{err}");
    fails_with(
        &["moves", "qawale", "-o", "both_lines=2"],
        "bad value '2' for option 'both_lines': expected mover_wins or draw",
    );
    fails_with(
        &["moves", "replica", "--after", "zz"],
        "the original program's",
    );
}

#[test]
fn a_bad_move_in_a_turn_is_explained_once() {
    let output = ludus(&["moves", "qawale", "--after", "a1:NEX"]);
    let err = stderr(&output);
    assert_eq!(err.matches("expected").count(), 1, "{err}");
    assert!(err.contains("decision 4"), "{err}");
}

#[test]
fn bench_times_a_computer_player_over_fixed_positions() {
    // Threads on one MCTS tree also say where they met; other searches have nothing to say.
    let mcts = "ai:mcts:iterations=300,threads=2";
    for (agent, named, met) in [("ai:3", "ai:minimax", false), (mcts, mcts, true)] {
        let output = ludus(&[
            "bench",
            "replica",
            "--seconds",
            "0.05",
            "--agent",
            agent,
            "--positions",
            "3",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains(&format!("agent: {named} over 3 positions")),
            "{text}"
        );
        for line in ["median time per decision: ", "nodes/s: "] {
            assert!(text.contains(line), "{text}");
        }
        assert_eq!(text.contains(" handovers an iteration "), met, "{text}");
    }
}

#[test]
fn two_computers_play_to_the_end_and_the_record_replays() {
    let (_dir, path) = temp_file("auto.json");
    let path_text = path.to_str().unwrap();
    let output = ludus(&[
        "play", "qawale", "--plain", "--p1", "ai:1", "--p2", "ai:1", "--seed", "3", "--save",
        path_text,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("result: "), "{}", stdout(&output));
    let replay = ludus(&["replay", path_text]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    let last_play = stdout(&output)
        .lines()
        .rev()
        .find(|l| l.starts_with("result: "))
        .map(str::to_owned);
    let last_replay = stdout(&replay)
        .lines()
        .rev()
        .find(|l| l.starts_with("result: "))
        .map(str::to_owned);
    assert_eq!(last_play, last_replay);
}

#[test]
fn a_damaged_record_names_the_bad_move() {
    let (_dir, path) = temp_file("damaged.json");
    let text = r#"{"format":1,"game":"qawale","options":{},"moves":["a1:NEN","b7:NN"]}"#;
    std::fs::write(&path, text).unwrap();
    fails_with(&["replay", path.to_str().unwrap()], "record move 2 'b7:NN'");
}

#[test]
fn a_person_types_moves_commands_and_resigns() {
    let (_dir, path) = temp_file("typed.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args([
            "play", "qawale", "--plain", "--p2", "human", "--name", "Ann",
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map(Spawned)
        .unwrap();
    let script = format!(
        "a1:NNN\nb1:XX\nmoves\nundo\na1:NEN\nsave {}\nresign\n",
        path.display()
    );
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), script.as_bytes()).unwrap();
    let text = stdout(&child.wait_with_output().unwrap());
    assert!(text.contains("Ann (Dark) plays a1:NNN"), "{text}");
    assert!(
        text.contains("bad move 'b1:XX'") || text.contains("illegal move 'b1:XX'"),
        "{text}"
    );
    assert!(text.contains("legal:"), "{text}");
    assert!(text.contains("result: Dark wins"), "{text}");
    let record = std::fs::read_to_string(&path).unwrap();
    assert!(record.contains("\"a1:NEN\""), "{record}");
}

#[test]
fn arena_json_has_the_documented_shape() {
    let output = ludus(&[
        "arena",
        "qawale",
        "--ai",
        "ai:1",
        "--ai",
        "ai:2",
        "--games",
        "4",
        "--json",
        "--threads",
        "1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["game"], "qawale");
    let agents = json["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    for key in [
        "spec", "wins", "draws", "losses", "score", "elo", "elo_ci95",
    ] {
        assert!(agents[0].get(key).is_some(), "agent key {key}");
    }
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for key in ["seats", "result", "plies"] {
        assert!(games[0].get(key).is_some(), "game key {key}");
    }
    let wins: u64 = agents.iter().map(|a| a["wins"].as_u64().unwrap()).sum();
    let losses: u64 = agents.iter().map(|a| a["losses"].as_u64().unwrap()).sum();
    assert_eq!(wins, losses);
}

#[test]
fn hint_suggests_a_legal_move() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["play", "replica", "--plain", "--p2", "human"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map(Spawned)
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"hint\nquit\n").unwrap();
    let text = stdout(&child.wait_with_output().unwrap());
    let hint = text
        .lines()
        .find_map(|l| l.split("hint: ").nth(1))
        .expect("a hint line");
    let suggested = hint.split_whitespace().next().unwrap();
    let legal = stdout(&ludus(&["moves", "replica"]));
    assert!(
        legal.lines().any(|m| m == suggested),
        "{suggested} not in {legal}"
    );
}

#[test]
fn games_lists_every_game_and_option_with_its_default() {
    let text = stdout(&ludus(&["games"]));
    for id in ludus_games::GAMES.iter().map(|info| info.id) {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{id} — "))),
            "{id}: {text}"
        );
    }
    assert!(
        text.contains("-o size=<9..25 step 2>  (default 9)"),
        "{text}"
    );
    assert!(
        text.contains("-o sight=<forward3|all8>  (default forward3)"),
        "{text}"
    );
    assert!(
        text.contains("-o protect_lines=<on|off>  (default off)"),
        "{text}"
    );
}

#[test]
fn text_records_in_the_spec_format_save_and_replay() {
    let (_dir, path) = temp_file("auto.txt");
    let path_text = path.to_str().unwrap();
    let output = ludus(&[
        "play", "yoxii", "--plain", "--p1", "ai:1", "--p2", "ai:1", "--seed", "5", "--save",
        path_text,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("Game: Yoxii"), "{text}");
    let replay = ludus(&["replay", path_text]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert!(stdout(&replay).contains("result: "), "{}", stdout(&replay));
}

#[test]
fn datagen_then_tune_writes_a_weights_file_the_game_reads() {
    let (_data_dir, data) = temp_file("yoxii.tsv");
    let data_arg = data.to_str().unwrap();
    let output = ludus(&[
        "datagen",
        "yoxii",
        "--games",
        "6",
        "--spec",
        "ai:alphabeta:depth=1",
        "--opening",
        "4",
        "--out",
        data_arg,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("from 6 games"),
        "{}",
        stdout(&output)
    );
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(lines.lines().count() > 50, "{lines}");
    let (_weights_dir, weights) = temp_file("weights.txt");
    let output = ludus(&[
        "tune",
        "yoxii",
        "--data",
        data_arg,
        "--drop",
        "points",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("mean squared error"),
        "{}",
        stdout(&output)
    );
    let text = std::fs::read_to_string(&weights).unwrap();
    let terms = <ludus_games::yoxii::Yoxii as ludus_engine::Heuristic>::TERMS;
    let parsed = ludus_games::weights::parse_weights(&text, terms).unwrap();
    // The dropped term is held at 0, and the header says how the weights were made.
    assert_eq!(terms[0], "points");
    assert!(parsed[0].abs() < f64::EPSILON, "{text}");
    assert!(text.contains("`ludus tune yoxii --drop points`"), "{text}");
    fails_with(
        &["tune", "yoxii", "--data", data_arg, "--drop", "pointz"],
        "--drop 'pointz': not a term; expected one of points, points_filled",
    );
}

#[test]
fn tune_refuses_bad_data_and_too_few_positions_in_one_line() {
    let (_bad_dir, bad) = temp_file("bad.tsv");
    std::fs::write(&bad, "1\t0\tsomething\nnot a sample\n").unwrap();
    fails_with(
        &["tune", "yoxii", "--data", bad.to_str().unwrap()],
        "bad sample at",
    );
    let (_good_dir, good) = temp_file("one.tsv");
    std::fs::write(&good, "1\t0\tx\n").unwrap();
    // Every game has tunable terms now; a Yoxii sample is no Qilin position.
    fails_with(
        &["tune", "qilin", "--data", good.to_str().unwrap()],
        "usable positions",
    );
    fails_with(
        &[
            "datagen",
            "yoxii",
            "--spec",
            "ai:alphabeta:threads=0",
            "--out",
            good.to_str().unwrap(),
        ],
        "threads=0",
    );
}

/// Yoxii's weights file, which `ludus spsa` starts from in the tests.
const YOXII_WEIGHTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../games/src/yoxii/weights.txt"
);

#[test]
fn spsa_tunes_a_weights_file_for_strength_the_same_way_for_the_same_seed() {
    let from = YOXII_WEIGHTS;
    let (_out_dir, out) = temp_file("spsa-weights.txt");
    let run = |out: &str| {
        let mut args = vec![
            "spsa",
            "yoxii",
            "--from",
            from,
            "--iterations",
            "3",
            "--pairs",
            "1",
        ];
        args.extend_from_slice(&["--spec", "ai:alphabeta:depth=1", "--seed", "4"]);
        // Yoxii's games end long before 300 decisions: the limit changes no result, but the
        // header must name it to reproduce the run.
        args.extend_from_slice(&["--fix", "hand", "--max-decisions", "300", "--out", out]);
        ludus(&args)
    };
    let output = run(out.to_str().unwrap());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("6 games: plus side"),
        "{}",
        stdout(&output)
    );
    let terms = <ludus_games::yoxii::Yoxii as ludus_engine::Heuristic>::TERMS;
    let read = |path: &str| {
        let text = std::fs::read_to_string(path).unwrap();
        (
            ludus_games::weights::parse_weights(&text, terms).unwrap(),
            text,
        )
    };
    let (before, _) = read(from);
    let (after, text) = read(out.to_str().unwrap());
    assert!(
        text.contains("`ludus spsa yoxii --spec ai:alphabeta:depth=1"),
        "{text}"
    );
    assert!(
        text.contains("--seed 4 --max-decisions 300 --fix hand`"),
        "{text}"
    );
    let hand = terms.iter().position(|t| *t == "hand").unwrap();
    assert!(
        (after[hand] - before[hand]).abs() < 1e-3,
        "a fixed term stays: {text}"
    );
    // The same seed, the same weights; the run moved some of them.
    let (_again_dir, again) = temp_file("spsa-again.txt");
    let output = run(again.to_str().unwrap());
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    assert!(
        after.iter().zip(&before).any(|(a, b)| (a - b).abs() > 1e-3),
        "{text}"
    );
}

/// A run stopped early still leaves its weights so far: `--out` holds a checkpoint every
/// 50 iterations, a whole weights file that says how far the run got.
#[test]
fn spsa_keeps_its_weights_so_far_in_the_out_file() {
    let (_out_dir, out) = temp_file("spsa-checkpoint.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args([
            "spsa",
            "yoxii",
            "--from",
            YOXII_WEIGHTS,
            "--iterations",
            "1000000",
        ])
        .args(["--pairs", "1", "--spec", "ai:alphabeta:depth=1", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(Spawned)
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let text = loop {
        // The file appears whole (an atomic write) or not at all.
        if let Ok(text) = std::fs::read_to_string(&out) {
            break text;
        }
        assert!(std::time::Instant::now() < deadline, "no checkpoint");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    child.kill().unwrap();
    let _ = child.wait();
    // Every 50 iterations; a later one may have replaced the first before this read.
    let iterations = text
        .split_once("(a checkpoint after ")
        .and_then(|(_, rest)| rest.split_once(" iterations)"))
        .and_then(|(count, _)| count.parse::<u64>().ok());
    assert!(iterations.is_some_and(|n| n > 0 && n % 50 == 0), "{text}");
    let terms = <ludus_games::yoxii::Yoxii as ludus_engine::Heuristic>::TERMS;
    assert!(
        ludus_games::weights::parse_weights(&text, terms).is_ok(),
        "{text}"
    );
}

#[test]
fn spsa_refuses_bad_runs_in_one_line() {
    let from = YOXII_WEIGHTS;
    fails_with(
        &["spsa", "yoxii", "--from", "/nonexistent"],
        "cannot read '/nonexistent'",
    );
    let (_dir, not_weights) = temp_file("not-weights.txt");
    std::fs::write(&not_weights, "pieces 1\n").unwrap();
    let path = not_weights.to_str().unwrap();
    fails_with(
        &["spsa", "yoxii", "--from", path],
        "is not a weights file of yoxii",
    );
    fails_with(
        &[
            "spsa",
            "yoxii",
            "--from",
            from,
            "--spec",
            "ai:mcts:iterations=9",
        ],
        "needs an alpha-beta search",
    );
    // Clap refuses a bad number with its own usage lines, and status 2.
    let output = ludus(&["spsa", "yoxii", "--from", from, "--perturb", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("expected a number above 0 and at most 1"));
    fails_with(
        &["spsa", "yoxii", "--from", from, "--fix", "pointz"],
        "--fix 'pointz': not a term",
    );
}

#[test]
fn replay_shows_flags_and_agreed_draws() {
    for (moves, result) in [
        (r#"["b4-c5","flag 2"]"#, "ran out of time"),
        (r#"["b4-c5","draw agreed"]"#, "draw by agreement"),
    ] {
        let (_dir, path) = temp_file("ending.json");
        let text = format!(r#"{{"format":1,"game":"replica","options":{{}},"moves":{moves}}}"#);
        std::fs::write(&path, text).unwrap();
        let output = ludus(&["replay", "--boards", path.to_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        let shown = stdout(&output);
        assert!(shown.contains(result), "{shown}");
    }
}

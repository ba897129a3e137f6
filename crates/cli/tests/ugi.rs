//! `ludus ugi` driven over a pipe, as a tournament manager drives it: the handshake, every
//! query, whole games of the five games through `position ... moves` and `go`, `stop` during
//! `go infinite`, and bad commands that must not stop the engine.

use std::time::{Duration, Instant};

mod support;
mod ugi_driver;
use ugi_driver::Engine;

#[test]
fn the_handshake_lists_engine_and_rules_options() {
    let mut engine = Engine::start("splut", &[]);
    engine.send("ugi");
    let lines = engine.until("ugiok");
    assert!(lines[0].starts_with("id name Ludus") && lines[0].contains("Splut"));
    assert!(lines[1].starts_with("id author"));
    for wanted in [
        "option name Level type spin default 5 min 1 max 5",
        "option name Agent type string",
        "option name players type spin default 2 min 2 max 4",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(wanted)),
            "{wanted}: {lines:?}"
        );
    }
    engine.send("isready");
    assert_eq!(engine.next(10).as_deref(), Some("readyok"));
    engine.quit();
}

#[test]
fn every_query_answers_from_the_rules() {
    let mut engine = Engine::start("qawale", &[]);
    engine.send("uginewgame");
    engine.send("position startpos");
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("p1turn"), "true");
    assert_eq!(engine.query("p2turn"), "false");
    assert_eq!(engine.query("result"), "none");
    assert_eq!(engine.query("moves"), "a1 d1 a4 d4");
    // A whole turn is taken as well as its decisions; Light is to move after it.
    engine.send("position startpos moves a1:NEN");
    assert_eq!(engine.query("p1turn"), "false");
    assert_eq!(engine.query("p2turn"), "true");
    assert_eq!(
        engine.query("position"),
        "NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L"
    );
    assert_eq!(engine.query("moves"), "d1 a2 b2 b3 a4 d4");
    engine.send("position startpos moves a1:NEN d1");
    let after_stack = engine.query("moves");
    // The same position as a position string, then the same decision of the next turn.
    engine.send("position fen NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L moves d1");
    assert_eq!(engine.query("moves"), after_stack);
    assert_eq!(engine.query("p2turn"), "true");
    engine.quit();
}

/// Plays a whole game with `go`, sending the growing move list each time as a tournament
/// manager does, and returns the result and the number of decisions.
fn play_whole_game(game: &str, options: &[&str]) -> (String, usize) {
    let mut engine = Engine::start(game, options);
    engine.send("ugi");
    engine.until("ugiok");
    engine.send("setoption name Level value 1");
    engine.send("isready");
    engine.until("readyok");
    engine.send("uginewgame");
    let mut moves: Vec<String> = Vec::new();
    loop {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        if engine.query("gameover") == "true" {
            break;
        }
        let legal = engine.query("moves");
        engine.send("go movetime 10");
        let best = engine.until("bestmove ").pop().unwrap();
        let decision = best["bestmove ".len()..].to_string();
        assert!(
            legal.split(' ').any(|m| m == decision),
            "{game}: {decision} not in {legal}"
        );
        moves.push(decision);
        assert!(moves.len() < 20_000, "{game} does not end");
    }
    let result = engine.query("result");
    assert_eq!(engine.query("moves"), "(none)");
    engine.quit();
    (result, moves.len())
}

#[test]
fn whole_games_of_every_game_end_with_a_result() {
    // Every game at its defaults, and a game for three.
    let defaults = ludus_games::GAMES.iter().map(|info| (info.id, &[][..]));
    for (game, options) in defaults.chain([("splut", &["-o", "players=3"][..])]) {
        let (result, length) = play_whole_game(game, options);
        let seats = if options.is_empty() { 2 } else { 3 };
        let results: Vec<String> = (1..=seats)
            .map(|n| format!("p{n}win"))
            .chain(["draw".to_string()])
            .collect();
        assert!(results.contains(&result), "{game}: {result}");
        assert!(length > 4, "{game}: {length} decisions");
    }
}

#[test]
fn stop_ends_an_infinite_search_and_isready_answers_meanwhile() {
    let mut engine = Engine::start("replica", &[]);
    engine.send("setoption name Level value 4");
    engine.send("position startpos");
    engine.send("go infinite");
    // One iteration done: the search has a decision to play when stopped.
    let mut before_stop = engine.until("info depth ");
    engine.send("isready");
    before_stop.extend(engine.until("readyok"));
    assert!(
        before_stop.iter().all(|l| !l.starts_with("bestmove")),
        "{before_stop:?}"
    );
    let clock = Instant::now();
    engine.send("stop");
    let lines = engine.until("bestmove ");
    // An infinite search that missed the stop would not answer at all.
    assert!(clock.elapsed() < Duration::from_secs(30));
    assert!(
        lines
            .iter()
            .chain(&before_stop)
            .any(|l| l.starts_with("info depth ")
                && l.contains(" score ")
                && l.contains(" nodes ")
                && l.contains(" pv ")),
        "{lines:?}"
    );
    engine.quit();
}

#[test]
fn bad_commands_get_one_error_line_and_the_engine_goes_on() {
    let mut engine = Engine::start("yoxii", &[]);
    for bad in [
        "fly me to the moon",
        "go depth x",
        "go movetime 99999999999999",
        "position fen nonsense",
        "position startpos moves z9",
        "setoption name nope value 1",
        "setoption name Level value 9",
        "setoption name Agent value ai:chess",
        "query p9turn",
        "isready now",
    ] {
        engine.send(bad);
        let line = engine.next(10).unwrap_or_default();
        assert!(line.starts_with("info string error "), "{bad}: {line}");
    }
    engine.send_bytes(b"\xff\xfe go\n");
    let line = engine.next(10).unwrap_or_default();
    assert!(line.contains("not UTF-8"), "{line}");
    // The position is unchanged by the refused commands, and the engine still plays.
    assert_eq!(engine.query("gameover"), "false");
    engine.send("go depth 1");
    assert!(engine.until("bestmove ").pop().unwrap().len() > "bestmove ".len());
    engine.quit();
}

#[test]
fn every_go_limit_ends_with_a_bestmove() {
    let mut engine = Engine::start("qilin", &["--agent", "ai:4"]);
    engine.send("position startpos");
    for go in [
        "go nodes 50",
        "go depth 2",
        "go movetime 0",
        "go p1time 1000 p2time 1000 p1inc 10 p2inc 10",
        "go wtime 500 btime 500",
        "go",
    ] {
        let clock = Instant::now();
        engine.send(go);
        let best = engine.until("bestmove ").pop().unwrap();
        assert!(best.len() > "bestmove ".len(), "{go}: {best}");
        assert!(
            clock.elapsed() < Duration::from_secs(5),
            "{go} took too long"
        );
    }
    // Level 1 takes no limit: it says so and still moves.
    engine.send("setoption name Agent value ai:1");
    engine.send("go depth 3");
    let lines = engine.until("bestmove ");
    assert!(
        lines[0].starts_with("info string ai:random takes no"),
        "{lines:?}"
    );
    engine.quit();
}

#[test]
fn query_position_is_one_line_that_position_fen_reads_back() {
    for game in ugi_driver::game_ids() {
        let mut engine = Engine::start(&game, &[]);
        engine.send("position startpos");
        let moves = engine.query("moves");
        let first = moves.split(' ').next().unwrap().to_string();
        engine.send(&format!("position startpos moves {first}"));
        let position = engine.query("position");
        engine.send(&format!("position fen {position}"));
        engine.send("isready");
        // No error between: the whole position string came on its one line.
        assert_eq!(engine.until("readyok"), ["readyok"], "{game}: {position}");
        assert_eq!(engine.query("position"), position, "{game}");
        engine.quit();
    }
}

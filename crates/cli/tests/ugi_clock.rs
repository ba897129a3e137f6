//! `ludus ugi` under a clock, as engine authors expect it of a UCI engine: one search thread
//! unless `Threads` says more, the `Hash` table allocated at `isready` (not on the clock), the
//! table kept across the moves of a game and cleared by `uginewgame`, `MoveOverhead` taken off
//! each budget, an instant reply when one decision is legal, and a last `info` line that
//! names the `bestmove`. Work is counted (nodes, threads, bytes, the budget the engine
//! prints), never timed.

mod support;
mod ugi_driver;
use ugi_driver::Engine;

/// The `nodes` of each `info depth` line, by depth, and the `bestmove`, of one search.
fn search(engine: &mut Engine, go: &str) -> (Vec<(u32, u64)>, String, Vec<String>) {
    engine.send(go);
    let lines = engine.until("bestmove ");
    let mut by_depth = Vec::new();
    for line in &lines {
        let words: Vec<&str> = line.split(' ').collect();
        if words.get(1) != Some(&"depth") {
            continue;
        }
        let field = |name: &str| {
            let at = words.iter().position(|w| *w == name).unwrap();
            words[at + 1].parse::<u64>().unwrap()
        };
        by_depth.push((field("depth") as u32, field("nodes")));
    }
    let best = lines.last().unwrap()["bestmove ".len()..].to_string();
    (by_depth, best, lines)
}

/// The nodes at the deepest iteration both searches completed.
fn at_common_depth(a: &[(u32, u64)], b: &[(u32, u64)]) -> (u32, u64, u64) {
    let depth = a.last().unwrap().0.min(b.last().unwrap().0);
    let nodes = |s: &[(u32, u64)]| s.iter().find(|(d, _)| *d == depth).unwrap().1;
    (depth, nodes(a), nodes(b))
}

fn handshake(engine: &mut Engine, options: &[&str]) {
    engine.send("ugi");
    engine.until("ugiok");
    for option in options {
        engine.send(&format!("setoption name {option}"));
    }
    engine.send("isready");
    let lines = engine.until("readyok");
    assert_eq!(lines, ["readyok"], "{options:?}");
}

#[test]
fn the_table_is_kept_across_moves_and_cleared_by_uginewgame() {
    let game = ludus_games_first_id();
    let mut engine = Engine::start(&game, &[]);
    handshake(&mut engine, &[]);
    engine.send("uginewgame");
    engine.send("position startpos");
    let go = "go wtime 10000 btime 10000";
    let (first, best, lines) = search(&mut engine, go);
    assert!(
        lines.contains(
            &"info string time budget 480 ms (clock 10000, increment 0, overhead 20)".to_string()
        ),
        "{lines:?}"
    );
    // The last info line names the move played.
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        last_info.contains(&format!(" pv {best}")),
        "{last_info} / {best}"
    );
    // Asked again (a driver repeating its `go`): the table answers much of the search.
    let (again, ..) = search(&mut engine, go);
    let (depth, fresh, kept) = at_common_depth(&first, &again);
    assert!(depth >= 2, "{first:?} {again:?}");
    assert!(
        kept < fresh,
        "depth {depth}: {kept} nodes with the table, {fresh} without"
    );
    // A new game starts from an empty table: the same work as the first time.
    engine.send("uginewgame");
    engine.send("position startpos");
    let (renewed, ..) = search(&mut engine, go);
    let (depth, fresh, anew) = at_common_depth(&first, &renewed);
    assert_eq!(fresh, anew, "depth {depth}");
    engine.quit();
}

/// The first game of the registry.
fn ludus_games_first_id() -> String {
    ugi_driver::game_ids().remove(0)
}

#[test]
fn move_overhead_comes_off_each_budget() {
    let game = ludus_games_first_id();
    let mut engine = Engine::start(&game, &[]);
    handshake(&mut engine, &["MoveOverhead value 100"]);
    engine.send("position startpos");
    // 4000/20 + 200·¾ = 350, less 100.
    let (.., lines) = search(&mut engine, "go wtime 4000 btime 9000 winc 200 binc 0");
    assert!(
        lines.contains(
            &"info string time budget 250 ms (clock 4000, increment 200, overhead 100)".to_string()
        ),
        "{lines:?}"
    );
    let (.., lines) = search(&mut engine, "go movetime 150");
    assert!(
        lines.contains(&"info string time budget 50 ms (movetime 150, overhead 100)".to_string()),
        "{lines:?}"
    );
    engine.send("setoption name MoveOverhead value -1");
    assert!(engine
        .next(10)
        .unwrap()
        .starts_with("info string error setoption: bad MoveOverhead"));
    engine.quit();
}

#[test]
fn one_legal_decision_is_played_without_a_search() {
    let game = ludus_games_first_id();
    let mut engine = Engine::start(&game, &["--agent", "ai:1"]);
    let mut moves: Vec<String> = Vec::new();
    let only = loop {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let legal = engine.query("moves");
        let legal: Vec<&str> = legal.split(' ').collect();
        assert!(
            legal[0] != "(none)" && moves.len() < 500,
            "no forced decision in {moves:?}"
        );
        if let [only] = legal[..] {
            break only.to_string();
        }
        moves.push(legal[legal.len() / 2].to_string());
    };
    engine.send("setoption name Level value 5");
    engine.send("setoption name Agent value <empty>");
    let (depths, best, lines) = search(&mut engine, "go wtime 60000 btime 60000");
    assert_eq!(best, only);
    assert_eq!(depths, [(0, 0)], "{lines:?}");
    engine.quit();
}

/// The threads of a process, as Linux counts them.
#[cfg(target_os = "linux")]
fn threads_of(engine: &Engine) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
    line["Threads:".len()..].trim().parse().unwrap()
}

/// The resident memory of a process in kB, as Linux counts it.
#[cfg(target_os = "linux")]
fn resident_kb(engine: &Engine) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line["VmRSS:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap()
}

/// Threads while a `go infinite` runs with `options`.
#[cfg(target_os = "linux")]
fn threads_searching(game: &str, options: &[&str]) -> usize {
    let mut engine = Engine::start(game, &[]);
    handshake(&mut engine, options);
    engine.send("position startpos");
    engine.send("go infinite");
    // The first info line: the search (and any helper) is running.
    let first = engine.next(60).unwrap();
    assert!(first.starts_with("info "), "{first}");
    let threads = threads_of(&engine);
    engine.send("stop");
    engine.until("bestmove ");
    engine.quit();
    threads
}

#[cfg(target_os = "linux")]
#[test]
fn level_five_searches_on_one_thread_unless_threads_says_more() {
    let game = ludus_games_first_id();
    let default = threads_searching(&game, &[]);
    let one = threads_searching(&game, &["Threads value 1"]);
    let four = threads_searching(&game, &["Threads value 4"]);
    assert_eq!(default, one);
    assert_eq!(four, one + 3, "one thread: {one}, four: {four}");
}

#[cfg(target_os = "linux")]
#[test]
fn hash_is_allocated_at_isready_not_during_the_first_search() {
    let game = ludus_games_first_id();
    let mut engine = Engine::start(&game, &[]);
    handshake(&mut engine, &[]);
    let small = resident_kb(&engine);
    handshake(&mut engine, &["Hash value 256"]);
    let large = resident_kb(&engine);
    // The 256 MB asked for (less what the allocator may still leave untouched), before any `go`.
    assert!(large > small + 128 * 1024, "{small} kB, then {large} kB");
    engine.quit();
}

//! Self-play of one computer player, counting what a watcher reads as shuffling: turns that
//! contain a decision undoing the one before it ([`Heuristic::is_undoing`]) and games drawn
//! by repetition. The figures of `docs/STRENGTH.md` ("Steps that undo themselves") come from
//!
//! ```sh
//! nice -n 10 cargo run --release -p ludus-ai --features bench-examples --example shuffle -- GAME ai:3 26 1
//! nice -n 10 cargo run --release -p ludus-ai --features bench-examples --example shuffle -- GAME ai:3:shuffle=allow 26 1
//! ```
//!
//! The second line is the same player without its rules against shuffling (`shuffle=allow`).
//! Arguments: the game id, the agent spec, the number of games and a seed. Both seats play
//! the same spec with their own seeds; each game starts from the usual setup with its own
//! seed, so ties are broken differently from game to game.

use std::collections::BTreeMap;

use ludus_ai::{build_agent, AgentSpec, StopFlag};
use ludus_engine::{splitmix64, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

/// What the games added up to.
#[derive(Default)]
struct Tally {
    games: u64,
    turns: u64,
    undoing_turns: u64,
    decisions: u64,
    undoing: u64,
    endings: BTreeMap<String, u32>,
}

struct SelfPlay {
    spec: AgentSpec,
    games: u64,
    seed: u64,
}

impl GameVisitor for SelfPlay {
    type Output = Tally;
    fn visit<G: Game + Heuristic>(self) -> Tally {
        let mut tally = Tally::default();
        for game in 0..self.games {
            let seed = splitmix64(self.seed ^ splitmix64(game).1).1;
            play_one::<G>(&self.spec, seed, &mut tally);
        }
        tally
    }
}

/// One game from the usual setup, both seats played by `spec`.
fn play_one<G: Game + Heuristic>(spec: &AgentSpec, seed: u64, tally: &mut Tally) {
    let options = G::Options::default();
    let mut state = G::new(&options, seed);
    let mut agents: Vec<_> = (0..state.seat_count() as u64)
        .map(|seat| build_agent::<G>(spec, seed.wrapping_add(seat + 1)).expect("a valid spec"))
        .collect();
    let stop = StopFlag::default();
    let mut undone_this_turn = false;
    while let Some(seat) = state.to_move() {
        let action = agents[seat.to_usize()].choose(&state, &stop);
        let undoing = state.is_undoing(action);
        tally.decisions += 1;
        tally.undoing += u64::from(undoing);
        undone_this_turn |= undoing;
        let turn = state.turn();
        state.apply(action);
        if state.turn() > turn || state.to_move().is_none() {
            tally.turns += 1;
            tally.undoing_turns += u64::from(undone_this_turn);
            undone_this_turn = false;
        }
    }
    let ending = match state.outcome() {
        Some(outcome) if outcome.winner().is_none() => format!("draw: {}", outcome.reason),
        Some(_) => "won".to_string(),
        None => "unfinished".to_string(),
    };
    *tally.endings.entry(ending).or_default() += 1;
    tally.games += 1;
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, spec, games, seed] = args.as_slice() else {
        eprintln!("usage: shuffle GAME AGENT GAMES SEED");
        std::process::exit(2);
    };
    let spec: AgentSpec = spec.parse().unwrap_or_else(|e| fail(&e));
    let games = games.parse().unwrap_or_else(|e| fail(&e));
    let seed = seed.parse().unwrap_or_else(|e| fail(&e));
    let tally = dispatch(game, SelfPlay { spec, games, seed }).unwrap_or_else(|e| fail(&e));
    println!(
        "turns with an undoing decision: {} of {} ({:.1} %)",
        tally.undoing_turns,
        tally.turns,
        percent(tally.undoing_turns, tally.turns)
    );
    println!(
        "undoing decisions: {} of {} ({:.1} %)",
        tally.undoing,
        tally.decisions,
        percent(tally.undoing, tally.decisions)
    );
    println!(
        "games: {}, mean length {:.0} turns",
        tally.games,
        tally.turns as f64 / tally.games.max(1) as f64
    );
    for (ending, count) in &tally.endings {
        println!("{ending}: {count}");
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn fail(error: &dyn std::fmt::Display) -> ! {
    eprintln!("shuffle: {error}");
    std::process::exit(2);
}

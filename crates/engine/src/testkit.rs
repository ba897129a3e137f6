//! The conformance kit every game runs (OpenSpiel's `RandomSimTest`, board-game-rs's board
//! tests): thousands of seeded random games, checking after every decision that
//!
//! - nothing panics;
//! - the game is over exactly when there are no legal actions (and `to_move` agrees);
//! - legal actions are distinct, `is_legal` agrees with them, and a finished game refuses all;
//! - every legal action's notation parses back to the same action;
//! - every completed turn's notation parses back to the same decisions;
//! - the position string round-trips, with the same key;
//! - equal position strings always come with equal keys;
//! - no game outlasts [`GameInfo::max_turns`](crate::GameInfo);
//! - the saved record replays to the same final state, and resignation ends the game (or, with
//!   more than two seats, removes the seat);
//! - where the game numbers its cells for redrawing, the numbers change with the cells, and a
//!   cell or the panel drawn alone is as in the whole view.
//!
//! [`check_option_descriptions`] checks that a game's options are described once and right;
//! [`check_playout_loop`], that a game's own playout loop plays the games the default one does.

use std::collections::HashMap;
use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use crate::{
    options_to_pairs, parse_options, Game, GameOptions, GameRecord, OptionValues, Session,
};

mod cell_codes;
mod draws;
mod encoding;
pub use draws::{check_uniform_draws, draws_are_legal, played_at_random};
pub use encoding::check_encoding;

/// Runs `games` random games from the usual setup with `options`, seeded by `seed`.
///
/// # Panics
/// On the first broken invariant, with the game number, the position and what failed.
pub fn random_simulation<G: Game>(options: &G::Options, games: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut keys: HashMap<String, u64> = HashMap::new();
    let mut drawn = cell_codes::Drawn::new();
    for game in 0..games {
        let session = Session::<G>::new(options, rng.random());
        simulate_one(session, game, &mut rng, &mut keys, &mut drawn);
        if keys.len() > 200_000 {
            keys.clear();
        }
    }
}

/// Runs `games` random games from the position `position`.
pub fn random_simulation_from<G: Game>(
    position: &str,
    options: &G::Options,
    games: usize,
    seed: u64,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut keys = HashMap::new();
    let mut drawn = cell_codes::Drawn::new();
    for game in 0..games {
        let session = Session::<G>::from_position(position, options)
            .unwrap_or_else(|e| panic!("start position refused: {e}"));
        simulate_one(session, game, &mut rng, &mut keys, &mut drawn);
    }
}

fn simulate_one<G: Game>(
    mut session: Session<G>,
    game: usize,
    rng: &mut SmallRng,
    keys: &mut HashMap<String, u64>,
    drawn: &mut cell_codes::Drawn,
) {
    // One game in eight ends by a resignation at a random moment.
    let mut resign_at = (game % 8 == 7).then(|| rng.random_range(0..40u32));
    let mut actions = Vec::new();
    let mut turn_start = (session.state().clone(), Vec::new());
    let mut decisions = 0u32;
    loop {
        let state = session.state().clone();
        let at = decisions;
        let context = || format!("game {game}, decision {at}, position {}", state.position());
        check_state(&state, &mut actions, keys, &context);
        cell_codes::check_cell_codes(&state, drawn, &context);
        if state.outcome().is_some() {
            check_finished(&state, &context);
            break;
        }
        assert!(
            state.turn() <= G::INFO.max_turns,
            "{}: longer than max_turns",
            context()
        );
        if resign_at == Some(decisions) {
            let seat = state
                .to_move()
                .expect("a game in progress has a seat to move");
            session.resign(seat);
            resign_at = None;
            // Two seats: the game ends. More (Splut!): the seat leaves and the others play on.
            let after = session.state();
            assert!(
                after.outcome().is_some()
                    || (after.seat_count() > 2 && after.to_move() != Some(seat)),
                "{}: resigning neither ended the game nor removed the seat",
                context()
            );
            continue;
        }
        let action = *actions.choose(rng).expect("checked non-empty");
        session
            .play(action)
            .unwrap_or_else(|e| panic!("{}: legal action refused: {e}", context()));
        decisions += 1;
        turn_start.1.push(action);
        let after = session.state();
        if after.turn() != turn_start.0.turn() || after.outcome().is_some() {
            check_turn_notation(&turn_start.0, &turn_start.1, &context);
            turn_start = (after.clone(), Vec::new());
        }
    }
    check_record(&session, game);
}

fn check_state<G: Game>(
    state: &G,
    actions: &mut Vec<G::Action>,
    keys: &mut HashMap<String, u64>,
    context: &impl Fn() -> String,
) {
    state.legal_actions(actions);
    // The verdict first: a game may answer it without writing the outcome's reason.
    let verdict = state.verdict();
    let over = state.outcome().is_some();
    assert_eq!(
        verdict,
        state.outcome().map(|outcome| outcome.verdict),
        "{}: the verdict is the outcome's",
        context()
    );
    assert_eq!(
        over,
        actions.is_empty(),
        "{}: over iff no legal actions",
        context()
    );
    assert_eq!(
        over,
        state.to_move().is_none(),
        "{}: over iff nobody to move",
        context()
    );
    let distinct: HashSet<_> = actions.iter().collect();
    assert_eq!(
        distinct.len(),
        actions.len(),
        "{}: duplicate legal actions",
        context()
    );
    check_each_action(state, actions, context);
    check_random_action(state, actions, context);
    check_position(state, over, keys, context);
}

/// The playout draw `random_action` (a game's fast path, or the default) gives one of the
/// legal actions, and nothing exactly when the game is over.
fn check_random_action<G: Game>(state: &G, actions: &[G::Action], context: &impl Fn() -> String) {
    let mut rng = SmallRng::seed_from_u64(state.key());
    match state.random_action(&mut rng, &mut Vec::new()) {
        Some(action) => assert!(
            actions.contains(&action),
            "{}: random_action drew {action:?}, which is not legal",
            context()
        ),
        None => assert!(
            actions.is_empty(),
            "{}: random_action drew nothing in a game that is on",
            context()
        ),
    }
}

/// Every legal action is accepted by `is_legal` and its notation round-trips.
fn check_each_action<G: Game>(state: &G, actions: &[G::Action], context: &impl Fn() -> String) {
    for &action in actions {
        assert!(
            state.is_legal(action),
            "{}: is_legal refuses {action:?}",
            context()
        );
        let text = state.format_action(action);
        let parsed = state.parse_action(&text);
        assert_eq!(
            parsed,
            Ok(action),
            "{}: notation '{text}' does not round-trip",
            context()
        );
    }
}

/// The position string round-trips, with the same key and side to move while the game goes on,
/// and equal positions have equal keys.
fn check_position<G: Game>(
    state: &G,
    over: bool,
    keys: &mut HashMap<String, u64>,
    context: &impl Fn() -> String,
) {
    let position = state.position();
    let key = state.key();
    let reparsed = G::from_position(&position, state.options())
        .unwrap_or_else(|e| panic!("{}: own position string refused: {e}", context()));
    assert_eq!(
        reparsed.position(),
        position,
        "{}: position string round trip",
        context()
    );
    if !over {
        assert_eq!(
            reparsed.key(),
            key,
            "{}: reparsed position has another key",
            context()
        );
        assert_eq!(
            reparsed.to_move(),
            state.to_move(),
            "{}: reparsed side to move",
            context()
        );
        let previous = keys.entry(position.clone()).or_insert(key);
        assert_eq!(
            *previous,
            key,
            "{}: equal positions with different keys",
            context()
        );
    }
}

fn check_finished<G: Game>(state: &G, context: &impl Fn() -> String) {
    let mut copy = state.clone();
    let mut fresh = Vec::new();
    G::new(state.options(), 0).legal_actions(&mut fresh);
    for &action in &fresh {
        assert!(
            !state.is_legal(action),
            "{}: a finished game accepts {action:?}",
            context()
        );
        assert!(
            copy.try_apply(action).is_err(),
            "{}: try_apply after the end",
            context()
        );
    }
}

fn check_turn_notation<G: Game>(start: &G, actions: &[G::Action], context: &impl Fn() -> String) {
    let text = start.format_turn(actions);
    let parsed = start.parse_turn(&text);
    assert_eq!(
        parsed.as_deref(),
        Ok(actions),
        "{}: turn notation '{text}' does not round-trip",
        context()
    );
}

fn check_record<G: Game>(session: &Session<G>, game: usize) {
    let record = session.record();
    let json = record.to_json();
    let reloaded = GameRecord::from_json(&json).expect("own record JSON");
    let replayed = Session::<G>::from_record(&reloaded)
        .unwrap_or_else(|e| panic!("game {game}: own record refused: {e}\n{json}"));
    let (a, b) = (session.state(), replayed.state());
    assert_eq!(a.position(), b.position(), "game {game}: replay position");
    assert_eq!(a.key(), b.key(), "game {game}: replay key");
    assert_eq!(a.outcome(), b.outcome(), "game {game}: replay outcome");
    assert_eq!(
        session.entries(),
        replayed.entries(),
        "game {game}: replay entries"
    );
}

/// `text` with one to three random edits (a character removed, replaced or inserted from
/// `alphabet`, or the rest cut off): the seeded stand-in for a fuzzer that robustness tests
/// feed to parsers, which must answer with errors, never panics.
pub fn mutate(text: &str, alphabet: &[char], rng: &mut SmallRng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=chars.len());
        match rng.random_range(0..4) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = *alphabet.choose(rng).unwrap_or(&' '),
            2 => chars.insert(at, *alphabet.choose(rng).unwrap_or(&' ')),
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

/// Checks a perft data file (STYLE habit 9: goldens are data, not code) and returns how many
/// counts it checked. Lines: `id NAME` (a new case: the usual setup, default options),
/// `options k=v …`, `position POS` or `position startpos` (or a bare `startpos`),
/// `perft TURNS COUNT`; `#` starts a comment. The position is built at each `perft` line
/// with the case's options, whatever their order. Counts above two million are skipped in
/// unoptimised builds.
///
/// # Panics
/// On a malformed line, a refused position or option, or a count that differs.
pub fn check_perft_data<G: Game>(data: &str) -> usize {
    let mut id = String::new();
    let mut pairs: Vec<String> = Vec::new();
    let mut position: Option<String> = None;
    let mut checked = 0;
    for line in data.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match (word, rest.trim()) {
            ("id", name) => {
                id = name.to_string();
                pairs.clear();
                position = None;
            }
            ("options", text) => pairs = text.split_whitespace().map(String::from).collect(),
            ("startpos", "") | ("position", "startpos") => position = None,
            ("position", text) => position = Some(text.to_string()),
            ("perft", numbers) => {
                let (turns, count) = parse_perft_line(numbers)
                    .unwrap_or_else(|| panic!("{id}: bad perft line '{line}'"));
                if count > 2_000_000 && cfg!(debug_assertions) {
                    continue;
                }
                let options: G::Options = crate::parse_options(G::INFO.id, &pairs)
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                let state = match &position {
                    None => G::new(&options, 0),
                    Some(text) => {
                        G::from_position(text, &options).unwrap_or_else(|e| panic!("{id}: {e}"))
                    }
                };
                assert_eq!(crate::perft(&state, turns), count, "{id}: perft {turns}");
                checked += 1;
            }
            _ => panic!("{id}: unknown perft data line '{line}'"),
        }
    }
    checked
}

fn parse_perft_line(numbers: &str) -> Option<(u32, u64)> {
    let (turns, count) = numbers.split_once(' ')?;
    Some((turns.trim().parse().ok()?, count.trim().parse().ok()?))
}

/// Checks that the options of `G` are described once and agree with their serde struct:
/// [`GameInfo::options`](crate::GameInfo) is [`GameOptions::DESCRIPTIONS`], the descriptions
/// name exactly the serde fields, every default fits its description, the ends of
/// every range and every choice parse, and a value outside a range or choice is refused.
///
/// # Panics
/// On the first disagreement, naming the option.
pub fn check_option_descriptions<G: Game>() {
    let id = G::INFO.id;
    let described = <G::Options as GameOptions>::DESCRIPTIONS;
    assert_eq!(G::INFO.options, described, "{id}: GameInfo::options");
    let defaults = options_to_pairs(&G::Options::default());
    let mut fields: Vec<&str> = defaults.iter().map(|(name, _)| name.as_str()).collect();
    let mut names: Vec<&str> = described.iter().map(|info| info.name).collect();
    fields.sort_unstable();
    names.sort_unstable();
    assert_eq!(fields, names, "{id}: serde fields and described options");
    for info in described {
        let name = info.name;
        let default = defaults
            .iter()
            .find(|(field, _)| field == name)
            .map_or("", |(_, value)| value.as_str());
        assert!(
            info.values.accepts(default),
            "{id}: default {name}={default} is outside its description"
        );
        let (good, bad) = sample_values(info.values);
        for value in good {
            let parsed = parse_options::<G::Options>(id, &[format!("{name}={value}")]);
            assert!(parsed.is_ok(), "{id}: {name}={value} refused: {parsed:?}");
        }
        for value in bad {
            let parsed = parse_options::<G::Options>(id, &[format!("{name}={value}")]);
            assert!(parsed.is_err(), "{id}: {name}={value} accepted");
        }
    }
}

/// Values an option must accept (the ends of a range, every choice, both flags) and values
/// it must refuse (just outside a range, off its step, a word not among the choices).
fn sample_values(values: OptionValues) -> (Vec<String>, Vec<String>) {
    match values {
        OptionValues::Choice(words) => (
            words.iter().map(ToString::to_string).collect(),
            vec!["no-such-choice".to_string()],
        ),
        OptionValues::Range { min, max, step } => {
            let mut bad = vec![(min - 1).to_string(), (max + 1).to_string()];
            if step > 1 {
                bad.push((min + 1).to_string());
            }
            (vec![min.to_string(), max.to_string()], bad)
        }
        OptionValues::Flag => (
            vec!["true".to_string(), "false".to_string()],
            vec!["maybe".to_string()],
        ),
    }
}

/// Checks that a game's own [`Rules::play_randomly`] makes the decisions the default loop
/// (draw with [`Rules::random_action`], then apply) makes from the same generator: for each of
/// `options`, `seeds` games (each made with its seed) played to the end in budgets of every
/// size (so the loop is stopped in every part of a game), comparing `summary` of the two
/// states after each budget, the count of decisions, and the generators' states at the end.
pub fn check_playout_loop<G: Game, S: PartialEq + std::fmt::Debug>(
    options: &[G::Options],
    seeds: u64,
    summary: impl Fn(&G) -> S,
) {
    for options in options {
        for seed in 0..seeds {
            let mut fast = G::new(options, seed);
            let mut slow = fast.clone();
            let mut fast_rng = SmallRng::seed_from_u64(seed);
            let mut slow_rng = SmallRng::seed_from_u64(seed);
            // Small budgets stop a loop inside a turn; larger ones let a loop that plays whole
            // turns at once run between the stops.
            let budget = match seed % 4 {
                0 => u64::MAX,
                1 => 1 + seed % 7,
                _ => 1 + seed % 60,
            };
            loop {
                let made = fast.play_randomly(&mut fast_rng, &mut Vec::new(), budget);
                let mut plain = 0;
                while plain < budget {
                    let Some(action) = slow.random_action(&mut slow_rng, &mut Vec::new()) else {
                        break;
                    };
                    slow.apply(action);
                    plain += 1;
                }
                assert_eq!(made, plain, "seed {seed}: decisions made");
                assert_eq!(summary(&fast), summary(&slow), "seed {seed}");
                if made < budget {
                    break;
                }
            }
            assert!(fast.outcome().is_some(), "seed {seed}: played to the end");
            assert_eq!(
                fast_rng.random::<u64>(),
                slow_rng.random::<u64>(),
                "seed {seed}"
            );
        }
    }
}

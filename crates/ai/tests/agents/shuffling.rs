//! The search hooks against shuffling: a decision that undoes the turn's previous one
//! (`Heuristic::is_undoing`) is played only when nothing else scores as well, and a position
//! that repeats an earlier turn start (`Heuristic::repeats`) counts as a draw at the even point
//! between the two seats' evaluations; `shuffle=allow` turns both rules off.
//!
//! The test game is two-step Nim with a flat evaluation, so that every decision scores the
//! same at a shallow depth, and two labels laid over it: a second take of 1 "undoes" the
//! first, and a turn start whose pile is not a multiple of 3 "repeats".

use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{
    ActionInput, BoardView, Core, GameInfo, Heuristic, MoveError, Notation, PositionError,
    Presentation, Rules, Seat,
};

use ludus_ai::StopFlag;

use crate::support::agent;

/// Two-step Nim with the labels of the module doc.
#[derive(Clone, Debug)]
struct Labelled {
    nim: Nim,
    pile: u8,
    mid_turn: bool,
    /// Added to both seats' evaluations: below 0, the evaluation is not zero-sum, as the
    /// original programs' heuristics are not.
    offset: i32,
}

impl Rules for Labelled {
    type Action = u8;
    type Options = NimOptions;
    const INFO: GameInfo = Nim::INFO;

    fn new(options: &NimOptions, seed: u64) -> Self {
        Labelled {
            nim: Nim::new(options, seed),
            pile: options.pile,
            mid_turn: false,
            offset: 0,
        }
    }

    fn core(&self) -> &Core<Self::Options> {
        self.nim.core()
    }

    fn core_mut(&mut self) -> &mut Core<Self::Options> {
        self.nim.core_mut()
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        self.nim.legal_actions(out);
    }

    fn apply(&mut self, take: u8) {
        let turn = self.nim.turn();
        self.nim.apply(take);
        self.pile -= take;
        self.mid_turn = self.nim.turn() == turn;
    }

    fn key(&self) -> u64 {
        self.nim.key()
    }
}

impl Notation for Labelled {
    fn from_position(text: &str, options: &NimOptions) -> Result<Self, PositionError> {
        let _ = options;
        Err(PositionError::new(text, "no positions"))
    }

    fn position(&self) -> String {
        self.nim.position()
    }

    fn parse_action(&self, text: &str) -> Result<u8, MoveError> {
        self.nim.parse_action(text)
    }

    fn format_action(&self, take: u8) -> String {
        self.nim.format_action(take)
    }
}

impl Presentation for Labelled {
    fn view(&self) -> BoardView {
        self.nim.view()
    }

    fn action_input(&self, take: u8) -> ActionInput {
        self.nim.action_input(take)
    }
}

impl Heuristic for Labelled {
    /// The first seat is always ahead, by 200.
    fn evaluate(&self, seat: Seat) -> i32 {
        self.offset + if seat == Seat::FIRST { 100 } else { -100 }
    }
    fn is_undoing(&self, take: u8) -> bool {
        self.mid_turn && take == 1
    }
    fn repeats(&self) -> bool {
        !self.mid_turn && self.nim.to_move().is_some() && !self.pile.is_multiple_of(3)
    }
}

const SPECS: [&str; 3] = ["ai:3:depth=1", "ai:4:depth=1", "ai:5:depth=1"];

#[test]
fn an_undoing_decision_is_played_only_when_nothing_else_is_as_good() {
    let mut state = Labelled::new(&NimOptions { pile: 40 }, 0);
    state.apply(1);
    // Mid-turn, 39 stones: either take ends the turn on a pile that repeats (38 or 37), so
    // both score a draw, and the take that undoes nothing is played.
    for spec in SPECS {
        for seed in 0..20 {
            let chosen = agent::<Labelled>(spec, seed).choose(&state, &StopFlag::default());
            assert_eq!(chosen, 2, "{spec}, seed {seed}");
        }
    }
}

#[test]
fn the_side_ahead_steers_away_from_a_repeated_position() {
    let mut state = Labelled::new(&NimOptions { pile: 39 }, 0);
    state.apply(2);
    // Mid-turn, 37 stones, the first seat ahead: taking 2 leaves 35, a repeat (a draw);
    // taking 1 leaves 36, which does not repeat, so the search keeps its lead with it, even
    // though that take "undoes" the first.
    for spec in SPECS {
        for seed in 0..5 {
            let chosen = agent::<Labelled>(spec, seed).choose(&state, &StopFlag::default());
            assert_eq!(chosen, 1, "{spec}, seed {seed}");
        }
    }
}

#[test]
fn with_shuffling_allowed_an_undoing_decision_may_win_a_tie() {
    let mut state = Labelled::new(&NimOptions { pile: 40 }, 0);
    state.apply(1);
    // As in the first test, but without the rules: repetitions are plain positions, every
    // take scores the same, and the seeded tie-break picks the undoing take now and then.
    for spec in SPECS {
        let spec = format!("{spec},shuffle=allow");
        let undoing = (0..20)
            .filter(|&seed| {
                agent::<Labelled>(&spec, seed).choose(&state, &StopFlag::default()) == 1
            })
            .count();
        assert!(undoing > 0 && undoing < 20, "{spec}: {undoing} of 20");
    }
}

/// `mover` to decide mid-turn on a pile of `pile`, with every evaluation 150 below 0 (the
/// first seat at -50, the second at -250: a repetition, halfway, is worth -151 to both).
fn below_zero(mover: Seat, pile: u8) -> Labelled {
    let first_turn: &[u8] = if mover == Seat::FIRST { &[] } else { &[1, 2] };
    let start = pile + 2 + first_turn.iter().sum::<u8>();
    let mut state = Labelled::new(&NimOptions { pile: start }, 0);
    for &take in first_turn.iter().chain(&[2]) {
        state.apply(take);
    }
    state.offset = -150;
    assert_eq!((state.to_move(), state.pile), (Some(mover), pile));
    state
}

#[test]
fn the_side_ahead_steers_away_from_a_repetition_even_below_zero() {
    // 37 stones, the first seat ahead at -50: taking 2 leaves 35, a repeat. Scored 0, as a
    // draw of a zero-sum evaluation, it looked better than -50; at the even point (-151) it
    // is worse, and the take that leaves 36 keeps the lead.
    let state = below_zero(Seat::FIRST, 37);
    for spec in SPECS {
        for seed in 0..5 {
            let chosen = agent::<Labelled>(spec, seed).choose(&state, &StopFlag::default());
            assert_eq!(chosen, 1, "{spec}, seed {seed}");
        }
    }
}

#[test]
fn the_side_behind_steers_toward_a_repetition() {
    // 35 stones, the second seat behind at -250: taking 1 leaves 34, a repeat worth -151 to
    // it, better than 33 (-250), though that take "undoes" the first.
    let state = below_zero(Seat::SECOND, 35);
    for spec in SPECS {
        for seed in 0..5 {
            let chosen = agent::<Labelled>(spec, seed).choose(&state, &StopFlag::default());
            assert_eq!(chosen, 1, "{spec}, seed {seed}");
        }
    }
}

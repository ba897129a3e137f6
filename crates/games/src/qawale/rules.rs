//! The rules options, the decisions, and the [`Game`] implementation of Qawale.
//!
//! A turn is `1 + h` decisions by the same seat: choose a non-empty stack (placing one's stone on
//! it and lifting it, `h` stones in all), then one step per stone. The win and draw checks run
//! only once the last stone of the sowing is down (spec §4.1).

use ludus_engine::bits::draw_bit;
use ludus_engine::{GameInfo, GameOptions, OptionInfo, OptionValues, Rules};
use serde::{Deserialize, Serialize};

use super::state::{Qawale, DARK, LIGHT};
use super::tables::{Dir, Square, NEIGHBOUR, NEXT_DIRS};

/// Who moves first (spec D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// Dark starts (the seed's choice).
    #[default]
    Dark,
    /// Light starts.
    Light,
    /// Chosen from the game's seed, as the rulebook draws lots.
    Random,
}

/// What happens when one turn gives both colours a line (spec D4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BothLines {
    /// The player who moved wins.
    #[default]
    MoverWins,
    /// The game is drawn.
    Draw,
}

/// The rules options of Qawale.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QawaleOptions {
    /// Who moves first.
    pub first_player: FirstPlayer,
    /// Who wins when both colours get a line in the same turn.
    pub both_lines: BothLines,
}

/// The rules options as menus show them (and as parsing checks them).
const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "first_player",
        help: "who moves first",
        values: OptionValues::Choice(&["dark", "light", "random"]),
    },
    OptionInfo {
        name: "both_lines",
        help: "when one turn gives both colours a line: the mover wins, or a draw",
        values: OptionValues::Choice(&["mover_wins", "draw"]),
    },
];

impl GameOptions for QawaleOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = OPTIONS;
}

/// One decision: the stack to place on and lift, or one sowing step.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum QawaleAction {
    /// Place a stone on this square's stack and lift it.
    Stack(Square),
    /// Drop the next stone one square this way.
    Step(Dir),
}

/// The legal steps from each square after each previous direction (or `NO_DIR`), as actions.
const STEP_ACTIONS: [[([QawaleAction; 4], u8); 5]; 16] = {
    let mut table = [[([QawaleAction::Step(Dir::N); 4], 0u8); 5]; 16];
    let mut square = 0;
    while square < 16 {
        let mut last = 0;
        while last < 5 {
            let mask = NEXT_DIRS[square][last];
            let entry = &mut table[square][last];
            let mut d = 0;
            while d < 4 {
                if mask & (1 << d) != 0 {
                    entry.0[entry.1 as usize] = QawaleAction::Step(Dir::from_index(d));
                    entry.1 += 1;
                }
                d += 1;
            }
            last += 1;
        }
        square += 1;
    }
    table
};

impl Rules for Qawale {
    type Action = QawaleAction;
    type Options = QawaleOptions;
    const INFO: GameInfo = GameInfo {
        id: "qawale",
        name: "Qawale",
        description:
            "Place a stone on a stack, sow the stack Mancala-style; four tops in a row win.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &["Dark", "Light"],
        options: OPTIONS,
        max_turns: 16,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &QawaleOptions, seed: u64) -> Self {
        let first = match options.first_player {
            FirstPlayer::Dark => DARK,
            FirstPlayer::Light => LIGHT,
            FirstPlayer::Random => {
                if ludus_engine::splitmix64(seed).1 & 1 == 0 {
                    DARK
                } else {
                    LIGHT
                }
            }
        };
        let mut stacks = [0; 16];
        let mut heights = [0; 16];
        for corner in [0, 3, 12, 15] {
            heights[corner] = 2;
            stacks[corner] = 0; // two neutral stones (code 0)
        }
        Qawale::from_board(options, stacks, heights, first)
    }

    ludus_engine::core_in!(core);

    /// Stacks in square order a1, b1, ... d4; steps in the order N, E, S, W.
    fn legal_actions(&self, out: &mut Vec<QawaleAction>) {
        out.clear();
        if self.core.outcome.is_some() {
            return;
        }
        if self.is_sowing() {
            let (steps, count) = &STEP_ACTIONS[self.sowing.at as usize][self.sowing.last as usize];
            out.extend_from_slice(&steps[..*count as usize]);
        } else {
            let mut stacks = [QawaleAction::Stack(Square::ALL[0]); 16];
            let mut count = 0;
            let mut occupied = self.tops[0] | self.tops[1] | self.tops[2];
            while occupied != 0 {
                stacks[count] =
                    QawaleAction::Stack(Square::ALL[occupied.trailing_zeros() as usize]);
                count += 1;
                occupied &= occupied - 1;
            }
            out.extend_from_slice(&stacks[..count]);
        }
    }

    /// The playout fast path: a random set bit of the occupied squares, or of the allowed
    /// directions while sowing, each legal decision one bit and so equally likely, with no
    /// list built (the order of draws differs from `legal_actions`, as only playouts may).
    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buffer: &mut Vec<QawaleAction>,
    ) -> Option<QawaleAction> {
        if self.core.outcome.is_some() {
            return None;
        }
        Some(if self.is_sowing() {
            let dirs = u64::from(self.step_mask());
            QawaleAction::Step(Dir::from_index(draw_bit(dirs, rng) as u8))
        } else {
            let occupied = self.tops[0] | self.tops[1] | self.tops[2];
            QawaleAction::Stack(Square::ALL[draw_bit(u64::from(occupied), rng) as usize % 16])
        })
    }

    /// Whole turns in one loop (`playout.rs`): the same decisions from the same generator as
    /// the default draw-then-apply loop, without an action or a sowing record per decision.
    fn play_randomly<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        _buffer: &mut Vec<QawaleAction>,
        max_decisions: u64,
    ) -> u64 {
        self.play_out(rng, max_decisions)
    }

    fn is_legal(&self, action: QawaleAction) -> bool {
        if self.core.outcome.is_some() {
            return false;
        }
        match action {
            QawaleAction::Stack(square) => !self.is_sowing() && self.height(square) > 0,
            QawaleAction::Step(dir) => self.is_sowing() && self.step_mask() & (1 << dir as u8) != 0,
        }
    }

    fn apply(&mut self, action: QawaleAction) {
        match action {
            QawaleAction::Stack(square) => self.lift(square),
            QawaleAction::Step(dir) => self.step(dir),
        }
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// The least key over the 8 symmetries of the square between turns (rows, columns, both
    /// long diagonals and orthogonal sowing all map onto themselves); the plain key while a
    /// stack is being sown.
    fn canonical_key(&self) -> Option<u64> {
        Some(super::symmetry::canonical_key(self))
    }

    /// Positions of level-5 games solved offline (docs/SOLVING.md, "The Qawale book").
    fn solved_book() -> Option<&'static str> {
        Some(include_str!("solved.book"))
    }
}

impl Qawale {
    /// The square a step in `dir` drops on, while sowing (`None` off the board).
    pub fn step_target(&self, dir: Dir) -> Option<Square> {
        self.sowing_at()
            .and_then(|at| NEIGHBOUR[at.to_usize()][dir.to_usize()])
    }
}

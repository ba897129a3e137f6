//! Replica's state, options and the [`Game`] implementation (spec §2–§4).

use ludus_engine::{
    ActionInput, BoardView, Game, GameInfo, GameOptions, MoveError, OptionInfo, OptionValues,
    Outcome, PositionError, Seat,
};
use serde::{Deserialize, Serialize};

use super::moves::ReplicaAction;
use super::tables::{Square, BLACK_TO_MOVE_KEY, KEYS};

/// Which kings see a piece for a transform (spec §3.2, decision A3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sight {
    /// Along the king's three forward rays (the seed's reading).
    #[default]
    Forward3,
    /// Along all eight queen lines.
    All8,
}

/// Replica's rules options.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReplicaOptions {
    /// Which kings see a piece for a transform.
    pub sight: Sight,
}

/// The rules options as menus show them (and as parsing checks them).
const OPTIONS: &[OptionInfo] = &[OptionInfo {
    name: "sight",
    help: "which kings see a piece for a transform: forward3 (the king's three forward \
               rays) or all8 (all eight queen lines)",
    values: OptionValues::Choice(&["forward3", "all8"]),
}];

impl GameOptions for ReplicaOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = OPTIONS;
}

/// The seat of White (moves first, home corner a1).
pub const WHITE: Seat = Seat::FIRST;
/// The seat of Black (home corner h8).
pub const BLACK: Seat = Seat::SECOND;

/// Each side's target corner, by side index (White → h8, Black → a1).
pub const TARGET: [Square; 2] = [Square::H8, Square::A1];

/// The seats' names, by side index.
pub const SIDE_NAMES: [&str; 2] = ["White", "Black"];

/// The win reasons, by side index of the winner.
const CORNER_REASONS: [&str; 2] = ["king reached h8", "king reached a1"];
const KING_CAPTURED: &str = "king captured";
const NO_MOVE: &str = "no legal move";
const RESIGNED: [&str; 2] = ["White resigned", "Black resigned"];

/// The start (spec §2): each side's 12 pieces as bitboards, White's L in the a1 corner and
/// Black's the same turned 180°.
const WHITE_START: u64 = 0x0303_0F0F;
const BLACK_START: u64 = WHITE_START.reverse_bits();

/// A Replica position: the board as bitboards, the side to move, the turn count, the
/// incremental Zobrist key and the cached outcome. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Replica {
    pub(super) options: ReplicaOptions,
    /// Every piece of each side (kings included), by side index (0 White, 1 Black).
    pub(super) pieces: [u64; 2],
    /// The kings of each side (a subset of `pieces`).
    pub(super) kings: [u64; 2],
    pub(super) to_move: Seat,
    pub(super) turn: u32,
    pub(super) key: u64,
    pub(super) outcome: Option<Outcome>,
}

/// The Zobrist key index of a piece of `side` on `square`.
#[inline]
fn piece_key(side: usize, king: bool, square: Square) -> u64 {
    KEYS[(side * 2 + usize::from(king)) * 64 + square.to_usize()]
}

impl Replica {
    /// A position with these pieces and nothing decided yet; the key is computed from scratch.
    pub(super) fn with_board(
        options: &ReplicaOptions,
        pieces: [u64; 2],
        kings: [u64; 2],
        to_move: Seat,
    ) -> Replica {
        let mut state = Replica {
            options: options.clone(),
            pieces,
            kings,
            to_move,
            turn: 0,
            key: 0,
            outcome: None,
        };
        state.key = state.full_key();
        state
    }

    /// The key computed from scratch (the incremental one must always equal it).
    pub(super) fn full_key(&self) -> u64 {
        let mut key = if self.to_move == BLACK {
            KEYS[BLACK_TO_MOVE_KEY]
        } else {
            0
        };
        for side in 0..2 {
            for square in Square::all() {
                if self.pieces[side] & square.bit() != 0 {
                    key ^= piece_key(side, self.kings[side] & square.bit() != 0, square);
                }
            }
        }
        key
    }

    /// The side index of the seat to move (0 White, 1 Black), also after the game ended.
    #[inline]
    pub(super) fn side(&self) -> usize {
        self.to_move.to_usize()
    }

    /// The piece on `square`: its side index and whether it is a king.
    pub fn piece_at(&self, square: Square) -> Option<(Seat, bool)> {
        let bit = square.bit();
        (0..2).find(|&s| self.pieces[s] & bit != 0).map(|s| {
            let seat = if s == 0 { WHITE } else { BLACK };
            (seat, self.kings[s] & bit != 0)
        })
    }

    /// Every piece of `seat` as a bitboard (bit `rank * 8 + file`).
    pub fn pieces_of(&self, seat: Seat) -> u64 {
        self.pieces[seat.to_usize()]
    }

    /// The kings of `seat` as a bitboard.
    pub fn kings_of(&self, seat: Seat) -> u64 {
        self.kings[seat.to_usize()]
    }

    /// Decides the outcome of a position just set up, where `to_move` is about to act and the
    /// other side acted last (spec §4); `None` if the game goes on.
    pub(super) fn settled_outcome(&self) -> Option<Outcome> {
        let side = self.side();
        let last = 1 - side;
        if self.kings[last] & TARGET[last].bit() != 0 {
            Some(Outcome::win(self.to_move.opponent(), CORNER_REASONS[last]))
        } else if self.kings[side] == 0 {
            Some(Outcome::win(self.to_move.opponent(), KING_CAPTURED))
        } else if !self.has_action(side) {
            Some(Outcome::win(self.to_move.opponent(), NO_MOVE))
        } else {
            None
        }
    }

    /// Plays `action` for the side to move without any check (the hot path).
    fn play(&mut self, action: ReplicaAction) {
        let side = self.side();
        let enemy = 1 - side;
        let mut captured_king = false;
        match action {
            ReplicaAction::Advance { from, to } => {
                let (from_bit, to_bit) = (from.bit(), to.bit());
                if self.pieces[enemy] & to_bit != 0 {
                    captured_king = self.kings[enemy] & to_bit != 0;
                    self.pieces[enemy] ^= to_bit;
                    self.kings[enemy] &= !to_bit;
                    self.key ^= piece_key(enemy, captured_king, to);
                }
                let king = self.kings[side] & from_bit != 0;
                self.pieces[side] ^= from_bit | to_bit;
                if king {
                    self.kings[side] ^= from_bit | to_bit;
                }
                self.key ^= piece_key(side, king, from) ^ piece_key(side, king, to);
            }
            ReplicaAction::Transform(square) => {
                self.kings[side] |= square.bit();
                self.key ^= piece_key(side, false, square) ^ piece_key(side, true, square);
            }
        }
        self.turn += 1;
        let mover = self.to_move;
        self.to_move = mover.opponent();
        self.key ^= KEYS[BLACK_TO_MOVE_KEY];
        if captured_king {
            self.outcome = Some(Outcome::win(mover, KING_CAPTURED));
        } else if self.kings[side] & TARGET[side].bit() != 0 {
            self.outcome = Some(Outcome::win(mover, CORNER_REASONS[side]));
        } else if !self.has_action(enemy) {
            self.outcome = Some(Outcome::win(mover, NO_MOVE));
        }
    }
}

impl Game for Replica {
    type Action = ReplicaAction;
    type Options = ReplicaOptions;

    const INFO: GameInfo = GameInfo {
        id: "replica",
        name: "Replica",
        description: "Race your pieces to the far corner, jumping over friends; \
                      crown a king on it or capture any enemy king.",
        min_seats: 2,
        max_seats: 2,
        options: OPTIONS,
        // Spec §4: every action lowers the mover's progress potential, 151 at the start.
        max_turns: 302,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &ReplicaOptions, _seed: u64) -> Self {
        Replica::with_board(
            options,
            [WHITE_START, BLACK_START],
            [Square::A1.bit(), Square::H8.bit()],
            WHITE,
        )
    }

    fn from_position(text: &str, options: &ReplicaOptions) -> Result<Self, PositionError> {
        Replica::parse_position(text, options)
    }

    fn position(&self) -> String {
        self.format_position()
    }

    fn options(&self) -> &ReplicaOptions {
        &self.options
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        SIDE_NAMES[seat.to_usize()]
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.to_move)
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn legal_actions(&self, out: &mut Vec<ReplicaAction>) {
        self.generate(out);
    }

    fn is_legal(&self, action: ReplicaAction) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let side = self.side();
        match action {
            ReplicaAction::Advance { from, to } => {
                self.pieces[side] & from.bit() != 0 && self.direction_to(from, to).is_some()
            }
            ReplicaAction::Transform(square) => self.transformable(side) & square.bit() != 0,
        }
    }

    fn apply(&mut self, action: ReplicaAction) {
        self.play(action);
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn resign(&mut self, seat: Seat) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::win(seat.opponent(), RESIGNED[seat.to_usize()]));
        }
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn parse_action(&self, text: &str) -> Result<ReplicaAction, MoveError> {
        self.resolve_action(text)
    }

    fn format_action(&self, action: ReplicaAction) -> String {
        self.action_text(action)
    }

    fn view(&self) -> BoardView {
        self.board_view()
    }

    fn action_input(&self, action: ReplicaAction) -> ActionInput {
        super::view::input_for(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_twelve_pieces_each_in_mirrored_ls() {
        let state = Replica::new(&ReplicaOptions::default(), 0);
        assert_eq!(state.pieces[0].count_ones(), 12);
        assert_eq!(state.pieces[1].count_ones(), 12);
        assert_eq!(
            state.position(),
            "4bbbB/4bbbb/6bb/6bb/ww6/ww6/wwww4/Wwww4 w"
        );
        assert_eq!(state.key(), state.full_key());
    }

    #[test]
    fn the_key_is_incremental() {
        let mut state = Replica::new(&ReplicaOptions::default(), 0);
        let mut actions = Vec::new();
        for _ in 0..30 {
            state.legal_actions(&mut actions);
            let Some(&action) = actions.last() else { break };
            state.apply(action);
            assert_eq!(state.key(), state.full_key());
        }
    }
}

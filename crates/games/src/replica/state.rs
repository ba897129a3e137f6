//! Replica's state (spec §2): the pieces and kings of each side as bitboards, the side to
//! move, the cached outcome and the incremental Zobrist key, with the mechanics of one action
//! (§3) and the end tests (§4).

use ludus_engine::{Core, Outcome, Seat};

use super::moves::ReplicaAction;
use super::rules::ReplicaOptions;
use super::tables::{Square, BLACK_TO_MOVE_KEY, KEYS};

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

/// The start (spec §2): each side's 12 pieces as bitboards, White's L in the a1 corner and
/// Black's the same turned 180°.
pub(super) const WHITE_START: u64 = 0x0303_0F0F;
pub(super) const BLACK_START: u64 = WHITE_START.reverse_bits();

/// A Replica position: the board as bitboards, the side to move, the turn count, the
/// incremental Zobrist key and the cached outcome. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Replica {
    pub(super) core: Core<ReplicaOptions>,
    /// Every piece of each side (kings included), by side index (0 White, 1 Black).
    pub(super) pieces: [u64; 2],
    /// The kings of each side (a subset of `pieces`).
    pub(super) kings: [u64; 2],
    pub(super) key: u64,
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
            core: Core::new(options.clone(), to_move),
            pieces,
            kings,
            key: 0,
        };
        state.key = state.full_key();
        state
    }

    /// The key computed from scratch (the incremental one must always equal it).
    pub(super) fn full_key(&self) -> u64 {
        let mut key = if self.core.to_move == BLACK {
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
        self.core.to_move.to_usize()
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
            Some(Outcome::win(
                self.core.to_move.opponent(),
                CORNER_REASONS[last],
            ))
        } else if self.kings[side] == 0 {
            Some(Outcome::win(self.core.to_move.opponent(), KING_CAPTURED))
        } else if !self.has_action(side) {
            Some(Outcome::win(self.core.to_move.opponent(), NO_MOVE))
        } else {
            None
        }
    }

    /// Plays `action` for the side to move without any check (the hot path).
    pub(super) fn play(&mut self, action: ReplicaAction) {
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
        self.core.turn += 1;
        let mover = self.core.to_move;
        self.core.to_move = mover.opponent();
        self.key ^= KEYS[BLACK_TO_MOVE_KEY];
        if captured_king {
            self.core.outcome = Some(Outcome::win(mover, KING_CAPTURED));
        } else if self.kings[side] & TARGET[side].bit() != 0 {
            self.core.outcome = Some(Outcome::win(mover, CORNER_REASONS[side]));
        } else if !self.has_action(enemy) {
            self.core.outcome = Some(Outcome::win(mover, NO_MOVE));
        }
    }
}

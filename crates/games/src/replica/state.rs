//! Replica's state (spec §2): the pieces and kings of each side as bitboards, the side to
//! move, the cached outcome and the incremental Zobrist key, with the mechanics of one action
//! (§3) and the end tests (§4).

use ludus_engine::{Core, Outcome, Seat};

use super::moves::{has_action_in, ReplicaAction};
use super::roster::Roster;
use super::rules::{ReplicaOptions, Sight};
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
    /// The squares of each side's pieces as a list, for the random draws.
    pub(super) rosters: [Roster; 2],
    pub(super) key: u64,
}

/// The Zobrist key of a piece of `side` on the square of bit index `square`.
#[inline]
fn piece_key(side: usize, king: bool, square: usize) -> u64 {
    KEYS[(side * 2 + usize::from(king)) * 64 + square]
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
            rosters: pieces.map(Roster::of),
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
                    key ^= piece_key(
                        side,
                        self.kings[side] & square.bit() != 0,
                        square.to_usize(),
                    );
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
        let captured_king = match action {
            ReplicaAction::Advance { from, to } => {
                let index = self.rosters[side].index_of(from.to_usize());
                let board = (&mut self.pieces, &mut self.kings, &mut self.rosters);
                advance_in(
                    board,
                    &mut self.key,
                    side,
                    index,
                    from.to_usize(),
                    to.to_usize(),
                )
            }
            ReplicaAction::Transform(square) => {
                transform_in(&mut self.kings, &mut self.key, side, square.to_usize());
                false
            }
        };
        self.core.turn += 1;
        let mover = self.core.to_move;
        self.core.to_move = mover.opponent();
        self.key ^= KEYS[BLACK_TO_MOVE_KEY];
        let sight = self.core.options.sight;
        if let Some(reason) = ending_after(&self.pieces, &self.kings, sight, side, captured_king) {
            self.core.outcome = Some(Outcome::win(mover, reason));
        }
    }
}

/// The pieces, kings and rosters of both sides (by side index), lent together.
pub(super) type BoardMut<'a> = (&'a mut [u64; 2], &'a mut [u64; 2], &'a mut [Roster; 2]);

/// Advances the piece of `side` on square index `from` (its roster's entry `index`) to `to` on
/// `board`, capturing an enemy there, with the Zobrist `key` updated (the side to move left as
/// it was); returns whether the captured enemy was a king. Shared by [`Replica::play`] and the
/// playout loop, which keeps the board in locals.
#[inline]
pub(super) fn advance_in(
    (pieces, kings, rosters): BoardMut<'_>,
    key: &mut u64,
    side: usize,
    index: u32,
    from: usize,
    to: usize,
) -> bool {
    let enemy = 1 - side;
    let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
    let mut captured_king = false;
    rosters[side].shift(index, to);
    if pieces[enemy] & to_bit != 0 {
        captured_king = kings[enemy] & to_bit != 0;
        rosters[enemy].remove(to, pieces[enemy].count_ones());
        pieces[enemy] ^= to_bit;
        kings[enemy] &= !to_bit;
        *key ^= piece_key(enemy, captured_king, to);
    }
    let king = kings[side] & from_bit != 0;
    pieces[side] ^= from_bit | to_bit;
    if king {
        kings[side] ^= from_bit | to_bit;
    }
    *key ^= piece_key(side, king, from) ^ piece_key(side, king, to);
    captured_king
}

/// Makes the non-king of `side` on square index `square` a king, with the key updated.
#[inline]
pub(super) fn transform_in(kings: &mut [u64; 2], key: &mut u64, side: usize, square: usize) {
    kings[side] |= 1 << square;
    *key ^= piece_key(side, false, square) ^ piece_key(side, true, square);
}

/// Why the game ends once `side` has acted on the board of `pieces` and `kings` (spec §4): an
/// enemy king captured, a king of `side` on its target corner, or the other side left without
/// a decision; `None` if it goes on. The winner is `side`.
#[inline]
pub(super) fn ending_after(
    pieces: &[u64; 2],
    kings: &[u64; 2],
    sight: Sight,
    side: usize,
    captured_king: bool,
) -> Option<&'static str> {
    if captured_king {
        Some(KING_CAPTURED)
    } else if kings[side] & TARGET[side].bit() != 0 {
        Some(CORNER_REASONS[side])
    } else if !has_action_in(pieces, kings, sight, 1 - side) {
        Some(NO_MOVE)
    } else {
        None
    }
}

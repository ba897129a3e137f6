//! The Yoxii state: bitboards per colour, a value per square, the Totem, the hands, and the
//! pending-placement flag; board queries (Totem moves, placement squares, scores) and the
//! end-of-game check.

use ludus_engine::{BySeat, Core, Seat};

use super::ending::{End, Ending};

use super::rules::{FirstPlayer, Tiebreak, YoxiiOptions};
use super::tables::{
    piece_key, totem_key, totem_targets_from, Square, KEYS, NEIGHBOURS, ON_BOARD, PLACING_KEY,
    RED_KEY,
};

/// White, the first player by default (seat 0).
pub const WHITE: Seat = Seat::FIRST;
/// Red (seat 1).
pub const RED: Seat = Seat::SECOND;
/// Pieces of each value (1, 2, 3, 4) a player starts with.
pub const INITIAL_HAND: [u8; 4] = [5, 5, 5, 3];
/// The seats' names.
pub const SEAT_NAMES: [&str; 2] = ["White", "Red"];

/// A Yoxii position: the board, the hands, whose turn it is and whether the Totem has already
/// moved this turn.
#[derive(Clone, Debug)]
pub struct Yoxii {
    /// Options, seat to move and turn count. The core's outcome stays `None`: the ending is
    /// kept in `end`, whose reason is written on demand, and the outcome methods read that.
    pub(super) core: Core<YoxiiOptions>,
    /// The squares of each seat's pieces.
    pub(super) colour: BySeat<u64, 2>,
    /// The value (1..=4) of the piece on each square, 0 if none.
    pub(super) values: [u8; 49],
    /// The same values as bit planes: `value_bits[b]` holds the squares whose piece's value
    /// − 1 has bit `b` set, so that a sum of values is three popcounts
    /// ([`Yoxii::value_sum`]), which the evaluation needs a dozen times per position.
    pub(super) value_bits: [u64; 2],
    pub(super) totem: Square,
    /// Pieces in hand per seat, per value − 1.
    pub(super) hands: BySeat<[u8; 4], 2>,
    /// The Totem has moved; the seat to move must now place a piece.
    pub(super) placing: bool,
    pub(super) key: u64,
    /// How the game ended, if it has (the reason in words is written on demand).
    pub(super) end: End,
}

/// One piece on the board, for building positions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    /// The owner.
    pub seat: Seat,
    /// The value, 1..=4.
    pub value: u8,
}

impl Yoxii {
    /// The usual start: the Totem on d4, every piece in hand.
    pub(super) fn start(options: &YoxiiOptions) -> Yoxii {
        Yoxii::from_parts(options, &[None; 49], Square::D4, first_seat(options), false)
    }

    /// A position from its parts; hands, turn count, key and outcome are derived. The caller
    /// has checked the counts (the notation parser does).
    pub(super) fn from_parts(
        options: &YoxiiOptions,
        board: &[Option<Piece>; 49],
        totem: Square,
        to_move: Seat,
        placing: bool,
    ) -> Yoxii {
        let mut state = Yoxii {
            core: Core::new(options.clone(), to_move),
            colour: BySeat::splat(0),
            values: [0; 49],
            value_bits: [0; 2],
            totem,
            hands: BySeat::splat(INITIAL_HAND),
            placing,
            key: totem_key(totem),
            end: End::default(),
        };
        for square in Square::iter(ON_BOARD) {
            if let Some(piece) = board[square.to_usize()] {
                let seat = piece.seat;
                state.put(seat, piece.value, square);
                state.key ^= piece_key(seat.to_usize(), piece.value, square);
                state.core.turn += 1;
            }
        }
        if to_move == RED {
            state.key ^= KEYS[RED_KEY];
        }
        if placing {
            state.key ^= KEYS[PLACING_KEY];
        } else {
            state.check_end();
        }
        state
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let value = self.values[square.to_usize()];
        (value != 0).then(|| Piece {
            seat: if self.colour[WHITE] & square.bit() != 0 {
                WHITE
            } else {
                RED
            },
            value,
        })
    }

    /// Where the Totem stands.
    pub fn totem(&self) -> Square {
        self.totem
    }

    /// Whether the Totem has moved this turn and a placement is pending.
    pub fn is_placing(&self) -> bool {
        self.placing
    }

    /// How many pieces of `value` (1..=4) `seat` holds.
    pub fn in_hand(&self, seat: Seat, value: u8) -> u8 {
        self.hands[seat][value as usize - 1]
    }

    /// The empty on-board squares (the Totem's square is not empty).
    pub fn empty(&self) -> u64 {
        ON_BOARD & !(self.colour[WHITE] | self.colour[RED] | self.totem.bit())
    }

    /// The squares the Totem can reach when `seat` moves it: per direction, the first empty
    /// square after an unbroken (possibly empty) run of `seat`'s own pieces.
    pub fn totem_targets(&self, seat: Seat) -> u64 {
        totem_targets_from(self.totem.to_usize(), self.colour[seat], self.empty())
    }

    /// Whether `seat` can move the Totem (cheap when a neighbour is empty).
    pub fn can_move_totem(&self, seat: Seat) -> bool {
        NEIGHBOURS[self.totem.to_usize()] & self.empty() != 0 || self.totem_targets(seat) != 0
    }

    /// Where a piece may be placed with the Totem where it stands: its empty neighbours, or
    /// every empty square if it has none (the fallback).
    pub fn placement_squares(&self) -> u64 {
        let empty = self.empty();
        match NEIGHBOURS[self.totem.to_usize()] & empty {
            0 => empty,
            near => near,
        }
    }

    /// The values (1..=4) `seat` still holds, as a bit mask (bit `v − 1`).
    pub fn hand_mask(&self, seat: Seat) -> u8 {
        let hand = &self.hands[seat];
        (0..4).filter(|&i| hand[i] > 0).fold(0, |m, i| m | 1 << i)
    }

    /// The points and piece count of `seat` around the Totem.
    pub fn around(&self, seat: Seat) -> (u32, u32) {
        let near = NEIGHBOURS[self.totem.to_usize()] & self.colour[seat];
        (self.value_sum(near), near.count_ones())
    }

    /// Puts a piece of `seat` from its hand on the empty `square` (keys and turn aside).
    fn put(&mut self, seat: Seat, value: u8, square: Square) {
        self.colour[seat] |= square.bit();
        self.values[square.to_usize()] = value;
        let low = u64::from((value - 1) & 1) << square.to_usize();
        let high = u64::from((value - 1) >> 1) << square.to_usize();
        self.value_bits[0] |= low;
        self.value_bits[1] |= high;
        self.hands[seat][value as usize - 1] -= 1;
    }

    /// The sum of the values on `pieces`, squares that all hold a piece.
    pub(super) fn value_sum(&self, pieces: u64) -> u32 {
        debug_assert_eq!(pieces & !(self.colour[WHITE] | self.colour[RED]), 0);
        pieces.count_ones()
            + (pieces & self.value_bits[0]).count_ones()
            + 2 * (pieces & self.value_bits[1]).count_ones()
    }

    /// Moves the Totem (the first decision of a turn).
    pub(super) fn move_totem(&mut self, to: Square) {
        self.key ^= totem_key(self.totem) ^ totem_key(to) ^ KEYS[PLACING_KEY];
        self.totem = to;
        self.placing = true;
    }

    /// Places a piece (the second decision), ends the turn and checks the end of the game.
    pub(super) fn place(&mut self, value: u8, square: Square) {
        let seat = self.core.to_move;
        self.put(seat, value, square);
        self.key ^= piece_key(seat.to_usize(), value, square) ^ KEYS[PLACING_KEY] ^ KEYS[RED_KEY];
        self.placing = false;
        self.core.to_move = self.core.to_move.opponent();
        self.core.turn += 1;
        self.check_end();
    }

    /// At the start of a turn: the game ends if the seat to move cannot move the Totem (or,
    /// only in custom positions, has no piece left to place).
    fn check_end(&mut self) {
        if !self.can_move_totem(self.core.to_move) {
            self.end.set(self.scored("totem surrounded"));
        } else if self.hands[self.core.to_move] == [0; 4] {
            self.end.set(self.scored("no pieces left"));
        }
    }

    /// Scores the position: points around the Totem, then (option) the number of pieces.
    fn scored(&self, why: &'static str) -> Ending {
        Ending::Scored {
            why,
            white: self.around(WHITE),
            red: self.around(RED),
            tiebreak: self.core.options.tiebreak != Tiebreak::None,
        }
    }
}

/// The seat that starts with these options.
pub fn first_seat(options: &YoxiiOptions) -> Seat {
    match options.first_player {
        FirstPlayer::White => WHITE,
        FirstPlayer::Red => RED,
    }
}

//! The Qawale state and its mechanics: stacks as 2-bit stone lists in a `u64` per square,
//! top-stone square sets per colour, the pending sowing, and the incremental Zobrist key.

use ludus_engine::{zobrist_table, BySeat, Core, Outcome, Seat};

use super::rules::{BothLines, QawaleOptions};
use super::tables::{has_line, Dir, Square, NEIGHBOUR, NO_DIR};

/// A stone colour. The value is the 2-bit code stored in stacks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Stone {
    /// A neutral (tan) stone: nobody's.
    Neutral = 0,
    /// Dark's stone (seat 1).
    Dark = 1,
    /// Light's stone (seat 2).
    Light = 2,
}

impl Stone {
    /// The stone with 2-bit code `code` (3 is never stored).
    pub const fn from_code(code: u64) -> Stone {
        match code & 3 {
            0 => Stone::Neutral,
            1 => Stone::Dark,
            _ => Stone::Light,
        }
    }

    /// The colour of `seat`'s stones.
    pub const fn of(seat: Seat) -> Stone {
        if seat.to_usize() == 0 {
            Stone::Dark
        } else {
            Stone::Light
        }
    }

    /// The seat owning this colour, `None` for neutral stones.
    pub const fn owner(self) -> Option<Seat> {
        match self {
            Stone::Neutral => None,
            Stone::Dark => Some(DARK),
            Stone::Light => Some(LIGHT),
        }
    }

    /// The letter of the position string: `N`, `D` or `L`.
    pub const fn letter(self) -> char {
        match self {
            Stone::Neutral => 'N',
            Stone::Dark => 'D',
            Stone::Light => 'L',
        }
    }

    /// Reads a letter of the position string, either case.
    pub const fn from_letter(letter: u8) -> Option<Stone> {
        match letter.to_ascii_uppercase() {
            b'N' => Some(Stone::Neutral),
            b'D' => Some(Stone::Dark),
            b'L' => Some(Stone::Light),
            _ => None,
        }
    }

    const fn code(self) -> usize {
        self as usize
    }
}

/// Dark, the first seat.
pub const DARK: Seat = Seat::FIRST;
/// Light, the second seat.
pub const LIGHT: Seat = Seat::SECOND;
/// Stones of each colour in the game.
pub const STONES_PER_COLOUR: u8 = 8;
/// The most stones a stack can hold (every stone of the game).
pub const MAX_HEIGHT: usize = 24;

const STONE_KEYS: usize = 16 * MAX_HEIGHT * 3;
const HAND_KEYS: usize = STONE_KEYS;
const AT_KEYS: usize = HAND_KEYS + MAX_HEIGHT * 3;
const LAST_KEYS: usize = AT_KEYS + 16;
const SIDE_KEY: usize = LAST_KEYS + 5;
static KEYS: [u64; SIDE_KEY + 1] = zobrist_table(0x5141_5741_4C45);

pub(super) const fn stone_key(square: usize, level: usize, stone: Stone) -> u64 {
    stone_key_code(square, level, stone.code())
}

/// [`stone_key`] by the stone's 2-bit code (below 3).
pub(super) const fn stone_key_code(square: usize, level: usize, code: usize) -> u64 {
    KEYS[(square * MAX_HEIGHT + level) * 3 + code]
}

/// The key of a stone in the lifted stack, `from_top` stones below its top.
const fn hand_key(from_top: usize, stone: Stone) -> u64 {
    KEYS[HAND_KEYS + from_top * 3 + stone.code()]
}

/// The key's term for Light to move.
pub(super) const fn side_key() -> u64 {
    KEYS[SIDE_KEY]
}

const fn sowing_key(at: u8, last: u8) -> u64 {
    KEYS[AT_KEYS + at as usize] ^ KEYS[LAST_KEYS + last as usize]
}

/// The stack being sown: where it was lifted, where it stands, and what is left of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Sowing {
    /// The square the stack was lifted from.
    pub origin: u8,
    /// The square of the last drop (the origin before the first).
    pub at: u8,
    /// The direction of the last step, or `NO_DIR` before the first.
    pub last: u8,
    /// The stones still to drop, 2 bits each, the next one in the low bits.
    pub stones: u64,
    /// How many stones are still to drop; 0 when no sowing is pending.
    pub left: u8,
    /// The directions taken so far, 2 bits each, the first in the low bits.
    pub path: u64,
    /// How many steps were taken.
    pub steps: u8,
}

/// A Qawale position: stacks, hands, the side to move and any pending sowing.
///
/// Seat 1 is Dark and seat 2 Light whoever starts. A turn is `1 + h` decisions by the same
/// seat: the stack, then one step per stone.
#[derive(Clone, Debug)]
pub struct Qawale {
    pub(crate) core: Core<QawaleOptions>,
    pub(crate) stacks: [u64; 16],
    pub(crate) heights: [u8; 16],
    /// Squares whose top stone has each colour, by stone code.
    pub(crate) tops: [u16; 3],
    pub(crate) hands: BySeat<u8, 2>,
    pub(crate) sowing: Sowing,
    pub(crate) key: u64,
}

impl Qawale {
    /// A state from a board at a turn boundary (no pending sowing), with the outcome that
    /// board implies: a line means the previous mover's turn decided the game, and a side to
    /// move with no stones in hand means a draw.
    pub(crate) fn from_board(
        options: &QawaleOptions,
        stacks: [u64; 16],
        heights: [u8; 16],
        to_move: Seat,
    ) -> Qawale {
        let mut state = Qawale {
            core: Core::new(options.clone(), to_move),
            stacks,
            heights,
            tops: [0; 3],
            hands: BySeat::splat(STONES_PER_COLOUR),
            sowing: Sowing::default(),
            key: 0,
        };
        for square in Square::ALL {
            let s = square.to_usize();
            for level in 0..heights[s] as usize {
                let stone = state.stone_at(square, level);
                state.key ^= stone_key(s, level, stone);
                if let Some(seat) = stone.owner() {
                    state.hands[seat] -= 1;
                }
            }
            if let Some(top) = state.top(square) {
                state.tops[top.code()] |= square.bit();
            }
        }
        if to_move == LIGHT {
            state.key ^= KEYS[SIDE_KEY];
        }
        state.core.turn = u32::from(2 * STONES_PER_COLOUR - state.hands[DARK] - state.hands[LIGHT]);
        state.core.outcome = state.judge(to_move.opponent());
        state
    }

    /// The stone `level` stones above the bottom of `square`'s stack (level < height).
    pub fn stone_at(&self, square: Square, level: usize) -> Stone {
        Stone::from_code(self.stacks[square.to_usize()] >> (2 * level))
    }

    /// How many stones `square` holds.
    pub fn height(&self, square: Square) -> usize {
        self.heights[square.to_usize()] as usize
    }

    /// The top stone of `square`, if any.
    pub fn top(&self, square: Square) -> Option<Stone> {
        let h = self.height(square);
        (h > 0).then(|| self.stone_at(square, h - 1))
    }

    /// Stones `seat` still holds in hand.
    pub fn in_hand(&self, seat: Seat) -> u8 {
        self.hands[seat]
    }

    /// Whether a stack has been lifted and is being sown.
    pub fn is_sowing(&self) -> bool {
        self.sowing.left > 0
    }

    /// The pending sowing: its origin, the square of the last drop, the stones still to drop
    /// (next first) and the steps taken so far. `None` between turns.
    pub fn pending_sowing(&self) -> Option<(Square, Square, Vec<Stone>, Vec<Dir>)> {
        let sowing = self.sowing;
        if sowing.left == 0 {
            return None;
        }
        let square = |s: u8| Square::ALL[s as usize];
        let stones = (0..sowing.left)
            .map(|i| Stone::from_code(sowing.stones >> (2 * i)))
            .collect();
        let path = (0..sowing.steps)
            .map(|i| Dir::from_index((sowing.path >> (2 * i)) as u8))
            .collect();
        Some((square(sowing.origin), square(sowing.at), stones, path))
    }

    /// The next stone to drop, while sowing.
    pub fn next_stone(&self) -> Option<Stone> {
        self.is_sowing()
            .then(|| Stone::from_code(self.sowing.stones))
    }

    /// The square of the last drop (the origin before the first drop), while sowing.
    pub fn sowing_at(&self) -> Option<Square> {
        self.is_sowing()
            .then(|| Square::ALL[self.sowing.at as usize])
    }

    /// Whether `stone`'s colour shows four in a row.
    pub fn has_line(&self, stone: Stone) -> bool {
        has_line(self.tops[stone.code()])
    }

    /// Allowed next directions while sowing, as a bit set over [`Dir`] indices.
    pub(crate) fn step_mask(&self) -> u8 {
        super::tables::NEXT_DIRS[self.sowing.at as usize][self.sowing.last as usize]
    }

    /// Places the mover's stone on `square` and lifts the whole stack.
    pub(crate) fn lift(&mut self, square: Square) {
        let s = square.to_usize();
        let h = self.heights[s] as usize;
        let mine = Stone::of(self.core.to_move);
        let stones = self.stacks[s] | (mine as u64) << (2 * h);
        for level in 0..h {
            let stone = Stone::from_code(stones >> (2 * level));
            self.key ^= stone_key(s, level, stone) ^ hand_key(h - level, stone);
        }
        self.key ^= hand_key(0, mine) ^ sowing_key(s as u8, NO_DIR);
        if let Some(top) = self.top(square) {
            self.tops[top.code()] &= !square.bit();
        }
        self.stacks[s] = 0;
        self.heights[s] = 0;
        self.hands[self.core.to_move] -= 1;
        self.sowing = Sowing {
            origin: s as u8,
            at: s as u8,
            last: NO_DIR,
            stones,
            left: h as u8 + 1,
            path: 0,
            steps: 0,
        };
    }

    /// Drops the next stone one step in `dir`; ends the turn after the last stone.
    pub(crate) fn step(&mut self, dir: Dir) {
        let sowing = &mut self.sowing;
        let Some(to) = NEIGHBOUR[sowing.at as usize][dir.to_usize()] else {
            return;
        };
        let stone = Stone::from_code(sowing.stones);
        sowing.stones >>= 2;
        sowing.left -= 1;
        sowing.path |= (dir as u64) << (2 * sowing.steps);
        sowing.steps += 1;
        let mut key = hand_key(sowing.left as usize, stone)
            ^ sowing_key(sowing.at, sowing.last)
            ^ sowing_key(to.to_usize() as u8, dir as u8);
        sowing.at = to.to_usize() as u8;
        sowing.last = dir as u8;
        let finished = sowing.left == 0;
        let t = to.to_usize();
        let level = self.heights[t] as usize;
        self.stacks[t] |= (stone as u64) << (2 * level);
        self.heights[t] += 1;
        key ^= stone_key(t, level, stone);
        let bit = to.bit();
        self.tops = [
            self.tops[0] & !bit,
            self.tops[1] & !bit,
            self.tops[2] & !bit,
        ];
        self.tops[stone.code()] |= bit;
        if finished {
            key ^= sowing_key(t as u8, dir as u8) ^ KEYS[SIDE_KEY];
            self.end_turn();
        }
        self.key ^= key;
    }

    fn end_turn(&mut self) {
        self.core.turn += 1;
        let mover = self.core.to_move;
        self.core.to_move = mover.opponent();
        self.core.outcome = self.judge(mover);
    }

    /// The result after `mover` completed a turn: lines first (§4.2), then the draw when the
    /// next player has no stones in hand (§4.3).
    pub(super) fn judge(&self, mover: Seat) -> Option<Outcome> {
        let mine = self.has_line(Stone::of(mover));
        let theirs = self.has_line(Stone::of(mover.opponent()));
        match (mine, theirs) {
            (true, true) => Some(match self.core.options.both_lines {
                BothLines::MoverWins => Outcome::win(mover, "four in a row for both; mover wins"),
                BothLines::Draw => Outcome::draw("four in a row for both"),
            }),
            (true, false) => Some(Outcome::win(mover, "four in a row")),
            (false, true) => Some(Outcome::win(
                mover.opponent(),
                "four in a row, made by the opponent",
            )),
            (false, false) => (self.hands[mover.opponent()] == 0)
                .then(|| Outcome::draw("all stones played without a line")),
        }
    }

    /// The stacks as they stood when the pending turn began (the current stacks between turns).
    pub(crate) fn boundary_stacks(&self) -> ([u64; 16], [u8; 16]) {
        let (mut stacks, mut heights) = (self.stacks, self.heights);
        let sowing = self.sowing;
        if sowing.left == 0 {
            return (stacks, heights);
        }
        // Take the dropped stones back in reverse order.
        let mut squares = [0u8; MAX_HEIGHT];
        let mut at = sowing.origin;
        for (i, square) in squares[..sowing.steps as usize].iter_mut().enumerate() {
            let dir = Dir::from_index((sowing.path >> (2 * i)) as u8);
            at = NEIGHBOUR[at as usize][dir.to_usize()].map_or(at, |s| s.to_usize() as u8);
            *square = at;
        }
        let mut lifted = sowing.stones;
        for &square in squares[..sowing.steps as usize].iter().rev() {
            let s = square as usize;
            heights[s] -= 1;
            let stone = (stacks[s] >> (2 * heights[s])) & 3;
            stacks[s] &= !(3 << (2 * heights[s]));
            lifted = (lifted << 2) | stone;
        }
        // The placed stone is the top of the lifted stack and is still in hand.
        let h = sowing.left + sowing.steps - 1;
        let origin = sowing.origin as usize;
        stacks[origin] = lifted & ((1u64 << (2 * h)) - 1);
        heights[origin] = h;
        (stacks, heights)
    }
}

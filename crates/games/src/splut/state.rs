//! The Splut! state: board array, piece squares, turn bookkeeping, levitation state, rock
//! locks, the cached outcome and the repetition history. Everything is fixed-size, so a clone
//! is a plain copy.

use std::ops::{Index, IndexMut};

use ludus_engine::{Core, Seat};

use super::around::Around;
use super::rules::SplutOptions;
use super::tables::{
    empty_board, reach, Side, Square, BOARD, EMPTY, GRID, OFF, ZOBRIST, Z_ACTIVE, Z_LOCKED,
    Z_MOVED, Z_SPENT, Z_STEPS, Z_TO_MOVE,
};

/// The kind of a team piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// Moves and levitates rocks; its death eliminates the team.
    Sorcerer,
    /// Moves and pushes chains of pieces.
    Dwarf,
    /// The Stonetroll: moves, pulls, throws.
    Troll,
}

impl Kind {
    /// All kinds, in the order S, D, T.
    pub const ALL: [Kind; 3] = [Kind::Sorcerer, Kind::Dwarf, Kind::Troll];

    /// The notation letter `S`, `D` or `T`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Sorcerer => 'S',
            Kind::Dwarf => 'D',
            Kind::Troll => 'T',
        }
    }

    /// The kind written `letter` (either case).
    pub fn from_letter(letter: char) -> Option<Kind> {
        match letter.to_ascii_uppercase() {
            'S' => Some(Kind::Sorcerer),
            'D' => Some(Kind::Dwarf),
            'T' => Some(Kind::Troll),
            _ => None,
        }
    }

    pub(super) const fn index(self) -> usize {
        self as usize
    }
}

/// A rock's identity: 0..4, from the tip it started on (South, West, North, East).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct RockId(pub(super) u8);

impl RockId {
    /// The four rocks.
    pub const ALL: [RockId; 4] = [RockId(0), RockId(1), RockId(2), RockId(3)];

    pub(super) const fn bit(self) -> u8 {
        1 << self.0
    }

    /// The rock as an object on the board.
    pub(super) const fn obj(self) -> Object {
        Object(self.0)
    }
}

/// The levitation state of the current turn (§4.2 rule 4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Lev {
    /// No rock levitated yet this turn.
    Unused,
    /// The last step levitated this rock; only it may be levitated again, right now.
    Active(RockId),
    /// The levitation run is over for this turn.
    Spent,
}

/// How many objects a board can hold: 4 rocks and 4 teams of 3.
pub(super) const OBJECTS: usize = 16;

/// One thing on the board: a rock (`0..4`, its [`RockId`]) or a team piece
/// (`4 + seat * 3 + kind`). The board array holds its [`code`](Object::code), the number + 1,
/// beside [`EMPTY`] and [`OFF`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Object(u8);

impl Object {
    /// The object whose board code is `code` (a code of an object, not `EMPTY` or `OFF`).
    #[inline]
    pub(super) const fn from_code(code: u8) -> Object {
        Object(code - 1)
    }

    /// The object's code in the board array.
    #[inline]
    pub(super) const fn code(self) -> u8 {
        self.0 + 1
    }

    /// The rock this object is, if it is one.
    #[inline]
    pub(super) const fn rock(self) -> Option<RockId> {
        if self.0 < 4 {
            Some(RockId(self.0))
        } else {
            None
        }
    }

    /// The object's number, for tables indexed by object.
    #[inline]
    pub(super) const fn to_usize(self) -> usize {
        self.0 as usize
    }
}

/// The team piece of `kind` of the seat numbered `seat` (0-based).
pub(super) const fn team_obj(seat: usize, kind: Kind) -> Object {
    Object(4 + seat as u8 * 3 + kind.index() as u8)
}

/// The square of each object, `Square::NONE` once removed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Positions([Square; OBJECTS]);

impl Index<Object> for Positions {
    type Output = Square;
    #[inline]
    fn index(&self, object: Object) -> &Square {
        &self.0[object.to_usize() % OBJECTS]
    }
}

impl IndexMut<Object> for Positions {
    #[inline]
    fn index_mut(&mut self, object: Object) -> &mut Square {
        &mut self.0[object.to_usize() % OBJECTS]
    }
}

/// What a board-array code holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Content {
    Empty,
    Off,
    Rock(RockId),
    Piece(usize, Kind),
}

#[inline]
pub(super) const fn content(code: u8) -> Content {
    match code {
        EMPTY => Content::Empty,
        OFF => Content::Off,
        1..=4 => Content::Rock(RockId(code - 1)),
        _ => {
            let i = (code - 5) as usize;
            let kind = match i % 3 {
                0 => Kind::Sorcerer,
                1 => Kind::Dwarf,
                _ => Kind::Troll,
            };
            Content::Piece(i / 3, kind)
        }
    }
}

/// What each board code is, for the tests the steps make on every square they look at
/// (a table rather than arithmetic modulo 3 on the code).
const SORCERER: u8 = 1;
/// A thrown rock stops before this: the edge, a rock or a troll (§4.4).
const STOPS: u8 = 2;
static KINDS: [u8; 256] = {
    let mut table = [0; 256];
    let mut code = 1;
    while code < 5 {
        table[code] = STOPS;
        code += 1;
    }
    while code < 5 + 3 * 4 {
        table[code] = match (code - 5) % 3 {
            0 => SORCERER,
            2 => STOPS,
            _ => 0,
        };
        code += 1;
    }
    table[OFF as usize] = STOPS;
    table
};

#[inline]
pub(super) fn is_sorcerer(code: u8) -> bool {
    KINDS[code as usize] & SORCERER != 0
}

/// Whether a thrown rock stops before a square holding `code`: off the board, a rock or a
/// troll.
#[inline]
pub(super) fn stops_rock(code: u8) -> bool {
    KINDS[code as usize] & STOPS != 0
}

/// Turn-start keys of the recent past, for the repetition draw. A fixed ring: the game keeps
/// the last [`HISTORY`] turn starts since the last irreversible event (a kill, a crush or a
/// resignation), so cloning costs a copy and nothing more.
pub(super) const HISTORY: usize = 64;

#[derive(Clone, Debug)]
pub(super) struct History {
    keys: [u64; HISTORY],
    /// A short tag of each key (odd; 0 in the slots not in use): the count of a new key is
    /// first taken among the tags, whose fixed-length scan is a few vector instructions, and
    /// the keys are scanned only when another tag matches (a repetition, or 1 time in 500).
    tags: [u16; HISTORY],
    len: u8,
    head: u8,
    /// How often the key pushed last occurs (0 after a clear): searches read a turn start
    /// seen before as a draw ([`Heuristic::repeats`](ludus_engine::Heuristic::repeats)).
    last_seen: u8,
}

impl History {
    pub(super) const fn new() -> Self {
        History {
            keys: [0; HISTORY],
            tags: [0; HISTORY],
            len: 0,
            head: 0,
            last_seen: 0,
        }
    }

    /// The tag of `key`: 15 of its bits, and the low bit set so that no key's tag is the 0
    /// of an unused slot.
    const fn tag(key: u64) -> u16 {
        (key >> 48) as u16 | 1
    }

    /// Records `key` and returns how often it now occurs.
    pub(super) fn push(&mut self, key: u64) -> u32 {
        let slot = self.head as usize % HISTORY;
        let tag = Self::tag(key);
        // The tags are counted before the new one is written over the slot's (whose own
        // match is taken back): a wide load just after a narrow store to the same bytes
        // would wait for the store.
        let mut alike: u16 = 0;
        for &t in &self.tags {
            alike += u16::from(t == tag);
        }
        alike -= u16::from(self.tags[slot] == tag);
        self.keys[slot] = key;
        self.tags[slot] = tag;
        self.head = (self.head + 1) % HISTORY as u8;
        self.len = (self.len + 1).min(HISTORY as u8);
        let seen = if alike == 0 {
            // No other key has its tag.
            1
        } else {
            let mut seen = 0;
            for &k in &self.keys[..self.len as usize % (HISTORY + 1)] {
                seen += u32::from(k == key);
            }
            seen
        };
        self.last_seen = seen.min(u32::from(u8::MAX)) as u8;
        seen
    }

    /// How often the key pushed last occurs in the ring (0 after a clear).
    pub(super) const fn last_seen(&self) -> u8 {
        self.last_seen
    }

    pub(super) fn clear(&mut self) {
        self.tags = [0; HISTORY];
        self.len = 0;
        self.head = 0;
        self.last_seen = 0;
    }
}

/// A Splut! position with its turn bookkeeping (see the module docs).
#[derive(Clone, Debug)]
pub struct Splut {
    pub(super) core: Core<SplutOptions>,
    /// Padded grid: `EMPTY`, `OFF` or object + 1.
    pub(super) board: [u8; BOARD],
    /// What each square's four neighbours hold, kept up to date as objects move.
    pub(super) around: Around,
    /// How far each square of this board's size reaches each way (`tables::reach`; shared
    /// by every position of the size).
    pub(super) reach: &'static [u8; BOARD],
    /// Square of each object, `Square::NONE` once removed.
    pub(super) pos: Positions,
    /// Bit per seat still in the game.
    pub(super) alive: u8,
    /// Steps already played in this turn.
    pub(super) used: u8,
    pub(super) lev: Lev,
    /// Rocks (bit per id) moved in the preceding turn: they cannot be levitated.
    pub(super) locked: u8,
    /// Rocks moved so far in this turn.
    pub(super) moved: u8,
    /// Zobrist key of the pieces and rocks by square (the rest is added by `key()`).
    pub(super) piece_key: u64,
    /// `piece_key` before the last step of this turn (0 at a turn start): a step that brings
    /// the pieces back to it undoes that step ([`Heuristic::is_undoing`](ludus_engine::Heuristic::is_undoing)).
    pub(super) before_step: u64,
    pub(super) history: History,
}

impl Splut {
    /// An empty board of the options' size with nobody on it, South to move at turn 0.
    pub(super) fn empty(options: &SplutOptions) -> Self {
        Splut {
            core: Core::new(options.clone(), Seat::FIRST),
            board: *empty_board(options.size),
            around: Around::empty(reach(options.size)),
            reach: reach(options.size),
            pos: Positions([Square::NONE; OBJECTS]),
            alive: 0,
            used: 0,
            before_step: 0,
            lev: Lev::Unused,
            locked: 0,
            moved: 0,
            piece_key: 0,
            history: History::new(),
        }
    }

    /// The usual setup (§2). Options that `validate` would refuse are brought into range
    /// first (players 2..=4, an odd size 9..=25), so that no option value can panic.
    pub(super) fn setup(options: &SplutOptions) -> Self {
        let options = &options.normalized();
        let mut state = Splut::empty(options);
        for (id, side) in RockId::ALL.into_iter().zip(Side::ALL) {
            state.place(id.obj(), side.setup(options.size)[0]);
        }
        for seat in 0..options.players as usize {
            let squares = state.side(seat).setup(options.size);
            for kind in Kind::ALL {
                state.place(team_obj(seat, kind), squares[1 + kind.index()]);
            }
            state.alive |= 1 << seat;
        }
        state.history.push(state.full_key());
        state
    }

    pub(super) fn seats(&self) -> usize {
        self.core.options.players as usize
    }

    /// The side (tip) of `seat`.
    pub(super) fn side(&self, seat: usize) -> Side {
        Side::seated(self.core.options.players)[seat]
    }

    /// The seat to move as an index masked to the four seats (`MAX_SEATS`), so that every
    /// team index made from it is known to be in bounds and needs no mask of its own (the
    /// legal steps and the step played read the team at every decision).
    #[inline]
    pub(super) fn mover(&self) -> usize {
        self.core.to_move.to_usize() & 3
    }

    pub(super) fn is_alive(&self, seat: usize) -> bool {
        self.alive & (1 << seat) != 0
    }

    /// Steps a turn allows: 1, 2, then 3 (§3).
    pub(super) const fn allowed(turn: u32) -> u8 {
        // 1 + min(turn, 2), without a branch: every step compares its count with this.
        1 + if turn < 2 { turn as u8 } else { 2 }
    }

    /// Steps left in the current turn.
    pub fn steps_left(&self) -> u8 {
        Self::allowed(self.core.turn) - self.used
    }

    /// The square of `seat`'s piece of `kind`, if it is on the board.
    pub fn piece(&self, seat: Seat, kind: Kind) -> Option<Square> {
        let sq = self.pos[team_obj(seat.to_usize(), kind)];
        (sq != Square::NONE).then_some(sq)
    }

    /// The square of the rock `id`.
    pub fn rock(&self, id: RockId) -> Square {
        self.pos[id.obj()]
    }

    /// The rock on `sq`, if any.
    pub fn rock_at(&self, sq: Square) -> Option<RockId> {
        match content(self.code(sq)) {
            Content::Rock(id) => Some(id),
            _ => None,
        }
    }

    /// Whether the rock `id` moved in the preceding turn (and so cannot be levitated).
    pub fn is_locked(&self, id: RockId) -> bool {
        self.locked & id.bit() != 0
    }

    /// The levitation state of this turn.
    pub fn levitation(&self) -> Lev {
        self.lev
    }

    #[inline]
    pub(super) fn code(&self, sq: Square) -> u8 {
        self.board[sq.cell()]
    }

    #[inline]
    fn obj_key(obj: Object, sq: Square) -> u64 {
        // Masked so that the index is provably in the table (objects are below 16, squares
        // inside the grid).
        let table = (obj.to_usize() % OBJECTS).saturating_sub(3);
        ZOBRIST[table * GRID + sq.cell()]
    }

    /// The directions (bit per [`Dir`]) in which the neighbour of the on-board square `sq`
    /// is empty.
    #[inline]
    pub(super) fn free_around(&self, sq: Square) -> usize {
        usize::from(self.around.of(sq) & 0xF)
    }

    /// The directions in which the neighbour of the on-board square `sq` holds a rock.
    #[inline]
    pub(super) fn rocks_around(&self, sq: Square) -> usize {
        usize::from(self.around.of(sq) >> 4)
    }

    /// Puts object `obj` on the empty square `sq`.
    pub(super) fn place(&mut self, obj: Object, sq: Square) {
        self.board[sq.cell()] = obj.code();
        self.around.toggle(sq, obj.rock().is_some());
        self.pos[obj] = sq;
        self.piece_key ^= Self::obj_key(obj, sq);
    }

    /// Takes object `obj` off the board.
    pub(super) fn lift(&mut self, obj: Object) {
        let sq = self.pos[obj];
        self.board[sq.cell()] = EMPTY;
        self.around.toggle(sq, obj.rock().is_some());
        self.pos[obj] = Square::NONE;
        self.piece_key ^= Self::obj_key(obj, sq);
    }

    /// Moves object `obj` to the empty square `to`.
    // Always inlined: every step moves one to three objects, and the call measured 14 % of a
    // random playout's time (`perf`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(super) fn move_obj(&mut self, obj: Object, to: Square) {
        let from = self.pos[obj];
        self.board[from.cell()] = EMPTY;
        self.board[to.cell()] = obj.code();
        let rock = obj.rock().is_some();
        self.around.toggle(from, rock);
        self.around.toggle(to, rock);
        self.pos[obj] = to;
        self.piece_key ^= Self::obj_key(obj, from) ^ Self::obj_key(obj, to);
    }

    #[cfg(test)]
    /// Whether [`around`](Splut::around) agrees with the board on every square of it (for
    /// the tests: it is kept up to date step by step).
    pub(super) fn around_is_consistent(&self) -> bool {
        super::tables::squares(self.core.options.size).all(|sq| {
            let mut expected = 0;
            for dir in super::tables::Dir::ALL {
                let code = self.code(sq.step(dir));
                expected |= u8::from(code == EMPTY) << dir as u32;
                let rock = matches!(content(code), Content::Rock(_));
                expected |= u8::from(rock) << (4 + dir as u32);
            }
            self.around.of(sq) == expected
        })
    }

    /// The full Zobrist key: pieces by square (kept incrementally) plus the turn state.
    pub(super) fn full_key(&self) -> u64 {
        let mut key = self.piece_key
            ^ ZOBRIST[Z_TO_MOVE + self.core.to_move.to_usize()]
            ^ ZOBRIST[Z_STEPS + self.steps_left() as usize];
        // Only the flagged rocks are visited: at a turn start none has moved.
        let mut locked = self.locked & 0xF;
        while locked != 0 {
            let id = RockId(locked.trailing_zeros() as u8);
            locked &= locked - 1;
            key ^= ZOBRIST[Z_LOCKED + self.pos[id.obj()].cell()];
        }
        let mut moved = self.moved & 0xF;
        while moved != 0 {
            let id = RockId(moved.trailing_zeros() as u8);
            moved &= moved - 1;
            key ^= ZOBRIST[Z_MOVED + self.pos[id.obj()].cell()];
        }
        match self.lev {
            Lev::Unused => key,
            Lev::Active(id) => key ^ ZOBRIST[Z_ACTIVE + self.pos[id.obj()].to_usize()],
            Lev::Spent => key ^ ZOBRIST[Z_SPENT],
        }
    }

    /// The seats still in the game.
    pub(super) fn alive_count(&self) -> u32 {
        self.alive.count_ones()
    }

    /// Reason text of a resignation, per seat colour.
    pub(super) const fn resigned_reason(seat: usize) -> &'static str {
        match seat {
            0 => "Blue resigned",
            1 => "Red resigned",
            2 => "Green resigned",
            _ => "Yellow resigned",
        }
    }
}

/// The colour names of the seats, in turn order (§2 DECISION).
pub(super) const COLOURS: [&str; 4] = ["Blue", "Red", "Green", "Yellow"];

//! Action ids and observation tensors of Splut! (see [`ludus_engine::encoding`]), for learning
//! libraries.
//!
//! **Action ids** (49 for every size and number of players). A step names the mover's piece
//! by its kind (each team has one of each), so ids do not depend on squares: with directions
//! numbered `n e s w` = 0..4 and rocks by their starting tip South, West, North, East = 0..4,
//!
//! | ids | decision |
//! |---|---|
//! | `0` | `--`, the forced pass |
//! | `1 + 12 d` | the sorcerer steps towards `d` |
//! | `1 + 12 d + 1 + r` | the sorcerer steps towards `d` levitating rock `r` |
//! | `1 + 12 d + 5` | the dwarf steps towards `d` (pushing what is in front) |
//! | `1 + 12 d + 6` | the troll steps towards `d` |
//! | `1 + 12 d + 7` | the troll steps towards `d` pulling the rock behind it |
//! | `1 + 12 d + 8 + t` | the troll steps onto a rock towards `d` and throws it towards `t` |
//!
//! **Observation** `[27, N, N]` for board size N: files (columns) a.. and ranks (rows) from N
//! on top down to 1. Seats are counted from the observer: relative seat `k` is the seat `k`
//! places after the observer in turn order (0: the observer); planes of seats that do not
//! play are 0.
//!
//! | plane | meaning |
//! |---|---|
//! | `3k`, `3k+1`, `3k+2` | relative seat `k`'s sorcerer, dwarf, troll (k = 0..4) |
//! | 12 | rocks |
//! | 13 | rocks moved in the preceding turn (they cannot be levitated) |
//! | 14 | rocks moved in this turn |
//! | 15 | the rock levitated by the last step (only it may be levitated again) |
//! | 16 | 1 on the squares of the diamond |
//! | 17 | steps left in this turn / 3 (constant) |
//! | 18 | 1 when the levitation of this turn is over (constant) |
//! | `19 + k` | 1 when relative seat `k` is still in the game (constant) |
//! | `23 + k` | 1 when relative seat `k` is to move (constant) |

use ludus_engine::encoding::fill_plane;
use ludus_engine::{Encoding, PackedAction, Rules, Seat};

use super::moves::{Extra, SplutAction, Step};
use super::rules::SplutOptions;
use super::state::{Kind, Lev, RockId, Splut};
use super::tables::{squares, Dir, Square};

/// Ids per direction: sorcerer 5, dwarf 1, troll 6.
const PER_DIR: u32 = 12;
const ACTIONS: u32 = 1 + 4 * PER_DIR;
const PLANES: usize = 27;

/// A decision packs as its action id.
impl PackedAction for SplutAction {
    fn pack(self) -> u32 {
        let SplutAction::Step(Step { kind, dir, extra }) = self else {
            return 0;
        };
        let within = match (kind, extra) {
            (Kind::Sorcerer, Extra::Levitate(rock)) => 1 + u32::from(rock.0),
            (Kind::Sorcerer, _) => 0,
            (Kind::Dwarf, _) => 5,
            (Kind::Troll, Extra::Pull) => 7,
            (Kind::Troll, Extra::Throw(to)) => 8 + to as u32,
            (Kind::Troll, _) => 6,
        };
        1 + dir as u32 * PER_DIR + within
    }

    fn unpack(bits: u32) -> Self {
        if bits == 0 {
            return SplutAction::Pass;
        }
        // Bits past the last id wrap around onto the ids, so no bits make an invalid step.
        let step = (bits - 1) % (ACTIONS - 1);
        let dir = Dir::ALL[(step / PER_DIR) as usize];
        let (kind, extra) = match step % PER_DIR {
            0 => (Kind::Sorcerer, Extra::Plain),
            r @ 1..=4 => (Kind::Sorcerer, Extra::Levitate(RockId::ALL[r as usize - 1])),
            5 => (Kind::Dwarf, Extra::Plain),
            6 => (Kind::Troll, Extra::Plain),
            7 => (Kind::Troll, Extra::Pull),
            t => (Kind::Troll, Extra::Throw(Dir::ALL[t as usize - 8])),
        };
        SplutAction::Step(Step { kind, dir, extra })
    }
}

impl Encoding for Splut {
    fn num_distinct_actions(_: &SplutOptions) -> usize {
        ACTIONS as usize
    }

    fn action_id(&self, action: SplutAction) -> u32 {
        action.pack()
    }

    /// Three steps a turn, `max_turns` turns (a cap when the turn limit is off).
    fn max_decisions(options: &SplutOptions) -> usize {
        match options.max_turns {
            0 => 100_000,
            turns => 3 * (turns as usize + 1),
        }
    }

    fn action_from_id(&self, id: u32) -> Option<SplutAction> {
        (id < ACTIONS).then(|| SplutAction::unpack(id))
    }

    fn observation_shape(options: &SplutOptions) -> [usize; 3] {
        let size = options.normalized().size as usize;
        [PLANES, size, size]
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        let size = self.core.options.size as usize;
        let cells = size * size;
        let cell = |sq: Square| (size - 1 - sq.rank() as usize) * size + sq.file() as usize;
        let seats = self.seats();
        for k in 0..seats {
            let other = (seat.to_usize() + k) % seats;
            for kind in Kind::ALL {
                let piece = self.piece(Seat::new(other as u8), kind);
                if let Some(sq) = piece.filter(|sq| sq.on_board(self.core.options.size)) {
                    out[(3 * k + kind.index()) * cells + cell(sq)] = 1.0;
                }
            }
            fill_plane(out, cells, 19 + k, f32::from(self.is_alive(other)));
            fill_plane(
                out,
                cells,
                23 + k,
                f32::from(self.to_move() == Some(Seat::new(other as u8))),
            );
        }
        for rock in RockId::ALL {
            let sq = self.rock(rock);
            if !sq.on_board(self.core.options.size) {
                continue;
            }
            let at = cell(sq);
            out[12 * cells + at] = 1.0;
            out[13 * cells + at] = f32::from(self.is_locked(rock));
            out[14 * cells + at] = f32::from(self.moved & rock.bit() != 0);
            out[15 * cells + at] = f32::from(self.lev == Lev::Active(rock));
        }
        for sq in squares(self.core.options.size) {
            out[16 * cells + cell(sq)] = 1.0;
        }
        fill_plane(out, cells, 17, f32::from(self.steps_left()) / 3.0);
        fill_plane(out, cells, 18, f32::from(self.lev == Lev::Spent));
    }
}

//! The legal steps of a position as one bit mask. A seat's three pieces can make at most 48
//! different steps (the *slots*): the sorcerer's step each way, alone or levitating one of
//! the four rocks (20); the dwarf's step each way (4); the troll's step each way, plain,
//! pulling or throwing the rock it steps onto in one of four directions (24). Slots are
//! numbered in the order in which the legal steps are listed, so one mask serves listing
//! (its set bits in order), legality (one bit) and the playout's draw (a random set bit, each
//! legal step equally likely, with no list built).

use super::moves::{Extra, SplutAction, Step};
use super::state::{stops_rock, team_obj, Kind, Lev, RockId, Splut};
use super::tables::{Dir, Square, EMPTY};

/// How many slots there are.
pub(super) const SLOTS: usize = 48;
/// The first sorcerer slot; then 5 per direction: the plain step, then levitating rock 0..4.
const SORCERER: u32 = 0;
/// The first dwarf slot; then 1 per direction.
const DWARF: u32 = 20;
/// The first troll slot; then 6 per direction: plain, pull, then a throw n, e, s, w.
const TROLL: u32 = 24;
/// The slot of a step no piece can make (a dwarf's pull): never set in a mask.
const NO_SLOT: u32 = 63;

/// The step of each slot.
pub(super) const SLOT_STEPS: [SplutAction; SLOTS] = {
    let mut steps = [SplutAction::Pass; SLOTS];
    let mut d = 0;
    while d < 4 {
        let dir = Dir::ALL[d];
        steps[SORCERER as usize + 5 * d] = step(dir, Kind::Sorcerer, Extra::Plain);
        let mut r = 0;
        while r < 4 {
            let rock = Extra::Levitate(RockId::ALL[r]);
            steps[SORCERER as usize + 5 * d + 1 + r] = step(dir, Kind::Sorcerer, rock);
            steps[TROLL as usize + 6 * d + 2 + r] =
                step(dir, Kind::Troll, Extra::Throw(Dir::ALL[r]));
            r += 1;
        }
        steps[DWARF as usize + d] = step(dir, Kind::Dwarf, Extra::Plain);
        steps[TROLL as usize + 6 * d] = step(dir, Kind::Troll, Extra::Plain);
        steps[TROLL as usize + 6 * d + 1] = step(dir, Kind::Troll, Extra::Pull);
        d += 1;
    }
    steps
};

const fn step(dir: Dir, kind: Kind, extra: Extra) -> SplutAction {
    SplutAction::Step(Step { kind, dir, extra })
}

/// The slot of `step` ([`NO_SLOT`] for a combination no piece can make).
pub(super) const fn slot_of(step: Step) -> u32 {
    let d = step.dir as u32;
    match (step.kind, step.extra) {
        (Kind::Sorcerer, Extra::Plain) => SORCERER + 5 * d,
        (Kind::Sorcerer, Extra::Levitate(id)) => SORCERER + 5 * d + 1 + id.0 as u32,
        (Kind::Dwarf, Extra::Plain) => DWARF + d,
        (Kind::Troll, Extra::Plain) => TROLL + 6 * d,
        (Kind::Troll, Extra::Pull) => TROLL + 6 * d + 1,
        (Kind::Troll, Extra::Throw(throw)) => TROLL + 6 * d + 2 + throw as u32,
        _ => NO_SLOT,
    }
}

impl Splut {
    /// The slots of the legal steps of the seat to move (the game must be on); 0 when only
    /// the forced pass is left.
    #[inline]
    pub(super) fn legal_slots(&self) -> u64 {
        let seat = self.mover();
        self.sorcerer_slots(seat) | self.dwarf_slots(seat) | self.troll_slots(seat)
    }

    #[inline]
    fn sorcerer_slots(&self, seat: usize) -> u64 {
        let from = self.pos[team_obj(seat, Kind::Sorcerer)];
        let candidates = match self.lev {
            Lev::Unused => !self.locked & 0xF,
            Lev::Active(id) => id.bit(),
            Lev::Spent => 0,
        };
        let plain = spread_5(self.free_around(from));
        let rocks = if self.core.options.levitate_follow {
            self.levitation_slots::<true>(from, candidates)
        } else {
            self.levitation_slots::<false>(from, candidates)
        };
        // A step that is not free takes no rock with it: its five slots are cleared at once.
        ((plain | rocks) & (plain * 0x1F)) << SORCERER
    }

    /// The levitation slots of `candidates` (rocks by bit) while the sorcerer on `from` steps:
    /// rock `r` has slot `5d + 1 + r` set where its destination in direction `d` is free (with
    /// `FOLLOW`, the square the sorcerer leaves counts as free: option `levitate_follow`).
    #[inline]
    fn levitation_slots<const FOLLOW: bool>(&self, from: Square, candidates: u8) -> u64 {
        // All four rocks are looked at and the candidates kept by one mask at the end: a
        // loop over the candidates alone ends after an unpredictable count, and a mask per
        // rock took five operations each.
        let mut slots = 0;
        for id in RockId::ALL {
            let rock = self.pos[id.obj()];
            let mut free = self.free_around(rock);
            if FOLLOW {
                for dir in Dir::ALL {
                    free |= usize::from(rock.step(dir) == from) << dir as u32;
                }
            }
            slots |= spread_5(free) << (1 + id.0);
        }
        // The candidates' bits copied into each direction's five (rock `r` on `5d + 1 + r`).
        slots & spread_candidates(candidates)
    }

    #[inline]
    fn dwarf_slots(&self, seat: usize) -> u64 {
        let from = self.pos[team_obj(seat, Kind::Dwarf)];
        if from == Square::NONE {
            return 0;
        }
        // A free neighbour is a plain step. A neighbour on the board holding an object is a
        // push, open where the square behind it is empty (its own neighbours say so); only a
        // chain of two or more objects is followed square by square. The four ways are
        // looked at without a loop whose length the branch predictor could not know.
        let free = self.free_around(from);
        let reach = usize::from(self.reach[from.cell()]);
        let blocked = reach & !free & 0xF;
        let mut behind_free = 0;
        for dir in Dir::ALL {
            behind_free |= usize::from(self.around.of(from.step(dir))) & 1 << dir as u32;
        }
        let behind_on = reach >> 4;
        let mut open = free | (blocked & behind_free);
        let mut longer = blocked & !behind_free & behind_on & 0xF;
        while longer != 0 {
            let dir = Dir::ALL[longer.trailing_zeros() as usize & 3];
            longer &= longer - 1;
            let end = self.code(self.chain_end(from.step(dir), dir)) == EMPTY;
            open |= usize::from(end) << dir as u32;
        }
        (open as u64 & 0xF) << DWARF
    }

    #[inline]
    fn troll_slots(&self, seat: usize) -> u64 {
        let from = self.pos[team_obj(seat, Kind::Troll)];
        let free = self.free_around(from);
        let mut rocks = self.rocks_around(from);
        // The rock behind a step is the one the opposite way: the directions turned by two.
        let behind = (rocks >> 2 | rocks << 2) & 0xF;
        let mut slots = spread_6(free) | spread_6(free & behind) << 1;
        while rocks != 0 {
            let dir = Dir::ALL[rocks.trailing_zeros() as usize & 3];
            rocks &= rocks - 1;
            let to = from.step(dir);
            // Back over the square the troll leaves is always open (§4.4).
            let mut open = 1 << dir.opposite() as u32;
            for throw in Dir::ALL {
                open |= u64::from(!stops_rock(self.code(to.step(throw)))) << throw as u32;
            }
            slots |= open << (6 * dir as u32 + 2);
        }
        slots << TROLL
    }
}

/// Bit `5d` set for each direction `d` in the set `dirs` (the sorcerer's slots come in fives
/// per direction). The multiplication lays four copies of the 4-bit set side by side, copy
/// `d` shifted by `4d`, so that its bit `d` lands on `5d`; the copies do not overlap, so
/// nothing carries. A multiplication where a table took a load on the way to the draw.
#[inline]
const fn spread_5(dirs: usize) -> u64 {
    ((dirs as u64 & 0xF) * 0x1111) & 0x8421
}

/// The levitation slots of the rocks in `rocks` (bit per rock), each way: rock `r`'s bit
/// copied onto `5d + 1 + r` for every direction `d` (four 4-bit copies, 5 bits apart).
#[inline]
const fn spread_candidates(rocks: u8) -> u64 {
    ((rocks as u64 & 0xF) * 0x8421) << 1
}

/// Bit `6d` set for each direction `d` in `dirs` (the troll's sixes): copy `d` shifted by
/// `5d`.
#[inline]
const fn spread_6(dirs: usize) -> u64 {
    ((dirs as u64 & 0xF) * 0x8421) & 0x41041
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spreads_put_each_direction_on_its_slot() {
        for dirs in 0..16 {
            let (mut fives, mut sixes) = (0, 0);
            for d in 0..4 {
                if dirs >> d & 1 != 0 {
                    fives |= 1 << (5 * d);
                    sixes |= 1 << (6 * d);
                }
            }
            assert_eq!(spread_5(dirs), fives, "{dirs:04b}");
            assert_eq!(spread_6(dirs), sixes, "{dirs:04b}");
            let mut levitations = 0;
            for d in 0..4 {
                levitations |= (dirs as u64) << (5 * d + 1);
            }
            assert_eq!(spread_candidates(dirs as u8), levitations, "{dirs:04b}");
        }
    }

    #[test]
    fn every_slot_maps_back_to_itself() {
        for (slot, action) in SLOT_STEPS.iter().enumerate() {
            let SplutAction::Step(step) = *action else {
                panic!("slot {slot} holds no step");
            };
            assert_eq!(slot_of(step) as usize, slot, "{step:?}");
        }
        let pull = Step {
            kind: Kind::Dwarf,
            dir: Dir::North,
            extra: Extra::Pull,
        };
        assert_eq!(slot_of(pull), NO_SLOT);
    }
}

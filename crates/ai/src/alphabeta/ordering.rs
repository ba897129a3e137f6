//! Move ordering: the transposition table's move first, then the two killer moves of the ply
//! (decisions that caused a cut-off at the same depth in a sibling), then the rest by their
//! history score (how often and how deep they caused cut-offs anywhere, per seat).
//!
//! Actions are generic, so the history table is indexed by a fast hash of the action and the
//! seat into a fixed array: collisions only blur the ordering, never the result.

use std::hash::{Hash, Hasher};

use ludus_engine::Seat;

const HISTORY_SIZE: usize = 1 << 14;
const TT_MOVE: i32 = i32::MAX;
const KILLER: i32 = i32::MAX - 2;
/// Order scores at or above this are the table's move and the killers; below are the rest.
pub(crate) const SPECIAL: i32 = KILLER - 1;

/// Killers per ply and history per (seat, action).
#[derive(Debug)]
pub(crate) struct MoveOrder<A> {
    killers: Vec<[Option<A>; 2]>,
    history: Vec<i32>,
}

impl<A: Copy + Eq + Hash> MoveOrder<A> {
    /// Empty tables.
    pub(crate) fn new() -> Self {
        MoveOrder {
            killers: Vec::new(),
            history: vec![0; HISTORY_SIZE],
        }
    }

    /// Before a new search: forget killers, halve the history so recent cut-offs weigh more.
    pub(crate) fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// Fills `out` with `actions` scored and sorted, best first. Allocates only if `out` grows.
    pub(crate) fn order(
        &self,
        actions: &[A],
        tt_move: Option<A>,
        ply: usize,
        seat: Seat,
        out: &mut Vec<(i32, A)>,
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        out.clear();
        out.extend(actions.iter().map(|&action| {
            let score = if Some(action) == tt_move {
                TT_MOVE
            } else if Some(action) == killers[0] {
                KILLER
            } else if Some(action) == killers[1] {
                KILLER - 1
            } else {
                self.history[slot(&action, seat)]
            };
            (score, action)
        }));
        // Unstable sort does not allocate and is deterministic for the same input.
        out.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    /// Records that `action` caused a cut-off at `ply` with `depth` decisions left.
    pub(crate) fn cutoff(&mut self, action: A, ply: usize, depth: u32, seat: Seat) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(action) {
            killers[1] = killers[0];
            killers[0] = Some(action);
        }
        let entry = &mut self.history[slot(&action, seat)];
        let bonus = (depth * depth).min(1 << 16) as i32;
        *entry = entry.saturating_add(bonus).min(KILLER - 2);
    }
}

/// The history slot of `action` played by `seat`.
fn slot<A: Hash>(action: &A, seat: Seat) -> usize {
    let mut hasher = FxHasher(seat.to_usize() as u64);
    action.hash(&mut hasher);
    (hasher.finish() >> 20) as usize & (HISTORY_SIZE - 1)
}

/// The rustc "Fx" hash: one multiply per word, good enough to spread small actions.
struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.add(u64::from(byte));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_move_then_killers_then_history() {
        let mut order = MoveOrder::<u8>::new();
        let seat = Seat::FIRST;
        order.cutoff(4, 0, 3, seat);
        order.cutoff(5, 0, 1, seat);
        order.cutoff(7, 1, 6, seat); // history only, at ply 0
        let mut out = Vec::new();
        order.order(&[1, 2, 3, 4, 5, 6, 7], Some(2), 0, seat, &mut out);
        let actions: Vec<u8> = out.iter().map(|&(_, a)| a).collect();
        assert_eq!(&actions[..4], &[2, 5, 4, 7]);
        order.new_search();
        order.order(&[1, 4], None, 0, seat, &mut out);
        assert_eq!(out[0].1, 4, "history survives a new search, halved");
    }
}

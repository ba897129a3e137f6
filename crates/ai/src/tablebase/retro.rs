//! Retrograde analysis of one group of tables (a material and its swap, which quiet turns
//! join): every position's value and distance, from the tables with fewer pieces.
//!
//! 1. **Start** (parallel over positions): each position's turns are listed. Turns that take
//!    pieces read their values in the smaller tables at once; the quiet ones are counted. A
//!    position with no turn is lost in 0 turns; one whose every turn takes pieces and loses
//!    is lost at once; one with a winning capture is a *candidate* win at that distance.
//! 2. **Levels** (parallel within a level): positions are resolved in the order of their
//!    distance. A position lost in `n` turns makes every unresolved predecessor a win in
//!    `n + 1`; a position won in `n` counts down each predecessor's quiet turns, and a
//!    predecessor whose every quiet turn is now known to lose, with no capture that wins or
//!    draws, is lost in the longest of them. Because the levels go up one at a time, a win
//!    gets its shortest distance and a loss its longest, whichever thread finds it.
//! 3. What is never resolved is a draw: neither side can force a win.
//!
//! Each position is resolved once by a compare-and-swap on its byte, so the result does not
//! depend on the number of threads or the order in which they meet the positions.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use ludus_engine::{Endgames, Exit, Material, Successors};
use rayon::prelude::*;

use super::value::{decode, encode, DRAW};
use super::TablebaseError;
use crate::Proved;

/// A position of the group: the side (0: the material, 1: its swap) in the top bit, then the
/// index.
type Entry = u64;
const SIDE: u64 = 1 << 63;

/// Positions resolved or proposed at a distance, by distance.
type Levels = BTreeMap<u32, Vec<Entry>>;

/// The working state of one table of the group.
struct Side {
    material: Material,
    /// The value byte (0 while unresolved).
    values: Vec<AtomicU8>,
    /// Quiet turns not yet known to lose.
    open: Vec<AtomicU8>,
    /// 0 when a capture wins or draws (the position cannot be lost), else 1 + the longest
    /// loss among the captures (1 when it has none).
    floor: Vec<AtomicU8>,
}

impl Side {
    fn new(material: Material, size: u64) -> Side {
        let zeros = || (0..size).map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
        Side {
            material,
            values: zeros(),
            open: zeros(),
            floor: zeros(),
        }
    }
}

/// The analysis of the group of `material`, given the finished tables it exits to.
pub(crate) struct Group<'a> {
    endgames: &'a dyn Endgames,
    solved: &'a HashMap<Material, Vec<u8>>,
    sides: Vec<Side>,
    overflow: AtomicBool,
    /// Whether a capture led to a table not given (a bug in the game's material order).
    missing: AtomicBool,
}

impl<'a> Group<'a> {
    pub(crate) fn new(
        endgames: &'a dyn Endgames,
        material: Material,
        solved: &'a HashMap<Material, Vec<u8>>,
    ) -> Self {
        let mut sides = vec![Side::new(material, endgames.size(material))];
        if material.swapped() != material {
            let swapped = material.swapped();
            sides.push(Side::new(swapped, endgames.size(swapped)));
        }
        Group {
            endgames,
            solved,
            sides,
            overflow: AtomicBool::new(false),
            missing: AtomicBool::new(false),
        }
    }

    /// Runs the analysis; the tables of the group with their values.
    pub(crate) fn solve(self) -> Result<Vec<(Material, Vec<u8>)>, TablebaseError> {
        let (mut resolved, mut candidates) = self.start()?;
        while let Some(n) = first_key(&resolved, &candidates) {
            let mut level = resolved.remove(&n).unwrap_or_default();
            for entry in candidates.remove(&n).unwrap_or_default() {
                if self.resolve(entry, Proved::Win(n)) {
                    level.push(entry);
                }
            }
            for (distance, entry) in self.propagate(&level, n) {
                resolved.entry(distance).or_default().push(entry);
            }
        }
        if self.overflow.load(Ordering::Relaxed) {
            return Err(TablebaseError::TooLong);
        }
        Ok(self
            .sides
            .into_iter()
            .map(|side| {
                let values = side.values.into_iter().map(AtomicU8::into_inner).collect();
                (side.material, values)
            })
            .collect())
    }

    /// Step 1 for every position of both sides: the resolved positions and the candidate
    /// wins, by distance.
    fn start(&self) -> Result<(Levels, Levels), TablebaseError> {
        let mut resolved = Levels::new();
        let mut candidates = Levels::new();
        for (s, side) in self.sides.iter().enumerate() {
            let found = (0..side.values.len() as u64)
                .into_par_iter()
                .fold(
                    || (Successors::default(), Vec::new(), Vec::new()),
                    |(mut turns, mut done, mut maybe), index| {
                        let entry = index | if s == 1 { SIDE } else { 0 };
                        self.start_one(entry, &mut turns, &mut done, &mut maybe);
                        (turns, done, maybe)
                    },
                )
                .map(|(_, done, maybe)| (done, maybe))
                .reduce(|| (Vec::new(), Vec::new()), concat_pairs);
            add_all(&mut resolved, found.0);
            add_all(&mut candidates, found.1);
        }
        if self.overflow.load(Ordering::Relaxed) {
            return Err(TablebaseError::TooLong);
        }
        if self.missing.load(Ordering::Relaxed) {
            return Err(TablebaseError::Missing(self.sides[0].material.to_string()));
        }
        Ok((resolved, candidates))
    }

    fn start_one(
        &self,
        entry: Entry,
        turns: &mut Successors,
        done: &mut Vec<(u32, Entry)>,
        maybe: &mut Vec<(u32, Entry)>,
    ) {
        let (side, index) = self.side(entry);
        self.endgames.successors(side.material, index, turns);
        let mut win: Option<u32> = None;
        let mut holds = false;
        let mut longest_loss = 0;
        for exit in &turns.exits {
            match self.exit_value(*exit) {
                Some(Proved::Win(n)) => win = Some(win.map_or(n, |w| w.min(n))),
                Some(Proved::Draw) => holds = true,
                Some(Proved::Loss(n)) => longest_loss = longest_loss.max(n),
                None => {
                    self.missing.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
        let floor = if win.is_some() || holds {
            0
        } else {
            longest_loss + 1
        };
        let at = index as usize;
        side.open[at].store(turns.quiet.len() as u8, Ordering::Relaxed);
        side.floor[at].store(floor.min(255) as u8, Ordering::Relaxed);
        if let Some(n) = win {
            maybe.push((n, entry));
        } else if turns.quiet.is_empty()
            && floor > 0
            && self.resolve(entry, Proved::Loss(floor - 1))
        {
            done.push((floor - 1, entry));
        }
    }

    /// The value of a capture for the side making it; `None` when its table is missing.
    fn exit_value(&self, exit: Exit) -> Option<Proved> {
        match exit {
            Exit::Won => Some(Proved::Win(1)),
            Exit::To(material, index) => {
                let table = self.solved.get(&material)?;
                let byte = *table.get(usize::try_from(index).ok()?)?;
                Some(match decode(byte) {
                    Proved::Win(n) => Proved::Loss(n + 1),
                    Proved::Draw => Proved::Draw,
                    Proved::Loss(n) => Proved::Win(n + 1),
                })
            }
        }
    }

    /// Step 2 for the positions of one level: what they resolve, by distance.
    fn propagate(&self, level: &[Entry], n: u32) -> Vec<(u32, Entry)> {
        level
            .par_iter()
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut before, mut out), &entry| {
                    self.propagate_one(entry, n, &mut before, &mut out);
                    (before, out)
                },
            )
            .map(|(_, out)| out)
            .reduce(Vec::new, concat)
    }

    fn propagate_one(
        &self,
        entry: Entry,
        n: u32,
        before: &mut Vec<u64>,
        out: &mut Vec<(u32, Entry)>,
    ) {
        let (side, index) = self.side(entry);
        let lost = matches!(
            decode(side.values[index as usize].load(Ordering::Relaxed)),
            Proved::Loss(_)
        );
        self.endgames.predecessors(side.material, index, before);
        let other = if self.sides.len() == 2 {
            (entry ^ SIDE) & SIDE
        } else {
            0
        };
        let back = &self.sides[usize::from(other != 0)];
        for &pred in before.iter() {
            let at = pred as usize;
            let pred_entry = pred | other;
            if lost {
                if self.resolve(pred_entry, Proved::Win(n + 1)) {
                    out.push((n + 1, pred_entry));
                }
            } else if back.values[at].load(Ordering::Relaxed) == DRAW
                && back.open[at].fetch_sub(1, Ordering::Relaxed) == 1
            {
                let floor = u32::from(back.floor[at].load(Ordering::Relaxed));
                let distance = (n + 1).max(floor.saturating_sub(1));
                if floor > 0 && self.resolve(pred_entry, Proved::Loss(distance)) {
                    out.push((distance, pred_entry));
                }
            }
        }
    }

    /// Sets the value of an unresolved position; false when it was already resolved.
    fn resolve(&self, entry: Entry, proved: Proved) -> bool {
        let Some(byte) = encode(proved) else {
            self.overflow.store(true, Ordering::Relaxed);
            return false;
        };
        let (side, index) = self.side(entry);
        side.values[index as usize]
            .compare_exchange(DRAW, byte, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    fn side(&self, entry: Entry) -> (&Side, u64) {
        (&self.sides[usize::from(entry & SIDE != 0)], entry & !SIDE)
    }
}

fn first_key(a: &Levels, b: &Levels) -> Option<u32> {
    match (a.keys().next(), b.keys().next()) {
        (Some(&x), Some(&y)) => Some(x.min(y)),
        (x, y) => x.or(y).copied(),
    }
}

fn add_all(levels: &mut Levels, found: Vec<(u32, Entry)>) {
    for (distance, entry) in found {
        levels.entry(distance).or_default().push(entry);
    }
}

fn concat<T>(mut a: Vec<T>, mut b: Vec<T>) -> Vec<T> {
    a.append(&mut b);
    a
}

type Found = Vec<(u32, Entry)>;

fn concat_pairs(a: (Found, Found), b: (Found, Found)) -> (Found, Found) {
    (concat(a.0, b.0), concat(a.1, b.1))
}

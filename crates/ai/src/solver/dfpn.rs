//! Depth-first proof-number search (df-pn, Nagai 2002) for a position's value alone: win,
//! draw or loss for the seat to move, without the distance. It is here to be measured against
//! the distance-exact [`Solver`](super::Solver) on the same positions
//! (`ludus solve GAME --positions FILE --dfpn`, `docs/SOLVING.md`).
//!
//! Two proofs decide the value: "the seat to move wins" and, when that is disproved, "the
//! other seat wins" (disproved too: a draw). Each is an AND/OR search over decisions: an OR
//! node where the attacker decides (one proving decision is enough), an AND node where the
//! defender does (every decision must prove), so that a turn of several decisions is several
//! nodes of the same kind. Proof and disproof numbers are kept in a fixed-size table keyed by
//! the canonical key and the attacker (images of a position under the board's symmetries
//! share one entry); a position whose future depends on its history (no canonical key) is
//! searched without the table. A node is expanded while its numbers stay under thresholds
//! and handed back to its parent as soon as they pass them.

use std::marker::PhantomData;
use std::time::Instant;

use ludus_engine::{Rules, Seat, Verdict};

use super::{Proved, SolveBudget};
use crate::StopFlag;

/// "Proved" and "disproved" in proof numbers; sums are capped here.
const INFINITE: u64 = u64::MAX / 4;

/// Keys of the two proofs kept apart in one table.
const ATTACKER_SALT: [u64; 2] = [0, 0x9E37_79B9_7F4A_7C15];

/// A position's value for the seat to move, as df-pn proves it (no distance).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProvedValue {
    /// The seat to move can force a win.
    Win,
    /// Neither seat can force a win.
    Draw,
    /// The other seat can force a win.
    Loss,
}

impl From<Proved> for ProvedValue {
    /// A result with its distance, told without it (what df-pn and the solver agree on).
    fn from(proved: Proved) -> ProvedValue {
        match proved {
            Proved::Win(_) => ProvedValue::Win,
            Proved::Draw => ProvedValue::Draw,
            Proved::Loss(_) => ProvedValue::Loss,
        }
    }
}

/// What a df-pn run found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DfpnResult {
    /// The value, or `None` when the budget ran out first.
    pub value: Option<ProvedValue>,
    /// Positions expanded, over both proofs.
    pub nodes: u64,
}

/// Proves the value of `state` (a game of two seats, in progress) by df-pn within `budget`'s
/// time and nodes (its turns are not used), with a table of about `megabytes` MB.
pub fn prove_value<G: Rules>(
    state: &G,
    budget: &SolveBudget,
    megabytes: usize,
    stop: &StopFlag,
) -> DfpnResult {
    let mut search = Dfpn::<G>::new(budget, megabytes, stop);
    let Some(mover) = state.to_move() else {
        let value = match state.verdict() {
            Some(Verdict::Win(_)) => Some(ProvedValue::Loss),
            _ => Some(ProvedValue::Draw),
        };
        return DfpnResult { value, nodes: 0 };
    };
    let value = match search.prove(state, mover) {
        Some(true) => Some(ProvedValue::Win),
        Some(false) => match search.prove(state, mover.opponent()) {
            Some(true) => Some(ProvedValue::Loss),
            Some(false) => Some(ProvedValue::Draw),
            None => None,
        },
        None => None,
    };
    DfpnResult {
        value,
        nodes: search.nodes,
    }
}

/// One table slot: the proof and disproof numbers of a position for one attacker.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    proof: u64,
    disproof: u64,
}

struct Dfpn<'a, G> {
    slots: Vec<Slot>,
    mask: u64,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'a StopFlag,
    out_of_budget: bool,
    game: PhantomData<G>,
}

impl<'a, G: Rules> Dfpn<'a, G> {
    fn new(budget: &SolveBudget, megabytes: usize, stop: &'a StopFlag) -> Self {
        let wanted = (megabytes << 20) / std::mem::size_of::<Slot>();
        let size = wanted.max(2).next_power_of_two() / 2;
        let empty = Slot {
            key: 0,
            proof: 1,
            disproof: 1,
        };
        Dfpn {
            slots: vec![empty; size],
            mask: size as u64 - 1,
            nodes: 0,
            max_nodes: budget.nodes,
            deadline: budget.time.map(|time| Instant::now() + time),
            stop,
            out_of_budget: false,
            game: PhantomData,
        }
    }

    /// Whether `attacker` can force a win from `state`, or `None` out of budget.
    fn prove(&mut self, state: &G, attacker: Seat) -> Option<bool> {
        let (proof, disproof) = self.expand(state, attacker, INFINITE, INFINITE);
        if proof == 0 {
            Some(true)
        } else if disproof == 0 {
            Some(false)
        } else {
            None
        }
    }

    fn key(state: &G, attacker: Seat) -> Option<u64> {
        state
            .canonical_key()
            .map(|key| key ^ ATTACKER_SALT[attacker.to_usize() & 1])
    }

    fn look_up(&self, key: Option<u64>) -> Option<(u64, u64)> {
        let slot = self.slots[(key? & self.mask) as usize];
        (slot.key == key?).then_some((slot.proof, slot.disproof))
    }

    fn store(&mut self, key: Option<u64>, numbers: (u64, u64)) {
        if let Some(key) = key {
            self.slots[(key & self.mask) as usize] = Slot {
                key,
                proof: numbers.0,
                disproof: numbers.1,
            };
        }
    }

    fn spent(&mut self) -> bool {
        // The clock and the flag are read every 1,024 positions, the node count at each.
        self.out_of_budget = self.out_of_budget
            || self.nodes >= self.max_nodes
            || (self.nodes.is_multiple_of(1024)
                && (self.stop.is_raised() || self.deadline.is_some_and(|at| Instant::now() >= at)));
        self.out_of_budget
    }

    /// The numbers of a finished position for `attacker`.
    fn finished(verdict: Verdict, attacker: Seat) -> (u64, u64) {
        if verdict == Verdict::Win(attacker) {
            (0, INFINITE)
        } else {
            (INFINITE, 0)
        }
    }

    /// Expands `state` until its proof number reaches `proof_limit` or its disproof number
    /// `disproof_limit` (or the budget runs out), and answers its numbers then.
    fn expand(
        &mut self,
        state: &G,
        attacker: Seat,
        proof_limit: u64,
        disproof_limit: u64,
    ) -> (u64, u64) {
        if let Some(verdict) = state.verdict() {
            return Self::finished(verdict, attacker);
        }
        self.nodes += 1;
        let key = Self::key(state, attacker);
        if self.spent() {
            return self.look_up(key).unwrap_or((1, 1));
        }
        // Seen from the side that chooses here, the number it minimises comes first (proof
        // at an OR node, disproof at an AND node) and the one it sums second.
        let or_node = state.to_move() == Some(attacker);
        let side = |numbers: (u64, u64)| {
            if or_node {
                numbers
            } else {
                (numbers.1, numbers.0)
            }
        };
        let (chosen_limit, summed_limit) = side((proof_limit, disproof_limit));
        let mut children = self.children(state, attacker);
        loop {
            // A transposition may have moved a child's numbers since it was last searched here.
            for child in &mut children {
                child.numbers = self.look_up(child.key).unwrap_or(child.numbers);
            }
            let choice = Choice::of(children.iter().map(|child| side(child.numbers)));
            let numbers = side((choice.least, choice.summed));
            if choice.least >= chosen_limit || choice.summed >= summed_limit || self.out_of_budget {
                self.store(key, numbers);
                return numbers;
            }
            let best = &children[choice.best];
            let best_summed = side(best.numbers).1;
            // The best child may go a quarter past the runner-up before the search turns to
            // it (the "1 + ε" threshold): with exactly the runner-up's number plus one, the
            // search switched between two close children at every step (turn 13 of Qawale,
            // median 0.31 s against 0.18 s with a quarter).
            let child_limits = side((
                chosen_limit.min(choice.second.saturating_add(choice.second / 4 + 1)),
                if summed_limit >= INFINITE {
                    INFINITE
                } else {
                    summed_limit - choice.summed + best_summed
                },
            ));
            // The child stores its own numbers; they are kept here too, for a child the table
            // lost or has no key for.
            let found = self.expand(&best.state, attacker, child_limits.0, child_limits.1);
            children[choice.best].numbers = found;
        }
    }

    /// The numbers of a position not searched yet: its number of decisions where they are
    /// all needed (the defender's, for a proof), one where one is enough (df-pn's usual
    /// mobility start, which sends the search first where the defender has few replies).
    fn first_numbers(state: &G, attacker: Seat, buffer: &mut Vec<G::Action>) -> (u64, u64) {
        state.legal_actions(buffer);
        let count = buffer.len().max(1) as u64;
        if state.to_move() == Some(attacker) {
            (1, count)
        } else {
            (count, 1)
        }
    }

    /// The positions after each legal decision of `state`, with their numbers so far.
    fn children(&self, state: &G, attacker: Seat) -> Vec<Child<G>> {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut actions = Vec::new();
        legal
            .iter()
            .map(|&action| {
                let mut child = state.clone();
                child.apply(action);
                // A finished child's numbers never change: it keeps no table key.
                let (key, numbers) = if let Some(verdict) = child.verdict() {
                    (None, Self::finished(verdict, attacker))
                } else {
                    let key = Self::key(&child, attacker);
                    let numbers = self
                        .look_up(key)
                        .unwrap_or_else(|| Self::first_numbers(&child, attacker, &mut actions));
                    (key, numbers)
                };
                Child {
                    state: child,
                    key,
                    numbers,
                }
            })
            .collect()
    }
}

/// A position after one decision, its table key (none for a finished one) and its (proof,
/// disproof) numbers.
struct Child<G> {
    state: G,
    key: Option<u64>,
    numbers: (u64, u64),
}

/// The child to expand next, seen from the side that chooses: the least of the numbers it
/// minimises (and the runner-up, which bounds how far the best may go), and the sum of the
/// others.
struct Choice {
    best: usize,
    least: u64,
    second: u64,
    summed: u64,
}

impl Choice {
    fn of(numbers: impl Iterator<Item = (u64, u64)>) -> Choice {
        let mut choice = Choice {
            best: 0,
            least: INFINITE,
            second: INFINITE,
            summed: 0,
        };
        for (index, (chosen, other)) in numbers.enumerate() {
            choice.summed = choice.summed.saturating_add(other).min(INFINITE);
            if chosen < choice.least {
                (choice.second, choice.least, choice.best) = (choice.least, chosen, index);
            } else if chosen < choice.second {
                choice.second = chosen;
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};

    use super::*;

    fn value(pile: u8) -> Option<ProvedValue> {
        let state = Nim::new(&NimOptions { pile }, 0);
        prove_value(&state, &SolveBudget::default(), 1, &StopFlag::default()).value
    }

    /// Two-step Nim's values by hand (as in the solver's tests): a turn takes 2 to 4 stones
    /// or the last one, so piles of 1 to 4 are won, 5 and 6 lost, 7 won.
    #[test]
    fn small_piles_get_their_values() {
        use ProvedValue::{Loss, Win};
        let values: Vec<_> = (1..=7).map(value).collect();
        assert_eq!(
            values,
            [Win, Win, Win, Win, Loss, Loss, Win].map(Some).to_vec()
        );
    }

    #[test]
    fn an_exhausted_budget_proves_nothing() {
        let state = Nim::new(&NimOptions { pile: 60 }, 0);
        let few = SolveBudget {
            nodes: 10,
            ..SolveBudget::default()
        };
        let result = prove_value(&state, &few, 1, &StopFlag::default());
        assert_eq!(result.value, None);
    }
}

//! One depth-limited pass of the exact search: fail-soft alpha-beta on solver scores, with
//! the transposition table keyed by the canonical position and decisions ordered by the
//! table's best decision, then by the game's evaluation of the position each one leads to.
//!
//! The horizon (`turns` turns below the root) is scored as the worst the truth can be (a
//! loss at that distance, **pessimistic** pass) or the best (a win, optimistic pass), so the
//! pessimistic pass returns a lower bound of the true value and the optimistic one an upper
//! bound; when a pass never meets the horizon its result is exact. Scores are from the seat to
//! move's view and change sign only when the seat changes.

use std::time::Instant;

use ludus_engine::{Game, Heuristic, Seat, Verdict, WIN_SCORE};

use super::book::Book;
use super::proved::{Proved, SOLVER_INFINITY};
use super::table::{to_node, to_root, Entry, Kind, Table};
use crate::tablebase::Tablebases;
use crate::StopFlag;

/// When a pass must give up, and which of the solver's aids it uses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits<'a> {
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a StopFlag,
    pub aids: SolverAids,
    /// Endgame tables to look positions up in (their results are exact).
    pub tablebases: Option<&'a Tablebases>,
    /// Positions solved offline, looked up like the tables (set only under the options the
    /// book was made for).
    pub book: Option<&'a Book>,
}

/// The solver's aids, each of which can be turned off to measure what it brings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SolverAids {
    /// Key the table by [`Game::canonical_key`] (the board's symmetries); else by the plain
    /// key where the canonical one exists.
    pub symmetry: bool,
    /// Order decisions by the game's evaluation of their result (else in legal order, the
    /// table's best first).
    pub ordering: bool,
}

impl Default for SolverAids {
    fn default() -> Self {
        SolverAids {
            symmetry: true,
            ordering: true,
        }
    }
}

/// A pass over one horizon.
pub(crate) struct Pass<'a, G: Game> {
    pub table: &'a mut Table,
    pub limits: Limits<'a>,
    /// Whether the horizon counts as a loss for the root's seat (else as a win).
    pub pessimistic: bool,
    /// The seat to move at the root.
    pub root_seat: Option<Seat>,
    pub turns: u32,
    pub root_turn: u32,
    /// Nodes visited, over every pass sharing this counter.
    pub nodes: &'a mut u64,
    /// Whether the budget ran out (the pass's result is then meaningless).
    pub aborted: bool,
    /// How often the horizon (or a table entry that depends on it) was met.
    pub horizon: u64,
    /// Child states per ply, kept to avoid allocating at every node.
    pool: Vec<Vec<(i32, u16, G)>>,
}

impl<'a, G: Game + Heuristic> Pass<'a, G> {
    pub fn new(
        table: &'a mut Table,
        limits: Limits<'a>,
        nodes: &'a mut u64,
        pessimistic: bool,
        turns: u32,
        root_turn: u32,
    ) -> Self {
        Pass {
            table,
            limits,
            pessimistic,
            root_seat: None,
            turns,
            root_turn,
            nodes,
            aborted: false,
            horizon: 0,
            pool: Vec::new(),
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.aborted && (*self.nodes).trailing_zeros() >= 10 {
            self.aborted = *self.nodes >= self.limits.nodes
                || self.limits.stop.is_raised()
                || self.limits.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.aborted || *self.nodes >= self.limits.nodes
    }

    /// The score of `state` (not finished) for its seat to move, within `alpha..beta`
    /// (fail-soft), and the index of the best decision found.
    pub fn search(&mut self, state: &G, mut alpha: i32, mut beta: i32, ply: usize) -> (i32, u16) {
        *self.nodes += 1;
        if self.out_of_budget() {
            self.aborted = true;
            return (0, 0);
        }
        if ply == 0 {
            self.root_seat = state.to_move();
        }
        let elapsed = state.turn().saturating_sub(self.root_turn);
        // Below the root a stored result ends the search of a position (at the root it
        // would give no decision).
        if let Some(proved) = self
            .limits
            .tablebases
            .filter(|_| ply > 0)
            .and_then(|t| t.probe(state))
        {
            return (to_root(proved.score(), elapsed), u16::MAX);
        }
        let against_mover = self.against_mover(state);
        if elapsed >= self.turns {
            self.horizon += 1;
            let at = WIN_SCORE - i32::try_from(elapsed).unwrap_or(WIN_SCORE);
            return (if against_mover { -at } else { at }, u16::MAX);
        }
        let key = self.key(state);
        if let Some(proved) = self.in_book(key, ply) {
            return (to_root(proved.score(), elapsed), u16::MAX);
        }
        let mut hint = u16::MAX;
        if let Some(entry) = key.and_then(|k| self.table.get(k).copied()) {
            hint = entry.best;
            // At the root the table only orders: its decision may be a symmetric image's.
            let usable = if ply > 0 {
                self.usable(&entry, elapsed, against_mover)
            } else {
                None
            };
            if let Some((lower, upper)) = usable {
                if lower >= beta || upper <= alpha || lower == upper {
                    return (if lower >= beta { lower } else { upper }, entry.best);
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let (alpha0, beta0, horizon0) = (alpha, beta, self.horizon);
        let (best, index) = self.children(state, alpha, beta, ply, hint);
        if let (Some(key), false) = (key, self.aborted) {
            let kind = if self.horizon > horizon0 {
                Kind::Horizon {
                    against_mover,
                    turns: self.turns - elapsed,
                }
            } else {
                Kind::Exact
            };
            self.store(key, best, (alpha0, beta0), elapsed, index, kind);
        }
        (best, index)
    }

    /// The table's key for `state`: canonical, or the plain key where the canonical one
    /// exists when the symmetries are turned off.
    fn key(&self, state: &G) -> Option<u64> {
        if self.limits.aids.symmetry {
            state.canonical_key()
        } else {
            state.canonical_key().map(|_| state.key())
        }
    }

    /// The book's value of a position below the root, looked up with the canonical key
    /// already made for the table (the book files positions by it).
    fn in_book(&self, key: Option<u64>, ply: usize) -> Option<Proved> {
        let book = self
            .limits
            .book
            .filter(|_| ply > 0 && self.limits.aids.symmetry)?;
        book.probe_key(key?)
    }

    /// Whether this pass counts the horizon as a loss for the seat to move in `state`.
    fn against_mover(&self, state: &G) -> bool {
        self.pessimistic == (state.to_move() == self.root_seat)
    }

    /// The bounds of `entry` at a node `elapsed` turns deep, if this pass may use them.
    fn usable(&mut self, entry: &Entry, elapsed: u32, against: bool) -> Option<(i32, i32)> {
        match entry.kind {
            Kind::Exact => {}
            Kind::Horizon {
                against_mover,
                turns,
            } if against_mover == against && turns >= self.turns - elapsed => {
                self.horizon += 1;
            }
            Kind::Horizon { .. } => return None,
        }
        Some((to_root(entry.lower, elapsed), to_root(entry.upper, elapsed)))
    }

    fn store(
        &mut self,
        key: u64,
        best: i32,
        (alpha, beta): (i32, i32),
        elapsed: u32,
        index: u16,
        kind: Kind,
    ) {
        let value = to_node(best, elapsed);
        self.table.put(Entry {
            key,
            lower: if best > alpha {
                value
            } else {
                -SOLVER_INFINITY
            },
            upper: if best < beta { value } else { SOLVER_INFINITY },
            kind,
            best: index,
        });
    }

    /// Searches the decisions of `state` in order, fail-soft.
    fn children(
        &mut self,
        state: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        hint: u16,
    ) -> (i32, u16) {
        let Some(mover) = state.to_move() else {
            return (0, 0);
        };
        let mut kids = self.take(ply);
        Self::expand(state, mover, hint, self.limits.aids.ordering, &mut kids);
        let mut best = (-SOLVER_INFINITY, 0);
        for (_, index, child) in &kids {
            let score = match child.verdict() {
                Some(verdict) => self.terminal(verdict, mover, child),
                None if child.to_move() == Some(mover) => {
                    self.search(child, alpha, beta, ply + 1).0
                }
                None => -self.search(child, -beta, -alpha, ply + 1).0,
            };
            if self.aborted {
                break;
            }
            if score > best.0 {
                best = (score, *index);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.pool[ply] = kids;
        best
    }

    fn take(&mut self, ply: usize) -> Vec<(i32, u16, G)> {
        if self.pool.len() <= ply {
            self.pool.resize_with(ply + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.pool[ply]);
        kids.clear();
        kids
    }

    /// The children of `state`, the table's best first, then the better for `mover` first
    /// (a won game first of all, a lost one last).
    fn expand(state: &G, mover: Seat, hint: u16, order: bool, kids: &mut Vec<(i32, u16, G)>) {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        for (i, &action) in actions.iter().enumerate() {
            let mut child = state.clone();
            child.apply(action);
            let index = u16::try_from(i).unwrap_or(u16::MAX);
            let rank = match child.verdict() {
                _ if index == hint => SOLVER_INFINITY,
                Some(Verdict::Win(winner)) if winner == mover => WIN_SCORE,
                Some(Verdict::Win(_)) => -WIN_SCORE,
                Some(Verdict::Draw) => 0,
                None if order => child.evaluate(mover),
                None => 0,
            };
            kids.push((rank, index, child));
        }
        kids.sort_by_key(|kid| std::cmp::Reverse(kid.0));
    }

    /// The score of the finished `child` for `mover`, root-relative.
    fn terminal(&self, verdict: Verdict, mover: Seat, child: &G) -> i32 {
        let elapsed = child.turn().saturating_sub(self.root_turn);
        let at = WIN_SCORE - i32::try_from(elapsed).unwrap_or(WIN_SCORE);
        match verdict {
            Verdict::Win(winner) if winner == mover => at,
            Verdict::Win(_) => -at,
            Verdict::Draw => 0,
        }
    }
}

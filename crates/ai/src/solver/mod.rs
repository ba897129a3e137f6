//! The exact solver for two-seat games: win, draw or loss for the seat to move and the
//! distance to the end in turns, with best play by both sides (the winner hurrying, the loser
//! holding out).
//!
//! [`Solver::solve`] deepens a horizon one turn at a time. Each depth runs a pessimistic
//! pass (the horizon counted as a loss: a lower bound of the value) and, when that pass met
//! the horizon, an optimistic one (an upper bound); the value is proved when a pass never met
//! the horizon or the two bounds meet. A game whose every line ends (Qawale, Yoxii, Replica)
//! is thus solved once the horizon passes its longest line; one with repetition rules is
//! solved when its bounds meet. Out of budget, the result says what was proved
//! ([`Bounds`]). The transposition table is keyed by [`Game::canonical_key`], so the images of
//! a position under the board's symmetries are solved once, and it is kept between calls.

mod agent;
mod book;
mod dfpn;
mod proved;
mod search;
mod split;
mod table;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ludus_engine::{Game, Heuristic};

pub(crate) use agent::{solve_param, with_solver};
pub use agent::{SolvingAgent, LEVEL_FIVE_WITHIN};
pub use book::{book_line, book_text, Book, BookError, BookTurn};
pub use dfpn::{prove_value, DfpnResult, ProvedValue};
pub(crate) use proved::SOLVER_INFINITY;
pub use proved::{Bounds, Proved};
pub use search::SolverAids;
use search::{Limits, Pass};
pub use split::{back_up, split_positions, BackedUp};
use table::Table;

use crate::tablebase::Tablebases;
use crate::StopFlag;

/// How much a solve may spend.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SolveBudget {
    /// Wall-clock limit, or `None` for none.
    pub time: Option<Duration>,
    /// Most nodes, over every pass.
    pub nodes: u64,
    /// Deepest horizon, in turns.
    pub turns: u32,
}

impl Default for SolveBudget {
    fn default() -> Self {
        SolveBudget {
            time: None,
            nodes: u64::MAX,
            turns: 10_000,
        }
    }
}

/// The result of a solve: what is proved for the seat to move, and a decision.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Solution<A> {
    /// The value's bounds; equal when the value is proved.
    pub bounds: Bounds,
    /// A decision that achieves the lower bound when that bound is a proved result (the
    /// fastest win, the slowest loss when exact), else the best of the last pass.
    pub best: Option<A>,
    /// The deepest horizon fully searched, in turns.
    pub turns: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Positions whose result an endgame table gave.
    pub tablebase_hits: u64,
    /// Whether the root's value and decision came from the book of solved positions.
    pub from_book: bool,
}

impl<A> Solution<A> {
    /// The exact result, if proved.
    pub fn proved(&self) -> Option<Proved> {
        self.bounds.proved()
    }
}

/// One decision at the root and its own solve, seen from the root's seat to move.
#[derive(Clone, PartialEq, Debug)]
pub struct DecisionValue<A> {
    /// The decision.
    pub action: A,
    /// Its value for the seat deciding at the root, distances counted from the root.
    pub bounds: Bounds,
}

/// An exact solver with its transposition table, for positions of game `G`.
#[derive(Debug)]
pub struct Solver<G: Game> {
    table: Table,
    nodes: u64,
    aids: SolverAids,
    tablebases: Option<Arc<Tablebases>>,
    book: Option<Arc<Book>>,
    _game: std::marker::PhantomData<fn(G)>,
}

impl<G: Game + Heuristic> Solver<G> {
    /// A solver with a table of about `megabytes` MB, probing the installed endgame tables
    /// ([`crate::tablebase::installed`]) if there are any for the game, and the book of
    /// solved positions the game ships ([`Book::shipped`]).
    pub fn new(megabytes: usize) -> Self {
        Solver {
            table: Table::new(megabytes),
            nodes: 0,
            aids: SolverAids::default(),
            tablebases: crate::tablebase::installed::<G>(),
            book: Book::shipped::<G>(),
            _game: std::marker::PhantomData,
        }
    }

    /// The same solver reading `book` (or none) instead of the game's.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Self {
        self.book = book;
        self
    }

    /// The best turn from `state` if the book holds the position.
    pub fn book_turn(&self, state: &G) -> Option<BookTurn<G::Action>> {
        self.book.as_ref()?.best_turn(state)
    }

    /// The same solver probing `tablebases` (or none).
    #[must_use]
    pub fn with_tablebases(mut self, tablebases: Option<Arc<Tablebases>>) -> Self {
        self.tablebases = tablebases;
        self
    }

    /// The endgame result of `state` if its table is present (what the solver's search
    /// looks up below its root; a book position is answered by [`Solver::book_turn`]).
    pub fn probe(&self, state: &G) -> Option<Proved> {
        self.tablebases.as_ref()?.probe(state)
    }

    /// The same solver with some aids turned off (to measure what each brings).
    #[must_use]
    pub fn with_aids(mut self, aids: SolverAids) -> Self {
        self.aids = aids;
        self
    }

    /// Forgets every solved position (the table stays allocated).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `state` (a game of two seats, not finished) within `budget`, or until `stop`
    /// rises.
    pub fn solve(
        &mut self,
        state: &G,
        budget: &SolveBudget,
        stop: &StopFlag,
    ) -> Solution<G::Action> {
        self.nodes = 0;
        let deadline = budget.time.map(|t| Instant::now() + t);
        let tablebases = self.tablebases.clone();
        let book = self.book.clone();
        let hits_before = tablebases.as_ref().map_or(0, |t| t.hits());
        let limits = Limits {
            nodes: budget.nodes,
            deadline,
            stop,
            aids: self.aids,
            tablebases: tablebases.as_deref(),
            book: book
                .as_deref()
                .filter(|_| state.options() == &G::Options::default()),
        };
        let mut solution = Solution {
            bounds: Bounds::UNKNOWN,
            best: None,
            turns: 0,
            nodes: 0,
            tablebase_hits: 0,
            from_book: false,
        };
        if state.to_move().is_none() {
            return solution;
        }
        if let Some(turn) = self.book_turn(state) {
            solution.bounds = Bounds::exact(turn.proved);
            solution.best = turn.decisions.first().copied();
            solution.from_book = true;
            return solution;
        }
        for turns in 1..=budget.turns.max(1) {
            if !self.deepen(state, turns, limits, &mut solution) {
                break;
            }
        }
        solution.nodes = self.nodes;
        solution.tablebase_hits = tablebases.map_or(0, |t| t.hits() - hits_before);
        solution
    }

    /// One depth: the pessimistic pass, then the optimistic one if needed. False when the
    /// solve is over (proved, or out of budget).
    fn deepen(
        &mut self,
        state: &G,
        turns: u32,
        limits: Limits<'_>,
        solution: &mut Solution<G::Action>,
    ) -> bool {
        let Some((lower, index, met)) = self.pass(state, true, turns, limits) else {
            return false;
        };
        solution.bounds.lower = solution.bounds.lower.max(lower);
        solution.best = nth_action(state, index).or(solution.best);
        solution.turns = turns;
        if !met {
            solution.bounds.upper = solution.bounds.lower;
            return false;
        }
        let Some((upper, _, _)) = self.pass(state, false, turns, limits) else {
            return false;
        };
        solution.bounds.upper = solution.bounds.upper.min(upper);
        solution.proved().is_none()
    }

    /// A full-window pass: its score, best decision index and whether it met the horizon;
    /// `None` when the budget ran out.
    fn pass(
        &mut self,
        state: &G,
        pessimistic: bool,
        turns: u32,
        limits: Limits<'_>,
    ) -> Option<(i32, u16, bool)> {
        let mut pass = Pass::new(
            &mut self.table,
            limits,
            &mut self.nodes,
            pessimistic,
            turns,
            state.turn(),
        );
        let (score, index) = windows(&mut pass, state);
        (!pass.aborted).then_some((score, index, pass.horizon > 0))
    }

    /// The book line of `state` ([`book_line`]): its value and the position its best turn
    /// leads to, each decision of that turn solved within `budget` (the table keeps what
    /// earlier solves proved); `None` when one of them is not proved.
    pub fn book_entry(
        &mut self,
        state: &G,
        budget: &SolveBudget,
        stop: &StopFlag,
    ) -> Option<String> {
        let root = self.solve(state, budget, stop);
        let proved = root.proved()?;
        let mover = state.to_move();
        let mut after = state.clone();
        after.apply(root.best?);
        while after.verdict().is_none() && after.to_move() == mover {
            let next = self.solve(&after, budget, stop);
            next.proved()?;
            after.apply(next.best?);
        }
        let next = after.verdict().is_none().then_some(&after);
        Some(book_line(state, proved, next))
    }

    /// Solves `state` and then every decision from it, each from the root seat's view with
    /// distances from the root, sharing the table and the budget.
    pub fn solve_decisions(
        &mut self,
        state: &G,
        budget: &SolveBudget,
        stop: &StopFlag,
    ) -> (Solution<G::Action>, Vec<DecisionValue<G::Action>>) {
        let started = Instant::now();
        let root = self.solve(state, budget, stop);
        let mut spent = root.nodes;
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let mut values = Vec::with_capacity(actions.len());
        for action in actions {
            let left = SolveBudget {
                time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
                nodes: budget.nodes.saturating_sub(spent),
                turns: budget.turns,
            };
            let (bounds, nodes) = self.decision_value(state, action, &left, stop);
            spent += nodes;
            values.push(DecisionValue { action, bounds });
        }
        (root, values)
    }

    fn decision_value(
        &mut self,
        state: &G,
        action: G::Action,
        budget: &SolveBudget,
        stop: &StopFlag,
    ) -> (Bounds, u64) {
        let mover = state.to_move();
        let mut child = state.clone();
        child.apply(action);
        let delta = child.turn().saturating_sub(state.turn());
        if let Some(verdict) = child.verdict() {
            let proved = match verdict.winner() {
                Some(w) if Some(w) == mover => Proved::Win(delta),
                Some(_) => Proved::Loss(delta),
                None => Proved::Draw,
            };
            return (Bounds::exact(proved), 0);
        }
        let solved = self.solve(&child, budget, stop);
        let bounds = if child.to_move() == mover {
            solved.bounds
        } else {
            solved.bounds.flipped()
        };
        (bounds.later_by(delta), solved.nodes)
    }
}

/// A pass's exact score and best decision, by cheap null-window tests first: is it a win
/// (above 0)? if not, a loss (below 0)? Only a win or a loss is then searched for its
/// distance, in the window of its sign; a draw needs nothing more.
fn windows<G: Game + Heuristic>(pass: &mut Pass<'_, G>, state: &G) -> (i32, u16) {
    let (above, _) = pass.search(state, 0, 1, 0);
    if above >= 1 {
        return pass.search(state, 0, SOLVER_INFINITY, 0);
    }
    let (below, index_below) = pass.search(state, -1, 0, 0);
    if below <= -1 {
        return pass.search(state, -SOLVER_INFINITY, 0, 0);
    }
    // At most 0 and at least 0: a draw, and the decision that held it.
    (0, index_below)
}

/// The legal decision at `index` in `state`'s order.
fn nth_action<G: Game>(state: &G, index: u16) -> Option<G::Action> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    actions.get(usize::from(index)).copied()
}

#[cfg(test)]
mod tests;

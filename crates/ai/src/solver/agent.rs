//! Exact play for an agent: near the end of a game (or once a position has been proved), try
//! the solver within part of the budget and play the proved best decision (the fastest win,
//! the slowest loss); otherwise let the wrapped agent search as usual.

use std::time::Duration;

use ludus_engine::{Game, Heuristic};

use super::{SolveBudget, Solver};
use crate::{Agent, Analysis, Evaluation, StopFlag};

/// Transposition table size of the solver that level 5 carries, in MB.
const TABLE_MEGABYTES: usize = 32;

/// An agent that plays proved results when the solver finds them in time.
#[allow(missing_debug_implementations)] // wraps a `dyn Agent`, which has no `Debug`
pub struct SolvingAgent<G: Game> {
    inner: Box<dyn Agent<G>>,
    solver: Solver<G>,
    budget: SolveBudget,
    /// Try the solver when at most this many turns remain before the game's longest end.
    within: u32,
    /// Whether the solver proved an earlier position of this game (then keep trying).
    proving: bool,
}

impl<G: Game + Heuristic> SolvingAgent<G> {
    /// `inner` with the solver tried when at most `within` turns remain before the game's
    /// longest end (`GameInfo::max_turns`), spending at most `budget` on each try.
    pub fn new(inner: Box<dyn Agent<G>>, within: u32, budget: SolveBudget) -> Self {
        SolvingAgent {
            inner,
            solver: Solver::new(TABLE_MEGABYTES),
            budget,
            within,
            proving: false,
        }
    }

    /// The share of a search budget (`time` seconds, `nodes`) the solver may spend: a quarter.
    pub fn share(time: Option<Duration>, nodes: Option<u64>) -> SolveBudget {
        SolveBudget {
            time: time.map(|t| t / 4),
            nodes: nodes.map_or(u64::MAX, |n| (n / 4).max(1)),
            ..SolveBudget::default()
        }
    }

    fn worth_trying(&self, state: &G) -> bool {
        let left = G::INFO.max_turns.saturating_sub(state.turn());
        state.seat_count() == 2 && self.within > 0 && (self.proving || left <= self.within)
    }
}

impl<G: Game + Heuristic> Agent<G> for SolvingAgent<G> {
    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        self.analyse_with(state, stop, &mut |_| {})
    }

    fn analyse_with(
        &mut self,
        state: &G,
        stop: &StopFlag,
        info: &mut dyn FnMut(&Analysis<G::Action>),
    ) -> Analysis<G::Action> {
        if self.worth_trying(state) {
            let solution = self.solver.solve(state, &self.budget, stop);
            if let (Some(proved), Some(action)) = (solution.proved(), solution.best) {
                self.proving = true;
                let analysis = Analysis {
                    action,
                    evaluation: Some(Evaluation::Proved(proved)),
                    depth: solution.turns,
                    nodes: solution.nodes,
                    pv: vec![action],
                };
                info(&analysis);
                return analysis;
            }
            self.proving = false;
        }
        self.inner.analyse_with(state, stop, info)
    }

    fn spec(&self) -> String {
        self.inner.spec()
    }
}

//! Exact play for an agent: near the end of a game, in an ending the installed tablebases
//! cover, or once a position has been proved, try the solver within part of the budget and
//! play the proved best decision (the fastest win, the slowest loss); otherwise let the
//! wrapped agent search as usual. Below its root the solver looks every position up in the
//! tables, so in a covered ending it proves the value in one turn of search.

use std::time::Duration;

use ludus_engine::{Game, Heuristic};

use super::{Proved, SolveBudget, Solver};
use crate::{Agent, AgentError, AgentKind, AgentSpec, Analysis, Evaluation, StopFlag};

/// Level 5 tries the solver when at most this many turns remain before the game's longest end.
pub const LEVEL_FIVE_WITHIN: u32 = 8;

/// How an agent's solver is set up by its spec.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct SolveParams {
    /// `solve=N`: try the solver when at most this many turns remain (0: never).
    pub within: u32,
    /// `tables=false`: the solver probes neither the endgame tables nor the book of solved
    /// positions (to measure what the stored results bring apart from the solver).
    pub tables: bool,
}

/// The spec's `solve=N` (turns) and `tables=true|false`, with the spec that remains without
/// them; `None` when the spec has no solver (only alpha-beta, MCTS and level 5 take one;
/// level 5 has [`LEVEL_FIVE_WITHIN`] unless told).
pub(crate) fn solve_param(
    spec: &AgentSpec,
) -> Result<Option<(SolveParams, AgentSpec)>, AgentError> {
    let takes = matches!(
        spec.kind,
        AgentKind::AlphaBeta | AgentKind::Mcts | AgentKind::Best
    );
    let refuse = |key: &str, text: &str, expected: &str| {
        AgentError::Parameter(
            format!("{key}={text}"),
            format!("{}: expected {expected}", spec.kind.name()),
        )
    };
    let within = match spec.param("solve") {
        None if spec.kind == AgentKind::Best => LEVEL_FIVE_WITHIN,
        None if spec.param("tables").is_none() => return Ok(None),
        None => 0,
        Some(text) => match text.parse::<u32>() {
            Ok(n) if takes && n <= 10_000 => n,
            _ => {
                let expected = "a number of turns from 0 to 10000 (alpha-beta, MCTS, level 5)";
                return Err(refuse("solve", text, expected));
            }
        },
    };
    let tables = match spec.param("tables") {
        None => true,
        Some(text) => match text.parse::<bool>() {
            Ok(tables) if takes => tables,
            _ => {
                let expected = "true or false (alpha-beta, MCTS, level 5)";
                return Err(refuse("tables", text, expected));
            }
        },
    };
    let mut rest = spec.clone();
    rest.params
        .retain(|(key, _)| key != "solve" && key != "tables");
    Ok(Some((SolveParams { within, tables }, rest)))
}

/// Transposition table size of the solver a player carries, in MB.
const TABLE_MEGABYTES: usize = 32;

/// Nodes the solver may visit per decision when the spec limits neither time nor nodes (a
/// depth-limited player stays deterministic).
const DEFAULT_NODES: u64 = 1_000_000;

/// `inner` (built from `spec`) with the solver tried as `params` say, on a quarter of the
/// spec's time or nodes ([`DEFAULT_NODES`] when it gives neither).
pub(crate) fn with_solver<G: Game + Heuristic>(
    inner: Box<dyn Agent<G>>,
    spec: &AgentSpec,
    params: SolveParams,
) -> Box<dyn Agent<G>> {
    if params.within == 0 {
        return inner;
    }
    let seconds = spec.param("time").and_then(|t| t.parse::<f64>().ok());
    let nodes = spec
        .param("nodes")
        .or(spec.param("iterations"))
        .and_then(|n| n.parse::<u64>().ok());
    let budget = match (seconds, nodes) {
        (Some(s), _) if s > 0.0 => {
            SolvingAgent::<G>::share(Some(Duration::from_secs_f64(s.min(3600.0))), None)
        }
        (_, Some(n)) => SolvingAgent::<G>::share(None, Some(n)),
        (_, None) if spec.param("depth").is_some() => SolveBudget {
            nodes: DEFAULT_NODES,
            ..SolveBudget::default()
        },
        // The agents' own default: one second.
        _ => SolvingAgent::<G>::share(Some(Duration::from_secs(1)), None),
    };
    let agent = SolvingAgent::new(inner, params.within, budget);
    Box::new(if params.tables {
        agent
    } else {
        agent.without_tables()
    })
}

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
    /// The turn whose position the solver last failed to prove: not tried again in it.
    failed_turn: Option<u32>,
    /// The deepest horizon (in turns) the solver fully searched in its last failed try: near
    /// the end it is tried again only once the game's longest end is at most one turn
    /// beyond that, since with the same budget a deeper solve would fail again.
    failed_reach: Option<u32>,
    /// Solves tried so far (each within the solver's share of the budget).
    tries: u64,
    /// The rest of a turn taken from the book: each decision with the key of the position
    /// it is played in, and the value the book gave.
    book_plan: Vec<(u64, G::Action)>,
    book_value: Option<Proved>,
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
            failed_turn: None,
            failed_reach: None,
            tries: 0,
            book_plan: Vec::new(),
            book_value: None,
        }
    }

    /// The same agent with a solver that probes neither the endgame tables nor the book.
    #[must_use]
    pub fn without_tables(mut self) -> Self {
        self.solver = self.solver.with_tablebases(None).with_book(None);
        self
    }

    /// The same agent reading `book` (or none) instead of the game's shipped book.
    #[must_use]
    pub fn with_book(mut self, book: Option<std::sync::Arc<super::Book>>) -> Self {
        self.solver = self.solver.with_book(book);
        self
    }

    /// The share of a search budget (`time` seconds, `nodes`) the solver may spend: a quarter.
    pub fn share(time: Option<Duration>, nodes: Option<u64>) -> SolveBudget {
        SolveBudget {
            time: time.map(|t| t / 4),
            nodes: nodes.map_or(u64::MAX, |n| (n / 4).max(1)),
            ..SolveBudget::default()
        }
    }

    /// The next decision of a turn the book proves best: the one planned when the turn began
    /// in a book position, or the first of the turn from a book position met now.
    fn book_decision(&mut self, state: &G) -> Option<Analysis<G::Action>> {
        let planned = self
            .book_plan
            .first()
            .filter(|(key, _)| *key == state.key())
            .map(|&(_, action)| action);
        let (action, proved) = if let (Some(action), Some(proved)) = (planned, self.book_value) {
            self.book_plan.remove(0);
            (action, proved)
        } else {
            self.book_plan.clear();
            if self.within == 0 || state.seat_count() != 2 {
                return None;
            }
            let turn = self.solver.book_turn(state)?;
            let mut after = state.clone();
            for (i, &action) in turn.decisions.iter().enumerate() {
                if i > 0 {
                    self.book_plan.push((after.key(), action));
                }
                after.apply(action);
            }
            self.book_value = Some(turn.proved);
            (*turn.decisions.first()?, turn.proved)
        };
        self.proving = true;
        Some(Analysis {
            action,
            evaluation: Some(Evaluation::Proved(proved)),
            depth: 0,
            nodes: 0,
            pv: vec![action],
        })
    }

    /// A result proved at an earlier decision is not given up when the exact value is out of
    /// reach now (a draw rule of the history hides a table's win or loss, or the budget ran
    /// out): if the solver still proves at least a draw, the decision that holds that bound
    /// is played rather than the search's, which knows nothing of the proof.
    fn holding(&self, solution: &super::Solution<G::Action>) -> Option<Analysis<G::Action>> {
        let lower = solution.bounds.lower;
        if !self.proving || lower < 0 {
            return None;
        }
        let action = solution.best?;
        let evaluation = if lower > 0 {
            // A win within the searched turns: its distance is at most this.
            Evaluation::Proved(Proved::from_score(lower))
        } else {
            Evaluation::Score(0)
        };
        Some(Analysis {
            action,
            evaluation: Some(evaluation),
            depth: solution.turns,
            nodes: solution.nodes,
            pv: vec![action],
        })
    }

    fn worth_trying(&self, state: &G) -> bool {
        let left = G::INFO.max_turns.saturating_sub(state.turn());
        let near_end = left <= self.within
            && self
                .failed_reach
                .is_none_or(|reached| left <= reached.saturating_add(1));
        state.seat_count() == 2
            && self.within > 0
            && self.failed_turn != Some(state.turn())
            && (self.proving || near_end || self.solver.probe(state).is_some())
    }

    /// How many times this player has run its solver.
    pub fn solver_tries(&self) -> u64 {
        self.tries
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
        if let Some(analysis) = self.book_decision(state) {
            info(&analysis);
            return analysis;
        }
        if self.worth_trying(state) {
            self.tries += 1;
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
            if let Some(analysis) = self.holding(&solution) {
                info(&analysis);
                return analysis;
            }
            self.proving = false;
            self.failed_turn = Some(state.turn());
            self.failed_reach = Some(solution.turns);
        }
        self.inner.analyse_with(state, stop, info)
    }

    fn spec(&self) -> String {
        self.inner.spec()
    }

    // The wrapped search keeps its own budget, tables and preferences: a driver with a clock
    // sets the search's time, and the solver's share is fixed when the agent is built.
    fn budget_mut(&mut self) -> Option<&mut crate::SearchBudget> {
        self.inner.budget_mut()
    }

    fn prepare(&mut self) -> usize {
        self.inner.prepare()
    }

    fn policy(&self) -> Vec<(G::Action, f64)> {
        if self.proving {
            return Vec::new();
        }
        self.inner.policy()
    }
}

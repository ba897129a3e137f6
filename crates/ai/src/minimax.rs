//! Level 3: minimax to a depth in **turns** (the original Replica's level 3), scored at the
//! horizon with the game's level-2 heuristic, [`Heuristic::seed_evaluate`].
//!
//! A turn ends when [`Game::turn`] grows, so the decisions of one turn (Qawale's stack and
//! sowing steps) all belong to the same level of look-ahead. With 3–4 seats the search is
//! paranoid: the root seat maximises its score and every other seat minimises it. Finished
//! games score `±(WIN_SCORE - decisions)`, as in alpha-beta, so faster wins come first.
//!
//! The tree is pruned with alpha-beta, which returns exactly the plain minimax value; at the
//! root each decision is searched with a window that still tells equal values apart, so ties
//! are broken by the seeded generator exactly as plain minimax would, after one rule: a
//! decision that undoes the turn's previous one ([`Heuristic::is_undoing`]) loses every tie,
//! and below the root it costs its mover one unit, so that a line which steps away and back
//! scores below one that needs no step back.
//! A turn start seen before in the game ([`Heuristic::repeats`]) scores as a draw at the even
//! point of the position searched (`crate::shuffling`; `shuffle=allow` turns both rules off).
//! Depths 1, 2, … are
//! searched in turn; when the node cap (or the stop flag, or an optional time limit) ends a
//! depth early, the decision of the last completed depth is played.
//!
//! Parameters: `depth` (turns, 1–100, default 3), `nodes` (node cap per decision, 1–10¹²,
//! default 200 000), `time` (seconds, 0–3600, default none), `eval` (`seed` by default,
//! `evaluate` or `v1`), `shuffle` (`avoid` by default, or `allow`). A value outside its range
//! is refused with the range.

use ludus_engine::{Game, Heuristic, Seat};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::alphabeta::time::{Budget, Clock};
use crate::params::Params;
use crate::score::{static_score, terminal_score, EvalFn, EvalKind, INFINITY, MATE_BOUND};
use crate::shuffling::{repetition_score, Shuffling};
use crate::{Agent, AgentError, AgentSpec, Analysis, Evaluation, StopFlag};

/// The settings of a minimax agent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MinimaxConfig {
    /// Depth in turns, node cap and optional time limit per decision.
    pub budget: Budget,
    /// The evaluation used at the horizon.
    pub eval: EvalKind,
    /// Whether the rules against shuffling are on.
    pub shuffle: Shuffling,
}

impl Default for MinimaxConfig {
    fn default() -> Self {
        MinimaxConfig {
            budget: Budget {
                time: None,
                depth: 3,
                nodes: 200_000,
            },
            eval: EvalKind::Seed,
            shuffle: Shuffling::Avoid,
        }
    }
}

impl MinimaxConfig {
    /// Reads the parameters of `spec` (see the module doc).
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, AgentError> {
        let params = Params::new(spec, &["depth", "nodes", "time", "eval", "shuffle"])?;
        let default = MinimaxConfig::default();
        Ok(MinimaxConfig {
            budget: Budget::from_params(&params, "nodes", 100, default.budget)?,
            eval: params
                .with("eval", "evaluate, seed or v1", EvalKind::parse)?
                .unwrap_or(default.eval),
            shuffle: Shuffling::from_params(&params)?.unwrap_or(default.shuffle),
        })
    }
}

/// The minimax agent.
#[derive(Debug)]
pub struct MinimaxAgent<G: Game> {
    config: MinimaxConfig,
    spec: String,
    rng: SmallRng,
    eval: EvalFn<G>,
    buffers: Vec<Vec<G::Action>>,
}

/// One search: the root seat, the clock and the counters.
struct Search<'a, G: Game> {
    root: Seat,
    eval: EvalFn<G>,
    clock: &'a Clock<'a>,
    buffers: &'a mut Vec<Vec<G::Action>>,
    /// What a repeated position scores for the root; `None` with `shuffle=allow`.
    repetition: Option<i32>,
    nodes: u64,
    aborted: bool,
}

impl<G: Game + Heuristic> MinimaxAgent<G> {
    /// An agent with `config`, its spec text `spec` and a seed.
    pub fn new(config: MinimaxConfig, spec: String, seed: u64) -> Self {
        MinimaxAgent {
            config,
            spec,
            rng: SmallRng::seed_from_u64(seed),
            eval: config.eval.function::<G>(),
            buffers: Vec::new(),
        }
    }
}

impl<G: Game + Heuristic> Agent<G> for MinimaxAgent<G> {
    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        let root = state
            .to_move()
            .expect("agents are only asked to decide while the game is on");
        let mut moves = Vec::new();
        state.legal_actions(&mut moves);
        let clock = Clock::start(self.config.budget, stop);
        let avoid = self.config.shuffle.avoids();
        let mut search = Search {
            root,
            eval: self.eval,
            clock: &clock,
            buffers: &mut self.buffers,
            repetition: avoid.then(|| repetition_score(self.eval, state, root)),
            nodes: 0,
            aborted: false,
        };
        let mut found = None;
        for turns in 1..=self.config.budget.depth {
            let Some((best, score)) = search.root(state, turns, &moves, &mut self.rng) else {
                break;
            };
            // Searching the best decision first prunes more at the next depth.
            moves[..=best].rotate_right(1);
            found = Some((score, turns));
        }
        let action = moves[0];
        let seed = self.config.eval == EvalKind::Seed;
        Analysis {
            action,
            evaluation: found.map(|(score, _)| shown(state, root, score, seed)),
            depth: found.map_or(0, |(_, turns)| turns),
            nodes: search.nodes,
            pv: vec![action],
        }
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn budget_mut(&mut self) -> Option<&mut Budget> {
        Some(&mut self.config.budget)
    }
}

/// What a person reads of the value `score` found for `root` in `state`: a forced result as
/// such, a rating of the original's heuristic (`seed`) as the game shows it
/// ([`Heuristic::seed_shown`]), any other score as it is.
fn shown<G: Heuristic>(state: &G, root: Seat, score: i32, seed: bool) -> Evaluation {
    match Evaluation::from_score(score) {
        Evaluation::Score(rating) if seed => Evaluation::from_score(
            state
                .seed_shown(root, rating)
                .clamp(1 - MATE_BOUND, MATE_BOUND - 1),
        ),
        evaluation => evaluation,
    }
}

impl<G: Game + Heuristic> Search<'_, G> {
    /// Scores every root decision to `turns` turns; returns the chosen index and its value, or
    /// `None` if the search was cut short.
    fn root(
        &mut self,
        state: &G,
        turns: u32,
        moves: &[G::Action],
        rng: &mut SmallRng,
    ) -> Option<(usize, i32)> {
        // The best value, then not undoing the turn's previous decision: an undoing decision
        // is played only when nothing else scores as well.
        let mut best: Option<(usize, (i32, bool))> = None;
        let mut ties = 0;
        for (i, &action) in moves.iter().enumerate() {
            // Values below `best - 1` need not be exact; equal ones must be.
            let alpha = best.map_or(-INFINITY, |(_, (b, _))| b - 1);
            let score = self.child(state, action, turns, alpha, INFINITY, 1);
            if self.aborted {
                return None;
            }
            let undoing = self.repetition.is_some() && state.is_undoing(action);
            let rank = (score, !undoing);
            match best {
                Some((_, top)) if rank < top => continue,
                Some((_, top)) if rank == top => ties += 1,
                _ => ties = 1,
            }
            if ties == 1 || rng.random_range(0..ties) == 0 {
                best = Some((i, rank));
            }
        }
        best.map(|(i, (score, _))| (i, score))
    }

    /// The value for the root of playing `action` in `state` with `turns` turns left to look.
    fn child(
        &mut self,
        state: &G,
        action: G::Action,
        turns: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut child = state.clone();
        child.apply(action);
        // A turn start seen before counts as the draw it leads to (see `Heuristic::repeats`),
        // and so does the game's own repetition draw, so that both score alike.
        if let Some(draw) = self.repetition.filter(|_| child.repeats()) {
            return draw;
        }
        if child.to_move().is_none() {
            return terminal_score(child.verdict(), self.root, ply);
        }
        let left = if child.turn() > state.turn() {
            turns - 1
        } else {
            turns
        };
        if left == 0 {
            self.nodes += 1;
            return static_score(self.eval, &child, self.root);
        }
        self.value(&child, left, alpha, beta, ply)
    }

    /// The minimax value of the unfinished `state` for the root, within `(alpha, beta)`.
    fn value(&mut self, state: &G, turns: u32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= 8 && self.clock.must_stop(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let maximising = state.to_move() == Some(self.root);
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut actions = std::mem::take(&mut self.buffers[ply]);
        state.legal_actions(&mut actions);
        let mut best = if maximising { -INFINITY } else { INFINITY };
        for &action in &actions {
            // Undoing costs its mover one unit below the root too, so that a step the line
            // takes back scores below a step that needs no taking back.
            let cost = if self.repetition.is_none() || !state.is_undoing(action) {
                0
            } else if maximising {
                1
            } else {
                -1
            };
            let score = self.child(state, action, turns, alpha + cost, beta + cost, ply + 1) - cost;
            if maximising {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta || self.aborted {
                break;
            }
        }
        self.buffers[ply] = actions;
        best
    }
}

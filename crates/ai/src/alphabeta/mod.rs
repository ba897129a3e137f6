//! Level 4: negamax alpha-beta with iterative deepening over decisions, a transposition table
//! on `key()`, move ordering and a time budget.
//!
//! Parameters (`ai:alphabeta:time=0.5,depth=9`):
//!
//! | key | meaning | range | default |
//! |---|---|---|---|
//! | `time` | seconds per decision (`0`: no limit, only beside `depth` or `nodes`) | 0–3600 | 1, or none if `depth`/`nodes` is given |
//! | `depth` | deepest iteration, in decisions | 1–1000 | 100 |
//! | `nodes` | node limit per decision | 1–10¹² | none |
//! | `hash` | transposition table size in MB (`0`: off), counted in buckets of the entry size tables had before they were packed, so that fingerprints keep their values: about half as many bytes for games with large decisions | 0–1024 | 16 |
//! | `ttmb` | the table in MB as allocated (the most slots, a power of two, that fit), replacing `hash`: what `ludus ugi`'s `Hash` option gives | 0–1024 | none |
//! | `eval` | horizon evaluation: `evaluate`, `v1` (the evaluation before tuning) or `seed` (the level-2 heuristic) | | `evaluate` |
//! | `lmr` | late move reductions: see below | `true`/`false` | `false` |
//! | `order` | after the table's move and the killers: `history` or `eval` (see below) | | `history` |
//! | `quiesce` | quiescence search on the game's tactical decisions | `true`/`false` | `false` |
//! | `fill` | go on deepening until the time is up, rather than stop at half time | `true`/`false` | `true` with `threads` above 1, else `false` |
//! | `threads` | search threads (Lazy SMP, see below) | 1–64 | 1 |
//! | `contempt` | what a drawn game costs the searching side, in the evaluation's units (see below) | ±100,000 | 0 |
//! | `prune` | forward pruning: below the root, leave out the decisions the game's [`Heuristic::is_pruned`] names | `true`/`false` | `false` |
//! | `shuffle` | `avoid`: the rules against shuffling below; `allow`: without them, to measure them | `avoid`/`allow` | `avoid` |
//! | `every`, `offset` | only iterations whose depth is `offset` plus a multiple of `every` decide (see below) | 1–16, 0–15 | 1, 0 |
//!
//! A value outside its range is refused with the range, not clamped.
//!
//! Each iteration searches the previous best decision first; the result is the best decision
//! of the last completed iteration, or of the unfinished one if a decision there was fully
//! searched and proved better. Deepening stops early once the value is exact (no score rests
//! on a static evaluation), once a forced result is found, or when half the time is gone
//! (the next iteration would rarely finish; with `fill=true` it is started anyway, and its
//! fully searched decisions may still improve the choice).
//! The seeded generator shuffles the root decisions, which breaks ties between equal scores.
//!
//! With `lmr=true`, decisions ordered late (after the table's move, the killers and the best
//! by history) at nodes with three or more decisions left are first searched one decision
//! shallower (two when very late and deep) with a null window; only those that then beat
//! alpha are searched again at full depth. The search sees deeper in the same time at the
//! risk of missing a late quiet decision. Measured against the plain search, it won no game
//! type (40-55 %, see `docs/STRENGTH.md`), so no level uses it by default.
//!
//! With `order=eval`, at nodes with two or more decisions left, the decisions after the
//! table's move and the killers are tried in the order of the static evaluation of the
//! positions they lead to (one extra evaluation per child of an interior node), rather than
//! by their history of cut-offs.
//!
//! With `threads=N` above 1, the search is Lazy SMP: N - 1 helper threads search the same
//! root with iterative deepening (every other one starting one decision deeper, each with the
//! root decisions in its own seeded order), all sharing the lock-free transposition table
//! (see `tt`), so that what one finds orders and cuts the others' searches. The main thread
//! decides when to stop, as with one thread; the result is that of the deepest completed
//! iteration of any thread (the main thread's at equal depth). The node count is the sum over
//! the threads. With `threads=1` (the default) no thread is started and the search is the
//! deterministic one it always was.
//!
//! Helpers also change when deepening should stop, so `fill` defaults to `true` with them. One
//! thread that starts an iteration after half its time rarely finishes it; with helpers, a
//! helper is usually already inside that iteration, or through it, when the main thread passes
//! half time, and the two together often complete it in the time left. Stopping there threw
//! that work away: in Splut! at 100 ms, `threads=2` gained +84 Elo over one thread with `fill`
//! and +32 without (`docs/STRENGTH.md`, "A second core").
//!
//! With `contempt=C`, a drawn game scores −C for the searching side instead of 0: with C
//! above 0 the search prefers any line it judges better than −C to a certain draw, so it
//! plays on for a win where the game is mostly drawn (Qawale); below 0 it seeks draws.
//! A position that repeats an earlier turn start ([`Heuristic::repeats`]) scores as a draw at
//! the even point of the root position, less the contempt (`crate::shuffling`), so a side
//! ahead leaves a cycle before the repetition rule ends the game. At the root, a decision
//! that undoes the turn's previous one ([`Heuristic::is_undoing`]) scores one unit less, so
//! that another decision as good is played instead. `shuffle=allow` turns both off.
//!
//! With `every=N` (and `offset=R`), every depth is still searched (each orders the next),
//! but the decision and its score come from the deepest iteration whose depth is `R` plus a
//! multiple of `N` (from the last one searched if none of them was). Where the evaluation
//! swings with who made the last turn before the horizon (the odd-even effect), this compares
//! only searches that end alike.
//!
//! With `quiesce=true`, the horizon is not a plain evaluation: the side to move may take the
//! evaluation or play on with tactical decisions only (captures, lines, wins: what the game's
//! [`Heuristic::is_tactical`] names), up to eight decisions beyond the nominal depth.

mod ordering;
mod search;
pub(crate) mod time;
mod tt;

use std::time::Duration;

use ludus_engine::{Game, Heuristic, Seat};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use self::search::{table_key, Features, Searcher, Tables, TacticalFn};
use self::time::{Budget, Clock};
use self::tt::Table;
use crate::params::Params;
use crate::score::{EvalFn, EvalKind, MATE_BOUND};
use crate::shuffling::{repetition_score, Shuffling};
use crate::{Agent, AgentError, AgentSpec, Analysis, Evaluation, StopFlag};

pub use self::time::Budget as SearchBudget;

/// The deepest iteration a spec may ask for, in decisions.
pub const MAX_DEPTH: u32 = 1000;

/// The largest transposition table a spec may ask for, in megabytes: the table is allocated
/// and zeroed at once, so this bounds the memory one agent takes.
pub const MAX_HASH_MEGABYTES: usize = 1024;

/// The largest contempt a spec may ask for: far below the scores of forced results.
pub const MAX_CONTEMPT: i32 = 100_000;

/// The largest `every` a spec may ask for (see the module doc).
pub const MAX_DECIDE_EVERY: u32 = 16;

/// The settings of an alpha-beta agent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AlphaBetaConfig {
    /// Time, depth (decisions) and node limits per decision.
    pub budget: Budget,
    /// Transposition table size in MB; 0 turns it off.
    pub hash_megabytes: usize,
    /// Transposition table size in MB as allocated (`ttmb`), replacing `hash_megabytes`.
    pub table_megabytes: Option<usize>,
    /// The evaluation used at the horizon.
    pub eval: EvalKind,
    /// Late move reductions.
    pub reductions: bool,
    /// Order decisions by the evaluation of their result rather than by history.
    pub eval_order: bool,
    /// Quiescence search at the horizon.
    pub quiescence: bool,
    /// Keep deepening until the time is up.
    pub fill_time: bool,
    /// Search threads (Lazy SMP); 1 is the deterministic single-thread search.
    pub threads: usize,
    /// How much worse than an even position a draw is for the searching side, in the
    /// evaluation's units (negative: better).
    pub contempt: i32,
    /// Only iterations `decide_offset + k · decide_every` decisions deep decide.
    pub decide_every: u32,
    /// See `decide_every`.
    pub decide_offset: u32,
    /// Leave out the decisions the game's `is_pruned` names, below the root.
    pub forward_pruning: bool,
    /// Whether the rules against shuffling are on.
    pub shuffle: Shuffling,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            budget: Budget {
                time: Some(Duration::from_secs(1)),
                depth: 100,
                nodes: u64::MAX,
            },
            hash_megabytes: 16,
            table_megabytes: None,
            eval: EvalKind::Evaluate,
            reductions: false,
            eval_order: false,
            quiescence: false,
            fill_time: false,
            threads: 1,
            contempt: 0,
            decide_every: 1,
            decide_offset: 0,
            forward_pruning: false,
            shuffle: Shuffling::Avoid,
        }
    }
}

impl AlphaBetaConfig {
    /// Reads the parameters of `spec` (see the module doc).
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, AgentError> {
        let params = Params::new(
            spec,
            &[
                "time", "depth", "nodes", "hash", "eval", "lmr", "order", "quiesce", "fill",
                "threads", "contempt", "every", "offset", "prune", "ttmb", "shuffle",
            ],
        )?;
        let default = AlphaBetaConfig::default();
        let threads = params.threads()?;
        Ok(AlphaBetaConfig {
            budget: Budget::from_params(&params, "nodes", MAX_DEPTH, default.budget)?,
            hash_megabytes: params
                .ranged("hash", 0, MAX_HASH_MEGABYTES)?
                .unwrap_or(default.hash_megabytes),
            table_megabytes: params.ranged("ttmb", 0, MAX_HASH_MEGABYTES)?,
            eval: params
                .with("eval", "evaluate, seed or v1", EvalKind::parse)?
                .unwrap_or(default.eval),
            reductions: params.flag("lmr")?.unwrap_or(default.reductions),
            eval_order: params
                .with("order", "history or eval", |text| match text {
                    "eval" => Some(true),
                    "history" => Some(false),
                    _ => None,
                })?
                .unwrap_or(default.eval_order),
            quiescence: params.flag("quiesce")?.unwrap_or(default.quiescence),
            fill_time: params.flag("fill")?.unwrap_or(threads > 1),
            threads,
            contempt: params
                .ranged("contempt", -MAX_CONTEMPT, MAX_CONTEMPT)?
                .unwrap_or(default.contempt),
            decide_every: params
                .ranged("every", 1, MAX_DECIDE_EVERY)?
                .unwrap_or(default.decide_every),
            decide_offset: params
                .ranged("offset", 0, MAX_DECIDE_EVERY - 1)?
                .unwrap_or(default.decide_offset),
            forward_pruning: params.flag("prune")?.unwrap_or(default.forward_pruning),
            shuffle: Shuffling::from_params(&params)?.unwrap_or(default.shuffle),
        })
    }
}

/// The alpha-beta agent. Keeps its transposition table and history between decisions.
#[derive(Debug)]
pub struct AlphaBetaAgent<G: Game> {
    config: AlphaBetaConfig,
    spec: String,
    rng: SmallRng,
    eval: EvalFn<G>,
    tt: Table,
    tables: Tables<G::Action>,
    /// The helper threads' own tables and generators (`threads - 1` of them).
    helpers: Vec<(Tables<G::Action>, SmallRng)>,
}

/// What an iterative deepening loop needs besides its searcher.
#[derive(Debug)]
struct Deepening<'a, G: Game> {
    state: &'a G,
    legal: &'a [G::Action],
    first_depth: u32,
    config: &'a AlphaBetaConfig,
    clock: &'a Clock<'a>,
}

/// The search refinements `config` turns on; `repetition` is what a repeated position scores
/// for the root, before the contempt.
fn features<G: Game + Heuristic>(config: &AlphaBetaConfig, repetition: i32) -> Features<G> {
    let avoid = config.shuffle.avoids();
    Features {
        reductions: config.reductions,
        eval_order: config.eval_order,
        tactical: config.quiescence.then_some(G::is_tactical as TacticalFn<G>),
        contempt: config.contempt,
        pruned: config
            .forward_pruning
            .then_some(G::is_pruned as TacticalFn<G>),
        undoing: avoid.then_some(G::is_undoing as TacticalFn<G>),
        repeats: avoid.then_some(G::repeats as fn(&G) -> bool),
        repetition: repetition.saturating_sub(config.contempt),
    }
}

impl<G: Game + Heuristic> AlphaBetaAgent<G> {
    /// An agent with `config`, its spec text `spec` (for tables) and a seed.
    pub fn new(config: AlphaBetaConfig, spec: String, seed: u64) -> Self {
        AlphaBetaAgent {
            config,
            spec,
            rng: SmallRng::seed_from_u64(seed),
            eval: config.eval.function::<G>(),
            tt: match config.table_megabytes {
                Some(megabytes) => Table::with_allocated_megabytes(megabytes),
                None => Table::with_megabytes::<G::Action>(config.hash_megabytes),
            },
            tables: Tables::new(),
            helpers: (1..config.threads.max(1))
                .map(|i| {
                    (
                        Tables::new(),
                        SmallRng::seed_from_u64(seed ^ ((i as u64) << 32)),
                    )
                })
                .collect(),
        }
    }

    /// Forgets the transposition table (a new game, or for reproducible tests).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn search(
        &mut self,
        state: &G,
        stop: &StopFlag,
        info: &mut dyn FnMut(&Analysis<G::Action>),
    ) -> Analysis<G::Action> {
        let root = state
            .to_move()
            .expect("agents are only asked to decide while the game is on");
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut moves = legal.clone();
        moves.shuffle(&mut self.rng);
        self.tt.new_search();
        self.tables.order.new_search();
        let key = table_key(state.key(), root);
        let tt_move = self.tt.probe(key).and_then(|e| e.action);
        if let Some(tt_move) = tt_move.and_then(|i| legal.get(i)) {
            if let Some(i) = moves.iter().position(|a| a == tt_move) {
                moves[..=i].rotate_right(1);
            }
        }
        let clock = Clock::start(self.config.budget, stop);
        let config = self.config;
        let repetition = repetition_score(self.eval, state, root);
        let deepening = Deepening {
            state,
            legal: &legal,
            first_depth: 1,
            config: &config,
            clock: &clock,
        };
        if self.helpers.is_empty() {
            let mut searcher = Searcher::new(
                &self.tt,
                &mut self.tables,
                &clock,
                self.eval,
                root,
                features(&self.config, repetition),
            );
            return deepen(&mut searcher, &deepening, moves, info);
        }
        self.search_threads(&deepening, root, repetition, moves, info)
    }

    /// The search of [`Self::search`] with helper threads (Lazy SMP, see the module doc).
    fn search_threads(
        &mut self,
        deepening: &Deepening<'_, G>,
        root: Seat,
        repetition: i32,
        moves: Vec<G::Action>,
        info: &mut dyn FnMut(&Analysis<G::Action>),
    ) -> Analysis<G::Action> {
        let helper_stop = StopFlag::default();
        let helper_budget = Budget {
            time: None,
            nodes: u64::MAX,
            ..self.config.budget
        };
        let helper_clock = &Clock::start(helper_budget, &helper_stop);
        let (tt, eval, config) = (&self.tt, self.eval, &self.config);
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .helpers
                .iter_mut()
                .enumerate()
                .map(|(i, (tables, rng))| {
                    let mut moves = moves.clone();
                    moves.shuffle(rng);
                    let deepening = Deepening {
                        first_depth: 1 + (i as u32 + 1) % 2,
                        clock: helper_clock,
                        ..*deepening
                    };
                    scope.spawn(move || {
                        tables.order.new_search();
                        let mut searcher = Searcher::new(
                            tt,
                            tables,
                            deepening.clock,
                            eval,
                            root,
                            features(config, repetition),
                        );
                        deepen(&mut searcher, &deepening, moves, &mut |_| {})
                    })
                })
                .collect();
            let mut searcher = Searcher::new(
                tt,
                &mut self.tables,
                deepening.clock,
                eval,
                root,
                features(config, repetition),
            );
            let mut best = deepen(&mut searcher, deepening, moves, info);
            helper_stop.raise();
            for handle in handles {
                let Ok(helper) = handle.join() else { continue };
                best.nodes += helper.nodes;
                if helper.depth > best.depth {
                    best = Analysis {
                        nodes: best.nodes,
                        ..helper
                    };
                }
            }
            best
        })
    }
}

/// Iterative deepening of one thread from `deepening.first_depth`: the analysis of the last
/// completed iteration (see the module doc).
fn deepen<G: Game>(
    searcher: &mut Searcher<'_, G>,
    deepening: &Deepening<'_, G>,
    mut moves: Vec<G::Action>,
    info: &mut dyn FnMut(&Analysis<G::Action>),
) -> Analysis<G::Action> {
    let Deepening {
        state,
        legal,
        config,
        clock,
        ..
    } = *deepening;
    let mut analysis = Analysis::bare(moves[0]);
    // The analysis of the deepest iteration that may decide (`every`, `offset`).
    let mut decided: Option<Analysis<G::Action>> = None;
    let decides =
        |depth: u32| depth % config.decide_every == config.decide_offset % config.decide_every;
    for depth in deepening.first_depth..=config.budget.depth {
        searcher.horizon = false;
        let Some((best, score)) = searcher.root(state, depth, &moves, legal) else {
            break;
        };
        // The best decision goes first; the others keep their order.
        moves[..=best].rotate_right(1);
        let completed = if searcher.aborted {
            analysis.depth
        } else {
            depth
        };
        analysis = Analysis {
            action: moves[0],
            evaluation: Some(Evaluation::from_score(score)),
            depth: completed,
            nodes: searcher.nodes,
            pv: searcher.line(state, moves[0], completed.max(1) as usize),
        };
        // An unfinished iteration decides only with a decision it proved better than the
        // one searched first (which an iteration that does not decide may have chosen).
        if decides(depth) && (!searcher.aborted || best > 0) {
            decided = Some(analysis.clone());
        }
        if searcher.aborted {
            break;
        }
        info(&analysis);
        let out_of_time = !config.fill_time && clock.past_half();
        if !searcher.horizon || score.abs() >= MATE_BOUND || out_of_time {
            break;
        }
    }
    let mut analysis = decided.unwrap_or(analysis);
    analysis.nodes = searcher.nodes;
    analysis
}

impl<G: Game + Heuristic> Agent<G> for AlphaBetaAgent<G> {
    fn choose(&mut self, state: &G, stop: &StopFlag) -> G::Action {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        match actions[..] {
            [only] => only,
            _ => self.search(state, stop, &mut |_| {}).action,
        }
    }

    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        self.search(state, stop, &mut |_| {})
    }

    fn analyse_with(
        &mut self,
        state: &G,
        stop: &StopFlag,
        info: &mut dyn FnMut(&Analysis<G::Action>),
    ) -> Analysis<G::Action> {
        self.search(state, stop, info)
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn budget_mut(&mut self) -> Option<&mut Budget> {
        Some(&mut self.config.budget)
    }

    fn prepare(&mut self) -> usize {
        self.tt.allocate()
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};
    use ludus_engine::{Notation, Rules};

    use super::*;

    fn agent(text: &str) -> AlphaBetaAgent<Nim> {
        let spec: AgentSpec = text.parse().unwrap();
        AlphaBetaAgent::new(AlphaBetaConfig::from_spec(&spec).unwrap(), text.into(), 1)
    }

    #[test]
    fn solves_two_step_nim() {
        // A turn takes 2 to 4 stones (or the last ones), so piles of 5 or 6 (mod 6) lose for
        // the side to move. From 10, seat 1 wins by taking 2 and then 2 more to leave 6.
        let state = Nim::new(&NimOptions { pile: 10 }, 0);
        let analysis = agent("ai:alphabeta:depth=40").analyse(&state, &StopFlag::default());
        assert!(
            matches!(analysis.evaluation, Some(Evaluation::Win(_))),
            "{analysis:?}"
        );
        assert_eq!(analysis.action, 2);
        // Second decision of the turn: the same seat continues, and must take 2 more.
        let mut state = state;
        state.apply(2);
        let analysis = agent("ai:alphabeta:depth=40").analyse(&state, &StopFlag::default());
        assert_eq!(analysis.action, 2);
        assert!(matches!(analysis.evaluation, Some(Evaluation::Win(_))));
    }

    #[test]
    fn helpers_fill_the_time_unless_told_not_to() {
        let fill = |text: &str| {
            let spec: AgentSpec = text.parse().unwrap();
            AlphaBetaConfig::from_spec(&spec).unwrap().fill_time
        };
        assert!(!fill("ai:alphabeta"));
        assert!(!fill("ai:alphabeta:threads=1"));
        assert!(fill("ai:alphabeta:threads=1,fill=true"));
        assert!(fill("ai:alphabeta:threads=2"));
        assert!(!fill("ai:alphabeta:threads=2,fill=false"));
    }

    #[test]
    fn contempt_is_read_within_its_range() {
        let contempt = |text: &str| {
            let spec: AgentSpec = text.parse().unwrap();
            AlphaBetaConfig::from_spec(&spec).map(|config| config.contempt)
        };
        assert_eq!(contempt("ai:alphabeta").unwrap(), 0);
        assert_eq!(contempt("ai:alphabeta:contempt=-40").unwrap(), -40);
        for bad in ["contempt=100001", "contempt=1.5", "contempt=draw"] {
            let error = contempt(&format!("ai:alphabeta:{bad}")).unwrap_err();
            assert!(
                error.to_string().contains("from -100000 to 100000"),
                "{error}"
            );
        }
    }

    #[test]
    fn only_the_iterations_every_names_decide() {
        // A pile too large to solve in 5 decisions: every iteration ends at the horizon.
        let state = Nim::new(&NimOptions { pile: 200 }, 0);
        let depth = |params: &str| {
            let text = format!("ai:alphabeta:depth=5{params}");
            agent(&text).analyse(&state, &StopFlag::default()).depth
        };
        assert_eq!(depth(""), 5);
        assert_eq!(depth(",every=2"), 4);
        assert_eq!(depth(",every=2,offset=1"), 5);
        assert_eq!(depth(",every=4,offset=3"), 3);
        // None of 1..=5 is a multiple of 16: the last iteration decides.
        assert_eq!(depth(",every=16"), 5);
        let spec: AgentSpec = "ai:alphabeta:every=17".parse().unwrap();
        let error = AlphaBetaConfig::from_spec(&spec).unwrap_err().to_string();
        assert!(error.contains("from 1 to 16"), "{error}");
    }

    #[test]
    fn a_lost_position_is_seen_as_lost() {
        let state = Nim::from_position("11 1 0", &NimOptions::default()).unwrap();
        let analysis = agent("ai:alphabeta:depth=40").analyse(&state, &StopFlag::default());
        assert!(
            matches!(analysis.evaluation, Some(Evaluation::Loss(_))),
            "{analysis:?}"
        );
    }
}

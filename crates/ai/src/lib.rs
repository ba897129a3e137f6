//! Computer players that work on any Ludus game through the engine contract, and the arena
//! that measures them.
//!
//! An [`Agent`] chooses one decision at a time for the seat to move; a turn of several
//! decisions is several calls. [`AgentSpec`] reads the command line's `ai:LEVEL` and
//! `ai:AGENT:key=value,...` forms and [`build_agent`] makes the agent for a game type:
//!
//! | level | agent | module |
//! |---|---|---|
//! | 1 | `random` | [`RandomAgent`] |
//! | 2 | `greedy`: the game's level-2 heuristic, one decision ahead | [`GreedyAgent`] |
//! | 3 | `minimax` to 3 turns with that heuristic | [`MinimaxAgent`] |
//! | 4 | `alphabeta`: iterative deepening, transposition table, 1 s | [`AlphaBetaAgent`] |
//! | 5 | `best`: the game's own choice, `GameInfo::strongest` (see [`best_spec`]) | the chosen agent |
//!
//! Searches count depth in decisions (alpha-beta) or turns (minimax) and change the sign of a
//! score only when the side changes, never when the same seat decides again. Games of 3–4
//! seats are searched paranoid (the seat to move against all others) or, by MCTS, with a
//! reward per seat. [`Agent::analyse`] reports the decision with an [`Evaluation`] from the
//! seat to move's view ([`Agent::analyse_with`] also reports each completed iteration), and
//! [`AnyAgent`] does the same for an erased [`ludus_engine::AnyGame`], in notation. The
//! [`arena`] plays matches and round robins; [`bench_nodes`] is the search fingerprint for
//! `ludus bench`. Alpha-beta and MCTS search on several cores with `threads=N` (Lazy SMP on a
//! shared lock-free table; root parallelism); with `threads=1`, the default, they are
//! deterministic. [`tuning`] makes self-play data and fits a game's evaluation weights to it.
//!
//! ```
//! use ludus_ai::{build_agent, AgentSpec, StopFlag};
//! use ludus_engine::demo::{Nim, NimOptions};
//! use ludus_engine::{Notation, Rules};
//!
//! let spec: AgentSpec = "ai:4:depth=6".parse().unwrap();
//! let mut agent = build_agent::<Nim>(&spec, 7).unwrap();
//! let state = Nim::new(&NimOptions::default(), 0);
//! let analysis = agent.analyse(&state, &StopFlag::default());
//! assert!(state.is_legal(analysis.action));
//! println!("{} ({})", state.format_action(analysis.action), analysis.evaluation.unwrap());
//! ```
#![warn(missing_docs)]

mod agent;
mod alphabeta;
mod analysis;
mod any_agent;
pub mod arena;
mod bench;
mod best;
mod greedy;
mod mcts;
mod minimax;
mod params;
mod random;
mod score;
mod shuffling;
mod solver;
mod spec;
pub mod tablebase;
mod time_control;
pub mod tuning;

pub use agent::{build_agent, Agent, AgentError, StopFlag};
pub use alphabeta::{AlphaBetaAgent, AlphaBetaConfig, SearchBudget, MAX_HASH_MEGABYTES};
pub use analysis::{Analysis, Evaluation};
pub use any_agent::{erase, AnyAgent, AnyAnalysis};
pub use bench::{bench_nodes, bench_positions, meetings_of, time_agent, TimedDecision};
pub use best::{best_spec, resolve as resolve_best, DEFAULT as BEST_DEFAULT};
pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, MctsConfig, MeetingRates, Meetings, Parallel, MEETING_LEVELS};
pub use minimax::{MinimaxAgent, MinimaxConfig};
pub use params::MAX_THREADS;
pub use random::RandomAgent;
pub use score::EvalKind;
pub use shuffling::Shuffling;
pub use solver::{
    back_up, book_line, book_text, prove_value, split_positions, BackedUp, Book, BookError,
    BookTurn, Bounds, DecisionValue, DfpnResult, Proved, ProvedValue, Solution, SolveBudget,
    Solver, SolverAids, SolvingAgent, LEVEL_FIVE_WITHIN,
};
pub use spec::{AgentKind, AgentSpec};
pub use time_control::{
    budget_params, clock_share, time_budget, GoLimits, TimeControl, TimeControlError,
};

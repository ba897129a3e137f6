//! Computer players that work on any Ludus game through the engine contract.
//!
//! An [`Agent`] chooses one decision at a time for the seat to move; a turn of several
//! decisions is several calls. Agents are deterministic for a given seed. [`AgentSpec`] reads
//! the command line's `ai:LEVEL` and `ai:AGENT:key=value,...` forms, and [`AnyAgent`] plays an
//! erased [`ludus_engine::AnyGame`] for user interfaces.
//!
//! ```
//! use ludus_ai::{build_agent, AgentSpec, StopFlag};
//! use ludus_engine::demo::{Nim, NimOptions};
//! use ludus_engine::Game;
//!
//! let spec: AgentSpec = "ai:1".parse().unwrap();
//! let mut agent = build_agent::<Nim>(&spec, 7).unwrap();
//! let state = Nim::new(&NimOptions::default(), 0);
//! let action = agent.choose(&state, &StopFlag::default());
//! assert!(state.is_legal(action));
//! ```
#![warn(missing_docs)]

mod agent;
mod any_agent;
mod random;
mod spec;

pub use agent::{build_agent, Agent, AgentError, StopFlag};
pub use any_agent::{erase, AnyAgent};
pub use random::RandomAgent;
pub use spec::{AgentKind, AgentSpec};

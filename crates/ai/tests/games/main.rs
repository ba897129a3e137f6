//! The agents, the solver and the tuning on the games of the registry, as one test binary:
//! each of these files was a binary of its own, and each compiled the searches of every game
//! again (about 30 s apiece in CI). The tablebase tests stay apart (`tablebase.rs`,
//! `tablebase_draws.rs`): they install tables for the whole process, which the solver's
//! tests here must not see.

mod five_games;
mod golden;
mod shipped_books;
mod solver;
mod spsa;
mod threads;
mod tuning;

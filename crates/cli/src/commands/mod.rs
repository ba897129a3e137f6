//! One module per subcommand.

pub mod admin;
pub mod arena;
pub mod bench;
pub mod games;
pub mod perft;
pub mod play;
pub mod query;
pub mod replay;
pub mod serve;
pub mod serve_log;
pub mod solve;
pub mod tablebase;
mod tablebase_check;

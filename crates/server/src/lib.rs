//! The Ludus web server: the browser page and a JSON/WebSocket API over the games' registry,
//! `AnyGame` and the computer players.
//!
//! The server is authoritative: it holds every game ([`store`]), checks each action through
//! the rules and answers with a snapshot that carries a sequence number; the page only draws
//! snapshots and posts what a person chose. Computer players search on blocking threads, one
//! search per core shared fairly between clients, each with a stop flag that undo, resignation, deletion and shutdown raise.
//! `docs/API.md` is the contract.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let server = ludus_server::Server::bind("127.0.0.1:0", ludus_server::Config::default()).await?;
//! println!("{}", server.url());
//! server.run(ludus_server::shutdown_signal()).await
//! # }
//! ```
#![warn(missing_docs)]

mod api;
mod assets;
mod client;
mod config;
mod error;
pub mod frames;
mod hub;
mod limits;
mod live;
mod meta;
mod net;
mod pairing;
pub mod people;
mod protocol;
mod scheduler;
mod server;
pub mod sqlite;
pub mod store;
mod tokens;

pub use api::{check_host, check_origin, AccessError};
pub use config::Config;
pub use server::{shutdown_signal, BackgroundServer, BindError, Server};

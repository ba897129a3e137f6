//! API and WebSocket tests against a real server on 127.0.0.1:0, with a real HTTP client
//! (reqwest) and a real WebSocket client (tokio-tungstenite), as scripts and bots use it.

mod absence;
mod accounts;
mod caps;
mod chat;
mod clocks;
mod connections;
mod correspondence;
mod decisions;
mod deltas;
mod draws;
mod durability;
mod errors;
mod fair_play;
mod fairness;
mod games;
mod history;
mod limits;
mod online;
mod operations;
mod owner;
mod pairing;
mod people_routes;
mod people_support;
mod rated_endings;
mod reconnect;
mod restored;
mod searches;
mod sockets;
mod support;
mod takeback;
mod work;

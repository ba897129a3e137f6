//! The Ludus web server: the browser page and a JSON/WebSocket API over the games' registry,
//! `AnyGame` and the computer players (being built; `docs/API.md` is the contract).

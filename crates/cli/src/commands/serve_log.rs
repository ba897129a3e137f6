//! `ludus serve`'s log on stderr: the request log and warnings, through `tracing`.
//!
//! The default is `warn`, so a server whose stderr nobody reads (a pipe read only at the
//! end, as scripts and the load test do) never blocks on a full pipe; `--log info` (or
//! `LUDUS_LOG=info`) turns on one line per request. The server's request events never hold
//! a query string, a header or a body (see the server's `api/headers.rs`).

use anyhow::{anyhow, Result};
use ludus_server::Server;
use tracing_subscriber::EnvFilter;

/// The environment variable read when `--log` is not given.
const ENV: &str = "LUDUS_LOG";

/// Installs the stderr logger with `--log`'s filter, else `LUDUS_LOG`'s, else `warn`.
pub fn install(flag: Option<&str>) -> Result<()> {
    let from_env = std::env::var(ENV).ok();
    let (text, source) = match (flag, from_env.as_deref()) {
        (Some(text), _) => (text, "--log"),
        (None, Some(text)) if !text.trim().is_empty() => (text, ENV),
        _ => ("warn", "the default"),
    };
    let filter = EnvFilter::try_new(text).map_err(|e| {
        anyhow!("{source} '{text}' is not a log filter ({e}): expected a level such as info or warn, or a filter such as warn,ludus_server=info")
    })?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init()
        .map_err(|e| anyhow!("cannot start the log: {e}"))
}

/// Says who can reach the server: listening on loopback only, how to let the local network
/// in; on another address without `--allow-host`, how to restrict the `Host` names it answers.
pub fn say_who_can_reach(server: &Server, allowed: &[String]) {
    let Ok(local) = server.local_addr() else {
        return;
    };
    if local.ip().is_loopback() {
        eprintln!(
            "ludus: listening on this computer only ({local}); to let other computers on your network in, serve with --addr 0.0.0.0:{} and share links from the page opened at this computer's network address",
            local.port()
        );
        return;
    }
    if allowed.is_empty() {
        eprintln!(
            "ludus: listening on {local} and answering any Host name; pass --allow-host NAME (repeatable) with the names this server is reached by, to refuse others (DNS rebinding)"
        );
    }
}

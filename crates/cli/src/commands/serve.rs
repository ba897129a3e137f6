//! `ludus serve`: the browser page and its API on a local address, its games kept in a
//! SQLite database; `ludus serve --export DIR` writes the stored games as record files.
//!
//! The first line on stdout is the page's URL, flushed at once, so scripts can wait for it;
//! Ctrl-C or SIGTERM stops the server after stopping every running search.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{anyhow, Context, Result};
use ludus_server::sqlite::{stored_games, Damaged};
use ludus_server::{shutdown_signal, BindError, Config, Server};

use crate::args::ServeArgs;
use crate::commands::serve_log as log;

/// Serves until interrupted, or exports and exits.
pub fn run(args: &ServeArgs) -> Result<()> {
    let db = match &args.db {
        Some(path) => path.clone(),
        None => default_db()?,
    };
    if let Some(dir) = &args.export {
        return export(&db, dir);
    }
    let config = config(args, db.clone())?;
    log::install(args.log.as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let server = Server::bind(args.addr.as_str(), config)
            .await
            .map_err(|error| start_error(error, &args.addr))?;
        report_damaged(server.damaged());
        for warning in server.warnings() {
            eprintln!("ludus: {warning}");
        }
        eprintln!("ludus: games are kept in {}", db.display());
        log::say_who_can_reach(&server, &args.allow_hosts);
        // Listened for before the address is printed: whoever reads it may stop us at once.
        let shutdown = shutdown_signal();
        let url = server.url();
        let mut stdout = std::io::stdout();
        writeln!(stdout, "{url}")?;
        stdout.flush()?;
        if args.open {
            if let Err(error) = open_browser(&url) {
                eprintln!("ludus: could not open a browser ({error}); open {url} yourself");
            }
        }
        server.run(shutdown).await.context("the server stopped")
    })?;
    // Searches still finishing after their stop flag was raised are not waited for.
    runtime.shutdown_background();
    Ok(())
}

/// The server's configuration from the flags, each checked.
fn config(args: &ServeArgs, db: PathBuf) -> Result<Config> {
    if !(args.grace_seconds.is_finite() && args.grace_seconds >= 0.0) {
        return Err(anyhow!(
            "--grace-seconds {}: expected a number of seconds, 0 or more",
            args.grace_seconds
        ));
    }
    if !(args.abandon_after_hours.is_finite() && args.abandon_after_hours >= 0.0) {
        return Err(anyhow!(
            "--abandon-after-hours {}: expected a number of hours, 0 (never) or more",
            args.abandon_after_hours
        ));
    }
    Ok(Config {
        db: Some(db),
        games_per_client: args.games_per_client,
        actions_per_second: args.actions_per_second,
        action_burst: args.actions_per_second.saturating_mul(2),
        grace_seconds: args.grace_seconds,
        allowed_origins: args.allow_origins.clone(),
        games_per_client_per_day: args.games_per_client_per_day,
        max_games_in_progress: usize::try_from(args.max_games_in_progress).unwrap_or(usize::MAX),
        abandon_after_seconds: args.abandon_after_hours * 3600.0,
        max_hash_mb: args.max_hash_mb,
        max_queued_hints: args.max_queued_hints,
        allowed_hosts: args.allow_hosts.clone(),
        max_connections: args.max_connections,
        connections_per_client: args.connections_per_client,
        max_websockets: args.max_websockets,
        websockets_per_client: args.websockets_per_client,
        trust_proxy: args.trust_proxy,
        public_url: args.public_url.clone(),
        signups_per_hour: args.signups_per_hour,
        ..Config::default()
    })
}

/// The start error in one line: the database's own (it names the file and the cause), or
/// the address that could not be listened on.
fn start_error(error: BindError, addr: &str) -> anyhow::Error {
    match error {
        BindError::Database(message) => anyhow!("cannot start: {message}"),
        BindError::Config(error) => anyhow!("cannot start: {error}"),
        BindError::Listen(error) => {
            anyhow!("cannot listen on {addr}: {error}: expected a free HOST:PORT")
        }
        random @ BindError::Random(_) => anyhow!("{random}"),
    }
}

/// `games.sqlite3` in the user's data directory, created if missing.
fn default_db() -> Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "ludus")
        .ok_or_else(|| anyhow!("no home directory for the games' database: pass --db FILE"))?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create {}: pass --db FILE", dir.display()))?;
    Ok(dir.join("games.sqlite3"))
}

fn report_damaged(damaged: &[Damaged]) {
    for game in damaged {
        eprintln!(
            "ludus: stored game {} is damaged and was skipped (left unchanged in the database): {}",
            game.id, game.reason
        );
    }
}

/// Writes every stored game into `dir` as `ID.json`, a record `ludus replay` reads.
fn export(db: &Path, dir: &Path) -> Result<()> {
    if !db.exists() {
        return Err(anyhow!(
            "no database at {}: expected the --db FILE a server wrote",
            db.display()
        ));
    }
    let (games, damaged) = stored_games(db).map_err(|e| anyhow!("{}", e.0))?;
    report_damaged(&damaged);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (id, game) in &games {
        let path = dir.join(format!("{id}.json"));
        ludus_games::save_record_file(&path, &game.record())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!("{} games written to {}", games.len(), dir.display());
    Ok(())
}

/// Opens `url` with the desktop's opener (`xdg-open`, or `open` on macOS).
fn open_browser(url: &str) -> Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("{opener} is not available"))?;
    Ok(())
}

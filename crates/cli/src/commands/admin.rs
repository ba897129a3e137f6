//! `ludus admin --db FILE ACTION`: the administrator's tools on a server's database. Each
//! action opens the file on its own, so it works while `ludus serve` runs on it (SQLite's
//! write-ahead log lets both work; a write waits for the server's at most a few seconds).

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use ludus_server::people::{People, Throttle};
use ludus_server::sqlite::admin;
use ludus_server::sqlite::stored_games;

use crate::args::{AdminAction, AdminArgs};

/// Runs `ludus admin`.
pub fn run(args: &AdminArgs) -> Result<()> {
    let db = args.db.as_path();
    if !db.is_file() {
        bail!(
            "no database at {}: expected the file a server was started with (--db)",
            db.display()
        );
    }
    match &args.action {
        AdminAction::Backup { out } => {
            admin::backup(db, out).map_err(|e| anyhow!(e.0))?;
            say(
                args.json,
                &serde_json::json!({"backup": out}),
                &format!("backed up to {}", out.display()),
            );
        }
        AdminAction::Compact { out } => {
            let bytes = admin::compact(db, out).map_err(|e| anyhow!(e.0))?;
            say(
                args.json,
                &serde_json::json!({"compact": out, "bytes": bytes}),
                &format!("compacted into {} ({bytes} bytes)", out.display()),
            );
        }
        AdminAction::Check => return check(db, args.json),
        AdminAction::Games => games(db, args.json)?,
        AdminAction::DeleteGame { id } => {
            if !admin::delete_game(db, id).map_err(|e| anyhow!(e.0))? {
                bail!(
                    "no game '{id}' in {}: expected an id from `ludus admin games`",
                    db.display()
                );
            }
            say(
                args.json,
                &serde_json::json!({"deleted": id}),
                &format!("deleted game {id}"),
            );
        }
        AdminAction::Users => users(db, args.json)?,
        AdminAction::Ban { name } => ban(db, name, true, args.json)?,
        AdminAction::Unban { name } => ban(db, name, false, args.json)?,
        AdminAction::ResetPassword { name } => reset_password(db, name, args.json)?,
    }
    Ok(())
}

fn say(json: bool, value: &serde_json::Value, line: &str) {
    if json {
        println!("{value}");
    } else {
        println!("{line}");
    }
}

fn people(db: &Path) -> Result<People> {
    People::open(Some(db), false, Throttle::default())
        .map_err(|e| anyhow!("database {}: {e}", db.display()))
}

fn check(db: &Path, json: bool) -> Result<()> {
    let (good, damaged) = stored_games(db).map_err(|e| anyhow!(e.0))?;
    if json {
        let damaged: Vec<_> = damaged
            .iter()
            .map(|d| serde_json::json!({"id": d.id, "reason": d.reason}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"games": good.len(), "damaged": damaged})
        );
    } else {
        for game in &damaged {
            println!("damaged {}: {}", game.id, game.reason);
        }
        println!(
            "{} games replay through the rules, {} damaged",
            good.len(),
            damaged.len()
        );
    }
    if damaged.is_empty() {
        Ok(())
    } else {
        bail!("{} damaged games in {}", damaged.len(), db.display())
    }
}

fn games(db: &Path, json: bool) -> Result<()> {
    let games = admin::games(db).map_err(|e| anyhow!(e.0))?;
    if json {
        println!("{}", serde_json::to_string(&games)?);
        return Ok(());
    }
    for game in games {
        let state = if game.finished_ms.is_some() {
            "finished"
        } else {
            "in progress"
        };
        println!(
            "{}  {:<8} {:<12} {:>5} changes  {}",
            game.id,
            game.game,
            state,
            game.changes,
            game.names.join(" vs ")
        );
    }
    Ok(())
}

fn users(db: &Path, json: bool) -> Result<()> {
    let users = people(db)?.users().map_err(|e| anyhow!(e.message))?;
    if json {
        println!("{}", serde_json::to_string(&users)?);
        return Ok(());
    }
    for user in users {
        let marks = match (user.bot, user.banned) {
            (true, true) => "bot, closed",
            (true, false) => "bot",
            (false, true) => "closed",
            (false, false) => "",
        };
        println!(
            "{:<20} {:>5} rated games  {marks}",
            user.name, user.rated_games
        );
    }
    Ok(())
}

fn ban(db: &Path, name: &str, banned: bool, json: bool) -> Result<()> {
    let people = people(db)?;
    if !runtime()?
        .block_on(people.ban(name, banned))
        .map_err(|e| anyhow!(e.message))?
    {
        bail!("no account '{name}': expected a name from `ludus admin users`");
    }
    let done = if banned { "closed" } else { "opened again" };
    say(
        json,
        &serde_json::json!({"name": name, "banned": banned}),
        &format!("account {name} {done}"),
    );
    Ok(())
}

fn reset_password(db: &Path, name: &str, json: bool) -> Result<()> {
    let people = people(db)?;
    let id = people
        .id_of(name)
        .map_err(|e| anyhow!(e.message))?
        .ok_or_else(|| anyhow!("no account '{name}': expected a name from `ludus admin users`"))?;
    let password = ludus_server::people::random_password()?;
    let runtime = runtime()?;
    runtime
        .block_on(people.set_password(id, &password))
        .map_err(|e| anyhow!(e.message))?;
    runtime
        .block_on(people.end_sessions(id, None))
        .map_err(|e| anyhow!(e.message))?;
    say(
        json,
        &serde_json::json!({"name": name, "password": password}),
        &format!("new password of {name} (shown once): {password}"),
    );
    Ok(())
}

/// A runtime on this thread for the accounts' writes, which are awaited (the server awaits
/// them on its own runtime; here the database has no writer thread and they run at once).
fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

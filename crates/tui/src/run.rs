//! Running the app: terminal set-up and restore (also after a panic or SIGTERM/SIGHUP), the loop (draw, wait for
//! a message or the next tick, update, run the commands), and the commands' effects.

use std::io::stdout;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::DefaultTerminal;

use super::app::{App, TICK_MS};
use super::event;
use super::msg::{Cmd, Msg};
use super::signals::{stopped_by, Signals};
use super::update::update;
use super::view::view;
use super::worker::{AiRunner, Worker, THREAD_NAME};

/// Runs `cmd`'s effects; answers that are ready at once are pushed to `out`.
pub fn perform(cmd: Cmd, ai: &mut dyn AiRunner, out: &mut Vec<Msg>) {
    match cmd {
        Cmd::Think(job) => out.extend(ai.start(job)),
        Cmd::Stop(flag) => flag.raise(),
        Cmd::Save { path, record } => {
            let result = ludus_games::save_record_file(&path, &record).map_err(|e| e.to_string());
            out.push(Msg::Saved { path, result });
        }
        Cmd::Load(path) => {
            let result = ludus_games::load_record_file(&path)
                .and_then(|record| ludus_games::load_record(&record))
                .map_err(|e| e.to_string());
            out.push(Msg::Loaded { path, result });
        }
        Cmd::ListSaves => out.push(Msg::SavesFound(saved_games(std::path::Path::new(".")))),
        Cmd::RememberTheme(index) => {
            if let Err(reason) = super::theme_store::remember(index) {
                out.push(Msg::ThemeNotRemembered(reason.to_string()));
            }
        }
        Cmd::Quit => {}
        Cmd::Batch(cmds) => {
            for cmd in cmds {
                perform(cmd, ai, out);
            }
        }
    }
}

/// The record files (`.json`, `.txt`) in `dir`, newest first, at most 50.
pub fn saved_games(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, String)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let extension = std::path::Path::new(&name)
                .extension()?
                .to_ascii_lowercase();
            let meta = entry.metadata().ok().filter(std::fs::Metadata::is_file)?;
            (extension == "json" || extension == "txt")
                .then(|| (meta.modified().unwrap_or(std::time::UNIX_EPOCH), name))
        })
        .collect();
    found.sort_by(|a, b| b.cmp(a));
    found.into_iter().take(50).map(|(_, name)| name).collect()
}

/// Updates the app with `msg`, then with every answer its effects produce at once.
pub fn process(app: &mut App, msg: Msg, ai: &mut dyn AiRunner) {
    let mut queue = vec![msg];
    while !queue.is_empty() {
        let msg = queue.remove(0);
        if let Some(cmd) = update(app, msg) {
            perform(cmd, ai, &mut queue);
        }
    }
}

/// Runs the app in the terminal until it quits; `first` is an effect to run before the first
/// message (a computer's first move). The terminal is restored on every way out.
pub fn run(mut app: App, first: Option<Cmd>) -> Result<()> {
    // try_init: a terminal that refuses raw mode is an error line, not a panic.
    let mut terminal = ratatui::try_init()?;
    let _restore = Restore;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some(THREAD_NAME) {
            return; // the worker catches it and reports it as a message; the screen stays
        }
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
    let _ = execute!(stdout(), EnableMouseCapture);
    run_loop(&mut terminal, &mut app, first)
}

/// Gives the terminal back (mouse off, raw mode off, main screen) when dropped: on every way
/// out of [`run`], an error returned with `?` and an unwinding panic included.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

fn run_loop(terminal: &mut DefaultTerminal, app: &mut App, first: Option<Cmd>) -> Result<()> {
    let signals = Signals::watch();
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    let (sender, inbox) = mpsc::channel();
    event::spawn(sender.clone());
    let mut worker = Worker::spawn(sender);
    if let Some(cmd) = first {
        let mut answers = Vec::new();
        perform(cmd, &mut worker, &mut answers);
        for msg in answers {
            process(app, msg, &mut worker);
        }
    }
    let tick = Duration::from_millis(TICK_MS);
    let mut last_tick = Instant::now();
    while !app.quit {
        terminal.draw(|frame| view(app, frame))?;
        if !wait(
            app,
            &inbox,
            &mut worker,
            tick.saturating_sub(last_tick.elapsed()),
        ) {
            break;
        }
        if let Some(signal) = signals.caught() {
            return stopped_by(app, signal);
        }
        if last_tick.elapsed() >= tick {
            last_tick = Instant::now();
            process(app, Msg::Tick, &mut worker);
        }
    }
    Ok(())
}

/// Waits up to `timeout` for messages and handles all that are ready; false when the
/// channel is closed.
fn wait(app: &mut App, inbox: &Receiver<Msg>, worker: &mut Worker, timeout: Duration) -> bool {
    match inbox.recv_timeout(timeout) {
        Ok(msg) => process(app, msg, worker),
        Err(RecvTimeoutError::Timeout) => return true,
        Err(RecvTimeoutError::Disconnected) => return false,
    }
    while let Ok(msg) = inbox.try_recv() {
        process(app, msg, worker);
        if app.quit {
            break;
        }
    }
    true
}

//! `ludus ugi GAME`: Ludus as an engine that tournament managers drive over a pipe, with the
//! UGI protocol (UCI's shape for any game, as cutegames speaks it). `docs/UGI.md` documents
//! every command with a transcript.
//!
//! The loop reads one line at a time from the driver and answers through [`Output`], which
//! the search thread shares. No line stops the engine except `quit` and the end of the input:
//! a bad one (unknown, malformed, not UTF-8, too long) gets `info string error ...`.

mod command;
mod engine;
mod go;
mod kept;
mod search;

use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};

use anyhow::Result;

use self::command::parse;
use self::engine::Engine;
use crate::args::UgiArgs;

/// The longest line read; longer ones are refused (position strings and move lists of any
/// real game are far shorter).
const MAX_LINE: usize = 1 << 20;

/// Where the engine's lines go, shared by the command loop and the search thread. Each line is
/// written whole and flushed at once, since the driver waits for it.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ugi output")
    }
}

impl Output {
    /// Output to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(sink)))
    }

    /// Writes one line. A driver that closed its end no longer listens: errors are dropped,
    /// and the loop ends when the input ends.
    pub fn line(&self, text: &str) {
        let mut sink = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = writeln!(sink, "{text}").and_then(|()| sink.flush());
    }
}

/// Runs `ludus ugi`: reads commands from stdin until `quit` or the end of input.
pub fn run(args: &UgiArgs) -> Result<()> {
    let game = ludus_games::new_game(&args.game, &args.options, None, 0)?;
    let agent = match &args.agent {
        Some(text) => {
            // Refused here, before any protocol, with the usual one-line error.
            ludus_tui::players::Player::parse(text, game.info().id, 0)?;
            Some(text.parse()?)
        }
        None => None,
    };
    let out = Output::new(Box::new(std::io::stdout()));
    serve(
        std::io::stdin().lock(),
        game,
        args.options.clone(),
        agent,
        out,
    );
    Ok(())
}

/// The command loop over any input, for the binary and for tests.
pub fn serve(
    mut input: impl BufRead,
    game: ludus_engine::AnyGame,
    rules: Vec<String>,
    agent: Option<ludus_ai::AgentSpec>,
    out: Output,
) {
    let mut engine = Engine::new(game, rules, agent, out);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match read_line(&mut input, &mut buffer) {
            Ok(Line::End) | Err(_) => break,
            Ok(Line::TooLong) => {
                engine.error(&format!("line longer than {MAX_LINE} bytes ignored"));
                continue;
            }
            Ok(Line::Text) => {}
        }
        let Ok(text) = std::str::from_utf8(&buffer) else {
            engine.error("line is not UTF-8 text: ignored");
            continue;
        };
        match parse(text) {
            Ok(None) => {}
            Ok(Some(command)) => {
                if !engine.handle(command) {
                    return;
                }
            }
            Err(e) => engine.error(&e.to_string()),
        }
    }
    // The driver closed the pipe: end the search so that its bestmove is printed.
    engine.finish_search();
}

enum Line {
    Text,
    TooLong,
    End,
}

/// Reads one line (without its end) into `buffer`, at most [`MAX_LINE`] bytes of it.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<Line> {
    let read = input
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', buffer)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if buffer.last() == Some(&b'\n') {
        buffer.pop();
        if buffer.last() == Some(&b'\r') {
            buffer.pop();
        }
        return Ok(Line::Text);
    }
    if read < MAX_LINE {
        return Ok(Line::Text);
    }
    // Skip the rest of the overlong line.
    loop {
        let mut rest = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut rest)?;
        if n == 0 || rest.last() == Some(&b'\n') {
            return Ok(Line::TooLong);
        }
    }
}

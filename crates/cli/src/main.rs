//! `ludus`: play five abstract strategy games in the terminal, and query, test and measure
//! their engines from the command line.
#![warn(missing_debug_implementations)]

mod args;
mod board_text;
mod commands;
mod output;
mod players;
mod printable;
mod setup;
mod tui;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None if tui::is_terminal() => tui::run_menu(),
        None => commands::play::run_menu(),
        Some(Command::Play(args)) if args.plain || !tui::is_terminal() => {
            commands::play::run(&args)
        }
        Some(Command::Play(args)) => tui::run_play(&args),
        Some(Command::Moves(args)) => commands::query::moves(&args),
        Some(Command::Position(args)) => commands::query::position(&args),
        Some(Command::Perft(args)) => commands::perft::run(&args),
        Some(Command::Bench(args)) => commands::bench::run(&args),
        Some(Command::Replay(args)) => commands::replay::run(&args),
        Some(Command::Arena(args)) => commands::arena::run(&args),
        Some(Command::Games) => commands::games::run(),
    };
    exit_status(result.and_then(|()| Ok(output::flush()?)))
}

/// The exit status of a command's result, with its error printed as one line on stderr. A
/// closed standard output (the reader of a pipe stopped reading) is a quiet success.
fn exit_status(result: anyhow::Result<()>) -> ExitCode {
    let Err(error) = result else {
        return ExitCode::SUCCESS;
    };
    if error
        .downcast_ref::<output::StdoutError>()
        .is_some_and(output::StdoutError::is_closed_pipe)
    {
        return ExitCode::SUCCESS;
    }
    // Escaped: errors quote input. Not eprintln!: it panics when stderr is closed too.
    let message = printable::printable(&format!("{error:#}"));
    let _ = writeln!(std::io::stderr(), "ludus: {message}");
    ExitCode::FAILURE
}

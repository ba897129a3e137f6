//! `ludus`: play five abstract strategy games in the terminal, and query, test and measure
//! their engines from the command line.
#![warn(missing_debug_implementations)]

mod args;
mod board_text;
mod bot;
mod commands;
mod loadtest;
mod output;
mod players;
mod printable;
mod setup;
mod tui;
mod ugi;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let (Some(Command::Arena(args)), Some(("arena", arena))) =
        (&mut cli.command, matches.subcommand())
    {
        args.order = args::player_order(arena);
    }
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
        Some(Command::Solve(args)) => commands::solve::run(&args),
        Some(Command::Replay(args)) => commands::replay::run(&args),
        Some(Command::Arena(args)) => commands::arena::run(&args),
        Some(Command::Games) => commands::games::run(),
        Some(Command::Ugi(args)) => ugi::run(&args),
        Some(Command::Datagen(args)) => commands::tuning::datagen(&args),
        Some(Command::Tune(args)) => commands::tuning::tune(&args),
        Some(Command::Spsa(args)) => commands::spsa::run(&args),
        Some(Command::Book(args)) => commands::book::run(&args),
        Some(Command::Serve(args)) => commands::serve::run(&args),
        Some(Command::Loadtest(args)) => loadtest::run(&args),
        Some(Command::Admin(args)) => commands::admin::run(&args),
        Some(Command::Bot(args)) => bot::run(&args),
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
    let message = printable::printable(&one_line(&error));
    let _ = writeln!(std::io::stderr(), "ludus: {message}");
    ExitCode::FAILURE
}

/// The error and its causes on one line, each said once: a cause whose text the message
/// already holds (a library error that quotes its source) is not repeated.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

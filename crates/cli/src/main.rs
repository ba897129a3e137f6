//! `ludus`: play five abstract strategy games in the terminal, and query, test and measure
//! their engines from the command line.
#![warn(missing_debug_implementations)]

mod args;
mod board_text;
mod commands;
mod players;
mod setup;
mod tui;
mod ugi;

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
        Some(Command::Serve(args)) => commands::serve::run(&args),
        Some(Command::Ugi(args)) => ugi::run(&args),
        Some(Command::Datagen(args)) => commands::tuning::datagen(&args),
        Some(Command::Tune(args)) => commands::tuning::tune(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ludus: {error:#}");
            ExitCode::FAILURE
        }
    }
}

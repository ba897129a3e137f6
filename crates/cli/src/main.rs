//! `ludus`: play five abstract strategy games in the terminal, and query, test and measure
//! their engines from the command line.
#![warn(missing_debug_implementations)]

mod args;
mod commands;
mod lab;
mod output;
mod setup;
mod ugi;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::args::{Cli, Command};

/// mimalloc instead of the system's allocator: the server frees most blocks on another thread
/// than the one that allocated them (a frame built under a game's lock, sent by each socket's
/// task), which glibc's allocator pays for (docs/SCALING.md, "What was tried").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let (Some(Command::Arena(args)), Some(("arena", arena))) =
        (&mut cli.command, matches.subcommand())
    {
        args.order = args::player_order(arena);
    }
    ludus_ai::tablebase::install(commands::tablebase::directory(cli.tablebases));
    let result = match (cli.command, cli.theme) {
        (None, theme) if ludus_tui::is_terminal() => {
            ludus_tui::run_play(ludus_tui::Start::Menu, theme.as_deref())
        }
        (None, theme) => commands::play::run_menu(theme.as_deref()),
        (Some(Command::Play(mut args)), theme) => {
            args.theme = args.theme.or(theme);
            play(&args)
        }
        (Some(_), Some(_)) => Err(anyhow::anyhow!(
            "--theme is for the game app: give it to 'ludus' alone or to 'ludus play'"
        )),
        (Some(command), None) => run_command(command),
    };
    exit_status(result.and_then(|()| Ok(output::flush()?)))
}

/// `ludus play`: the app on a terminal, else the line mode.
fn play(args: &args::PlayArgs) -> anyhow::Result<()> {
    if args.plain || !ludus_tui::is_terminal() {
        commands::play::run(args)
    } else {
        ludus_tui::run_play(setup::app_start(args)?, args.theme.as_deref())
    }
}

fn run_command(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Play(args) => play(&args),
        Command::Moves(args) => commands::query::moves(&args),
        Command::Position(args) => commands::query::position(&args),
        Command::Perft(args) => commands::perft::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Tablebase(args) => commands::tablebase::run(&args),
        Command::Replay(args) => commands::replay::run(&args),
        Command::Arena(args) => commands::arena::run(&args),
        Command::Games => commands::games::run(),
        Command::Ugi(args) => ugi::run(&args),
        Command::Datagen(args) => lab::tuning::datagen(&args),
        Command::Tune(args) => lab::tuning::tune(&args),
        Command::Spsa(args) => lab::spsa::run(&args),
        Command::Book(args) => lab::book::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
        Command::Admin(args) => commands::admin::run(&args),
    }
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
    let message = ludus_engine::printable::printable(&one_line(&error));
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

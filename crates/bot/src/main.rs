//! `ludus-bot`: a UGI engine connected to a Ludus server as a bot account, apart from the
//! player's `ludus` binary so that its HTTP and WebSocket client stack is not linked there.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use ludus_bot::BotArgs;
use ludus_engine::printable::printable;

fn main() -> ExitCode {
    let args = BotArgs::parse();
    match ludus_bot::run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One line, its causes after colons; quoted input made safe to echo.
            let message = printable(&format!("{error:#}"));
            let _ = writeln!(std::io::stderr(), "ludus-bot: {message}");
            ExitCode::FAILURE
        }
    }
}

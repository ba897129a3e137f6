//! `ludus-loadtest`: a load-test client for a Ludus server, apart from the player's `ludus`
//! binary so that its HTTP and WebSocket client stack is not linked there.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::Parser;
use ludus_engine::printable::printable;
use ludus_loadtest::LoadtestArgs;

/// mimalloc, as the server uses: the clients share the machine's cores with the server they
/// load, and the system's allocator was a tenth of their CPU (`malloc_consolidate`,
/// `_int_malloc`, `_int_free`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = LoadtestArgs::parse();
    let Err(error) = ludus_loadtest::run(&args) else {
        return ExitCode::SUCCESS;
    };
    // The reader of a pipe stopped reading: it has all it wanted.
    let closed = error
        .downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == ErrorKind::BrokenPipe);
    if closed {
        return ExitCode::SUCCESS;
    }
    // One line, its causes after colons; quoted input made safe to echo.
    let message = printable(&format!("{error:#}"));
    let _ = writeln!(std::io::stderr(), "ludus-loadtest: {message}");
    ExitCode::FAILURE
}

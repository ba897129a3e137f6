//! `ludus serve`: the browser page and its API on a local address.
//!
//! The first line on stdout is the page's URL, flushed at once, so scripts can wait for it;
//! Ctrl-C or SIGTERM stops the server after stopping every running search.

use std::io::Write;
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use ludus_server::{shutdown_signal, Config, Server};

use crate::args::ServeArgs;

/// Serves until interrupted.
pub fn run(args: &ServeArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let server = Server::bind(args.addr.as_str(), Config::default())
            .await
            .with_context(|| {
                format!("cannot listen on {}: expected a free HOST:PORT", args.addr)
            })?;
        let url = server.url();
        let mut stdout = std::io::stdout();
        writeln!(stdout, "{url}")?;
        stdout.flush()?;
        if args.open {
            if let Err(error) = open_browser(&url) {
                eprintln!("ludus: could not open a browser ({error}); open {url} yourself");
            }
        }
        server
            .run(shutdown_signal())
            .await
            .context("the server stopped")
    })?;
    // Searches still finishing after their stop flag was raised are not waited for.
    runtime.shutdown_background();
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

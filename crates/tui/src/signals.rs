//! Stopping the app from outside. SIGTERM (`kill`, a shutdown) and SIGHUP (the terminal window
//! closed) end the loop like a quit instead of killing the process on the spot: the terminal is
//! given back (raw mode and the alternate screen off) and a game with unsaved moves is saved
//! first, so closing a window never loses a game.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use anyhow::{anyhow, Result};

use super::app::App;

/// The signals caught since the app started.
pub struct Signals(Arc<AtomicUsize>);

impl Signals {
    /// Catches SIGTERM and SIGHUP from now on (until the process ends). If the handlers cannot
    /// be installed the app still runs; those signals then end it as before.
    pub fn watch() -> Signals {
        let caught = Arc::new(AtomicUsize::new(0));
        for signal in WATCHED {
            #[allow(clippy::cast_sign_loss)] // signal numbers are small and positive
            let _ = signal_hook::flag::register_usize(signal, Arc::clone(&caught), signal as usize);
        }
        Signals(caught)
    }

    /// The name of the signal caught, if any.
    pub fn caught(&self) -> Option<&'static str> {
        let number = self.0.load(Ordering::Relaxed);
        (number != 0).then(|| signal_name(number))
    }
}

#[cfg(unix)]
const WATCHED: [i32; 2] = [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP];
#[cfg(not(unix))]
const WATCHED: [i32; 1] = [signal_hook::consts::SIGTERM];

fn signal_name(number: usize) -> &'static str {
    #[cfg(unix)]
    if number == signal_hook::consts::SIGHUP as usize {
        return "SIGHUP";
    }
    if number == signal_hook::consts::SIGTERM as usize {
        "SIGTERM"
    } else {
        "a signal"
    }
}

/// Ends the app after `signal`: saves a game with unsaved moves (to the file it was last saved
/// to, else to a new `ludus-GAME-stopped-SECONDS.json` here), and says so as the app's error,
/// which is printed once the terminal is back.
pub fn stopped_by(app: &App, signal: &str) -> Result<()> {
    let Some(play) = app.screen.play().filter(|play| play.unsaved()) else {
        return Err(anyhow!("stopped by {signal}"));
    };
    let path = play.save_path.clone().unwrap_or_else(|| {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        PathBuf::from(format!(
            "ludus-{}-stopped-{seconds}.json",
            play.game.info().id
        ))
    });
    match ludus_games::save_record_file(&path, &play.game.record()) {
        Ok(()) => Err(anyhow!(
            "stopped by {signal}; the game was saved to {}",
            path.display()
        )),
        Err(error) => Err(anyhow!(
            "stopped by {signal}; the game could not be saved to {}: {error}",
            path.display()
        )),
    }
}

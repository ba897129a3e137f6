//! What the clients count while they play: move latencies (an HDR histogram, so percentiles
//! cost nothing to keep), acknowledged moves, finished games, games made by pairing (their
//! latency, and how the seeker's token came), and errors by kind with the first message of
//! each kind. Each game slot keeps its own; they are merged at the end.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

use super::people::PairingNote;

/// The longest latency the histogram holds exactly, in microseconds (a minute); longer ones
/// are counted as this.
const MAX_MICROS: u64 = 60_000_000;

/// One kind of error: how many, and the first message.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorKind {
    /// How many times it happened.
    pub count: u64,
    /// The first message of this kind.
    pub first: String,
}

/// Counts kept by one game slot, or by all of them merged.
#[derive(Debug)]
pub struct Tally {
    latencies: Histogram<u64>,
    /// Moves acknowledged (the mover's socket received the snapshot with the new `seq`).
    pub moves: u64,
    /// Games played to their end.
    pub finished: u64,
    /// Errors by kind.
    pub errors: BTreeMap<&'static str, ErrorKind>,
    /// Pairing latencies (seek posted to both tokens in hand) while the load was set up and
    /// while the games were played, each made on its first game paired: a run without
    /// accounts keeps none.
    pairings: [Option<Histogram<u64>>; 2],
    /// Games made by pairing.
    pub paired: u64,
    /// Of them, made while the games were played (replacing a finished one).
    pub paired_in_play: u64,
    /// Of them, the seeker's token came on its lobby socket.
    pub via_lobby: u64,
    /// `started` frames the lobby sockets should hear for these games.
    pub started_expected: u64,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            // Three significant digits between 1 µs and a minute: constant, valid bounds.
            latencies: Histogram::new_with_bounds(1, MAX_MICROS, 3)
                .expect("constant histogram bounds are valid"),
            moves: 0,
            finished: 0,
            errors: BTreeMap::new(),
            pairings: [None, None],
            paired: 0,
            paired_in_play: 0,
            via_lobby: 0,
            started_expected: 0,
        }
    }
}

impl Tally {
    /// A move acknowledged after `latency`.
    pub fn acknowledged(&mut self, latency: Duration) {
        self.moves += 1;
        let micros = (latency.as_micros() as u64).clamp(1, MAX_MICROS);
        self.latencies.saturating_record(micros);
    }

    /// A game made by pairing, as `note` says it went; `in_play`: while the games were played.
    pub fn paired(&mut self, note: PairingNote, in_play: bool) {
        self.paired += 1;
        self.paired_in_play += u64::from(in_play);
        self.via_lobby += u64::from(note.via_lobby);
        self.started_expected += note.started_expected;
        if let Some(message) = note.late_started {
            self.error("started", message);
        }
        let micros = (note.latency.as_micros() as u64).clamp(1, MAX_MICROS);
        self.pairings[usize::from(in_play)]
            .get_or_insert_with(pairing_histogram)
            .saturating_record(micros);
    }

    /// The latency at quantile `q` of the pairings while set up (`in_play` false) or while
    /// playing, in milliseconds (0 without pairings).
    pub fn pairing_ms(&self, in_play: bool, q: f64) -> f64 {
        self.pairings[usize::from(in_play)]
            .as_ref()
            .map_or(0.0, |h| h.value_at_quantile(q) as f64 / 1000.0)
    }

    /// The longest pairing while set up or while playing, in milliseconds.
    pub fn max_pairing_ms(&self, in_play: bool) -> f64 {
        self.pairings[usize::from(in_play)]
            .as_ref()
            .map_or(0.0, |h| h.max() as f64 / 1000.0)
    }

    /// An error of `kind`, with its message.
    pub fn error(&mut self, kind: &'static str, message: impl Into<String>) {
        self.errors
            .entry(kind)
            .and_modify(|e| e.count += 1)
            .or_insert_with(|| ErrorKind {
                count: 1,
                first: message.into(),
            });
    }

    /// Every error, of any kind.
    pub fn error_count(&self) -> u64 {
        self.errors.values().map(|e| e.count).sum()
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Tally) {
        // Both histograms have the same bounds, so adding cannot fail.
        let _ = self.latencies.add(&other.latencies);
        self.moves += other.moves;
        self.finished += other.finished;
        self.paired += other.paired;
        self.paired_in_play += other.paired_in_play;
        self.via_lobby += other.via_lobby;
        self.started_expected += other.started_expected;
        for (mine, theirs) in self.pairings.iter_mut().zip(other.pairings) {
            if let Some(theirs) = theirs {
                let _ = mine.get_or_insert_with(pairing_histogram).add(&theirs);
            }
        }
        for (kind, error) in other.errors {
            self.errors
                .entry(kind)
                .and_modify(|e| e.count += error.count)
                .or_insert(error);
        }
    }

    /// The latency at quantile `q` (0.5 for the median), in milliseconds.
    pub fn latency_ms(&self, q: f64) -> f64 {
        self.latencies.value_at_quantile(q) as f64 / 1000.0
    }

    /// The longest latency, in milliseconds.
    pub fn max_latency_ms(&self) -> f64 {
        self.latencies.max() as f64 / 1000.0
    }
}

/// Pairing latencies: two significant digits are plenty, and keep the histogram small.
fn pairing_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_MICROS, 2).expect("constant histogram bounds are valid")
}

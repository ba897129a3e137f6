//! A game slot: one of the N games the load keeps going. It plays its game until the end,
//! then opens a new one in its place (so the load stays at N games) until the time is up.
//! Slot `i` plays games number `i`, `i + N`, `i + 2N`, … (each seeded by its number).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::client::{self, Board, End, Played};
use super::tally::Tally;
use super::Plan;

/// The pause after a game could not be opened, so a refusing server is not hammered.
const RETRY_PAUSE: Duration = Duration::from_millis(100);

/// What a slot did: its counts and every game it played.
#[derive(Debug, Default)]
pub struct SlotReport {
    /// Latencies, moves, errors.
    pub tally: Tally,
    /// The games, for the final check.
    pub played: Vec<Played>,
}

/// Plays from `board` (or a fresh game when opening it failed) until `deadline`.
pub async fn run(
    plan: Arc<Plan>,
    first: Option<Board>,
    slot: u64,
    deadline: Instant,
) -> SlotReport {
    let mut report = SlotReport::default();
    let stride = plan.slots;
    let mut number = slot;
    let mut board = first;
    // The first game was opened while the load was set up; the others replace it in play.
    let mut in_play = false;
    loop {
        let Some(mut current) = board.take() else {
            if Instant::now() >= deadline {
                break;
            }
            number += stride;
            match client::open(&plan, number).await {
                Ok(opened) => {
                    board = Some(opened);
                    in_play = true;
                }
                Err((kind, message)) => {
                    report.tally.error(kind, message);
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
            }
            continue;
        };
        if let Some(note) = current.pairing.take() {
            report.tally.paired(note, in_play);
        }
        let (played, end) = current.play(deadline, &mut report.tally).await;
        report.played.push(played);
        if end == End::Deadline {
            break;
        }
    }
    report
}

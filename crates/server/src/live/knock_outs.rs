//! Which turn put each seat out of a game of three or four, so that a page opened after the
//! knock-out can still say who knocked whom out (the live page compares two snapshots; a fresh
//! page has only one). A move that adds to the history notes it as it happens ([`noted`]: the
//! seat was in play before the move and is out after it). When the history was rewritten (an
//! undo) or the game was loaded, it is found by replaying prefixes of the record: a seat once
//! out stays out, so a binary search over the turns needs a few replays per seat, and an answer
//! is kept while its turn is still in the history.

use ludus_engine::{AnyGame, BoardView, GameRecord, TurnText};
use ludus_games::load_record;
use serde::Serialize;

/// A seat out of play since turn `turn` (1-based, as the snapshot's history counts), played by
/// seat `by` (the seat itself when it resigned or its time ran out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KnockOut {
    #[serde(skip)]
    pub seat: usize,
    pub turn: usize,
    pub by: usize,
    /// The turn's text, to tell whether the history still holds that turn.
    #[serde(skip)]
    text: String,
}

/// The knock-outs of `game` with `turns` as its history (seat, text per turn), reusing those
/// of `known` whose turn is unchanged. Empty for games of two seats: there the end says it all.
/// `replays` counts the records replayed.
pub fn knock_outs(
    game: &AnyGame,
    turns: &[(usize, &str)],
    known: &[KnockOut],
    replays: &mut u64,
) -> Vec<KnockOut> {
    if game.seat_count() <= 2 {
        return Vec::new();
    }
    let view = game.view();
    let out = view
        .seats
        .iter()
        .filter(|s| !s.alive)
        .map(|s| s.seat.number());
    let mut record = None;
    out.filter_map(|seat| {
        let still = known.iter().find(|k| {
            k.seat == seat
                && turns
                    .get(k.turn - 1)
                    .is_some_and(|(_, text)| *text == k.text)
        });
        if let Some(kept) = still {
            return Some(kept.clone());
        }
        let record = record.get_or_insert_with(|| game.record());
        let turn = first_turn_without(record, seat, replays)?;
        let (by, text) = turns.get(turn - 1)?;
        Some(KnockOut {
            seat,
            turn,
            by: *by,
            text: (*text).to_string(),
        })
    })
    .collect()
}

/// The first count of turns after which `seat` (1-based) is out of play; `None` when it was
/// out from the start, or a prefix does not replay (it always should: the record is the game's).
fn first_turn_without(record: &GameRecord, seat: usize, replays: &mut u64) -> Option<usize> {
    let mut out_after = |turns: usize| -> Option<bool> {
        *replays += 1;
        let prefix = GameRecord {
            moves: record.moves[..turns].to_vec(),
            result: None,
            ..record.clone()
        };
        let game = load_record(&prefix).ok()?;
        Some(!game.view().seats.get(seat - 1)?.alive)
    };
    // A seat out from the start position was knocked out by no turn of this game.
    if out_after(0)? {
        return None;
    }
    // Out after all turns, in play after none: the answer lies in (low, high].
    let (mut low, mut high) = (0, record.moves.len());
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if out_after(middle)? {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some(high)
}

/// Adds to `known` the seats that one change adding to the history (`turns` after it) put out:
/// in play in `before`, out in `after`; the history's last turn did it.
pub fn noted(known: &mut Vec<KnockOut>, before: &BoardView, after: &BoardView, turns: &[TurnText]) {
    if after.seats.len() <= 2 {
        return;
    }
    let Some(last) = turns.last() else {
        return;
    };
    for (was, now) in before.seats.iter().zip(&after.seats) {
        let seat = now.seat.number();
        if was.alive && !now.alive && known.iter().all(|k| k.seat != seat) {
            known.push(KnockOut {
                seat,
                turn: turns.len(),
                by: last.seat.number(),
                text: last.text.clone(),
            });
        }
    }
}

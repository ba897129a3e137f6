//! The snapshot: everything the page shows of a game, as JSON text. It is built only when
//! someone asks (a socket opening, an HTTP answer, a `sync`) and kept until the next change:
//! a move's sockets are sent a delta instead (live/delta.rs), so a move costs the same at
//! decision 10 and at decision 10,000. What a delta repeats whole ([`Now`]) is shared by both,
//! and so are the fields that seldom change (live/steady.rs), which a delta carries only when
//! they did.

use std::sync::Arc;

use ludus_engine::{Seat, Verdict};
use serde::Serialize;
use serde_json::{json, Value};

use super::{Table, ViewJson};

/// A turn of the history.
#[derive(Serialize)]
pub(super) struct HistoryEntry<'a> {
    ply: usize,
    turn: usize,
    seat: usize,
    text: &'a str,
    complete: bool,
}

impl<'a> HistoryEntry<'a> {
    /// The turns of `table`'s history from index `from` on.
    pub(super) fn since(table: &'a Table, from: usize) -> Vec<HistoryEntry<'a>> {
        let turns = table.game.history();
        turns
            .get(from..)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, t)| HistoryEntry {
                ply: from + i + 1,
                turn: from + i + 1,
                seat: t.seat.number(),
                text: &t.text,
                complete: t.complete,
            })
            .collect()
    }
}

/// A legal move as a person points at it: the entry of `pointing` at the index of its
/// notation in `legal` (the notation is not repeated: it was most of the frame).
#[derive(Serialize)]
struct Pointing<'a> {
    cells: CellNames<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
}

/// A legal move's cells by name, written straight from its ids: every legal move is listed
/// after every change, and a list of names gathered first cost an allocation for each.
struct CellNames<'a> {
    ids: &'a [ludus_engine::CellId],
    names: &'a [String],
}

impl Serialize for CellNames<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.ids
                .iter()
                .map(|c| self.names.get(c.to_usize()).map_or("", String::as_str)),
        )
    }
}

/// What changes at every move, besides the history and the board: the whole of it goes in
/// every snapshot and every delta (its size does not grow with the game). The fields that
/// seldom change are kept apart (live/steady.rs).
#[derive(Serialize)]
pub(super) struct Now<'a> {
    position: String,
    turn: u32,
    to_move: Option<usize>,
    seq: u64,
    legal: Vec<&'a str>,
    pointing: Vec<Pointing<'a>>,
}

#[derive(Serialize)]
struct Snapshot<'a> {
    id: &'a str,
    game: &'static str,
    name: &'static str,
    options: &'a Value,
    moves: Vec<&'a str>,
    history: &'a [HistoryEntry<'a>],
    view: ViewJson<'a>,
    #[serde(flatten)]
    now: Now<'a>,
}

impl Table {
    /// The snapshot, built now if the game changed since it was last asked for.
    pub fn snapshot(&mut self) -> Arc<str> {
        if let Some(snapshot) = &self.snapshot {
            return Arc::clone(snapshot);
        }
        self.work.snapshots += 1;
        let history = HistoryEntry::since(self, 0);
        let view = self.game.view();
        let legal = self.game.legal_moves();
        let snapshot = Snapshot {
            id: &self.id,
            game: self.game.info().id,
            name: self.game.info().name,
            options: &self.options,
            moves: history.iter().map(|h| h.text).collect(),
            history: &history,
            view: ViewJson::of(&view),
            now: self.now(&legal),
        };
        let mut text = Vec::with_capacity(4096);
        // Serialising strings, numbers and JSON values cannot fail; an empty object if it did.
        if serde_json::to_writer(&mut text, &snapshot).is_err() {
            text = b"{}".to_vec();
        }
        let steady = self.steady_texts();
        steady.append_changed(&mut text, None);
        self.shown_may_differ(&steady);
        let text: Arc<str> = Arc::from(String::from_utf8(text).unwrap_or_else(|_| "{}".into()));
        self.snapshot = Some(Arc::clone(&text));
        text
    }

    /// The snapshot is out of date: the next reader builds it again.
    pub fn changed(&mut self) {
        self.snapshot = None;
    }

    /// What changes at every move, with `legal` the game's legal moves.
    pub(super) fn now<'a>(&'a self, legal: &'a [ludus_engine::LegalMove]) -> Now<'a> {
        Now {
            position: self.game.position(),
            turn: self.game.turn(),
            to_move: self.game.to_move().map(Seat::number),
            seq: self.seq,
            legal: legal.iter().map(|m| m.notation.as_str()).collect(),
            pointing: legal.iter().map(|m| self.pointing(m)).collect(),
        }
    }

    fn pointing<'a>(&'a self, legal: &'a ludus_engine::LegalMove) -> Pointing<'a> {
        Pointing {
            cells: CellNames {
                ids: &legal.input.cells,
                names: &self.cell_names,
            },
            label: legal.input.label.as_deref(),
        }
    }

    /// The snapshot as a WebSocket frame.
    pub fn snapshot_frame(&mut self) -> String {
        format!("{{\"type\":\"snapshot\",\"snapshot\":{}}}", self.snapshot())
    }
}

/// "Ana (Red)", or just "Red" when the seat has no name of its own: a seat named after its
/// side would read "Red (Red)".
fn named_side(name: &str, side: &str) -> String {
    if name.is_empty() || name.eq_ignore_ascii_case(side) {
        side.to_string()
    } else {
        format!("{name} ({side})")
    }
}

/// The outcome with a sentence for the game-over summary, or `null`.
pub fn outcome_json(table: &Table) -> Option<Value> {
    let outcome = table.game.outcome()?;
    let names = table.names();
    let summary = match outcome.verdict {
        Verdict::Win(seat) => {
            let name = names.get(seat.to_usize()).copied().unwrap_or("");
            format!(
                "{} wins: {}",
                named_side(name, table.game.seat_name(seat)),
                outcome.reason
            )
        }
        Verdict::Draw => format!("Draw: {}", outcome.reason),
    };
    Some(json!({
        "winner": outcome.winner().map(Seat::number),
        "reason": outcome.reason,
        "summary": summary,
    }))
}

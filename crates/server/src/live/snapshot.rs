//! The snapshot: everything the page shows of a game, as JSON text. It is built only when
//! someone asks (a socket opening, an HTTP answer, a `sync`) and kept until the next change:
//! a move's sockets are sent a delta instead (live/delta.rs), so a move costs the same at
//! decision 10 and at decision 10,000. What a delta repeats whole ([`Now`]) is shared by both.

use std::sync::Arc;

use ludus_engine::{Seat, Verdict};
use serde::Serialize;
use serde_json::{json, Value};

use super::analysis::AnalysisView;
use super::knock_outs::KnockOut;
use super::{Table, ViewJson};

#[derive(Serialize)]
pub(super) struct SeatEntry<'a> {
    seat: usize,
    name: &'a str,
    player: &'a str,
    side: &'static str,
    /// Kept for an invited player who has not come yet.
    free: bool,
    /// Its player's last socket closed.
    away: bool,
    /// For an away seat: when (Unix ms) the others may claim the win or hand it to a computer.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim_from_ms: Option<u64>,
    /// The account seated by pairing, with its rating as the game began.
    account: Option<AccountEntry<'a>>,
    /// Once a rated game ended: the seat's rating before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_change: Option<Value>,
    /// Out of a game of three or four: the turn (1-based in `history`) that put it out and
    /// the seat that played it.
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<&'a KnockOut>,
}

#[derive(Serialize)]
struct AccountEntry<'a> {
    name: &'a str,
    bot: bool,
    rating: String,
}

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

#[derive(Serialize)]
struct Pointing<'a> {
    #[serde(rename = "move")]
    notation: &'a str,
    cells: CellNames<'a>,
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

/// What changes as the game is played, besides its history and board: the whole of it goes
/// in every snapshot and every delta (its size does not grow with the game).
#[derive(Serialize)]
pub(super) struct Now<'a> {
    players: Vec<&'a str>,
    names: Vec<&'a str>,
    seats: Vec<SeatEntry<'a>>,
    position: String,
    turn: u32,
    to_move: Option<usize>,
    seq: u64,
    legal: Vec<&'a str>,
    pointing: Vec<Pointing<'a>>,
    outcome: Option<Value>,
    thinking: Option<Value>,
    paused: bool,
    speed_ms: u64,
    analysis: Option<&'a AnalysisView>,
    offer: Option<Value>,
    clock: Option<Value>,
    can_undo: bool,
    can_redo: bool,
    rated: bool,
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
        // Serialising strings, numbers and JSON values cannot fail; an empty object if it did.
        let text: Arc<str> =
            Arc::from(serde_json::to_string(&snapshot).unwrap_or_else(|_| "{}".into()));
        self.snapshot = Some(Arc::clone(&text));
        text
    }

    /// The snapshot is out of date: the next reader builds it again.
    pub fn changed(&mut self) {
        self.snapshot = None;
    }

    /// The changing part of the snapshot, with `legal` the game's legal moves.
    pub(super) fn now<'a>(&'a self, legal: &'a [ludus_engine::LegalMove]) -> Now<'a> {
        let names = self.names();
        Now {
            players: self.kinds(),
            seats: self.seat_entries(&names),
            names,
            position: self.game.position(),
            turn: self.game.turn(),
            to_move: self.game.to_move().map(Seat::number),
            seq: self.seq,
            legal: legal.iter().map(|m| m.notation.as_str()).collect(),
            pointing: legal.iter().map(|m| self.pointing(m)).collect(),
            outcome: outcome_json(self),
            thinking: self
                .thinking
                .as_ref()
                .map(|t| json!({"seat": t.seat.number(), "since_ms": t.since_ms})),
            paused: self.paused,
            speed_ms: self.speed_ms,
            analysis: self.analysis.as_ref(),
            can_undo: self.game.entry_count() > 0,
            can_redo: self.game.redo_len() > 0,
            offer: self.offer.as_ref().map(|offer| self.offer_json(offer)),
            clock: self.clocks.as_ref().map(super::clock::Clocks::json),
            rated: self.rated,
        }
    }

    fn pointing<'a>(&'a self, legal: &'a ludus_engine::LegalMove) -> Pointing<'a> {
        Pointing {
            notation: &legal.notation,
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

    fn seat_entries<'a>(&'a self, names: &[&'a str]) -> Vec<SeatEntry<'a>> {
        Seat::all(self.game.seat_count())
            .map(|seat| SeatEntry {
                seat: seat.number(),
                name: names.get(seat.to_usize()).copied().unwrap_or(""),
                player: self
                    .seats
                    .get(seat.to_usize())
                    .map_or("", |s| s.kind.as_str()),
                side: self.game.seat_name(seat),
                free: self
                    .seats
                    .get(seat.to_usize())
                    .is_some_and(|s| s.invite.is_some()),
                away: self.is_away(seat.to_usize()),
                claim_from_ms: self
                    .presence
                    .get(seat.to_usize())
                    .and_then(|p| p.claim_from_ms),
                account: self
                    .seats
                    .get(seat.to_usize())
                    .and_then(|s| s.account.as_ref())
                    .map(|a| AccountEntry {
                        name: &a.name,
                        bot: a.bot,
                        rating: a.rating.shown(),
                    }),
                rating_change: self.rating_changes.get(seat.to_usize()).map(|change| {
                    json!({
                        "before": change.before.rating,
                        "after": change.after.rating,
                        "shown_before": change.before.shown(),
                        "shown_after": change.after.shown(),
                    })
                }),
                out: self.knock_outs.iter().find(|k| k.seat == seat.number()),
            })
            .collect()
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

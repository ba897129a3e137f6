//! What a change sends the game's sockets: a delta frame, built and serialised once and shared
//! by every socket, carrying what changed since the frame before it (the history's new or
//! changed turns, the board's changed cells, the seats, hands and seldom-changing fields that
//! changed, and the small rest of the snapshot whole); or,
//! after a change a delta cannot express (the history rewritten by an undo or a takeback), the
//! whole snapshot. Neither the delta nor the work behind it grows with the game's length.
//!
//! A client applies a delta to the snapshot whose `seq` is the delta's `from_seq`; one that
//! holds another asks for the snapshot again (`{"type":"sync"}`).

use ludus_engine::{BoardView, CellId, CellView, ErasedGame};
use serde::Serialize;

use super::knock_outs::{knock_outs, noted};
use super::snapshot::{HistoryEntry, Now};
use super::steady::SteadyTexts;
use super::view_json::ViewDelta;
use super::Table;

/// The board as the sockets were last sent it. Where the game numbers its cells (most do),
/// the numbers and the view without cells: a change then builds only the cells whose number
/// changed. Otherwise the whole view, compared cell by cell.
#[derive(Debug)]
struct Drawn {
    view: BoardView,
    codes: Vec<u64>,
    numbered: bool,
}

impl Drawn {
    fn now(game: &dyn ErasedGame) -> Drawn {
        let mut codes = Vec::new();
        let numbered = game.cell_codes(&mut codes);
        let view = if numbered {
            game.panel_view()
        } else {
            game.view()
        };
        Drawn {
            view,
            codes,
            numbered,
        }
    }

    /// Whether a delta from `before` can say what changed (the same cells, told the same way).
    fn follows(&self, before: &Drawn) -> bool {
        self.numbered == before.numbered
            && self.codes.len() == before.codes.len()
            && self.view.cells.len() == before.view.cells.len()
    }

    /// The cells whose number changed since `before`, drawn now.
    fn changed_cells(&self, before: &Drawn, game: &dyn ErasedGame) -> Vec<(usize, CellView)> {
        self.codes
            .iter()
            .zip(&before.codes)
            .enumerate()
            .filter(|(_, (now, was))| now != was)
            .filter_map(|(index, _)| Some((index, game.cell_view(CellId(index as u16))?)))
            .collect()
    }
}

/// What the sockets were last sent (a snapshot or a delta): the next delta is taken against it.
#[derive(Debug)]
pub struct Shown {
    seq: u64,
    drawn: Drawn,
    /// How many turns the history held.
    turns: usize,
    /// Whether its last turn was still being decided (a delta then sends it again).
    last_open: bool,
    /// The game's count of replays then: another count means the history was rewritten.
    replays: u64,
    /// The length of the delta that sent it (0 for a snapshot): the next delta's buffer starts
    /// that large, so that serialising does not grow it five times over from 128 bytes.
    frame_len: usize,
    /// The seldom-changing fields as every socket holds them; `None` once a socket may hold
    /// others (a snapshot built after a change that sent no frame): the next delta then
    /// carries them all.
    steady: Option<SteadyTexts>,
}

impl Shown {
    fn of(table: &Table, drawn: Drawn, frame_len: usize, steady: SteadyTexts) -> Shown {
        let game = &*table.game;
        let history = game.history();
        Shown {
            seq: table.seq,
            drawn,
            turns: history.len(),
            last_open: history.last().is_some_and(|t| !t.complete),
            replays: game.replays(),
            frame_len,
            steady: Some(steady),
        }
    }

    /// The first turn a delta sends: the turns before it are as the sockets were sent them.
    fn kept(&self) -> usize {
        self.turns - usize::from(self.last_open)
    }
}

/// The work a game cost the server, counted (`GET /api/games/{id}/work`): how a move's cost
/// is shown not to grow with the game, without timing anything.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Work {
    /// Records replayed to find which turn knocked a seat out (on a load or a rewrite only).
    pub knock_out_replays: u64,
    /// Snapshots built (each holds the whole history).
    pub snapshots: u64,
    /// Delta frames built.
    pub deltas: u64,
    /// Changes sent as a whole snapshot (the history rewritten).
    pub resyncs: u64,
}

#[derive(Serialize)]
struct Delta<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    from_seq: u64,
    /// The history's turns from this index on are replaced by `turns`.
    history_from: usize,
    turns: Vec<HistoryEntry<'a>>,
    view: ViewDelta<'a>,
    #[serde(flatten)]
    now: Now<'a>,
}

impl Table {
    /// The frame that tells the sockets of the change just made (`seq` already bumped, or
    /// unchanged for a change outside the game such as a seat going away), and what they
    /// were sent becomes the base of the next delta.
    pub(super) fn change_frame(&mut self) -> String {
        self.snapshot = None;
        let drawn = Drawn::now(&*self.game);
        let base = self.shown.take().filter(|shown| {
            shown.replays == self.game.replays()
                && shown.kept() <= self.game.history().len()
                && drawn.follows(&shown.drawn)
        });
        // The seldom-changing fields are read once the change's knock-outs are known: a seat's
        // `out` goes in the frame of the move that put it out.
        let (frame, delta_len, steady) = if let Some(base) = base {
            noted(
                &mut self.knock_outs,
                &base.drawn.view,
                &drawn.view,
                self.game.history(),
            );
            let steady = self.steady_texts();
            let frame = self.delta_frame(&base, &drawn, &steady);
            let len = frame.len();
            (frame, len, steady)
        } else {
            self.find_knock_outs();
            self.work.resyncs += 1;
            // A snapshot holds the whole history: no measure of the next delta.
            (self.snapshot_frame(), 0, self.steady_texts())
        };
        self.shown = Some(Shown::of(self, drawn, delta_len, steady));
        frame
    }

    /// A snapshot was built with the seldom-changing fields `steady`: where the sockets were
    /// sent others (the game changed without a frame), the next delta sends them all, as
    /// sockets holding either may apply it.
    pub(super) fn shown_may_differ(&mut self, steady: &SteadyTexts) {
        if let Some(shown) = &mut self.shown {
            shown.steady.take_if(|sent| sent != steady);
        }
    }

    /// Takes what the sockets hold from the game as it is (a game going live: its sockets
    /// will start from its snapshot), finding its knock-outs by replay.
    pub(super) fn show_from_start(&mut self) {
        self.changed();
        self.find_knock_outs();
        let steady = self.steady_texts();
        self.shown = Some(Shown::of(self, Drawn::now(&*self.game), 0, steady));
    }

    fn delta_frame(&mut self, base: &Shown, drawn: &Drawn, steady: &SteadyTexts) -> String {
        self.work.deltas += 1;
        // Drawn now, lent to the delta below.
        let changed;
        let view = if drawn.numbered {
            changed = drawn.changed_cells(&base.drawn, &*self.game);
            ViewDelta::new(
                changed.iter().map(|(index, cell)| (*index, cell)),
                &base.drawn.view,
                &drawn.view,
            )
        } else {
            ViewDelta::between(&base.drawn.view, &drawn.view)
        };
        let legal = self.game.legal_moves();
        let delta = Delta {
            kind: "delta",
            from_seq: base.seq,
            history_from: base.kept(),
            turns: HistoryEntry::since(self, base.kept()),
            view,
            now: self.now(&legal),
        };
        // Room for a frame a little longer than the last one.
        let mut text = Vec::with_capacity(base.frame_len + base.frame_len / 4 + 64);
        // Serialising strings, numbers and JSON values cannot fail and writes UTF-8; a client
        // that met the placeholder would ask for the snapshot.
        serde_json::to_writer(&mut text, &delta)
            .ok()
            .and_then(|()| {
                steady.append_changed(&mut text, base.steady.as_ref());
                String::from_utf8(text).ok()
            })
            .unwrap_or_else(|| r#"{"type":"delta"}"#.to_string())
    }

    /// The knock-outs found by replaying the record (a load, or a rewritten history).
    fn find_knock_outs(&mut self) {
        let history = self.game.history();
        let turns: Vec<(usize, &str)> = history
            .iter()
            .map(|t| (t.seat.number(), t.text.as_str()))
            .collect();
        let mut replays = 0;
        self.knock_outs = knock_outs(&self.game, &turns, &self.knock_outs, &mut replays);
        self.work.knock_out_replays += replays;
    }

    /// The work counted so far, with the rules' own replays of the history (undo).
    pub fn work(&self) -> serde_json::Value {
        serde_json::json!({
            "history_replays": self.game.replays(),
            "knock_out_replays": self.work.knock_out_replays,
            "snapshots": self.work.snapshots,
            "deltas": self.work.deltas,
            "resyncs": self.work.resyncs,
        })
    }
}

//! The history grouped in turns, kept up to date entry by entry as a session plays, so that
//! asking for the history or the last move's cells costs nothing however long the game is.
//! Grouping the entries again from the start on every question made a front end that asks
//! once per move quadratic in the game's length.
//!
//! Only taking back (which replays the whole game anyway) builds the log again from scratch.

use crate::session::{Entry, TurnText, AGREED_DRAW_TEXT};
use crate::{CellId, Game, Seat};

/// The turns so far, the one being decided last (not `complete`).
#[derive(Clone, Debug)]
pub(crate) struct TurnLog<G: Game> {
    turns: Vec<TurnText>,
    /// The turn being decided: the state it started from and its decisions so far (the turn
    /// notation of a game may write a turn as a whole, `a1:NEN`, so its text is formatted
    /// from its start again after each decision).
    open: Option<(G, Vec<G::Action>)>,
    /// The cells of the last turn's decisions, each once, in order.
    last_cells: Vec<CellId>,
}

impl<G: Game> Default for TurnLog<G> {
    fn default() -> Self {
        TurnLog {
            turns: Vec::new(),
            open: None,
            last_cells: Vec::new(),
        }
    }
}

impl<G: Game> TurnLog<G> {
    /// The history in turns.
    pub(crate) fn turns(&self) -> &[TurnText] {
        &self.turns
    }

    /// The cells of the most recent turn (or of the decisions made so far in this turn).
    pub(crate) fn last_cells(&self) -> &[CellId] {
        &self.last_cells
    }

    /// Notes `entry`, about to be played on `state`. [`TurnLog::played`] follows once it is.
    pub(crate) fn record(&mut self, state: &G, entry: Entry<G::Action>) {
        match entry {
            Entry::Action(action) => self.decision(state, action),
            Entry::Resign(seat) => self.ending(seat, format!("resign {}", seat.number())),
            Entry::Flag(seat) => self.ending(seat, format!("flag {}", seat.number())),
            Entry::AgreedDraw => {
                let seat = state.to_move().unwrap_or(Seat::FIRST);
                self.ending(seat, AGREED_DRAW_TEXT.to_string());
            }
        }
    }

    /// The entry noted last was played and `state` is the result: the open turn's text, and
    /// whether the turn ended (the turn count moved on, or the game ended).
    pub(crate) fn played(&mut self, state: &G) {
        let Some((start, actions)) = &self.open else {
            return;
        };
        let text = start.format_turn(actions);
        let complete = state.turn() != start.turn() || state.outcome().is_some();
        if let Some(last) = self.turns.last_mut() {
            last.text = text;
            last.complete = complete;
        }
        if complete {
            self.open = None;
        }
    }

    fn decision(&mut self, state: &G, action: G::Action) {
        if self.open.is_none() {
            self.open = Some((state.clone(), Vec::new()));
            self.turns.push(TurnText {
                seat: state.to_move().unwrap_or(Seat::FIRST),
                text: String::new(),
                complete: false,
            });
            self.last_cells.clear();
        }
        for cell in state.action_input(action).cells {
            if !self.last_cells.contains(&cell) {
                self.last_cells.push(cell);
            }
        }
        if let Some((_, actions)) = &mut self.open {
            actions.push(action);
        }
    }

    /// A resignation, flag or agreed draw: a turn of its own; a turn it cut short stays
    /// unfinished in the history.
    fn ending(&mut self, seat: Seat, text: String) {
        self.open = None;
        self.last_cells.clear();
        self.turns.push(TurnText {
            seat,
            text,
            complete: true,
        });
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use crate::demo::NimOptions;
    use crate::{
        ActionInput, BoardView, CellId, Core, GameInfo, Notation, PositionError, Presentation,
        Rules, Seat, Session,
    };

    thread_local! {
        /// Decisions applied to any `Endless` state on this thread.
        static APPLIED: Cell<u64> = const { Cell::new(0) };
    }

    /// A game that never ends, two decisions a turn, which counts every decision applied to
    /// any of its states: a replay of the history shows as many counts as the game is long.
    #[derive(Clone, Debug)]
    struct Endless {
        core: Core<NimOptions>,
        decisions: u32,
    }

    impl Rules for Endless {
        type Action = u8;
        type Options = NimOptions;
        const INFO: GameInfo = GameInfo {
            id: "endless",
            name: "Endless",
            description: "",
            min_seats: 2,
            max_seats: 2,
            seat_names: &["First", "Second"],
            options: &[],
            max_turns: u32::MAX,
            rules: "",
            notation: "",
            strongest: "",
        };
        fn new(options: &NimOptions, _seed: u64) -> Self {
            Endless {
                core: Core::new(options.clone(), Seat::FIRST),
                decisions: 0,
            }
        }
        crate::core_in!(core);
        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend([1, 2]);
        }
        fn apply(&mut self, _: u8) {
            APPLIED.set(APPLIED.get() + 1);
            self.decisions += 1;
            self.core.turn = self.decisions / 2;
            self.core.to_move = Seat::new((self.core.turn % 2) as u8);
        }
        fn key(&self) -> u64 {
            u64::from(self.decisions)
        }
    }

    impl Notation for Endless {
        fn from_position(text: &str, _: &NimOptions) -> Result<Self, PositionError> {
            Err(PositionError::new(text, "no positions"))
        }
        fn position(&self) -> String {
            self.decisions.to_string()
        }
        fn format_action(&self, action: u8) -> String {
            action.to_string()
        }
    }

    impl Presentation for Endless {
        fn view(&self) -> BoardView {
            BoardView {
                width: 1,
                height: 1,
                cells: Vec::new(),
                links: Vec::new(),
                seats: Vec::new(),
                hands: Vec::new(),
                to_move: self.to_move(),
                last_move: Vec::new(),
                status: String::new(),
            }
        }
        fn action_input(&self, action: u8) -> ActionInput {
            ActionInput {
                cells: smallvec::smallvec![CellId(u16::from(action))],
                label: None,
            }
        }
    }

    /// What a front end asks after every decision (the line mode's prompt and board, the
    /// terminal app's every draw, the server's frame) costs the same at turn 2,000 as at turn
    /// 1: counted in decisions applied, it does not grow with the history.
    #[test]
    fn asking_for_the_history_and_view_costs_the_same_however_long_the_game() {
        let mut session = Session::<Endless>::new(&NimOptions::default(), 0);
        let mut per_turn = Vec::new();
        for turn in 0..2_000 {
            let before = APPLIED.get();
            for take in [1, 2] {
                session.play(take).unwrap();
                let last = session.turns().last().unwrap();
                assert_eq!(session.turns().len(), turn + 1);
                assert_eq!(last.complete, take == 2);
                assert_eq!(session.view().last_move.len(), usize::from(take));
            }
            per_turn.push(APPLIED.get() - before);
        }
        assert_eq!(session.turns()[1_999].text, "1 2");
        assert_eq!(session.last_move_cells(), [CellId(1), CellId(2)]);
        // Two decisions played, and the turn's text formatted after each (1 + 2 applied).
        assert!(per_turn.iter().all(|&n| n == 5), "{:?}", &per_turn[..5]);
        assert_eq!(session.replays(), 0);
    }

    /// Taking back replays the history once, and the turns it rebuilds are those played.
    #[test]
    fn undo_replays_once_and_keeps_the_turns() {
        let mut session = Session::<Endless>::new(&NimOptions::default(), 0);
        for take in [1, 2, 2, 1, 1] {
            session.play(take).unwrap();
        }
        let texts = |s: &Session<Endless>| s.turns().iter().map(|t| t.text.clone()).collect();
        let played: Vec<String> = texts(&session);
        assert_eq!(played, ["1 2", "2 1", "1"]);
        assert!(session.undo());
        assert_eq!(session.replays(), 1);
        assert_eq!(texts(&session), ["1 2", "2 1"]);
        assert_eq!(session.last_move_cells(), [CellId(2), CellId(1)]);
        assert!(session.redo());
        assert_eq!(texts(&session), played);
        assert_eq!(session.last_move_cells(), [CellId(1)]);
        session.resign(Seat::SECOND);
        assert_eq!(session.turns().last().unwrap().text, "resign 2");
        assert!(session.last_move_cells().is_empty());
    }
}

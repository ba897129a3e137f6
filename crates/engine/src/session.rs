//! A game in progress with its history: the start, every decision and resignation, undo by
//! replay, turns grouped for display as they are played, and conversion to and from records.
//!
//! Two endings come from outside the rules, so the session (not the game state) keeps them:
//! a draw the seats agreed on, and a seat whose clock ran out (a flag). A flag removes the
//! seat as a resignation does, but when it ends the game the reason says the time ran out.

use crate::record::{GameRecord, PlayerRecord, ResultRecord, RECORD_FORMAT};
use crate::turn_log::TurnLog;
use crate::{
    options_from_json, BoardView, CellId, Game, MoveError, Outcome, RecordError, Seat, Verdict,
};

/// One thing that happened in a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry<A> {
    /// A decision.
    Action(A),
    /// A seat resigned.
    Resign(Seat),
    /// The seats agreed on a draw.
    AgreedDraw,
    /// A seat ran out of time: it leaves the game as on resignation.
    Flag(Seat),
}

/// The reason of a draw the seats agreed on.
pub const AGREED_DRAW_REASON: &str = "draw by agreement";

/// How a draw by agreement is written in records' `moves`.
pub(crate) const AGREED_DRAW_TEXT: &str = "draw agreed";

/// One turn of the history as people read it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnText {
    /// Who played it.
    pub seat: Seat,
    /// The turn in the game's turn notation (`a1:NEN`), `resign N`, `flag N` or `draw agreed`.
    pub text: String,
    /// False for the turn still being decided.
    pub complete: bool,
}

/// A game with its history.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    start: G,
    state: G,
    entries: Vec<Entry<G::Action>>,
    undone: Vec<Entry<G::Action>>,
    players: Vec<PlayerRecord>,
    seed: u64,
    start_position: Option<String>,
    /// An ending the rules do not know (an agreed draw, a flag's reason); recomputed on replay.
    ended: Option<Outcome>,
    /// The history in turns, kept as entries are played.
    log: TurnLog<G>,
    /// How many times the history was replayed from the start (each undo does).
    replays: u64,
}

impl<G: Game> Session<G> {
    /// A new game from the usual setup.
    pub fn new(options: &G::Options, seed: u64) -> Self {
        Self::from_start(G::new(options, seed), seed, None)
    }

    /// A new game from a position string.
    pub fn from_position(text: &str, options: &G::Options) -> Result<Self, crate::PositionError> {
        let start = G::from_position(text, options)?;
        Ok(Self::from_start(start, 0, Some(text.to_string())))
    }

    fn from_start(start: G, seed: u64, start_position: Option<String>) -> Self {
        let players = Seat::all(start.seat_count())
            .map(|seat| PlayerRecord {
                name: start.seat_name(seat).to_string(),
                kind: "human".to_string(),
            })
            .collect();
        Session {
            state: start.clone(),
            start,
            entries: Vec::new(),
            undone: Vec::new(),
            players,
            seed,
            start_position,
            ended: None,
            log: TurnLog::default(),
            replays: 0,
        }
    }

    /// The current state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The state the game started from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// How the game ended, if it did: an agreed draw, a flag, or the rules' own outcome.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.ended.as_ref().or_else(|| self.state.outcome())
    }

    /// The seat to decide now, or `None` when the game is over (also by agreement).
    pub fn to_move(&self) -> Option<Seat> {
        if self.ended.is_some() {
            None
        } else {
            self.state.to_move()
        }
    }

    /// Everything played so far.
    pub fn entries(&self) -> &[Entry<G::Action>] {
        &self.entries
    }

    /// How many undone entries [`Session::redo`] can bring back.
    pub fn redo_len(&self) -> usize {
        self.undone.len()
    }

    /// The players, one per seat.
    pub fn players(&self) -> &[PlayerRecord] {
        &self.players
    }

    /// Sets the players' names and kinds (one per seat; extra entries are ignored).
    pub fn set_players(&mut self, players: Vec<PlayerRecord>) {
        for (slot, player) in self.players.iter_mut().zip(players) {
            *slot = player;
        }
    }

    /// Plays one decision, checked. Clears the redo list.
    pub fn play(&mut self, action: G::Action) -> Result<(), MoveError> {
        if let Some(outcome) = &self.ended {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        crate::game::check_playable(&self.state, action)?;
        self.push(Entry::Action(action));
        self.undone.clear();
        Ok(())
    }

    /// Plays a decision or a whole turn typed in notation; returns how many decisions it held.
    /// Nothing is played unless every decision is legal.
    pub fn play_text(&mut self, text: &str) -> Result<usize, MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let actions = self.state.parse_turn(text)?;
        for &action in &actions {
            self.push(Entry::Action(action));
        }
        self.undone.clear();
        Ok(actions.len())
    }

    /// `seat` resigns (ignored once the game is over).
    pub fn resign(&mut self, seat: Seat) {
        self.push_ending(Entry::Resign(seat), seat);
    }

    /// `seat`'s clock ran out: it leaves the game as on resignation, and if that ends the
    /// game the reason says so ("Dark ran out of time"). Ignored once the game is over.
    pub fn flag(&mut self, seat: Seat) {
        self.push_ending(Entry::Flag(seat), seat);
    }

    /// The seats agree on a draw: the game ends drawn "by agreement". False (and nothing
    /// changes) once the game is over.
    pub fn agree_draw(&mut self) -> bool {
        self.push_ending(Entry::AgreedDraw, Seat::FIRST)
    }

    fn push_ending(&mut self, entry: Entry<G::Action>, seat: Seat) -> bool {
        if self.outcome().is_some() || seat.to_usize() >= self.state.seat_count() {
            return false;
        }
        self.push(entry);
        self.undone.clear();
        true
    }

    /// Plays `entry` (known to be playable) and notes it in the history.
    fn push(&mut self, entry: Entry<G::Action>) {
        self.log.record(&self.state, entry);
        apply_entry(&mut self.state, &mut self.ended, entry);
        self.log.played(&self.state);
        self.entries.push(entry);
    }

    /// Takes back the last entry; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(entry) = self.entries.pop() else {
            return false;
        };
        self.undone.push(entry);
        self.replay();
        true
    }

    /// Plays the last undone entry again; false if there is none.
    pub fn redo(&mut self) -> bool {
        let Some(entry) = self.undone.pop() else {
            return false;
        };
        self.push(entry);
        true
    }

    /// Plays the history again from the start: the state, the outside ending and the turns.
    fn replay(&mut self) {
        self.replays += 1;
        self.state = self.start.clone();
        self.ended = None;
        self.log = TurnLog::default();
        for &entry in &self.entries {
            self.log.record(&self.state, entry);
            apply_entry(&mut self.state, &mut self.ended, entry);
            self.log.played(&self.state);
        }
    }

    /// How many times the game's history was replayed from the start: once per undo, and
    /// never to answer [`Session::turns`], [`Session::view`] or [`Session::record`], which
    /// read what was kept as the entries were played.
    pub fn replays(&self) -> u64 {
        self.replays
    }

    /// The history grouped in turns, with the game's turn notation; the last turn is not
    /// `complete` while it is being decided.
    pub fn turns(&self) -> &[TurnText] {
        self.log.turns()
    }

    /// The cells of the most recent turn (or of the decisions made so far in this turn).
    pub fn last_move_cells(&self) -> &[CellId] {
        self.log.last_cells()
    }

    /// The board view with the last move filled in.
    pub fn view(&self) -> BoardView {
        let mut view = self.state.view();
        view.last_move = self.last_move_cells().to_vec();
        view
    }

    /// The board view without its cells and links ([`Presentation::panel_view`]), with the
    /// last move filled in.
    pub fn panel_view(&self) -> BoardView {
        let mut view = self.state.panel_view();
        view.last_move = self.last_move_cells().to_vec();
        view
    }

    /// The game as a record.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            format: RECORD_FORMAT,
            game: G::INFO.id.to_string(),
            options: serde_json::to_value(self.state.options()).unwrap_or_default(),
            seed: self.seed,
            position: self.start_position.clone(),
            players: self.players.clone(),
            moves: self.turns().iter().map(|t| t.text.clone()).collect(),
            result: self.outcome().map(result_record),
        }
    }

    /// Replays a record through the rules. Refuses a record of another game, bad options, a
    /// bad start position, any move the rules refuse (naming its index), and a result that
    /// differs from the replayed one.
    pub fn from_record(record: &GameRecord) -> Result<Self, RecordError> {
        if record.game != G::INFO.id {
            return Err(RecordError::UnknownGame(record.game.clone()));
        }
        let options: G::Options = options_from_json(G::INFO.id, &record.options)?;
        let mut session = match &record.position {
            Some(text) => Session::from_position(text, &options)?,
            None => Session::new(&options, record.seed),
        };
        session.seed = record.seed;
        session.set_players(record.players.clone());
        for (i, entry) in record.moves.iter().enumerate() {
            session
                .play_record_entry(entry)
                .map_err(|source| RecordError::Move {
                    index: i + 1,
                    entry: entry.clone(),
                    source,
                })?;
        }
        session.check_result(record.result.as_ref())?;
        Ok(session)
    }

    fn play_record_entry(&mut self, entry: &str) -> Result<(), MoveError> {
        let trimmed = entry.trim();
        let ending = if trimmed == AGREED_DRAW_TEXT {
            Some(Entry::AgreedDraw)
        } else if let Some(rest) = trimmed.strip_prefix("resign") {
            let seat = parse_resign_seat(rest.trim(), &self.state)
                .ok_or_else(|| MoveError::syntax(entry, "resign followed by a seat number"))?;
            Some(Entry::Resign(seat))
        } else if let Some(rest) = trimmed.strip_prefix("flag") {
            let seat = parse_resign_seat(rest.trim(), &self.state)
                .ok_or_else(|| MoveError::syntax(entry, "flag followed by a seat number"))?;
            Some(Entry::Flag(seat))
        } else {
            None
        };
        let Some(ending) = ending else {
            return self.play_text(entry).map(|_| ());
        };
        if self.outcome().is_some() {
            return Err(MoveError::GameOver(entry.to_string()));
        }
        let seat = match ending {
            Entry::Resign(seat) | Entry::Flag(seat) => seat,
            Entry::Action(_) | Entry::AgreedDraw => Seat::FIRST,
        };
        self.push_ending(ending, seat);
        Ok(())
    }

    fn check_result(&self, claimed: Option<&ResultRecord>) -> Result<(), RecordError> {
        let Some(claimed) = claimed else {
            return Ok(());
        };
        let replayed = self.outcome().map(result_record);
        if replayed.as_ref().map(|r| r.winner) != Some(claimed.winner) {
            let describe = |r: Option<&ResultRecord>| match r {
                None => "game not over".to_string(),
                Some(r) => match r.winner {
                    Some(n) => format!("seat {n} wins"),
                    None => "draw".to_string(),
                },
            };
            return Err(RecordError::ResultMismatch {
                claimed: describe(Some(claimed)),
                replayed: describe(replayed.as_ref()),
            });
        }
        Ok(())
    }
}

fn parse_resign_seat<G: Game>(text: &str, state: &G) -> Option<Seat> {
    if text.is_empty() {
        return state.to_move();
    }
    Seat::from_number(text.parse().ok()?, state.seat_count())
}

fn result_record(outcome: &Outcome) -> ResultRecord {
    ResultRecord {
        winner: match outcome.verdict {
            Verdict::Win(seat) => Some(seat.number()),
            Verdict::Draw => None,
        },
        reason: outcome.reason.to_string(),
    }
}

/// Plays `entry` on `state`; `ended` receives an ending the rules do not know.
fn apply_entry<G: Game>(state: &mut G, ended: &mut Option<Outcome>, entry: Entry<G::Action>) {
    match entry {
        Entry::Action(action) => state.apply(action),
        Entry::Resign(seat) => state.resign(seat),
        Entry::AgreedDraw => *ended = Some(Outcome::draw(AGREED_DRAW_REASON)),
        Entry::Flag(seat) => {
            let was_over = state.outcome().is_some();
            state.resign(seat);
            if let (false, Some(outcome)) = (was_over, state.outcome()) {
                let reason = format!("{} ran out of time", state.seat_name(seat));
                *ended = Some(Outcome {
                    verdict: outcome.verdict,
                    reason: reason.into(),
                });
            }
        }
    }
}

//! A game in progress with its history: the start, every decision and resignation, undo and
//! redo by replay, turns grouped for display, and conversion to and from records.

use crate::record::{GameRecord, PlayerRecord, ResultRecord, RECORD_FORMAT};
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
}

/// One turn of the history as people read it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnText {
    /// Who played it.
    pub seat: Seat,
    /// The turn in the game's turn notation (`a1:NEN`), or `resign N`.
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
        self.state.try_apply(action)?;
        self.entries.push(Entry::Action(action));
        self.undone.clear();
        Ok(())
    }

    /// Plays a decision or a whole turn typed in notation; returns how many decisions it held.
    /// Nothing is played unless every decision is legal.
    pub fn play_text(&mut self, text: &str) -> Result<usize, MoveError> {
        if let Some(outcome) = self.state.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let actions = self.state.parse_turn(text)?;
        for &action in &actions {
            self.state.apply(action);
            self.entries.push(Entry::Action(action));
        }
        self.undone.clear();
        Ok(actions.len())
    }

    /// `seat` resigns (ignored once the game is over).
    pub fn resign(&mut self, seat: Seat) {
        if self.state.outcome().is_none() && seat.to_usize() < self.state.seat_count() {
            self.state.resign(seat);
            self.entries.push(Entry::Resign(seat));
            self.undone.clear();
        }
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
        apply_entry(&mut self.state, entry);
        self.entries.push(entry);
        true
    }

    fn replay(&mut self) {
        self.state = self.start.clone();
        for &entry in &self.entries {
            apply_entry(&mut self.state, entry);
        }
    }

    /// The history grouped in turns, with the game's turn notation.
    pub fn turns(&self) -> Vec<TurnText> {
        self.turn_groups()
            .into_iter()
            .map(|group| TurnText {
                seat: group.seat,
                text: group.text(),
                complete: group.complete,
            })
            .collect()
    }

    fn turn_groups(&self) -> Vec<TurnGroup<G>> {
        let mut groups = Vec::new();
        let mut state = self.start.clone();
        let mut current: Option<TurnGroup<G>> = None;
        for &entry in &self.entries {
            match entry {
                Entry::Resign(seat) => {
                    groups.extend(current.take());
                    groups.push(TurnGroup::resignation(&state, seat));
                    state.resign(seat);
                }
                Entry::Action(action) => {
                    let group = current.get_or_insert_with(|| TurnGroup::starting(&state));
                    group.actions.push(action);
                    state.apply(action);
                    if state.turn() != group.start.turn() || state.outcome().is_some() {
                        let mut done = current.take().expect("group was just used");
                        done.complete = true;
                        groups.push(done);
                    }
                }
            }
        }
        groups.extend(current);
        groups
    }

    /// The cells of the most recent turn (or of the decisions made so far in this turn).
    pub fn last_move_cells(&self) -> Vec<CellId> {
        let Some(group) = self.turn_groups().pop() else {
            return Vec::new();
        };
        let mut state = group.start.clone();
        let mut cells = Vec::new();
        for &action in &group.actions {
            for cell in state.action_input(action).cells {
                if !cells.contains(&cell) {
                    cells.push(cell);
                }
            }
            state.apply(action);
        }
        cells
    }

    /// The board view with the last move filled in.
    pub fn view(&self) -> BoardView {
        let mut view = self.state.view();
        view.last_move = self.last_move_cells();
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
            moves: self.turns().into_iter().map(|t| t.text).collect(),
            result: self.state.outcome().map(result_record),
        }
    }

    /// Replays a record through the rules. Refuses a record of another game, bad options, a
    /// bad start position, any move the rules refuse (naming its index), and a result that
    /// differs from the replayed one.
    pub fn from_record(record: &GameRecord) -> Result<Self, RecordError> {
        if record.game != G::INFO.id {
            return Err(RecordError::UnknownGame(record.game.clone()));
        }
        let options: G::Options = options_from_json(&record.options)?;
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
        if let Some(rest) = entry.trim().strip_prefix("resign") {
            let seat = parse_resign_seat(rest.trim(), &self.state)
                .ok_or_else(|| MoveError::syntax(entry, "resign followed by a seat number"))?;
            if self.state.outcome().is_some() {
                return Err(MoveError::GameOver(entry.to_string()));
            }
            self.resign(seat);
            return Ok(());
        }
        self.play_text(entry).map(|_| ())
    }

    fn check_result(&self, claimed: Option<&ResultRecord>) -> Result<(), RecordError> {
        let Some(claimed) = claimed else {
            return Ok(());
        };
        let replayed = self.state.outcome().map(result_record);
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

fn apply_entry<G: Game>(state: &mut G, entry: Entry<G::Action>) {
    match entry {
        Entry::Action(action) => state.apply(action),
        Entry::Resign(seat) => state.resign(seat),
    }
}

/// Decisions of one turn, with the state it started from.
struct TurnGroup<G: Game> {
    start: G,
    seat: Seat,
    actions: Vec<G::Action>,
    resigned: Option<Seat>,
    complete: bool,
}

impl<G: Game> TurnGroup<G> {
    fn starting(state: &G) -> Self {
        TurnGroup {
            start: state.clone(),
            seat: state.to_move().unwrap_or(Seat::FIRST),
            actions: Vec::new(),
            resigned: None,
            complete: false,
        }
    }

    fn resignation(state: &G, seat: Seat) -> Self {
        TurnGroup {
            resigned: Some(seat),
            seat,
            complete: true,
            ..Self::starting(state)
        }
    }

    fn text(&self) -> String {
        match self.resigned {
            Some(seat) => format!("resign {}", seat.number()),
            None => self.start.format_turn(&self.actions),
        }
    }
}

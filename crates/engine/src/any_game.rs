//! `AnyGame`: a session of any game behind one type, with actions as text.
//!
//! User interfaces and the command line hold an `AnyGame` and need no game knowledge: they
//! play notation, draw the [`BoardView`] and point at cells via [`LegalMove::input`]. Code that
//! needs the concrete game (computer players) gets it back with [`AnyGame::session`].
//!
//! DESIGN.md suggests an enum over the five games. A trait object with one blanket
//! implementation for every `Session<G>` does the same job without a `match` per method per
//! game: adding a game touches only the registry.

use std::any::Any;
use std::fmt::Debug;

use crate::record::{GameRecord, PlayerRecord};
use crate::session::{Session, TurnText};
use crate::{options_to_pairs, ActionInput, BoardView, Game, GameInfo, MoveError, Outcome, Seat};

/// A legal decision as text, with how to choose it by pointing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegalMove {
    /// Canonical notation, accepted by [`AnyGame::play`].
    pub notation: String,
    /// The cells to click and the chooser label.
    pub input: ActionInput,
}

/// The erased interface every `Session<G>` provides.
trait DynSession: Debug + Send + Sync {
    fn info(&self) -> &'static GameInfo;
    fn clone_box(&self) -> Box<dyn DynSession>;
    fn seat_count(&self) -> usize;
    fn seat_name(&self, seat: Seat) -> &'static str;
    fn to_move(&self) -> Option<Seat>;
    fn turn(&self) -> u32;
    fn outcome(&self) -> Option<Outcome>;
    fn key(&self) -> u64;
    fn position(&self) -> String;
    fn options(&self) -> Vec<(String, String)>;
    fn legal_moves(&self) -> Vec<LegalMove>;
    fn play(&mut self, text: &str) -> Result<usize, MoveError>;
    fn resign(&mut self, seat: Seat);
    fn undo(&mut self) -> bool;
    fn redo(&mut self) -> bool;
    fn entry_count(&self) -> usize;
    fn redo_len(&self) -> usize;
    fn view(&self) -> BoardView;
    fn history(&self) -> Vec<TurnText>;
    fn record(&self) -> GameRecord;
    fn players(&self) -> &[PlayerRecord];
    fn set_players(&mut self, players: Vec<PlayerRecord>);
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<G: Game> DynSession for Session<G> {
    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }
    fn clone_box(&self) -> Box<dyn DynSession> {
        Box::new(self.clone())
    }
    fn seat_count(&self) -> usize {
        self.state().seat_count()
    }
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.state().seat_name(seat)
    }
    fn to_move(&self) -> Option<Seat> {
        self.state().to_move()
    }
    fn turn(&self) -> u32 {
        self.state().turn()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state().outcome().cloned()
    }
    fn key(&self) -> u64 {
        self.state().key()
    }
    fn position(&self) -> String {
        self.state().position()
    }
    fn options(&self) -> Vec<(String, String)> {
        options_to_pairs(self.state().options())
    }
    fn legal_moves(&self) -> Vec<LegalMove> {
        let state = self.state();
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        actions
            .into_iter()
            .map(|action| LegalMove {
                notation: state.format_action(action),
                input: state.action_input(action),
            })
            .collect()
    }
    fn play(&mut self, text: &str) -> Result<usize, MoveError> {
        self.play_text(text)
    }
    fn resign(&mut self, seat: Seat) {
        Session::resign(self, seat);
    }
    fn undo(&mut self) -> bool {
        Session::undo(self)
    }
    fn redo(&mut self) -> bool {
        Session::redo(self)
    }
    fn entry_count(&self) -> usize {
        self.entries().len()
    }
    fn redo_len(&self) -> usize {
        Session::redo_len(self)
    }
    fn view(&self) -> BoardView {
        Session::view(self)
    }
    fn history(&self) -> Vec<TurnText> {
        self.turns()
    }
    fn record(&self) -> GameRecord {
        Session::record(self)
    }
    fn players(&self) -> &[PlayerRecord] {
        Session::players(self)
    }
    fn set_players(&mut self, players: Vec<PlayerRecord>) {
        Session::set_players(self, players);
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A game of any kind, with its history, driven by text.
#[derive(Debug)]
pub struct AnyGame(Box<dyn DynSession>);

impl Clone for AnyGame {
    fn clone(&self) -> Self {
        AnyGame(self.0.clone_box())
    }
}

impl<G: Game> From<Session<G>> for AnyGame {
    fn from(session: Session<G>) -> Self {
        AnyGame(Box::new(session))
    }
}

impl AnyGame {
    /// The game's static description.
    pub fn info(&self) -> &'static GameInfo {
        self.0.info()
    }
    /// How many seats play.
    pub fn seat_count(&self) -> usize {
        self.0.seat_count()
    }
    /// The rules' name of a seat.
    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.0.seat_name(seat)
    }
    /// The seat to decide, `None` when over.
    pub fn to_move(&self) -> Option<Seat> {
        self.0.to_move()
    }
    /// Completed turns.
    pub fn turn(&self) -> u32 {
        self.0.turn()
    }
    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    /// The position's Zobrist key.
    pub fn key(&self) -> u64 {
        self.0.key()
    }
    /// The position string.
    pub fn position(&self) -> String {
        self.0.position()
    }
    /// The rules options as `key=value` pairs.
    pub fn options(&self) -> Vec<(String, String)> {
        self.0.options()
    }
    /// Every legal decision, in the game's order.
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        self.0.legal_moves()
    }
    /// Plays a decision or whole turn in notation; nothing changes on error.
    pub fn play(&mut self, text: &str) -> Result<usize, MoveError> {
        self.0.play(text)
    }
    /// `seat` resigns.
    pub fn resign(&mut self, seat: Seat) {
        self.0.resign(seat);
    }
    /// Takes back the last decision (or resignation).
    pub fn undo(&mut self) -> bool {
        self.0.undo()
    }
    /// Replays the last undone decision.
    pub fn redo(&mut self) -> bool {
        self.0.redo()
    }
    /// How many decisions and resignations were played.
    pub fn entry_count(&self) -> usize {
        self.0.entry_count()
    }
    /// How many undone entries can be redone.
    pub fn redo_len(&self) -> usize {
        self.0.redo_len()
    }
    /// What to draw, with the last move's cells.
    pub fn view(&self) -> BoardView {
        self.0.view()
    }
    /// The history in turns.
    pub fn history(&self) -> Vec<TurnText> {
        self.0.history()
    }
    /// The game as a record, ready to save.
    pub fn record(&self) -> GameRecord {
        self.0.record()
    }
    /// The players.
    pub fn players(&self) -> &[PlayerRecord] {
        self.0.players()
    }
    /// Sets the players' names and kinds.
    pub fn set_players(&mut self, players: Vec<PlayerRecord>) {
        self.0.set_players(players);
    }
    /// The concrete session, if this is a game of type `G`.
    pub fn session<G: Game>(&self) -> Option<&Session<G>> {
        self.0.as_any().downcast_ref()
    }
    /// The concrete session, mutably, if this is a game of type `G`.
    pub fn session_mut<G: Game>(&mut self) -> Option<&mut Session<G>> {
        self.0.as_any_mut().downcast_mut()
    }
}

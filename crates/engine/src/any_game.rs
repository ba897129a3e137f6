//! `AnyGame`: a session of any game behind one type, with actions as text.
//!
//! User interfaces and the command line hold an `AnyGame` and need no game knowledge: they
//! play notation, draw the [`BoardView`] and point at cells via [`LegalMove::input`]. Code that
//! needs the concrete game (computer players) gets it back with [`AnyGame::session`].
//!
//! DESIGN.md suggests an enum over the five games. A trait object with one blanket
//! implementation for every `Session<G>` does the same job without a `match` per method per
//! game: adding a game touches only the registry.
//!
//! Each operation is written once as a documented method of the object-safe trait
//! [`ErasedGame`] and once in its blanket implementation; `AnyGame` owns the boxed trait object
//! and dereferences to it, so `game.play("a1:NEN")` on an `AnyGame` calls the trait directly
//! (the methods of a trait object need no `use`). A wrapper method per operation, the third
//! copy, is gone; only what a trait object cannot offer (cloning, the generic downcasts
//! [`AnyGame::session`] and [`AnyGame::session_mut`]) lives on `AnyGame` itself.

use std::any::Any;
use std::fmt::Debug;
use std::ops::{Deref, DerefMut};

use crate::record::{GameRecord, PlayerRecord};
use crate::session::{Session, TurnText};
use crate::{
    options_to_pairs, ActionInput, BoardView, CellId, CellView, Game, GameInfo, MoveError, Outcome,
    Seat,
};

/// A legal decision as text, with how to choose it by pointing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegalMove {
    /// Canonical notation, accepted by [`ErasedGame::play`].
    pub notation: String,
    /// The cells to click and the chooser label.
    pub input: ActionInput,
}

/// The operations of a game of any kind, with its history, driven by text: what every
/// `Session<G>` offers through [`AnyGame`].
pub trait ErasedGame: Debug + Send + Sync {
    /// The game's static description.
    fn info(&self) -> &'static GameInfo;
    /// A boxed copy (what `Clone` for [`AnyGame`] calls).
    #[doc(hidden)]
    fn clone_box(&self) -> Box<dyn ErasedGame>;
    /// How many seats play.
    fn seat_count(&self) -> usize;
    /// The rules' name of a seat.
    fn seat_name(&self, seat: Seat) -> &'static str;
    /// The seat to decide, `None` when over.
    fn to_move(&self) -> Option<Seat>;
    /// Completed turns.
    fn turn(&self) -> u32;
    /// How the game ended, if it did.
    fn outcome(&self) -> Option<Outcome>;
    /// The position's Zobrist key.
    fn key(&self) -> u64;
    /// The position string.
    fn position(&self) -> String;
    /// The position string on one line (see [`Game::position_line`]).
    fn position_line(&self) -> String;
    /// The rules options as `key=value` pairs.
    fn options(&self) -> Vec<(String, String)>;
    /// Every legal decision, in the game's order.
    fn legal_moves(&self) -> Vec<LegalMove>;
    /// Plays a decision or whole turn in notation; nothing changes on error.
    fn play(&mut self, text: &str) -> Result<usize, MoveError>;
    /// `seat` resigns.
    fn resign(&mut self, seat: Seat);
    /// `seat`'s clock ran out: it leaves as on resignation, the reason says the time ran out.
    fn flag(&mut self, seat: Seat);
    /// The seats agree on a draw; false once the game is over.
    fn agree_draw(&mut self) -> bool;
    /// Takes back the last decision (or resignation).
    fn undo(&mut self) -> bool;
    /// Replays the last undone decision.
    fn redo(&mut self) -> bool;
    /// How many decisions and resignations were played.
    fn entry_count(&self) -> usize;
    /// How many undone entries can be redone.
    fn redo_len(&self) -> usize;
    /// What to draw, with the last move's cells.
    fn view(&self) -> BoardView;
    /// A number per cell that changes when the cell's drawing does, or `false` where the game
    /// gives none ([`crate::Presentation::cell_codes`]).
    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool;
    /// One cell as [`ErasedGame::view`] draws it.
    fn cell_view(&self, cell: CellId) -> Option<CellView>;
    /// What to draw but the cells and links, with the last move's cells.
    fn panel_view(&self) -> BoardView;
    /// The history in turns, kept as the game is played: asking costs nothing.
    fn history(&self) -> &[TurnText];
    /// How many times the history was replayed from the start (each undo does; nothing else).
    fn replays(&self) -> u64;
    /// The game as a record, ready to save.
    fn record(&self) -> GameRecord;
    /// The players.
    fn players(&self) -> &[PlayerRecord];
    /// Sets the players' names and kinds.
    fn set_players(&mut self, players: Vec<PlayerRecord>);
    /// The session as `Any`, for [`AnyGame::session`].
    #[doc(hidden)]
    fn as_any(&self) -> &dyn Any;
    /// The session as `Any`, for [`AnyGame::session_mut`].
    #[doc(hidden)]
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<G: Game> ErasedGame for Session<G> {
    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }
    fn clone_box(&self) -> Box<dyn ErasedGame> {
        Box::new(self.clone())
    }
    fn seat_count(&self) -> usize {
        self.state().seat_count()
    }
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.state().seat_name(seat)
    }
    fn to_move(&self) -> Option<Seat> {
        Session::to_move(self)
    }
    fn turn(&self) -> u32 {
        self.state().turn()
    }
    fn outcome(&self) -> Option<Outcome> {
        Session::outcome(self).cloned()
    }
    fn key(&self) -> u64 {
        self.state().key()
    }
    fn position(&self) -> String {
        self.state().position()
    }
    fn position_line(&self) -> String {
        self.state().position_line()
    }
    fn options(&self) -> Vec<(String, String)> {
        options_to_pairs(self.state().options())
    }
    fn legal_moves(&self) -> Vec<LegalMove> {
        let state = self.state();
        let mut actions = Vec::new();
        if Session::outcome(self).is_none() {
            state.legal_actions(&mut actions);
        }
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
    fn flag(&mut self, seat: Seat) {
        Session::flag(self, seat);
    }
    fn agree_draw(&mut self) -> bool {
        Session::agree_draw(self)
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
    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        self.state().cell_codes(codes)
    }
    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        self.state().cell_view(cell)
    }
    fn panel_view(&self) -> BoardView {
        Session::panel_view(self)
    }
    fn history(&self) -> &[TurnText] {
        self.turns()
    }
    fn replays(&self) -> u64 {
        Session::replays(self)
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

/// A game of any kind, with its history, driven by text: a boxed [`ErasedGame`], whose
/// methods it offers by dereferencing.
#[derive(Debug)]
pub struct AnyGame(Box<dyn ErasedGame>);

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

impl Deref for AnyGame {
    type Target = dyn ErasedGame;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl DerefMut for AnyGame {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.0
    }
}

impl AnyGame {
    /// The concrete session, if this is a game of type `G`.
    pub fn session<G: Game>(&self) -> Option<&Session<G>> {
        self.0.as_any().downcast_ref()
    }
    /// The concrete session, mutably, if this is a game of type `G`.
    pub fn session_mut<G: Game>(&mut self) -> Option<&mut Session<G>> {
        self.0.as_any_mut().downcast_mut()
    }
}

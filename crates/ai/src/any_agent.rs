//! Agents for the erased game: user interfaces hold an `AnyGame` and a `Box<dyn AnyAgent>`.

use ludus_engine::{AnyGame, Game};

use crate::{Agent, StopFlag};

/// An agent that plays an [`AnyGame`] of the game type it was built for.
pub trait AnyAgent: Send {
    /// The notation of the chosen decision, or `None` if the game is over or of another type.
    fn choose(&mut self, game: &AnyGame, stop: &StopFlag) -> Option<String>;
    /// The agent's spec.
    fn spec(&self) -> String;
}

struct Erased<G: Game>(Box<dyn Agent<G>>);

impl<G: Game> AnyAgent for Erased<G> {
    fn choose(&mut self, game: &AnyGame, stop: &StopFlag) -> Option<String> {
        let state = game.session::<G>()?.state();
        state.to_move()?;
        let action = self.0.choose(state, stop);
        Some(state.format_action(action))
    }

    fn spec(&self) -> String {
        self.0.spec()
    }
}

/// Erases an agent for game `G`.
pub fn erase<G: Game>(agent: Box<dyn Agent<G>>) -> Box<dyn AnyAgent> {
    Box::new(Erased(agent))
}

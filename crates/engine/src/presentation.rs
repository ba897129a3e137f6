//! What a UI draws of a game, written apart from its rules.

use crate::{ActionInput, BoardView, Rules};

/// What a UI draws of a game's state and how a person chooses an action on it.
pub trait Presentation: Rules {
    /// What a UI draws. `last_move` is left empty (the session fills it).
    fn view(&self) -> BoardView;

    /// The cells a person clicks to choose the legal `action`, and its chooser label. Cell ids
    /// index the cells of [`Presentation::view`].
    fn action_input(&self, action: Self::Action) -> ActionInput;
}

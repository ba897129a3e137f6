//! What a UI draws of a game, written apart from its rules.

use crate::{ActionInput, BoardView, Hue, Rules, Seat, SeatView};

/// What a UI draws of a game's state and how a person chooses an action on it.
pub trait Presentation: Rules {
    /// What a UI draws. `last_move` is left empty (the session fills it).
    fn view(&self) -> BoardView;

    /// The cells a person clicks to choose the legal `action`, and its chooser label. Cell ids
    /// index the cells of [`Presentation::view`].
    fn action_input(&self, action: Self::Action) -> ActionInput;

    /// The seats as a view lists them: each with its rules name and its colour from `hues`
    /// (by seat), all still in the game. A game whose seats can leave writes its own list.
    fn seat_views(&self, hues: &[Hue]) -> Vec<SeatView> {
        Seat::all(self.seat_count())
            .map(|seat| SeatView {
                seat,
                name: self.seat_name(seat).to_string(),
                hue: hues.get(seat.to_usize()).copied().unwrap_or(Hue::Neutral),
                alive: true,
            })
            .collect()
    }
}

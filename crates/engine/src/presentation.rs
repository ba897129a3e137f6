//! What a UI draws of a game, written apart from its rules.

use crate::{ActionInput, BoardView, CellId, CellView, Hue, Rules, Seat, SeatView};

/// What a UI draws of a game's state and how a person chooses an action on it.
pub trait Presentation: Rules {
    /// What a UI draws. `last_move` is left empty (the session fills it).
    fn view(&self) -> BoardView;

    /// The cells a person clicks to choose the legal `action`, and its chooser label. Cell ids
    /// index the cells of [`Presentation::view`].
    fn action_input(&self, action: Self::Action) -> ActionInput;

    /// A number for each cell of [`Presentation::view`], in its order, written into `codes`
    /// (emptied first), such that a cell drawn differently in two positions of the game has
    /// different numbers in them. A front end that keeps the numbers of what it drew finds the
    /// cells a change redrew without building every cell (a server's delta after each move:
    /// building, comparing and dropping whole views was 8 % of its CPU under load).
    ///
    /// `false`, the default, where the game gives no such numbers: compare whole views then.
    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        codes.clear();
        false
    }

    /// Cell `cell` as [`Presentation::view`] draws it (`None` past the last cell).
    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        self.view().cells.into_iter().nth(cell.to_usize())
    }

    /// [`Presentation::view`] without its cells and links (both left empty): the seats, hands,
    /// side to move and status, for a front end that draws the cells it needs one by one.
    fn panel_view(&self) -> BoardView {
        let mut view = self.view();
        view.cells.clear();
        view.links.clear();
        view
    }

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

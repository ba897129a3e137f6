//! The numbers a game gives its cells ([`Presentation::cell_codes`]) checked against its whole
//! view, after every decision of the random games: a front end that trusts them redraws only
//! the cells whose number changed, so a number that stays while its cell changes leaves a stale
//! cell on every screen.

use std::collections::HashMap;

use crate::{CellId, CellView, Game};

/// Each cell's drawing met so far under each of its numbers, through all the games of a run:
/// a number is a function of the position, whatever the game that reached it.
pub(super) type Drawn = HashMap<(usize, u64), CellView>;

/// Checks `state`'s cell numbers, its cells drawn one by one and its panel against its whole
/// view, and that a number means one drawing of its cell: a cell drawn otherwise in any other
/// position met (a turn of several decisions apart, as a server compares them, or in another
/// game) has another number. `drawn` keeps what was met.
///
/// # Panics
/// On the first disagreement, with `context` and the cell.
pub(super) fn check_cell_codes<G: Game>(
    state: &G,
    drawn: &mut Drawn,
    context: &impl Fn() -> String,
) {
    let mut codes = Vec::new();
    if !state.cell_codes(&mut codes) {
        return;
    }
    let view = state.view();
    assert_eq!(
        codes.len(),
        view.cells.len(),
        "{}: one number per cell",
        context()
    );
    for (index, (cell, &code)) in view.cells.iter().zip(&codes).enumerate() {
        let alone = state.cell_view(CellId(index as u16));
        assert_eq!(
            alone.as_ref(),
            Some(cell),
            "{}: cell {} drawn alone as in the view",
            context(),
            cell.name
        );
        let met = drawn.entry((index, code)).or_insert_with(|| cell.clone());
        assert_eq!(
            &*met,
            cell,
            "{}: cell {} drawn two ways under the number {code}",
            context(),
            cell.name
        );
    }
    assert_eq!(state.cell_view(CellId(view.cells.len() as u16)), None);
    let mut panel = view;
    panel.cells.clear();
    panel.links.clear();
    assert_eq!(
        state.panel_view(),
        panel,
        "{}: the panel is the view without cells and links",
        context()
    );
}

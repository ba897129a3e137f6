//! The rules page's text: each game's rules summary and notation legend, which the game's
//! folder writes and the registry gives, and the list of keys, which belongs to this app.
//! Shown on the rules page from the menu, the setup screen and the game.

use std::sync::LazyLock;

/// The rules pages, one per registered game: its rules summary, then its notation legend.
static PAGES: LazyLock<Vec<(&'static str, String)>> = LazyLock::new(|| {
    ludus_games::GAMES
        .iter()
        .map(|info| {
            (
                info.id,
                format!("{}\n\nNotation\n{}", info.rules, info.notation),
            )
        })
        .collect()
});

/// The rules summary and notation legend of the game `id`.
pub fn rules(id: &str) -> &'static str {
    PAGES
        .iter()
        .find(|(page_id, _)| *page_id == id)
        .map_or("No rules summary for this game.", |(_, page)| page.as_str())
}

/// The keys, for every rules page.
pub const KEYS: &str = "\
Keys
  arrows, mouse     move the cursor / click a cell
  Enter, space      select the cell under the cursor
  : or /            type a move in notation (a decision or a whole turn)
  Esc               clear the selection; otherwise back to the menu
  h                 hint (the move the level-4 computer would play)
  u / r             undo / redo (against a computer: back to your last decision)
  s                 save the game (asks for a file name)
  R                 resign
  p / n             pause the computers / let them play one decision
  + / -             computer moves faster / slower (a delay to watch them)
  m                 back to the menu
  ?                 this page
  t                 next colour theme
  q                 quit

At the end of a game: s save, v replay (arrows step, Home/End), a play again, m menu.";

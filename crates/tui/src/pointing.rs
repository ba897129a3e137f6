//! Playing by pointing, with no game knowledge: every legal decision lists the cells a person
//! clicks ([`ludus_engine::ActionInput`]). Selecting cells narrows the legal decisions to those
//! whose cells start with the selection; one left is played, several sharing the same cells
//! go to a chooser by their labels.

use ludus_engine::{BoardView, CellId, LegalMove};

use super::app::Chooser;

/// What selecting a cell leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Exactly one decision: play it.
    Play(String),
    /// Several decisions share the selected cells: choose by label.
    Choose(Chooser),
    /// The new selection (more cells are needed, or a cell was unselected).
    Select(Vec<CellId>),
    /// No decision goes this way; the reason, in one line.
    Illegal(String),
}

fn starts_with(m: &LegalMove, prefix: &[CellId]) -> bool {
    m.input.cells.starts_with(prefix)
}

fn name(view: &BoardView, cell: CellId) -> &str {
    view.cells.get(cell.to_usize()).map_or("?", |c| &*c.name)
}

/// Selects `cell` after `selected`.
pub fn pick(view: &BoardView, moves: &[LegalMove], selected: &[CellId], cell: CellId) -> Pick {
    let mut chosen = selected.to_vec();
    chosen.push(cell);
    // Clicking the last selected cell again unselects it, unless a decision goes on there
    // (Replica's transform is the piece clicked twice).
    if selected.last() == Some(&cell) && !moves.iter().any(|m| starts_with(m, &chosen)) {
        return Pick::Select(selected[..selected.len() - 1].to_vec());
    }
    if !moves.iter().any(|m| starts_with(m, &chosen)) {
        // Not a continuation: maybe the start of another decision.
        if selected.is_empty() || !moves.iter().any(|m| starts_with(m, &[cell])) {
            return Pick::Illegal(illegal_reason(view, selected, cell));
        }
        chosen = vec![cell];
    }
    resolve(moves, chosen)
}

/// The decisions that the cells `chosen` designate, as a pick.
fn resolve(moves: &[LegalMove], chosen: Vec<CellId>) -> Pick {
    let candidates: Vec<&LegalMove> = moves.iter().filter(|m| starts_with(m, &chosen)).collect();
    let complete: Vec<&LegalMove> = candidates
        .iter()
        .copied()
        .filter(|m| m.input.cells.len() == chosen.len())
        .collect();
    let more = complete.len() < candidates.len();
    match (complete.len(), more) {
        (0, _) => Pick::Select(chosen),
        (1, false) => Pick::Play(complete[0].notation.clone()),
        _ => Pick::Choose(Chooser {
            entries: complete.iter().map(|m| entry(m)).collect(),
            index: 0,
            more,
        }),
    }
}

fn entry(m: &LegalMove) -> (String, String) {
    (
        m.input
            .label
            .as_deref()
            .map_or_else(|| m.notation.clone(), str::to_string),
        m.notation.clone(),
    )
}

fn illegal_reason(view: &BoardView, selected: &[CellId], cell: CellId) -> String {
    let here = name(view, cell);
    match selected.last() {
        None => format!("no legal move starts at {here}"),
        Some(&from) => format!(
            "{here} is not a legal target from {}; Esc clears the selection",
            name(view, from)
        ),
    }
}

/// Decisions chosen without any cell (a forced pass), for a chooser.
pub fn cell_free(moves: &[LegalMove]) -> Option<Chooser> {
    let entries: Vec<_> = moves
        .iter()
        .filter(|m| m.input.cells.is_empty())
        .map(entry)
        .collect();
    (!entries.is_empty()).then_some(Chooser {
        entries,
        index: 0,
        more: false,
    })
}

/// The cells that continue the selection (with nothing selected: the cells decisions start on).
pub fn targets(moves: &[LegalMove], selected: &[CellId]) -> Vec<CellId> {
    let mut cells: Vec<CellId> = moves
        .iter()
        .filter(|m| starts_with(m, selected))
        .filter_map(|m| m.input.cells.get(selected.len()).copied())
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// The cells of the legal decision written `notation`.
pub fn cells_of(moves: &[LegalMove], notation: &str) -> Vec<CellId> {
    moves
        .iter()
        .find(|m| m.notation == notation)
        .map(|m| m.input.cells.to_vec())
        .unwrap_or_default()
}

/// The cell the cursor reaches from `from` going `(dx, dy)` (y upward): the nearest cell in
/// that direction, preferring cells straight ahead; `from` itself at the edge.
pub fn step_cursor(view: &BoardView, from: CellId, dx: i32, dy: i32) -> CellId {
    let Some(start) = view.cells.get(from.to_usize()) else {
        return CellId(0);
    };
    let (x, y) = (i32::from(start.x), i32::from(start.y));
    // `weight` is the cost of a step aside per step ahead.
    let nearest = |linked_only: bool, weight: i32| {
        view.cells
            .iter()
            .enumerate()
            .filter(|(i, _)| !linked_only || linked(view, from, CellId(*i as u16)))
            .filter_map(|(i, c)| {
                let (ox, oy) = (i32::from(c.x) - x, i32::from(c.y) - y);
                let ahead = ox * dx + oy * dy;
                let aside = (ox * dy).abs() + (oy * dx).abs();
                (ahead > 0).then_some((ahead + weight * aside, ahead, i))
            })
            .min()
            .map(|(_, _, i)| CellId(i as u16))
    };
    // On a board of points and lines (Qilin) the cursor follows the lines where one leads
    // that way, as a piece would, and the line straight ahead before a diagonal one even when
    // the diagonal's point is nearer (a1 → d1, not b2), as the web page's keys do; elsewhere it
    // goes to the nearest cell in that direction.
    let along_a_line = if view.links.is_empty() {
        None
    } else {
        nearest(true, 8)
    };
    along_a_line.or_else(|| nearest(false, 2)).unwrap_or(from)
}

fn linked(view: &BoardView, a: CellId, b: CellId) -> bool {
    view.links
        .iter()
        .any(|&(p, q)| (p == a && q == b) || (p == b && q == a))
}

/// A good first cursor position: the first cell a decision starts on, else the middle cell.
pub fn initial_cursor(view: &BoardView, moves: &[LegalMove]) -> CellId {
    if let Some(cell) = targets(moves, &[]).first() {
        return *cell;
    }
    CellId((view.cells.len() / 2) as u16)
}

#[cfg(test)]
mod tests {
    use ludus_engine::ActionInput;

    use super::*;

    fn mv(notation: &str, cells: &[u16], label: Option<&str>) -> LegalMove {
        LegalMove {
            notation: notation.into(),
            input: ActionInput {
                cells: cells.iter().map(|&c| CellId(c)).collect(),
                label: label.map(|l| l.to_string().into()),
            },
        }
    }

    /// Any board with at least four cells will do: the picking logic knows no game.
    fn view() -> BoardView {
        let board = ludus_games::GAMES
            .iter()
            .map(|info| ludus_games::new_game(info.id, &[], None, 0).unwrap().view())
            .find(|view| view.cells.len() >= 4);
        board.expect("a registered game has a board of four cells or more")
    }

    #[test]
    fn narrowing_playing_choosing_and_refusing() {
        let moves = vec![
            mv("a-b", &[0, 1], None),
            mv("a-c", &[0, 2], None),
            mv("c*n", &[2, 3], Some("throw n")),
            mv("c*s", &[2, 3], Some("throw s")),
            mv("d", &[3], None),
        ];
        let v = view();
        assert_eq!(
            pick(&v, &moves, &[], CellId(0)),
            Pick::Select(vec![CellId(0)])
        );
        assert_eq!(targets(&moves, &[CellId(0)]), vec![CellId(1), CellId(2)]);
        assert_eq!(
            pick(&v, &moves, &[CellId(0)], CellId(1)),
            Pick::Play("a-b".into())
        );
        let Pick::Choose(chooser) = pick(&v, &moves, &[CellId(2)], CellId(3)) else {
            panic!("expected a chooser");
        };
        assert_eq!(chooser.entries[1], ("throw s".into(), "c*s".into()));
        // Another start cell restarts the selection; a dead cell is refused.
        assert_eq!(
            pick(&v, &moves, &[CellId(0)], CellId(3)),
            Pick::Play("d".into())
        );
        assert!(matches!(pick(&v, &moves, &[], CellId(1)), Pick::Illegal(_)));
        // Clicking the selected cell again unselects it.
        assert_eq!(
            pick(&v, &moves, &[CellId(0)], CellId(0)),
            Pick::Select(vec![])
        );
        assert!(cell_free(&moves).is_none());
        assert_eq!(cells_of(&moves, "a-c"), vec![CellId(0), CellId(2)]);
    }
}

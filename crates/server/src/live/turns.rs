//! A move as sent (one decision or a whole turn) split into its decisions, each with its seat,
//! canonical notation and cells: the events the page animates and announces.
//!
//! The rules read the text (`Game::parse_turn`), so nothing here knows any notation.

use ludus_engine::{AnyGame, Game, Heuristic, InputCells, MoveError, Seat};
use ludus_games::{dispatch, GameVisitor};

/// One decision of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The seat that decides it.
    pub seat: Seat,
    /// Its canonical notation.
    pub notation: String,
    /// The cells a person would click for it.
    pub cells: InputCells,
}

/// The decisions of `text` played from `game`'s position, or why the rules refuse it.
pub fn split_turn(game: &AnyGame, text: &str) -> Result<Vec<Decision>, MoveError> {
    struct Split<'a> {
        game: &'a AnyGame,
        text: &'a str,
    }
    impl GameVisitor for Split<'_> {
        type Output = Option<Result<Vec<Decision>, MoveError>>;
        fn visit<G: Game + Heuristic>(self) -> Self::Output {
            let state = self.game.session::<G>()?.state();
            Some(decisions(state, self.text))
        }
    }
    let split = Split { game, text };
    match dispatch(game.info().id, split) {
        Ok(Some(result)) => result,
        // The registry built this game, so it knows it; keep an answer for the impossible case.
        _ => Err(MoveError::illegal(text, "this game cannot read moves")),
    }
}

fn decisions<G: Game>(state: &G, text: &str) -> Result<Vec<Decision>, MoveError> {
    if let Some(outcome) = state.outcome() {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    let actions = state.parse_turn(text.trim())?;
    let mut state = state.clone();
    let mut found = Vec::with_capacity(actions.len());
    for action in actions {
        let Some(seat) = state.to_move() else {
            return Err(MoveError::illegal(
                text,
                "the game ends before this decision",
            ));
        };
        found.push(Decision {
            seat,
            notation: state.format_action(action),
            cells: state.action_input(action).cells,
        });
        state.apply(action);
    }
    Ok(found)
}

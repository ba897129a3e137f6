//! The bookkeeping every game keeps the same way: its options, the seat to move, the turn
//! count and the outcome. A game state holds one [`Core`] and hands it out through
//! [`Rules::core`](crate::Rules::core), so that the accessors a front end needs are written
//! once, in the trait, instead of in every game.

use crate::{Outcome, Seat};

/// Options, seat to move, completed turns and outcome of a game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Core<O> {
    /// The rules options the game was created with.
    pub options: O,
    /// The seat to decide next (kept after the game ends; [`Rules::to_move`](crate::Rules::to_move)
    /// then answers `None`).
    pub to_move: Seat,
    /// Completed turns.
    pub turn: u32,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
}

impl<O> Core<O> {
    /// A game going on at turn 0 with `to_move` to decide.
    pub fn new(options: O, to_move: Seat) -> Self {
        Core {
            options,
            to_move,
            turn: 0,
            outcome: None,
        }
    }
}

/// Writes [`Rules::core`](crate::Rules::core) and [`Rules::core_mut`](crate::Rules::core_mut)
/// inside `impl Rules for …`, for a state that keeps its [`Core`] in the field named:
/// `ludus_engine::core_in!(core);`. Every game writes the same two accessors; this writes
/// them once.
#[macro_export]
macro_rules! core_in {
    ($field:ident) => {
        fn core(&self) -> &$crate::Core<Self::Options> {
            &self.$field
        }

        fn core_mut(&mut self) -> &mut $crate::Core<Self::Options> {
            &mut self.$field
        }
    };
}

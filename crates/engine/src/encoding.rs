//! Integer action ids and observation tensors: the view of a game that learning libraries
//! (OpenSpiel, PettingZoo, AlphaZero-style trainers) need, provided by each game.
//!
//! A game with its options has a **fixed action space** `0..num_distinct_actions`: every
//! legal decision of every reachable position has an id in it, distinct from the ids of the
//! other legal decisions of the same position, and the id of a decision depends only on the
//! game, its options and the decision itself (never on the order of the legal actions). The
//! **observation** is a `[planes, height, width]` tensor of `f32` of a shape that depends only
//! on the options, seen from one seat's point of view. Each game documents its ids and planes
//! in its `encoding.rs`; [`crate::testkit::check_encoding`] checks the promises.

use crate::{Game, Seat};

/// Action ids and observation tensors of a game.
pub trait Encoding: Game {
    /// The size of the action space: every action id is below it.
    fn num_distinct_actions(options: &Self::Options) -> usize;

    /// The id of `action` (legal in this state), in `0..num_distinct_actions`.
    fn action_id(&self, action: Self::Action) -> u32;

    /// An upper bound on the decisions of any game from the usual setup with `options`
    /// (OpenSpiel's `MaxGameLength`). Where options switch off every rule that ends long
    /// games, it is a cap that no real game approaches.
    fn max_decisions(options: &Self::Options) -> usize;

    /// The action whose id is `id`, if `id` names one in this state. The result may still be
    /// illegal here: callers check it with [`Game::is_legal`] (or play it with
    /// [`Game::try_apply`]).
    fn action_from_id(&self, id: u32) -> Option<Self::Action>;

    /// The observation tensor's shape `[planes, height, width]` for these options.
    fn observation_shape(options: &Self::Options) -> [usize; 3];

    /// Writes the observation of this state from `seat`'s point of view into `out`, whose
    /// length is the product of [`Encoding::observation_shape`]; plane `p`, row `r`, column
    /// `c` is `out[(p * height + r) * width + c]`. Every value is written (no stale data).
    fn observe(&self, seat: Seat, out: &mut [f32]);
}

/// The length of the observation tensor of `G` with `options`.
pub fn observation_len<G: Encoding>(options: &G::Options) -> usize {
    G::observation_shape(options).iter().product()
}

/// Writes `value` into every cell of plane `plane` of an observation of `width * height`
/// cells per plane: the constant planes (whose turn, hands, stage) every game has.
pub fn fill_plane(out: &mut [f32], cells: usize, plane: usize, value: f32) {
    out[plane * cells..(plane + 1) * cells].fill(value);
}

//! The playout fast path (`Game::random_action`): a uniformly random legal step drawn as a
//! random set bit of the legal step slots (`slots.rs`), with no list built. Each legal step is
//! one bit, so each is equally likely; the order of draws differs from `legal_actions`, which
//! only playouts may do.
//!
//! Tried and dropped: drawing from a superset that takes every candidate rock along every free
//! sorcerer step and refusing a blocked levitation when drawn (rejection sampling) saves the
//! rocks' neighbourhoods but was 10 % slower per decision: the refusals are unpredictable
//! branches.

use ludus_engine::bits::draw_bit;
use rand::Rng;

use super::moves::SplutAction;
use super::slots::{SLOTS, SLOT_STEPS};
use super::state::Splut;

impl Splut {
    /// A uniformly random legal decision, or `None` when the game is over: a random set bit
    /// of the legal slots, the forced pass when there is none.
    #[inline]
    pub(super) fn draw_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<SplutAction> {
        if self.core.outcome.is_some() {
            return None;
        }
        let slots = self.legal_slots();
        Some(if slots == 0 {
            SplutAction::Pass
        } else {
            SLOT_STEPS[draw_bit(slots, rng) as usize % SLOTS]
        })
    }
}

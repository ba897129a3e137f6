//! A node of the one-thread search's tree (the arena of `MctsAgent`), and the packing of a
//! node's decision that both trees use.

use std::marker::PhantomData;

use ludus_engine::PackedAction;

use super::NO_SEAT;

/// A packed decision of a node with none (a root): no decision packs to it.
pub(super) const NO_ACTION: u32 = u32::MAX;

/// The decision a node of either tree keeps packed (`None` at a root: [`NO_ACTION`]).
pub(super) fn unpacked<A: PackedAction>(bits: u32) -> Option<A> {
    (bits != NO_ACTION).then(|| A::unpack(bits))
}

/// One node of the one-thread search's tree: 32 bytes, two to a cache line. Selection reads every child of
/// every node on its path, and in the games of deep, narrow trees (Qawale) those reads, not
/// the arithmetic, set the pace: at 48 bytes (the decision as an `Option`, the mean and the
/// spread as `f64`) one thread ran Qawale's iterations 8 % slower than on the shared tree's
/// 32-byte nodes (`docs/SCALING.md`, "The one-thread node in 32 bytes").
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<A> {
    /// Total reward of the seat that chose `action`.
    pub(super) value: f64,
    /// `value / visits` and `1 / sqrt(visits)`, kept by the back-up (a few nodes an
    /// iteration) so that selection (every child of every node on the path) needs no division
    /// and no square root. As `f32`: a mean off by a few parts in ten million decides
    /// between two children only where their scores are that close.
    pub(super) mean: f32,
    pub(super) spread: f32,
    /// Iterations through this node.
    pub(super) visits: u32,
    /// Index of the first child; children are contiguous.
    pub(super) first_child: u32,
    /// The decision that led here, packed ([`PackedAction`]; [`NO_ACTION`] at the root).
    pub(super) action: u32,
    /// How many children (valid once `expanded`).
    pub(super) children: u16,
    /// The seat deciding here, or `NO_SEAT`.
    pub(super) mover: u8,
    pub(super) expanded: bool,
    pub(super) decision: PhantomData<A>,
}

impl<A: PackedAction> Node<A> {
    pub(super) fn new(action: Option<A>) -> Self {
        Node {
            value: 0.0,
            mean: 0.0,
            spread: 0.0,
            visits: 0,
            first_child: 0,
            action: action.map_or(NO_ACTION, A::pack),
            children: 0,
            mover: NO_SEAT,
            expanded: false,
            decision: PhantomData,
        }
    }

    /// The decision that led here (`None` at the root).
    pub(super) fn action(&self) -> Option<A> {
        unpacked(self.action)
    }

    pub(super) fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + usize::from(self.children)
    }

    /// The mean reward in full precision, for the report (selection reads the `f32`).
    pub(super) fn mean(&self) -> f64 {
        self.value / f64::from(self.visits.max(1))
    }

    /// Counts one more iteration through this node, with `reward` for the seat that chose it.
    pub(super) fn add(&mut self, reward: f64) {
        self.visits += 1;
        self.value += reward;
        let visits = f64::from(self.visits);
        self.mean = (self.value / visits) as f32;
        self.spread = visits.sqrt().recip() as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_keeps_to_32_bytes_two_to_a_cache_line() {
        assert_eq!(size_of::<Node<u8>>(), 32);
        assert_eq!(
            size_of::<Node<u32>>(),
            32,
            "the decision is packed, whatever its type"
        );
        let node = Node::new(Some(7u8));
        assert_eq!(node.action(), Some(7));
        assert_eq!(Node::<u8>::new(None).action(), None);
    }
}

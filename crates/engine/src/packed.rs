//! A decision in 32 bits: what a table shared between threads keeps of a decision with one
//! plain atomic store. MCTS's shared tree writes the decision of every child it creates; a
//! once-cell per child (the safe way to publish any `Copy` value) cost two locked atomic
//! operations a child, more than the rest of an expansion, where a packed decision is one
//! ordinary store published with the parent's children.

/// A decision that packs into 32 bits and back. Every game's decision is a few small fields;
/// the games pack them as their action ids ([`crate::Encoding::action_id`]).
pub trait PackedAction: Copy {
    /// The decision as 32 bits, never `u32::MAX` (tables may keep that for "no decision").
    fn pack(self) -> u32;

    /// The decision `bits` was packed from ([`PackedAction::pack`]). Bits that no decision
    /// packs to give some decision of the type, never a panic.
    fn unpack(bits: u32) -> Self;
}

/// Decisions that are small numbers (the demo's Nim, test games).
impl PackedAction for u8 {
    fn pack(self) -> u32 {
        u32::from(self)
    }

    fn unpack(bits: u32) -> Self {
        bits as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_packs_and_unpacks_to_itself() {
        for byte in 0..=u8::MAX {
            assert_eq!(u8::unpack(byte.pack()), byte);
            assert_ne!(byte.pack(), u32::MAX);
        }
    }
}

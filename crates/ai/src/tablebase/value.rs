//! The one-byte value of a position in a table: a draw, a win in 1..=128 turns or a loss in
//! 0..=126 turns for the side to move. 0 is a draw, so that a position the retrograde
//! analysis never resolves (neither side can force a win) is a draw as it stands.

use crate::Proved;

/// The stored byte of a draw.
pub(crate) const DRAW: u8 = 0;

/// The longest win a byte can say.
const MAX_WIN: u32 = 128;

/// The first byte of a loss (a loss in 0 turns: no turn to play).
const LOSS: u8 = 129;

/// The longest loss a byte can say.
const MAX_LOSS: u32 = (u8::MAX - LOSS) as u32;

/// The byte of `proved`, or `None` when its distance does not fit.
pub(crate) fn encode(proved: Proved) -> Option<u8> {
    match proved {
        Proved::Draw => Some(DRAW),
        Proved::Win(n) if (1..=MAX_WIN).contains(&n) => Some(n as u8),
        Proved::Loss(n) if n <= MAX_LOSS => Some(LOSS + n as u8),
        _ => None,
    }
}

/// The result a stored byte says.
pub(crate) fn decode(byte: u8) -> Proved {
    match byte {
        DRAW => Proved::Draw,
        LOSS.. => Proved::Loss(u32::from(byte - LOSS)),
        win => Proved::Win(u32::from(win)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_decodes_to_a_result_that_encodes_back() {
        for byte in 0..=u8::MAX {
            assert_eq!(encode(decode(byte)), Some(byte));
        }
        assert_eq!(encode(Proved::Win(129)), None);
        assert_eq!(encode(Proved::Loss(127)), None);
        assert_eq!(encode(Proved::Win(0)), None);
    }
}

//! Seats (the players of a game, 2 to 4) and per-seat storage.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// The most seats any Ludus game has (Splut! with four players).
pub const MAX_SEATS: usize = 4;

/// One player's place at the table, numbered from 0 in turn order.
///
/// Displayed 1-based ("seat 1") because that is how people count players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The first seat in turn order.
    pub const FIRST: Seat = Seat(0);
    /// The second seat in turn order.
    pub const SECOND: Seat = Seat(1);

    /// The seat with 0-based index `index`.
    ///
    /// # Panics
    /// If `index >= MAX_SEATS`: seats are created by game code, never from user text
    /// (use [`Seat::from_number`] for that).
    pub const fn new(index: u8) -> Seat {
        assert!((index as usize) < MAX_SEATS, "seat index out of range");
        Seat(index)
    }

    /// The seat a person calls `number` (1-based), if it exists among `seat_count` seats.
    pub fn from_number(number: usize, seat_count: usize) -> Option<Seat> {
        (1..=seat_count.min(MAX_SEATS))
            .contains(&number)
            .then(|| Seat((number - 1) as u8))
    }

    /// The 0-based index, for indexing per-seat arrays.
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }

    /// The 1-based number people use.
    pub const fn number(self) -> usize {
        self.0 as usize + 1
    }

    /// The next seat in turn order among `seat_count` seats.
    pub const fn next(self, seat_count: usize) -> Seat {
        Seat(((self.0 as usize + 1) % seat_count) as u8)
    }

    /// For two-seat games: the other seat.
    pub const fn opponent(self) -> Seat {
        Seat(1 - self.0)
    }

    /// All seats of a game with `seat_count` seats, in turn order.
    pub fn all(seat_count: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..seat_count.min(MAX_SEATS) as u8).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.number())
    }
}

/// A value per seat, indexed by [`Seat`] (as shakmaty's `ByColor`): `N` entries, the most
/// seats the game has (`BySeat<u8, 2>` for a two-player game's hands).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BySeat<T, const N: usize = MAX_SEATS>(pub [T; N]);

impl<T: Copy, const N: usize> BySeat<T, N> {
    /// The same value for every seat.
    pub const fn splat(value: T) -> Self {
        BySeat([value; N])
    }
}

impl<T, const N: usize> BySeat<T, N> {
    /// The values in seat order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a BySeat<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: Default, const N: usize> Default for BySeat<T, N> {
    fn default() -> Self {
        BySeat(std::array::from_fn(|_| T::default()))
    }
}

impl<T, const N: usize> Index<Seat> for BySeat<T, N> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.to_usize()]
    }
}

impl<T, const N: usize> IndexMut<Seat> for BySeat<T, N> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.to_usize()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_one_based_and_checked() {
        assert_eq!(Seat::from_number(1, 2), Some(Seat::FIRST));
        assert_eq!(Seat::from_number(3, 2), None);
        assert_eq!(Seat::from_number(0, 4), None);
        assert_eq!(Seat::new(3).number(), 4);
    }

    #[test]
    fn by_seat_is_indexed_by_seat() {
        let mut hands: BySeat<u8, 2> = BySeat::splat(18);
        hands[Seat::SECOND] -= 1;
        assert_eq!(hands.0, [18, 17]);
        assert_eq!(hands[Seat::FIRST], 18);
        assert_eq!(hands.iter().sum::<u8>(), 35);
        assert_eq!(BySeat::<u8>::default().0, [0; MAX_SEATS]);
    }

    #[test]
    fn next_wraps_around() {
        assert_eq!(Seat::new(2).next(3), Seat::FIRST);
        assert_eq!(Seat::FIRST.next(2), Seat::SECOND);
        assert_eq!(Seat::SECOND.opponent(), Seat::FIRST);
    }
}

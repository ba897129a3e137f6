//! The arena's game list, computed one game at a time: game `i` of a tournament is a pure
//! function of `i`, so nothing proportional to the number of games is allocated before the
//! first game, and every shard of a tournament sees the same list.
//!
//! Pairs of players come in order (1-2, 1-3, …, 2-3, …), each playing `games_per_pair`
//! games in a row. Within a pair, games `2k` and `2k + 1` are a **game pair**: the same
//! opening (number `k`), the first player on seat 1 in the even game and the second in the
//! odd one. Games of 3–4 seats are filled with the pair's two players in rotation (`A B A`
//! then `B A B`).

/// One scheduled game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Fixture {
    /// The game's number in the tournament, from 0.
    pub index: usize,
    /// The game pair's number within its pair of players: picks the opening.
    pub round: usize,
    /// The player (index into the tournament's players) on each seat.
    pub seats: Vec<usize>,
}

/// A tournament's game list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Schedule {
    /// How many players.
    pub players: usize,
    /// Games each pair of players plays.
    pub games_per_pair: usize,
    /// Seats of the game.
    pub seat_count: usize,
}

impl Schedule {
    /// How many pairs of players meet.
    fn pairs(&self) -> usize {
        self.players * self.players.saturating_sub(1) / 2
    }

    /// How many games the tournament has (saturating: the caller caps the inputs).
    pub fn total(&self) -> usize {
        self.pairs().saturating_mul(self.games_per_pair)
    }

    /// The players of pair number `pair`, in order 1-2, 1-3, …, 2-3, ….
    fn pair(&self, mut pair: usize) -> (usize, usize) {
        for first in 0..self.players {
            let later = self.players - first - 1;
            if pair < later {
                return (first, first + 1 + pair);
            }
            pair -= later;
        }
        (0, 1)
    }

    /// Game `index` (below [`Schedule::total`]).
    pub fn fixture(&self, index: usize) -> Fixture {
        let per_pair = self.games_per_pair.max(1);
        let (a, b) = self.pair(index / per_pair);
        let game = index % per_pair;
        Fixture {
            index,
            round: game / 2,
            seats: (0..self.seat_count)
                .map(|k| if (k + game) & 1 == 0 { a } else { b })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(schedule: Schedule) -> Vec<Vec<usize>> {
        (0..schedule.total())
            .map(|i| schedule.fixture(i).seats)
            .collect()
    }

    #[test]
    fn schedules_alternate_and_rotate_seats() {
        let two = Schedule {
            players: 2,
            games_per_pair: 3,
            seat_count: 2,
        };
        assert_eq!(seats(two), [vec![0, 1], vec![1, 0], vec![0, 1]]);
        assert_eq!(two.fixture(1).round, 0);
        assert_eq!(two.fixture(2).round, 1);
        let three_seats = Schedule {
            players: 2,
            games_per_pair: 2,
            seat_count: 3,
        };
        assert_eq!(seats(three_seats), [vec![0, 1, 0], vec![1, 0, 1]]);
        let round_robin = Schedule {
            players: 3,
            games_per_pair: 2,
            seat_count: 2,
        };
        let all = seats(round_robin);
        assert_eq!(all.len(), 6);
        assert_eq!(all[2], [0, 2]);
        assert_eq!(all[5], [2, 1]);
    }

    #[test]
    fn a_huge_tournament_costs_nothing_to_describe() {
        let huge = Schedule {
            players: 4,
            games_per_pair: usize::MAX,
            seat_count: 2,
        };
        assert_eq!(huge.total(), usize::MAX);
        assert_eq!(huge.fixture(usize::MAX - 1).seats.len(), 2);
    }
}

//! Replica's random playout (`Game::play_randomly`): the draws of `random.rs` and the moves of
//! `state.rs` in one loop that keeps the board, the key and the side to move in locals, with
//! each side's half-turn compiled for that side (its three directions, and which end of a ray
//! is nearest, known). A decision the slots cannot draw in [`TRIES`] tries goes through the
//! listed decisions, as `draw_action`'s does. The loop makes the same decisions from the same
//! generator as draw-then-apply, and leaves the generator in the same state (tested below).

use ludus_engine::bits::below;
use ludus_engine::Outcome;
use rand::seq::IndexedRandom;
use rand::Rng;

use super::moves::{transformable_in, ReplicaAction, FORWARD};
use super::random::TRIES;
use super::roster::Roster;
use super::rules::Sight;
use super::state::{advance_in, ending_after, transform_in, Replica};
use super::tables::{BLACK_TO_MOVE_KEY, KEYS, RAYS};

/// What one drawn decision did.
enum Drawn {
    /// It was played and the game goes on.
    Played,
    /// It was played and won the game, for this reason.
    Won(&'static str),
    /// Every slot tried was refused: nothing was played (the tries used the generator).
    Refused,
}

/// The board of a playout, in locals: every piece and the kings, by side index, and the key.
struct Board {
    pieces: [u64; 2],
    kings: [u64; 2],
    rosters: [Roster; 2],
    key: u64,
}

impl Replica {
    /// Plays uniformly random decisions until the game ends or `max_decisions` are made;
    /// returns how many were made. `buffer` holds the listed decisions when a draw falls back
    /// to them.
    pub(super) fn play_out<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        buffer: &mut Vec<ReplicaAction>,
        max_decisions: u64,
    ) -> u64 {
        let mut made = 0;
        while made < max_decisions && self.core.outcome.is_none() {
            let (run, refused) = self.run_randomly(rng, max_decisions - made);
            made += run;
            if refused {
                // The tries are spent, as in `draw_action`: the list decides.
                self.generate(buffer);
                let Some(&action) = buffer.choose(rng) else {
                    break;
                };
                self.play(action);
                made += 1;
            }
        }
        made
    }

    /// Random decisions, the sides alternating, until the game ends, `budget` (at least 1)
    /// are made or a draw is refused [`TRIES`] times; returns how many were made and whether
    /// a draw was refused. The game must be on.
    fn run_randomly<R: Rng + ?Sized>(&mut self, rng: &mut R, budget: u64) -> (u64, bool) {
        let sight = self.core.options.sight;
        let mut board = Board {
            pieces: self.pieces,
            kings: self.kings,
            rosters: self.rosters,
            key: self.key,
        };
        let mut side = self.side();
        let mut made = 0;
        let mut won = None;
        let mut refused = false;
        while made < budget {
            // Alternating, so the branch predictor follows it.
            let drawn = if side == 0 {
                draw_and_play::<0, R>(&mut board, sight, rng)
            } else {
                draw_and_play::<1, R>(&mut board, sight, rng)
            };
            match drawn {
                Drawn::Played => {}
                Drawn::Won(reason) => won = Some(reason),
                Drawn::Refused => {
                    refused = true;
                    break;
                }
            }
            made += 1;
            side ^= 1;
            if won.is_some() {
                break;
            }
        }
        self.pieces = board.pieces;
        self.kings = board.kings;
        self.rosters = board.rosters;
        self.key = board.key;
        self.core.turn += made as u32;
        if made % 2 == 1 {
            self.core.to_move = self.core.to_move.opponent();
        }
        if let Some(reason) = won {
            // The winner moved last: the seat before the one now to move.
            self.core.outcome = Some(Outcome::win(self.core.to_move.opponent(), reason));
        }
        (made, refused)
    }
}

/// One random decision of side `SIDE`, drawn as `draw_action` draws it: a slot among the four
/// of each piece (three advances and a transform), kept if legal, at most [`TRIES`] times.
#[inline]
fn draw_and_play<const SIDE: usize, R: Rng + ?Sized>(
    board: &mut Board,
    sight: Sight,
    rng: &mut R,
) -> Drawn {
    let own = board.pieces[SIDE];
    let slots = 4 * own.count_ones();
    // Computed at most once, and only when a transform slot is drawn.
    let mut transformable = None;
    for _ in 0..TRIES {
        let slot = below(rng, slots);
        let index = slot / 4;
        let from = board.rosters[SIDE].get(index) & 63;
        let kind = (slot % 4) as usize;
        let captured_king = if kind < 3 {
            let open = RAYS[FORWARD[SIDE][kind].to_usize()][from] & !own;
            if open == 0 {
                continue;
            }
            // White's directions all climb the bit indices, Black's all descend them.
            let to = if SIDE == 0 {
                open.trailing_zeros()
            } else {
                open.ilog2()
            };
            let lent = (&mut board.pieces, &mut board.kings, &mut board.rosters);
            advance_in(lent, &mut board.key, SIDE, index, from, to as usize)
        } else {
            // Copies lent, so that the board itself stays in registers.
            let (pieces, kings) = (board.pieces, board.kings);
            let targets = *transformable
                .get_or_insert_with(|| transformable_in(&pieces, &kings, sight, SIDE));
            if targets >> from & 1 == 0 {
                continue;
            }
            transform_in(&mut board.kings, &mut board.key, SIDE, from);
            false
        };
        board.key ^= KEYS[BLACK_TO_MOVE_KEY];
        return match ending_after(&board.pieces, &board.kings, sight, SIDE, captured_king) {
            Some(reason) => Drawn::Won(reason),
            None => Drawn::Played,
        };
    }
    Drawn::Refused
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::super::rules::ReplicaOptions;
    use super::*;

    fn summary(state: &Replica) -> (String, u64, u32, Option<String>) {
        let outcome = state.outcome().map(ToString::to_string);
        (state.position(), state.key(), state.turn(), outcome)
    }

    #[test]
    fn the_fast_loop_plays_the_same_games_as_draw_and_apply() {
        let variants = [
            ReplicaOptions::default(),
            ReplicaOptions { sight: Sight::All8 },
        ];
        ludus_engine::testkit::check_playout_loop(&variants, 400, summary);
    }

    /// White's 2×2 block of non-kings in the h8 corner can neither advance (friends up to the
    /// edge) nor transform (Black's king on e5 blocks the a1 king's sight along the diagonal):
    /// 3 of White's 20 slots are legal, so eight refusals in a row, and the listed decisions,
    /// come in about a quarter of the draws ((17/20)^8).
    #[test]
    fn a_draw_refused_eight_times_chooses_from_the_list_as_draw_and_apply_does() {
        let start =
            Replica::from_position("6ww/6ww/8/4B3/8/8/8/W7 w", &ReplicaOptions::default()).unwrap();
        let mut refusals = 0;
        for seed in 0..200 {
            let mut probe = start.clone();
            let mut rng = SmallRng::seed_from_u64(seed);
            refusals += usize::from(probe.run_randomly(&mut rng, 1).1);

            let (mut fast, mut slow) = (start.clone(), start.clone());
            let mut fast_rng = SmallRng::seed_from_u64(seed);
            let mut slow_rng = SmallRng::seed_from_u64(seed);
            assert_eq!(fast.play_randomly(&mut fast_rng, &mut Vec::new(), 1), 1);
            let action = slow.random_action(&mut slow_rng, &mut Vec::new()).unwrap();
            slow.apply(action);
            assert_eq!(summary(&fast), summary(&slow), "seed {seed}");
            assert_eq!(fast_rng.random::<u64>(), slow_rng.random::<u64>());
        }
        assert!(refusals > 35, "{refusals} of 200 first draws refused");
    }

    /// The rosters follow the pieces through both paths that move them: the playout loop and
    /// `play` (the listed decisions applied one by one).
    #[test]
    fn the_rosters_hold_exactly_the_pieces_after_every_decision() {
        let holds = |state: &Replica| {
            (0..2).all(|side| {
                let pieces = state.pieces[side];
                state.rosters[side].holds(pieces, pieces.count_ones())
            })
        };
        for options in [
            ReplicaOptions::default(),
            ReplicaOptions { sight: Sight::All8 },
        ] {
            for seed in 0..200 {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut fast = Replica::new(&options, 0);
                while fast.play_randomly(&mut rng, &mut Vec::new(), 1) == 1 {
                    assert!(holds(&fast), "seed {seed}: {}", fast.position());
                }
                let mut listed = Replica::new(&options, 0);
                let mut actions = Vec::new();
                while listed.outcome().is_none() {
                    listed.legal_actions(&mut actions);
                    listed.apply(actions[rng.random_range(0..actions.len())]);
                    assert!(holds(&listed), "seed {seed}: {}", listed.position());
                }
            }
        }
    }
}

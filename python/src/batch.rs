//! The typed half of `ludus.VecEnv`: N games of one type stepped together, each writing its
//! observation, legal-action mask, rewards, end flag and seat to move into rows of buffers
//! that Python owns as NumPy arrays. No Python object per game, no allocation per decision
//! (one legal-action buffer per worker), finished games restarted in the same step.

use ludus_engine::{parse_options, BoardView, Encoding, Game, Heuristic, Seat};
use ludus_games::{dispatch, GameVisitor, NewGameError};
use rand::rngs::SmallRng;
use rayon::prelude::*;

use crate::game::returns_of;

/// The buffers one step writes, each `games` rows long.
pub struct Rows<'a> {
    /// `[games, planes, height, width]`, flattened: the seat to move's observation.
    pub observations: &'a mut [f32],
    /// `[games, actions]`: true for each legal action id.
    pub legal: &'a mut [bool],
    /// `[games, seats]`: the returns of a game that ended in this step, else 0.
    pub rewards: &'a mut [f32],
    /// `[games]`: whether the game ended in this step (it has started again since).
    pub terminated: &'a mut [bool],
    /// `[games]`: the seat to move.
    pub to_move: &'a mut [i32],
}

/// The sizes of a batch's rows.
#[derive(Clone, Copy, Debug)]
pub struct BatchShape {
    pub games: usize,
    pub observation: [usize; 3],
    pub actions: usize,
    pub seats: usize,
}

/// N games of one type; [`Batch::step`] and [`Batch::reset`] fill [`Rows`].
pub trait Batch: Send + Sync {
    fn shape(&self) -> BatchShape;
    /// Starts every game again; game `i`'s k-th episode gets seed `seed + k·games + i`.
    fn reset(&mut self, seed: u64, rows: Rows<'_>);
    /// Plays `actions[i]` in game `i`, after checking every one: an illegal one leaves every
    /// game as it was and names the first bad game.
    fn step(&mut self, actions: &[i64], rows: Rows<'_>) -> Result<(), String>;
    /// A uniformly random legal action id of every game into `out`, drawn from `rng`.
    fn sample(&mut self, rng: &mut SmallRng, out: &mut [i64]);
    /// What a picture of game `index` draws.
    fn view(&self, index: usize) -> Option<BoardView>;
}

/// Games per rayon task: a decision takes well under a microsecond, so smaller tasks would
/// cost more in hand-offs than they save.
const MIN_PER_TASK: usize = 64;

/// One game of the batch, and how many times it has started, for its next seed.
#[derive(Clone)]
struct Slot<G> {
    state: G,
    episode: u64,
}

struct Typed<G: Game + Encoding> {
    options: G::Options,
    slots: Vec<Slot<G>>,
    /// The decoded actions of the step under way (kept to reuse its memory).
    pending: Vec<G::Action>,
    seed: u64,
    shape: BatchShape,
}

/// A batch of `games` games `id` with `options` (`key=value` texts).
pub fn new_batch(
    id: &str,
    options: &[String],
    games: usize,
) -> Result<Box<dyn Batch>, NewGameError> {
    struct New<'a> {
        id: &'a str,
        options: &'a [String],
        games: usize,
    }
    impl GameVisitor for New<'_> {
        type Output = Result<Box<dyn Batch>, NewGameError>;
        fn visit<G: Game + Heuristic + Encoding>(self) -> Self::Output {
            let options: G::Options = parse_options(self.id, self.options)?;
            let first = G::new(&options, 0);
            let shape = BatchShape {
                games: self.games,
                observation: G::observation_shape(&options),
                actions: G::num_distinct_actions(&options),
                seats: first.seat_count(),
            };
            let slots = vec![
                Slot {
                    state: first,
                    episode: 0
                };
                self.games
            ];
            Ok(Box::new(Typed::<G> {
                options,
                slots,
                pending: Vec::with_capacity(self.games),
                seed: 0,
                shape,
            }))
        }
    }
    dispatch(id, New { id, options, games })?
}

/// The seed of game `index`'s `episode`-th start: distinct for every game and episode, and the
/// same whichever thread starts it.
fn seed_of(seed: u64, games: usize, index: usize, episode: u64) -> u64 {
    seed.wrapping_add(episode.wrapping_mul(games as u64))
        .wrapping_add(index as u64)
}

/// Which seats of a finished game are still in play (for a draw's shares).
fn in_play<G: Game>(state: &G) -> Vec<bool> {
    let view = state.view();
    (0..state.seat_count())
        .map(|i| view.seats.get(i).is_none_or(|s| s.alive))
        .collect()
}

/// Writes a game's row: its seat to move, that seat's observation and the legal ids.
fn write_row<G: Game + Encoding>(
    state: &G,
    observation: &mut [f32],
    legal: &mut [bool],
    to_move: &mut i32,
    actions: &mut Vec<G::Action>,
) {
    let seat = state.to_move().unwrap_or(Seat::FIRST);
    *to_move = i32::try_from(seat.to_usize()).unwrap_or_default();
    state.observe(seat, observation);
    legal.fill(false);
    actions.clear();
    state.legal_actions(actions);
    for &action in actions.iter() {
        legal[state.action_id(action) as usize] = true;
    }
}

/// What a step needs to end and restart a game.
struct Ends<'a, O> {
    seed: u64,
    games: usize,
    options: &'a O,
}

impl<O> Ends<'_, O> {
    /// Plays `action` in game `index`; if that ends it, writes its returns into `rewards`,
    /// starts its next episode and says so.
    fn play<G: Game<Options = O>>(
        &self,
        index: usize,
        slot: &mut Slot<G>,
        action: G::Action,
        rewards: &mut [f32],
    ) -> bool {
        slot.state.apply(action);
        let Some(outcome) = slot.state.outcome() else {
            rewards.fill(0.0);
            return false;
        };
        let returns = returns_of(Some(outcome), &in_play(&slot.state));
        for (reward, value) in rewards.iter_mut().zip(returns) {
            *reward = value as f32;
        }
        slot.episode += 1;
        let seed = seed_of(self.seed, self.games, index, slot.episode);
        slot.state = G::new(self.options, seed);
        true
    }
}

impl<G: Game + Encoding> Typed<G> {
    /// Decodes every action into `pending`, or names the first game whose action is not legal
    /// there (playing none).
    fn check(&mut self, actions: &[i64]) -> Result<(), String> {
        self.pending.clear();
        for (index, (slot, &id)) in self.slots.iter().zip(actions).enumerate() {
            let action = u32::try_from(id)
                .ok()
                .and_then(|id| slot.state.action_from_id(id))
                .filter(|&action| slot.state.is_legal(action))
                .ok_or_else(|| {
                    format!(
                        "game {index}: action {id} is not legal there: expected one of the ids \
                         its row of `legal` marks"
                    )
                })?;
            self.pending.push(action);
        }
        Ok(())
    }
}

impl<G: Game + Encoding> Batch for Typed<G> {
    fn shape(&self) -> BatchShape {
        self.shape
    }

    fn reset(&mut self, seed: u64, rows: Rows<'_>) {
        self.seed = seed;
        let games = self.shape.games;
        for (index, slot) in self.slots.iter_mut().enumerate() {
            slot.episode = 0;
            slot.state = G::new(&self.options, seed_of(seed, games, index, 0));
        }
        rows.rewards.fill(0.0);
        rows.terminated.fill(false);
        let [planes, height, width] = self.shape.observation;
        self.slots
            .par_iter()
            .zip(rows.observations.par_chunks_mut(planes * height * width))
            .zip(rows.legal.par_chunks_mut(self.shape.actions))
            .zip(rows.to_move.par_iter_mut())
            .with_min_len(MIN_PER_TASK)
            .for_each_init(
                Vec::new,
                |buffer, (((slot, observation), legal), to_move)| {
                    write_row(&slot.state, observation, legal, to_move, buffer);
                },
            );
    }

    fn step(&mut self, actions: &[i64], rows: Rows<'_>) -> Result<(), String> {
        let games = self.shape.games;
        if actions.len() != games {
            return Err(format!(
                "{} actions for {games} games: expected one action per game",
                actions.len()
            ));
        }
        self.check(actions)?;
        let [planes, height, width] = self.shape.observation;
        let ends = Ends {
            seed: self.seed,
            games,
            options: &self.options,
        };
        self.slots
            .par_iter_mut()
            .zip(self.pending.par_iter())
            .zip(rows.observations.par_chunks_mut(planes * height * width))
            .zip(rows.legal.par_chunks_mut(self.shape.actions))
            .zip(rows.rewards.par_chunks_mut(self.shape.seats))
            .zip(rows.terminated.par_iter_mut())
            .zip(rows.to_move.par_iter_mut())
            .enumerate()
            .with_min_len(MIN_PER_TASK)
            .for_each_init(Vec::new, |buffer, (index, row)| {
                let ((((((slot, &action), observation), legal), rewards), ended), to_move) = row;
                *ended = ends.play(index, slot, action, rewards);
                write_row(&slot.state, observation, legal, to_move, buffer);
            });
        Ok(())
    }

    fn view(&self, index: usize) -> Option<BoardView> {
        self.slots.get(index).map(|slot| slot.state.view())
    }

    fn sample(&mut self, rng: &mut SmallRng, out: &mut [i64]) {
        let buffer = &mut self.pending;
        for (slot, id) in self.slots.iter().zip(out.iter_mut()) {
            *id = slot
                .state
                .random_action(rng, buffer)
                .map_or(-1, |action| i64::from(slot.state.action_id(action)));
        }
    }
}

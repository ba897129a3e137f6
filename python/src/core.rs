//! The erased game behind the Python `Game` class: a [`Session`] of any registered game,
//! driven by integer action ids and notation. Built through the registry's [`dispatch`], so
//! this crate keeps no list of games and no rules.

use std::any::Any;
use std::time::Instant;

use ludus_ai::{build_agent, AgentError, AgentSpec};
use ludus_engine::record::GameRecord;
use ludus_engine::{
    parse_options, random_playout, BoardView, Encoding, Game, GameInfo, Heuristic, MoveError,
    Outcome, Seat, Session, TurnText, Verdict,
};
use ludus_games::{dispatch, GameVisitor, NewGameError};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::agent::{CoreAgent, TypedAgent};

/// What random playouts measured, for `ludus.random_playouts`.
#[derive(Clone, Debug, Default)]
pub struct PlayoutStats {
    /// Games played to the end.
    pub games: u64,
    /// Decisions over all games.
    pub decisions: u64,
    /// Completed turns over all games.
    pub turns: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Wins per seat.
    pub wins: Vec<u64>,
    /// Drawn games.
    pub draws: u64,
}

/// A game of any kind, seen through action ids.
pub trait Core: Send + Sync {
    fn info(&self) -> &'static GameInfo;
    fn clone_box(&self) -> Box<dyn Core>;
    fn seat_count(&self) -> usize;
    fn seat_name(&self, seat: Seat) -> &'static str;
    fn to_move(&self) -> Option<Seat>;
    fn turn(&self) -> u32;
    fn outcome(&self) -> Option<Outcome>;
    fn position(&self) -> String;
    fn options(&self) -> Vec<(String, String)>;
    fn num_distinct_actions(&self) -> usize;
    fn max_decisions(&self) -> usize;
    /// The legal action ids, ascending.
    fn legal_ids(&self) -> Vec<u32>;
    /// The legal decisions in notation, in the order of [`Core::legal_ids`].
    fn legal_moves(&self) -> Vec<String>;
    fn apply_id(&mut self, id: u32) -> Result<(), MoveError>;
    fn apply_text(&mut self, text: &str) -> Result<usize, MoveError>;
    fn id_to_move(&self, id: u32) -> Result<String, MoveError>;
    fn move_to_id(&self, text: &str) -> Result<u32, MoveError>;
    fn observation_shape(&self) -> [usize; 3];
    fn observe(&self, seat: Seat, out: &mut [f32]);
    fn history(&self) -> Vec<TurnText>;
    /// The ids of every decision played since the start, in order (resignations left out).
    fn action_ids(&self) -> Vec<u32>;
    fn record(&self) -> GameRecord;
    fn resign(&mut self, seat: Seat);
    fn undo(&mut self) -> bool;
    fn view(&self) -> BoardView;
    fn key(&self) -> u64;
    fn random_playouts(&self, games: u64, seed: u64) -> PlayoutStats;
    fn build_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn CoreAgent>, AgentError>;
    fn as_any(&self) -> &dyn Any;
}

/// A session of game `G`.
#[derive(Clone, Debug)]
pub struct Typed<G: Game>(pub Session<G>);

/// An id that names no action here, as a move error.
fn unknown_id(id: u32, size: usize) -> MoveError {
    MoveError::illegal(
        &id.to_string(),
        format!("not a legal action id here (ids are 0..{size}; see legal_actions())"),
    )
}

impl<G: Game + Heuristic + Encoding> Typed<G> {
    fn options_of(&self) -> &G::Options {
        self.0.state().options()
    }

    /// The legal action with id `id`, or an error saying why there is none.
    fn legal_action(&self, id: u32) -> Result<G::Action, MoveError> {
        let state = self.0.state();
        if let Some(outcome) = state.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        state
            .action_from_id(id)
            .filter(|&action| state.is_legal(action))
            .ok_or_else(|| unknown_id(id, G::num_distinct_actions(self.options_of())))
    }

    fn sorted_actions(&self) -> Vec<(u32, G::Action)> {
        let state = self.0.state();
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let mut pairs: Vec<_> = actions
            .into_iter()
            .map(|a| (state.action_id(a), a))
            .collect();
        pairs.sort_unstable_by_key(|&(id, _)| id);
        pairs
    }
}

impl<G: Game + Heuristic + Encoding> Core for Typed<G> {
    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }
    fn clone_box(&self) -> Box<dyn Core> {
        Box::new(self.clone())
    }
    fn seat_count(&self) -> usize {
        self.0.state().seat_count()
    }
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.0.state().seat_name(seat)
    }
    fn to_move(&self) -> Option<Seat> {
        self.0.state().to_move()
    }
    fn turn(&self) -> u32 {
        self.0.state().turn()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.state().outcome().cloned()
    }
    fn position(&self) -> String {
        self.0.state().position()
    }
    fn options(&self) -> Vec<(String, String)> {
        ludus_engine::options_to_pairs(self.options_of())
    }
    fn num_distinct_actions(&self) -> usize {
        G::num_distinct_actions(self.options_of())
    }
    fn max_decisions(&self) -> usize {
        G::max_decisions(self.options_of())
    }
    fn legal_ids(&self) -> Vec<u32> {
        self.sorted_actions()
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    }
    fn legal_moves(&self) -> Vec<String> {
        let state = self.0.state();
        self.sorted_actions()
            .into_iter()
            .map(|(_, a)| state.format_action(a))
            .collect()
    }
    fn apply_id(&mut self, id: u32) -> Result<(), MoveError> {
        let action = self.legal_action(id)?;
        self.0.play(action)
    }
    fn apply_text(&mut self, text: &str) -> Result<usize, MoveError> {
        self.0.play_text(text)
    }
    fn id_to_move(&self, id: u32) -> Result<String, MoveError> {
        let action = self.legal_action(id)?;
        Ok(self.0.state().format_action(action))
    }
    fn move_to_id(&self, text: &str) -> Result<u32, MoveError> {
        let state = self.0.state();
        if let Some(outcome) = state.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let action = state.parse_action(text.trim())?;
        Ok(state.action_id(action))
    }
    fn observation_shape(&self) -> [usize; 3] {
        G::observation_shape(self.options_of())
    }
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        self.0.state().observe(seat, out);
    }
    fn history(&self) -> Vec<TurnText> {
        self.0.turns().to_vec()
    }
    fn action_ids(&self) -> Vec<u32> {
        let mut state = self.0.start().clone();
        let mut ids = Vec::new();
        for entry in self.0.entries() {
            match *entry {
                ludus_engine::Entry::Action(action) => {
                    ids.push(state.action_id(action));
                    state.apply(action);
                }
                // A flag leaves the game as a resignation does; an agreed draw changes no
                // position, so no action follows it.
                ludus_engine::Entry::Resign(seat) | ludus_engine::Entry::Flag(seat) => {
                    state.resign(seat);
                }
                ludus_engine::Entry::AgreedDraw => {}
            }
        }
        ids
    }
    fn record(&self) -> GameRecord {
        self.0.record()
    }
    fn resign(&mut self, seat: Seat) {
        self.0.resign(seat);
    }
    fn undo(&mut self) -> bool {
        self.0.undo()
    }
    fn view(&self) -> BoardView {
        self.0.view()
    }
    fn key(&self) -> u64 {
        self.0.state().key()
    }
    fn random_playouts(&self, games: u64, seed: u64) -> PlayoutStats {
        let start = self.0.state();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut buffer = Vec::new();
        let mut stats = PlayoutStats {
            wins: vec![0; start.seat_count()],
            ..PlayoutStats::default()
        };
        let clock = Instant::now();
        for _ in 0..games {
            let mut state = start.clone();
            stats.decisions += random_playout(&mut state, &mut rng, &mut buffer, u64::MAX);
            stats.turns += u64::from(state.turn() - start.turn());
            stats.games += 1;
            match state.outcome().map(|o| o.verdict) {
                Some(Verdict::Win(seat)) => stats.wins[seat.to_usize()] += 1,
                _ => stats.draws += 1,
            }
        }
        stats.seconds = clock.elapsed().as_secs_f64();
        stats
    }
    fn build_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn CoreAgent>, AgentError> {
        Ok(Box::new(TypedAgent::<G>(build_agent::<G>(spec, seed)?)))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A new game called `id` with `key=value` options, from the usual setup or a position.
pub fn new_core(
    id: &str,
    options: &[String],
    position: Option<&str>,
    seed: u64,
) -> Result<Box<dyn Core>, NewGameError> {
    struct New<'a> {
        id: &'a str,
        options: &'a [String],
        position: Option<&'a str>,
        seed: u64,
    }
    impl GameVisitor for New<'_> {
        type Output = Result<Box<dyn Core>, NewGameError>;
        fn visit<G: Game + Heuristic + Encoding>(self) -> Self::Output {
            let options: G::Options = parse_options(self.id, self.options)?;
            let session = match self.position {
                Some(text) => Session::<G>::from_position(text, &options)?,
                None => Session::<G>::new(&options, self.seed),
            };
            Ok(Box::new(Typed(session)))
        }
    }
    let visitor = New {
        id,
        options,
        position,
        seed,
    };
    dispatch(id, visitor)?
}

/// Replays a record of any registered game.
pub fn core_from_record(record: &GameRecord) -> Result<Box<dyn Core>, ludus_engine::RecordError> {
    struct Load<'a>(&'a GameRecord);
    impl GameVisitor for Load<'_> {
        type Output = Result<Box<dyn Core>, ludus_engine::RecordError>;
        fn visit<G: Game + Heuristic + Encoding>(self) -> Self::Output {
            Ok(Box::new(Typed(Session::<G>::from_record(self.0)?)))
        }
    }
    dispatch(&record.game, Load(record)).map_err(|e| ludus_engine::RecordError::UnknownGame(e.0))?
}

//! One arena game: the opening, a player on each seat (a built-in agent or an outside engine's
//! process), every decision checked by the rules, forfeits with their reasons, and the record.

use std::fmt;

use ludus_engine::{
    options_to_pairs, splitmix64, Entry, Game, Heuristic, PlayerRecord, Seat, Session,
};

use super::opening::{random_plies, Opening};
use super::report::result_text;
use super::schedule::Fixture;
use super::ugi_client::{EngineSpec, Forfeit, UgiClient};
use super::{ArenaConfig, ArenaError, GameResult};
use crate::{build_agent, Agent, AgentSpec, StopFlag};

/// A player of the arena: a built-in agent or an outside engine.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayerSpec {
    /// `ai:...`.
    Agent(AgentSpec),
    /// `NAME=COMMAND ...`.
    Engine(EngineSpec),
}

impl fmt::Display for PlayerSpec {
    /// The name in tables: the agent's spec or the engine's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Agent(spec) => write!(f, "{spec}"),
            PlayerSpec::Engine(engine) => f.write_str(&engine.name),
        }
    }
}

/// A well-mixed seed from `seed` and `n`.
pub(crate) fn mix(seed: u64, n: u64) -> u64 {
    splitmix64(seed ^ splitmix64(n).1).1
}

/// Who sits on a seat during one game.
enum Seated<G: Game> {
    Agent(Box<dyn Agent<G>>),
    Engine(Result<UgiClient, Forfeit>),
    /// An engine that forfeited (its process is gone).
    Out,
}

/// The opening of game pair `round`, as a session ready to play.
fn opening_session<G: Game>(
    config: &ArenaConfig<G>,
    round: usize,
) -> Result<Session<G>, ArenaError> {
    let start_seed = mix(config.seed, round as u64);
    let opening = match config.openings.len() {
        0 => Opening::default(),
        n => config.openings[round % n].clone(),
    };
    let mut session = opening
        .start::<G>(&config.options, start_seed)
        .map_err(|message| ArenaError::Opening { round, message })?;
    random_plies(
        &mut session,
        config.random_opening,
        mix(start_seed, 0x6f70_656e),
    );
    Ok(session)
}

/// The decisions played so far, in notation, from the session's start.
pub(crate) fn decisions<G: Game>(session: &Session<G>) -> Vec<String> {
    let mut state = session.start().clone();
    let mut out = Vec::new();
    for entry in session.entries() {
        if let Entry::Action(action) = *entry {
            out.push(state.format_action(action));
            state.apply(action);
        }
    }
    out
}

/// Plays one scheduled game and saves its record if asked.
pub(crate) fn play_fixture<G: Game + Heuristic>(
    config: &ArenaConfig<G>,
    players: &[PlayerSpec],
    fixture: &Fixture,
) -> Result<GameResult, ArenaError> {
    let game_seed = mix(config.seed, fixture.index as u64);
    let mut session = opening_session(config, fixture.round)?;
    let from_setup = config.openings.is_empty()
        || config.openings[fixture.round % config.openings.len()]
            .position
            .is_none();
    let startpos =
        from_setup && session.start().position() == G::new(&config.options, 0).position();
    let rules = options_to_pairs(&config.options);
    let mut seated = Vec::new();
    for (k, &player) in fixture.seats.iter().enumerate() {
        seated.push(match &players[player] {
            PlayerSpec::Agent(spec) => {
                Seated::Agent(build_agent::<G>(spec, mix(game_seed, k as u64 + 1))?)
            }
            PlayerSpec::Engine(engine) => Seated::Engine(UgiClient::start(engine, &rules)),
        });
    }
    session.set_players(
        fixture
            .seats
            .iter()
            .map(|&p| PlayerRecord {
                name: players[p].to_string(),
                kind: match &players[p] {
                    PlayerSpec::Agent(spec) => spec.to_string(),
                    PlayerSpec::Engine(engine) => format!("ugi:{}", engine.name),
                },
            })
            .collect(),
    );
    let mut game = Played {
        moves: decisions(&session),
        session,
        forfeits: Vec::new(),
        startpos,
    };
    let finished = game.play(config, &mut seated);
    finish(config, fixture, game, finished)
}

/// A game in progress with what the engines need.
struct Played<G: Game> {
    session: Session<G>,
    /// Every decision from the start, in notation, for `position ... moves`.
    moves: Vec<String>,
    forfeits: Vec<String>,
    startpos: bool,
}

impl<G: Game> Played<G> {
    /// Plays to the end. Returns false if the game was stopped unfinished after far more
    /// decisions than the game allows.
    fn play(&mut self, config: &ArenaConfig<G>, seated: &mut [Seated<G>]) -> bool {
        let stop = StopFlag::default();
        let limit = (u64::from(G::INFO.max_turns) + 1).saturating_mul(1000);
        let mut decisions = 0;
        while let Some(seat) = self.session.state().to_move() {
            if decisions >= limit {
                return false;
            }
            decisions += 1;
            let result = match &mut seated[seat.to_usize()] {
                Seated::Agent(agent) => {
                    let action = agent.choose(self.session.state(), &stop);
                    self.play_actions(seat, &[action], "an illegal decision")
                }
                Seated::Engine(client) => self.engine_turn(config, seat, client),
                Seated::Out => Err(Forfeit("a player out of the game was asked".to_string())),
            };
            if let Err(Forfeit(reason)) = result {
                if matches!(seated[seat.to_usize()], Seated::Engine(_)) {
                    seated[seat.to_usize()] = Seated::Out;
                }
                self.forfeits.push(reason);
                self.session.resign(seat);
            }
        }
        true
    }

    fn engine_turn(
        &mut self,
        config: &ArenaConfig<G>,
        seat: Seat,
        client: &mut Result<UgiClient, Forfeit>,
    ) -> Result<(), Forfeit> {
        let client = client.as_mut().map_err(|f| f.clone())?;
        let start = if self.startpos {
            "position startpos".to_string()
        } else {
            format!("position fen {}", self.session.start().position_line())
        };
        let position = if self.moves.is_empty() {
            start
        } else {
            format!("{start} moves {}", self.moves.join(" "))
        };
        let best = client.best_move(&position, config.movetime, config.margin)?;
        let actions = self.session.state().parse_turn(&best).map_err(|e| {
            Forfeit(format!(
                "{} played an illegal move '{best}': {e}",
                client.name()
            ))
        })?;
        self.play_actions(
            seat,
            &actions,
            &format!("{} played an illegal move '{best}'", client.name()),
        )
    }

    /// Plays `actions` for `seat`, all of them its own decisions, or none.
    fn play_actions(
        &mut self,
        seat: Seat,
        actions: &[G::Action],
        illegal: &str,
    ) -> Result<(), Forfeit> {
        let mut state = self.session.state().clone();
        for &action in actions {
            if state.to_move() != Some(seat) || state.try_apply(action).is_err() {
                return Err(Forfeit(format!(
                    "{illegal} (not a legal decision of its turn)"
                )));
            }
        }
        for &action in actions {
            self.moves.push(self.session.state().format_action(action));
            // Checked above: every decision is legal in turn.
            let _ = self.session.play(action);
        }
        Ok(())
    }
}

/// The game's result line, and its record saved if asked.
fn finish<G: Game>(
    config: &ArenaConfig<G>,
    fixture: &Fixture,
    game: Played<G>,
    finished: bool,
) -> Result<GameResult, ArenaError> {
    let session = game.session;
    let state = session.state();
    let rules_reason = state
        .outcome()
        .map_or_else(|| "unfinished".to_string(), |o| o.reason.to_string());
    let reason = match (game.forfeits.is_empty(), fixture.seats.len()) {
        (true, _) => rules_reason,
        (false, 2) => game.forfeits.join("; "),
        (false, _) => format!("{}; then {rules_reason}", game.forfeits.join("; ")),
    };
    if let Some(dir) = &config.save_dir {
        let path = dir.join(format!("{}-{:04}.json", G::INFO.id, fixture.index + 1));
        let mut record = session.record();
        if let Some(result) = &mut record.result {
            result.reason.clone_from(&reason);
        }
        record.save(&path)?;
    }
    let winner_seat = state.outcome().and_then(ludus_engine::Outcome::winner);
    Ok(GameResult {
        index: fixture.index,
        seats: session.players().iter().map(|p| p.name.clone()).collect(),
        result: if finished {
            result_text(fixture.seats.len(), winner_seat.map(Seat::to_usize))
        } else {
            "*".to_string()
        },
        plies: session.entries().len() as u64,
        agents: fixture.seats.clone(),
        winner: winner_seat.map(|seat| fixture.seats[seat.to_usize()]),
        reason,
    })
}

//! One arena game: the opening, a player on each seat (a built-in agent or an outside engine's
//! process), every decision checked by the rules, forfeits with their reasons, and the record.

use std::fmt;
use std::time::{Duration, Instant};

use ludus_engine::{
    options_to_pairs, splitmix64, Entry, Game, Heuristic, PlayerRecord, Seat, Session,
};

use super::adjudicate::{Adjudged, Adjudicator};
use super::clock::Clocks;
use super::notes::{save_with_notes, DecisionNote};
use super::opening::{random_plies, Opening};
use super::report::result_text;
use super::schedule::Fixture;
use super::ugi_client::{EngineSpec, Forfeit, UgiClient};
use super::{ArenaConfig, ArenaError, GameResult};
use crate::{build_agent, Agent, AgentSpec, Evaluation, StopFlag};

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

/// A built-in agent for `spec`, bound by `--movetime` when it was given and the spec sets
/// no time of its own.
fn seated_agent<G: Game + Heuristic>(
    config: &ArenaConfig<G>,
    spec: &AgentSpec,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, ArenaError> {
    let mut agent = build_agent::<G>(spec, seed)?;
    if config.movetime_for_all && spec.param("time").is_none() {
        if let Some(budget) = agent.budget_mut() {
            budget.time = Some(config.movetime);
        }
    }
    Ok(agent)
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
                Seated::Agent(seated_agent(config, spec, mix(game_seed, k as u64 + 1))?)
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
        clocks: config
            .tc
            .map(|tc| Clocks::new(tc, config.margin, fixture.seats.len())),
        notes: Vec::new(),
        adjudicator: Adjudicator::new(config.draw_rule, config.resign_rule, fixture.seats.len()),
        adjudged: None,
    };
    let finished = game.play(config, &mut seated);
    finish(config, fixture, game, finished)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A game in progress with what the engines need.
struct Played<G: Game> {
    session: Session<G>,
    /// Every decision from the start, in notation, for `position ... moves`.
    moves: Vec<String>,
    forfeits: Vec<String>,
    startpos: bool,
    /// Every seat's remaining time, under a time control.
    clocks: Option<Clocks>,
    /// What the saved record says about each decision.
    notes: Vec<DecisionNote>,
    /// Follows the scores for `--adjudicate-draw` / `--adjudicate-resign`.
    adjudicator: Adjudicator,
    /// Why the adjudication ended the game, if it did.
    adjudged: Option<String>,
}

impl<G: Game> Played<G> {
    /// Plays to the end. Returns false if the game was stopped unfinished after far more
    /// decisions than the game allows.
    fn play(&mut self, config: &ArenaConfig<G>, seated: &mut [Seated<G>]) -> bool {
        let limit = (u64::from(G::INFO.max_turns) + 1).saturating_mul(1000);
        let mut decisions = 0;
        while let Some(seat) = self.session.to_move() {
            if decisions >= limit {
                return false;
            }
            decisions += 1;
            let noted = self.notes.len();
            let result = match &mut seated[seat.to_usize()] {
                Seated::Agent(agent) => self.agent_turn(seat, agent.as_mut()),
                Seated::Engine(client) => self.engine_turn(config, seat, client),
                Seated::Out => Err(Forfeit("a player out of the game was asked".to_string())),
            };
            match result {
                Ok(()) if self.session.to_move() != Some(seat) => {
                    if let Some(clocks) = &mut self.clocks {
                        clocks.end_turn(seat.to_usize());
                    }
                }
                Ok(()) => {}
                Err(Forfeit(reason)) => {
                    if matches!(seated[seat.to_usize()], Seated::Engine(_)) {
                        seated[seat.to_usize()] = Seated::Out;
                    }
                    self.forfeits.push(reason);
                    self.session.resign(seat);
                    continue;
                }
            }
            if self.notes.len() > noted && self.session.to_move().is_some() {
                self.adjudicate();
            }
        }
        true
    }

    /// Ends the game if the scores of the decision just noted complete an adjudication rule.
    fn adjudicate(&mut self) {
        let Some(note) = self.notes.last() else {
            return;
        };
        match self
            .adjudicator
            .observe(note.seat - 1, note.score.as_deref())
        {
            Some(Adjudged::Draw(reason)) => {
                self.session.agree_draw();
                self.adjudged = Some(reason);
            }
            Some(Adjudged::Loses(loser, reason)) => {
                if let Some(loser) = Seat::from_number(loser + 1, 2) {
                    self.session.resign(loser);
                    self.adjudged = Some(reason);
                }
            }
            None => {}
        }
    }

    /// The name of the player on `seat`.
    fn name(&self, seat: Seat) -> String {
        self.session
            .players()
            .get(seat.to_usize())
            .map_or_else(String::new, |p| p.name.clone())
    }

    /// Takes `used` off `seat`'s clock, if there are clocks.
    fn charge(&mut self, seat: Seat, used: Duration) -> Result<(), Forfeit> {
        let name = self.name(seat);
        match &mut self.clocks {
            Some(clocks) => clocks.charge(seat.to_usize(), used, &name),
            None => Ok(()),
        }
    }

    /// A built-in agent's decision: with clocks, its time limit is set to the clock's share
    /// first (its table and tree stay), as `ludus ugi` does for `go wtime ...`.
    fn agent_turn(&mut self, seat: Seat, agent: &mut dyn Agent<G>) -> Result<(), Forfeit> {
        let clock_ms = self.clocks.as_ref().map(|c| c.left_ms(seat.to_usize()));
        if let (Some(clocks), Some(budget)) = (&self.clocks, agent.budget_mut()) {
            budget.time = Some(Duration::from_millis(clocks.share_ms(seat.to_usize())));
        }
        let budget_ms = agent.budget_mut().and_then(|b| b.time).map(millis);
        let state = self.session.state();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let stop = StopFlag::default();
        let started = Instant::now();
        // A forced decision is played as `choose` plays it (agents skip the search), so that
        // the notes change no game.
        let (action, score) = if legal.len() == 1 {
            (agent.choose(state, &stop), None)
        } else {
            let found = agent.analyse(state, &stop);
            (found.action, found.evaluation.map(Evaluation::ugi_score))
        };
        let used = started.elapsed();
        let played = state.format_action(action);
        self.charge(seat, used)?;
        self.play_actions(seat, &[action], "an illegal decision")?;
        self.notes.push(DecisionNote {
            seat: seat.to_usize() + 1,
            played,
            time_ms: millis(used),
            budget_ms,
            clock_ms,
            score,
        });
        Ok(())
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
        let (go, limit, budget_ms, clock_ms) = match &self.clocks {
            Some(clocks) => {
                let left = clocks.left_ms(seat.to_usize());
                (
                    clocks.go_command(),
                    clocks.limit(seat.to_usize()),
                    None,
                    Some(left),
                )
            }
            None => (
                format!("go movetime {}", millis(config.movetime)),
                config.movetime + config.margin,
                Some(millis(config.movetime)),
                None,
            ),
        };
        let started = Instant::now();
        let answer = client.search(&position, &go, limit);
        let used = started.elapsed();
        if self.clocks.is_some() && (answer.is_ok() || used >= limit) {
            self.charge(seat, used)?;
        }
        let best = answer?;
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
        )?;
        self.notes.push(DecisionNote {
            seat: seat.to_usize() + 1,
            played: best,
            time_ms: millis(used),
            budget_ms,
            clock_ms,
            score: client.last_score().map(str::to_string),
        });
        Ok(())
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
    let rules_reason = session
        .outcome()
        .map_or_else(|| "unfinished".to_string(), |o| o.reason.to_string());
    let reason = match (game.forfeits.is_empty(), fixture.seats.len()) {
        (true, _) => game.adjudged.clone().unwrap_or(rules_reason),
        (false, 2) => game.forfeits.join("; "),
        (false, _) => format!("{}; then {rules_reason}", game.forfeits.join("; ")),
    };
    if let Some(dir) = &config.save_dir {
        let path = dir.join(format!("{}-{:04}.json", G::INFO.id, fixture.index + 1));
        let mut record = session.record();
        if let Some(result) = &mut record.result {
            result.reason.clone_from(&reason);
        }
        save_with_notes(&path, &record, &game.notes)?;
    }
    let winner_seat = session.outcome().and_then(ludus_engine::Outcome::winner);
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

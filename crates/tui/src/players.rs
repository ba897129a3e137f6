//! Who plays each seat: a person at the prompt or a computer player.

use anyhow::{Context, Result};
use ludus_ai::{build_agent, erase, AgentSpec, AnyAgent};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

/// The longest time per decision a computer player loaded from a record may take, in seconds.
pub const RECORD_MAX_SECONDS: f64 = 60.0;

/// One seat's player.
pub enum Player {
    /// Types moves at the prompt.
    Human,
    /// A computer player.
    Computer(Box<dyn AnyAgent>),
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Human => write!(f, "human"),
            Player::Computer(agent) => write!(f, "{}", agent.spec()),
        }
    }
}

impl Player {
    /// `human`, or an agent spec for the game `game_id`.
    pub fn parse(text: &str, game_id: &str, seed: u64) -> Result<Player> {
        if text.trim().eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        let spec = AgentSpec::on_every_core(text.parse()?);
        let agent = dispatch(game_id, MakeAgent { spec: &spec, seed })??;
        Ok(Player::Computer(agent))
    }

    /// The agent `spec` describes for the game `game_id`, as typed: level 5 without
    /// `threads` searches on one thread (`ludus ugi`, whose driver sets `Threads`).
    pub fn agent_as_typed(spec: &AgentSpec, game_id: &str, seed: u64) -> Result<Box<dyn AnyAgent>> {
        dispatch(game_id, MakeAgent { spec, seed })?
    }

    /// The computer player a record names for a seat, as a spec to build: a record file is
    /// untrusted, so its spec must parse (ranges are checked when it is built) and its time
    /// per decision is capped at [`RECORD_MAX_SECONDS`].
    pub fn spec_from_record(kind: &str) -> Result<String> {
        let mut spec: AgentSpec = kind.parse()?;
        for (key, value) in &mut spec.params {
            let too_long = value
                .parse::<f64>()
                .is_ok_and(|seconds| seconds > RECORD_MAX_SECONDS);
            if key == "time" && too_long {
                *value = RECORD_MAX_SECONDS.to_string();
            }
        }
        Ok(spec.to_string())
    }

    /// The kind as recorded: `human` or the agent spec.
    pub fn kind(&self) -> String {
        format!("{self:?}")
    }
}

struct MakeAgent<'a> {
    spec: &'a AgentSpec,
    seed: u64,
}

impl GameVisitor for MakeAgent<'_> {
    type Output = Result<Box<dyn AnyAgent>>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let agent = build_agent::<G>(self.spec, self.seed)
            .with_context(|| format!("player '{}'", self.spec))?;
        Ok(erase(agent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_five_takes_every_core_unless_told_otherwise() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let five = AgentSpec::on_every_core("ai:5".parse().unwrap());
        assert_eq!(
            five.param("threads"),
            Some(cores.min(64).to_string().as_str())
        );
        let told = AgentSpec::on_every_core("ai:5:threads=1".parse().unwrap());
        assert_eq!(told.param("threads"), Some("1"));
        let four = AgentSpec::on_every_core("ai:4".parse().unwrap());
        assert_eq!(four.param("threads"), None);
        // And the agent is built: every game's level 5 takes the parameter.
        for info in ludus_games::GAMES {
            let player = Player::parse("ai:5", info.id, 1).unwrap();
            assert!(player.kind().contains("threads="), "{}", player.kind());
        }
    }
}

//! Who plays each seat: a person at the prompt or a computer player.

use anyhow::{Context, Result};
use ludus_ai::{build_agent, erase, AgentSpec, AnyAgent};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

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
        let spec: AgentSpec = text.parse()?;
        let agent = dispatch(game_id, MakeAgent { spec: &spec, seed })??;
        Ok(Player::Computer(agent))
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

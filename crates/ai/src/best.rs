//! Level 5, "best": the strongest configuration measured for each game.
//!
//! The choice is game knowledge, so each game names it in its folder and publishes it as
//! [`GameInfo::strongest`]; this file only reads it. Arena results (`docs/STRENGTH.md`) decide
//! the entries; a game whose entry does not read as a concrete agent gets [`DEFAULT`].
//! Parameters typed after `ai:best` (`ai:best:time=0.2`) are added to the chosen spec and
//! override its own, so a time budget applies to whatever agent level 5 is.

use ludus_engine::GameInfo;

use crate::{AgentKind, AgentSpec};

/// Level 5 for games without a usable entry: MCTS with its default settings.
pub const DEFAULT: &str = "ai:mcts";

/// The spec level 5 plays for the game `info` describes (without user parameters).
pub fn best_spec(info: &GameInfo) -> AgentSpec {
    info.strongest
        .parse::<AgentSpec>()
        .ok()
        .filter(|spec| spec.kind != AgentKind::Best)
        .unwrap_or_else(default_spec)
}

fn default_spec() -> AgentSpec {
    AgentSpec {
        kind: AgentKind::Mcts,
        params: Vec::new(),
    }
}

/// `spec` (an `ai:best` spec) resolved for the game `info`: the game's agent with the user's
/// parameters added over its own.
pub fn resolve(info: &GameInfo, spec: &AgentSpec) -> AgentSpec {
    let mut resolved = best_spec(info);
    for (key, value) in &spec.params {
        resolved.params.retain(|(k, _)| k != key);
        resolved.params.push((key.clone(), value.clone()));
    }
    resolved
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::Nim;
    use ludus_engine::Rules;

    use super::*;

    #[test]
    fn the_default_is_the_spec_it_names() {
        assert_eq!(default_spec().to_string(), DEFAULT);
    }

    #[test]
    fn a_game_entry_is_read_and_a_bad_one_falls_back() {
        assert_eq!(best_spec(&Nim::INFO).to_string(), Nim::INFO.strongest);
        for strongest in ["ai:best", "ai:nonsense", ""] {
            let info = GameInfo {
                strongest,
                ..Nim::INFO
            };
            assert_eq!(best_spec(&info).to_string(), DEFAULT, "{strongest}");
        }
    }

    #[test]
    fn user_parameters_override_the_entry() {
        let user: AgentSpec = "ai:best:time=0.2".parse().unwrap();
        let info = GameInfo {
            strongest: "ai:nonsense",
            ..Nim::INFO
        };
        assert_eq!(resolve(&info, &user).to_string(), "ai:mcts:time=0.2");
    }
}

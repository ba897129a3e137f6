//! Level 5, "best": the strongest configuration measured for each game.
//!
//! The choice is data, in one table: a game id and the spec that plays level 5 for it. Arena
//! results (`docs/STRENGTH.md`) decide the entries; a game without an entry gets [`DEFAULT`].
//! Parameters typed after `ai:best` (`ai:best:time=0.2`) are added to the chosen spec and
//! override its own, so a time budget applies to whatever agent level 5 is.

use crate::{AgentKind, AgentSpec};

/// Level 5 for games without an entry in the table: MCTS with its default settings.
pub const DEFAULT: &str = "ai:mcts";

/// Level 5 per game id: the configuration that scored best against level 4 in the arena at
/// 100 ms a decision (30-40 games each), confirmed by a 400-game ladder per game;
/// `docs/STRENGTH.md` has the commands and the numbers.
const TABLE: &[(&str, &str)] = &[
    // Quiescence on captures and corner wins: 70 % against level 4 (MCTS: 5-25 %).
    ("replica", "ai:alphabeta:quiesce=true"),
    // Quiescence on the removals owed in the movement stage: 65 % (MCTS: 10-25 %).
    ("qilin", "ai:alphabeta:quiesce=true"),
    // Quiescence on throws: 53 %; MCTS lost every game to level 4.
    ("splut", "ai:alphabeta:quiesce=true"),
    // UCT with less exploration: 62 % (c = 1: 52 %, c = 2: 45 %; alpha-beta variants ≤ 48 %).
    ("yoxii", "ai:mcts:c=0.5"),
    // Deepening until the time is up: 57 % in a game where most strong games are drawn.
    ("qawale", "ai:alphabeta:fill=true"),
];

/// The spec level 5 plays for the game `game_id` (without user parameters).
pub fn best_spec(game_id: &str) -> AgentSpec {
    let text = TABLE
        .iter()
        .find(|(id, _)| id.eq_ignore_ascii_case(game_id))
        .map_or(DEFAULT, |(_, spec)| spec);
    text.parse()
        .expect("the level-5 table holds valid specs (checked by a test)")
}

/// `spec` (an `ai:best` spec) resolved for `game_id`: the table's agent with the user's
/// parameters added over its own.
pub(crate) fn resolve(game_id: &str, spec: &AgentSpec) -> AgentSpec {
    let mut resolved = best_spec(game_id);
    for (key, value) in &spec.params {
        resolved.params.retain(|(k, _)| k != key);
        resolved.params.push((key.clone(), value.clone()));
    }
    debug_assert_ne!(resolved.kind, AgentKind::Best);
    resolved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_entry_is_a_concrete_agent() {
        for (id, text) in TABLE.iter().copied().chain([("default", DEFAULT)]) {
            let spec: AgentSpec = text.parse().unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_ne!(spec.kind, AgentKind::Best, "{id}");
        }
    }

    #[test]
    fn every_game_has_its_measured_entry() {
        for id in ["qilin", "splut", "qawale", "replica", "yoxii"] {
            assert!(TABLE.iter().any(|(game, _)| *game == id), "{id}");
        }
        assert_eq!(best_spec("YOXII").to_string(), "ai:mcts:c=0.5");
    }

    #[test]
    fn user_parameters_override_the_table() {
        let user: AgentSpec = "ai:best:time=0.2".parse().unwrap();
        let resolved = resolve("unknown-game", &user);
        assert_eq!(resolved.to_string(), "ai:mcts:time=0.2");
    }
}

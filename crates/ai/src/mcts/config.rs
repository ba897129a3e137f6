//! The settings of an MCTS agent and how they are read from its spec (the parameter table is
//! in the [module doc](super)).

use std::time::Duration;

use super::held_back::HOLD_FROM;
use super::selection::SPREAD;
use crate::alphabeta::time::Budget;
use crate::params::Params;
use crate::{AgentError, AgentSpec};

/// How several threads share the search (`parallel=tree|root`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Parallel {
    /// One tree, searched by every thread, with virtual loss (see `tree_parallel`).
    Tree,
    /// A tree per thread, merged at the root (see `root_parallel`).
    Root,
}

/// The settings of an MCTS agent.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MctsConfig {
    /// Time and iteration (`nodes`) limits per decision; `depth` is unused.
    pub budget: Budget,
    /// The exploration constant `c`.
    pub exploration: f64,
    /// Decisions before a playout stops and is scored by the evaluation; 0 plays to the end.
    pub cutoff: u64,
    /// Evaluation units of a cut-off that give a reward of `1 / (1 + e^-1)` ≈ 0.73.
    pub scale: f64,
    /// The most nodes the tree may hold.
    pub tree_nodes: usize,
    /// Whether to keep the tree between decisions.
    pub reuse: bool,
    /// Search threads.
    pub threads: usize,
    /// How the threads share the search (unused with one thread).
    pub parallel: Parallel,
    /// Visits from which a thread on the shared tree holds its updates of a node back (see
    /// `held_back`; unused unless `parallel` is `Tree` with several threads).
    pub hold_from: u32,
    /// The exploration constant of the last thread on a shared tree as a multiple of `c`; the
    /// threads between run evenly spaced multiples from 1 (the first thread's) to it (see
    /// `selection::exploration_of`; 1: every thread alike).
    pub spread: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget {
                time: Some(Duration::from_secs(1)),
                depth: u32::MAX,
                nodes: u64::MAX,
            },
            exploration: 1.0,
            cutoff: 0,
            scale: 200.0,
            tree_nodes: 1_000_000,
            reuse: true,
            threads: 1,
            parallel: Parallel::Tree,
            hold_from: HOLD_FROM,
            spread: SPREAD,
        }
    }
}

impl MctsConfig {
    /// Reads the parameters of `spec` (see the module doc).
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, AgentError> {
        let keys = [
            "time",
            "iterations",
            "nodes",
            "c",
            "cutoff",
            "scale",
            "tree",
            "reuse",
            "threads",
            "parallel",
            "hold",
            "spread",
        ];
        let params = Params::new(spec, &keys)?;
        let default = MctsConfig::default();
        // `nodes` is a synonym, so that one spec (`ai:5:nodes=500`) bounds level 5 whichever
        // search it is for the game.
        let count_key = match (params.has("nodes"), params.has("iterations")) {
            (true, true) => {
                return Err(AgentError::Parameter(
                    "nodes".into(),
                    "mcts (given with its synonym iterations)".into(),
                ))
            }
            (true, false) => "nodes",
            _ => "iterations",
        };
        let mut budget = Budget::from_params(&params, count_key, u32::MAX, default.budget)?;
        budget.depth = u32::MAX;
        let parallel = params.with("parallel", "tree or root", |v| match v {
            "tree" => Some(Parallel::Tree),
            "root" => Some(Parallel::Root),
            _ => None,
        })?;
        Ok(MctsConfig {
            budget,
            exploration: params.positive("c", 100.0)?.unwrap_or(default.exploration),
            cutoff: params
                .ranged("cutoff", 0, 100_000)?
                .unwrap_or(default.cutoff),
            scale: params.positive("scale", 1e9)?.unwrap_or(default.scale),
            tree_nodes: params
                .ranged("tree", 1, 1 << 26)?
                .unwrap_or(default.tree_nodes),
            reuse: params.flag("reuse")?.unwrap_or(default.reuse),
            threads: params.threads()?,
            parallel: parallel.unwrap_or(default.parallel),
            hold_from: params
                .ranged("hold", 1, u32::MAX)?
                .unwrap_or(default.hold_from),
            spread: params.positive("spread", 10.0)?.unwrap_or(default.spread),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<MctsConfig, String> {
        let spec: AgentSpec = text.parse().unwrap();
        MctsConfig::from_spec(&spec).map_err(|e| e.to_string())
    }

    #[test]
    fn parallel_takes_tree_or_root_and_refuses_anything_else_in_one_line() {
        assert_eq!(
            config("ai:mcts:threads=2,parallel=tree").unwrap().parallel,
            Parallel::Tree
        );
        assert_eq!(
            config("ai:mcts:threads=2,parallel=root").unwrap().parallel,
            Parallel::Root
        );
        for bad in [
            "ai:mcts:parallel=leaf",
            "ai:mcts:parallel=2",
            "ai:mcts:parallel=Tree",
        ] {
            let error = config(bad).unwrap_err();
            assert!(error.contains("expected tree or root"), "{bad}: {error}");
            assert!(!error.contains('\n'), "{bad}: {error}");
        }
    }

    #[test]
    fn nodes_is_a_synonym_of_iterations_but_not_both() {
        assert_eq!(config("ai:mcts:nodes=7").unwrap().budget.nodes, 7);
        assert!(config("ai:mcts:nodes=7,iterations=9").is_err());
    }

    #[test]
    fn spread_takes_a_multiple_above_zero_and_up_to_ten() {
        let spread = |text: &str| config(text).unwrap().spread.to_bits();
        assert_eq!(spread("ai:mcts"), SPREAD.to_bits());
        assert_eq!(spread("ai:mcts:threads=4,spread=2.5"), 2.5f64.to_bits());
        assert_eq!(spread("ai:mcts:spread=0.5"), 0.5f64.to_bits());
        for bad in [
            "ai:mcts:spread=0",
            "ai:mcts:spread=11",
            "ai:mcts:spread=nan",
        ] {
            let error = config(bad).unwrap_err();
            assert!(
                error.contains("spread") && error.contains("above 0 and at most 10"),
                "{bad}: {error}"
            );
            assert!(!error.contains('\n'), "{bad}: {error}");
        }
    }

    #[test]
    fn hold_takes_a_count_of_visits_from_one() {
        assert_eq!(config("ai:mcts").unwrap().hold_from, HOLD_FROM);
        assert_eq!(config("ai:mcts:threads=2,hold=16").unwrap().hold_from, 16);
        for bad in ["ai:mcts:hold=0", "ai:mcts:hold=-1", "ai:mcts:hold=many"] {
            let error = config(bad).unwrap_err();
            assert!(error.contains("hold"), "{bad}: {error}");
            assert!(!error.contains('\n'), "{bad}: {error}");
        }
    }
}

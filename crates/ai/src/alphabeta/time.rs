//! Search budgets: a time limit, a depth limit and a node (or iteration) limit, and the clock
//! searches poll together with the [`StopFlag`].
//!
//! `time=SECONDS` sets the limit per decision (`time=0`: none). When a spec gives a depth, node
//! or iteration limit but no time, the search has no time limit, so its result depends only on
//! the position and the seed: that is how tests and `ludus bench` get reproducible searches.

use std::time::{Duration, Instant};

use crate::params::{Params, MAX_NODES};
use crate::{AgentError, StopFlag};

/// How much a search may do for one decision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    /// Wall-clock limit per decision, or `None` for no limit.
    pub time: Option<Duration>,
    /// Deepest iteration (decisions for alpha-beta, turns for minimax).
    pub depth: u32,
    /// Most nodes (or MCTS iterations).
    pub nodes: u64,
}

impl Budget {
    /// Reads `time` (0 to 3600 seconds), `depth` (1 to `max_depth`) and the count key
    /// (`nodes` or `iterations`, 1 to [`MAX_NODES`]) from `params`. `time=0` (no time limit)
    /// needs a depth or count limit beside it, or a search could run for ever.
    pub(crate) fn from_params(
        params: &Params<'_>,
        count_key: &str,
        max_depth: u32,
        default: Budget,
    ) -> Result<Budget, AgentError> {
        let bounded = params.has("depth") || params.has(count_key);
        let time = match params.seconds("time")? {
            Some(t) if t.is_zero() && !bounded => {
                return Err(AgentError::Parameter(
                    "time=0".into(),
                    format!("no time limit needs depth or {count_key} beside it"),
                ))
            }
            Some(t) if t.is_zero() => None,
            Some(t) => Some(t),
            None if bounded => None,
            None => default.time,
        };
        Ok(Budget {
            time,
            depth: params
                .ranged("depth", 1, max_depth)?
                .unwrap_or(default.depth),
            nodes: params
                .ranged(count_key, 1, MAX_NODES)?
                .unwrap_or(default.nodes),
        })
    }
}

/// The running clock of one search.
#[derive(Debug)]
pub(crate) struct Clock<'a> {
    start: Instant,
    budget: Budget,
    stop: &'a StopFlag,
}

impl<'a> Clock<'a> {
    /// Starts the clock now.
    pub(crate) fn start(budget: Budget, stop: &'a StopFlag) -> Self {
        Clock {
            start: Instant::now(),
            budget,
            stop,
        }
    }

    /// Whether the search must stop: stop raised, time up, or `nodes` over the limit.
    pub(crate) fn must_stop(&self, nodes: u64) -> bool {
        nodes >= self.budget.nodes
            || self.stop.is_raised()
            || self
                .budget
                .time
                .is_some_and(|limit| self.start.elapsed() >= limit)
    }

    /// Whether starting another iteration is pointless: more than half the time is gone (the
    /// next iteration usually takes longer than all previous ones together).
    pub(crate) fn past_half(&self) -> bool {
        self.budget
            .time
            .is_some_and(|limit| self.start.elapsed() * 2 >= limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentSpec;

    const DEFAULT: Budget = Budget {
        time: Some(Duration::from_secs(1)),
        depth: 64,
        nodes: u64::MAX,
    };

    fn budget(text: &str) -> Budget {
        let spec: AgentSpec = text.parse().unwrap();
        let params = Params::new(&spec, &["time", "depth", "nodes"]).unwrap();
        Budget::from_params(&params, "nodes", 100, DEFAULT).unwrap()
    }

    #[test]
    fn a_depth_or_node_limit_alone_removes_the_time_limit() {
        assert_eq!(budget("ai:alphabeta"), DEFAULT);
        assert_eq!(budget("ai:alphabeta:depth=3").time, None);
        assert_eq!(budget("ai:alphabeta:nodes=100").nodes, 100);
        assert_eq!(
            budget("ai:alphabeta:depth=3,time=0.25").time,
            Some(Duration::from_millis(250))
        );
        assert_eq!(budget("ai:alphabeta:time=0,depth=5").time, None);
    }

    #[test]
    fn a_search_without_any_limit_or_out_of_range_is_refused() {
        for text in [
            "ai:mcts:time=0",
            "ai:mcts:time=-1",
            "ai:mcts:time=1e30",
            "ai:mcts:depth=0",
            "ai:mcts:depth=101",
            "ai:mcts:nodes=0",
        ] {
            let spec: AgentSpec = text.parse().unwrap();
            let params = Params::new(&spec, &["time", "depth", "nodes"]).unwrap();
            assert!(
                Budget::from_params(&params, "nodes", 100, DEFAULT).is_err(),
                "{text}"
            );
        }
    }

    #[test]
    fn a_raised_flag_stops_the_clock() {
        let stop = StopFlag::default();
        let clock = Clock::start(DEFAULT, &stop);
        assert!(!clock.must_stop(0));
        stop.raise();
        assert!(clock.must_stop(0));
    }
}

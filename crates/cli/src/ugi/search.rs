//! One `go`: the agent spec its limits make, the search on its own thread, and the `info` and
//! `bestmove` lines it prints.
//!
//! The search runs on a thread so that the command loop keeps reading: `isready` and `query`
//! are answered during a search, `stop` raises the agent's [`StopFlag`]. Under `go infinite` the
//! `bestmove` waits for `stop` even when the agent finishes early, as UCI requires.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ludus_ai::{AgentSpec, AnyAgent, AnyAnalysis, Evaluation, Proved, StopFlag};
use ludus_engine::AnyGame;

use super::command::GoLimits;
use super::Output;

/// The time a timed `go` gives the decision, in milliseconds, with what it was made of for
/// the `info string` that reports it: `movetime` less the overhead, or with clocks a 20th of
/// the seat's clock plus ¾ of its increment, never more than half the clock, less the
/// overhead. At least 1 ms. `None` when the `go` has no time (`infinite`, or no limit).
pub fn time_budget(limits: &GoLimits, seat: usize, overhead: u64) -> Option<(u64, String)> {
    if limits.infinite {
        return None;
    }
    if let Some(ms) = limits.movetime {
        let budget = ms.saturating_sub(overhead).max(1);
        return Some((budget, format!("movetime {ms}, overhead {overhead}")));
    }
    let left = limits.time[seat]?;
    let inc = limits.inc[seat].unwrap_or(0);
    let share = (left / 20 + inc * 3 / 4).min(left / 2);
    let budget = share.saturating_sub(overhead).max(1);
    Some((
        budget,
        format!("clock {left}, increment {inc}, overhead {overhead}"),
    ))
}

/// The budget parameters a `go` with a depth or node limit adds to the agent's spec, most
/// specific first. An agent that refuses one of them (random takes none, MCTS no depth) is
/// tried with fewer.
pub fn budget_params(limits: &GoLimits, seat: usize, overhead: u64) -> Vec<Vec<(String, String)>> {
    let mut full = Vec::new();
    let millis = time_budget(limits, seat, overhead).map(|(ms, _)| ms);
    match millis {
        // `go movetime 0` asks for a move at once, not for a search without a limit (which
        // the agents' `time=0` would mean): at least 1 ms.
        Some(ms) => full.push((
            "time".to_string(),
            format!("{:.3}", ms.max(1) as f64 / 1000.0),
        )),
        // No time limit: the search ends at its depth or node limit, or at `stop`.
        None if limits.infinite || limits.depth.is_some() || limits.nodes.is_some() => {
            full.push(("time".to_string(), "0".to_string()));
        }
        None => {}
    }
    if !limits.infinite {
        if let Some(depth) = limits.depth {
            full.push(("depth".to_string(), depth.to_string()));
        }
        if let Some(nodes) = limits.nodes {
            full.push(("nodes".to_string(), nodes.to_string()));
        }
    }
    let mut tries = vec![full.clone()];
    if limits.depth.is_some() && !limits.infinite {
        // Without its depth, a `go depth` would have no limit left: the agent's own budget.
        let rest: Vec<_> = full.iter().filter(|(k, _)| k != "depth").cloned().collect();
        if rest
            .iter()
            .any(|(k, v)| k == "nodes" || (k == "time" && v != "0"))
        {
            tries.push(rest);
        }
    }
    if !full.is_empty() {
        tries.push(Vec::new());
    }
    tries
}

/// `base` with `params` added over its own.
pub fn with_params(base: &AgentSpec, params: &[(String, String)]) -> AgentSpec {
    let mut spec = base.clone();
    for (key, value) in params {
        spec.params.retain(|(k, _)| k != key);
        spec.params.push((key.clone(), value.clone()));
    }
    spec
}

/// A search in flight.
pub struct Running {
    stop: StopFlag,
    handle: JoinHandle<Box<dyn AnyAgent>>,
    /// The spec of the agent searching, to keep it for the next `go`.
    pub spec: String,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "search with {}", self.spec)
    }
}

impl Running {
    /// Starts `agent` on `game`; the thread prints `info` lines and the `bestmove`.
    pub fn start(
        mut agent: Box<dyn AnyAgent>,
        spec: String,
        game: AnyGame,
        infinite: bool,
        out: Output,
    ) -> Running {
        let stop = StopFlag::default();
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let clock = Instant::now();
            let mut last_shown = None;
            let found = agent.analyse_with(&game, &flag, &mut |found| {
                out.line(&info_line(found, clock.elapsed()));
                last_shown = Some(found.notation.clone());
            });
            // The last `info` names the decision played: a search stopped within an
            // iteration may return another than its last report, and a driver (or a person
            // reading the log) takes the last line's score and pv as the move's.
            if let Some(found) = &found {
                if last_shown.as_ref() != Some(&found.notation) {
                    out.line(&info_line(found, clock.elapsed()));
                }
            }
            while infinite && !flag.is_raised() {
                std::thread::sleep(Duration::from_millis(2));
            }
            let best = found.map_or_else(|| "(none)".to_string(), |f| f.notation);
            out.line(&format!("bestmove {best}"));
            agent
        });
        Running { stop, handle, spec }
    }

    /// Stops the search, waits for its `bestmove` and gives the agent back (`None` if the
    /// search thread panicked).
    pub fn stop(self) -> (String, Option<Box<dyn AnyAgent>>) {
        self.stop.raise();
        (self.spec, self.handle.join().ok())
    }
}

/// `info depth D score cp S nodes N nps R time T pv M...` for what a search found so far.
/// Forced results are `score mate N` (decisions; negative when losing), results the solver
/// proved `score proved win N`, `score proved draw` or `score proved loss N` (turns); an MCTS reward `r` is
/// shown in centi-units as `182·ln(r/(1-r))`, the inverse of the evaluation bar's curve.
pub fn info_line(found: &AnyAnalysis, elapsed: Duration) -> String {
    let millis = elapsed.as_millis().max(1) as u64;
    let score = match found.evaluation {
        Some(Evaluation::Score(cp)) => format!(" score cp {cp}"),
        Some(Evaluation::Win(n)) => format!(" score mate {}", n.max(1)),
        Some(Evaluation::Loss(n)) => format!(" score mate -{}", n.max(1)),
        Some(Evaluation::Reward(r)) => {
            let r = r.clamp(0.001, 0.999);
            format!(" score cp {:.0}", 182.0 * (r / (1.0 - r)).ln())
        }
        Some(Evaluation::Proved(proved)) => match proved {
            Proved::Win(n) => format!(" score proved win {n}"),
            Proved::Draw => " score proved draw".to_string(),
            Proved::Loss(n) => format!(" score proved loss {n}"),
        },
        None => String::new(),
    };
    let pv = if found.pv.is_empty() {
        String::new()
    } else {
        format!(" pv {}", found.pv.join(" "))
    };
    format!(
        "info depth {}{score} nodes {} nps {} time {}{pv}",
        found.depth,
        found.nodes,
        found.nodes.saturating_mul(1000) / millis,
        elapsed.as_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_give_a_share_of_the_time_of_the_seat_to_move() {
        let limits = GoLimits {
            time: [Some(10_000), Some(2_000), None, None],
            inc: [Some(100), None, None, None],
            ..GoLimits::default()
        };
        // Seat 1: 10000/20 + 100·3/4 = 575 ms, less 25 ms of overhead.
        assert_eq!(time_budget(&limits, 0, 25).unwrap().0, 550);
        // Seat 2: 2000/20 = 100 ms.
        assert_eq!(time_budget(&limits, 1, 0).unwrap().0, 100);
        // An overhead beyond the share still leaves 1 ms.
        assert_eq!(time_budget(&limits, 1, 500).unwrap().0, 1);
        let movetime = GoLimits {
            movetime: Some(100),
            ..limits
        };
        assert_eq!(time_budget(&movetime, 0, 30).unwrap().0, 70);
    }

    #[test]
    fn depth_limits_drop_the_clock_and_fall_back() {
        let limits = GoLimits {
            depth: Some(3),
            ..GoLimits::default()
        };
        let tries = budget_params(&limits, 0, 0);
        assert_eq!(
            tries[0],
            [("time".into(), "0".into()), ("depth".into(), "3".into())]
        );
        assert!(tries[1].is_empty());
        let with_nodes = GoLimits {
            depth: Some(3),
            nodes: Some(100),
            ..GoLimits::default()
        };
        assert_eq!(
            budget_params(&with_nodes, 0, 0)[1],
            [("time".into(), "0".into()), ("nodes".into(), "100".into())]
        );
        assert_eq!(budget_params(&GoLimits::default(), 0, 0), [Vec::new()]);
    }

    #[test]
    fn info_lines_read_like_uci() {
        let found = AnyAnalysis {
            notation: "c3-d4".into(),
            evaluation: Some(Evaluation::Win(3)),
            depth: 4,
            nodes: 2000,
            pv: vec!["c3-d4".into(), "f6-e5".into()],
        };
        assert_eq!(
            info_line(&found, Duration::from_millis(500)),
            "info depth 4 score mate 3 nodes 2000 nps 4000 time 500 pv c3-d4 f6-e5"
        );
        let proved = |p| AnyAnalysis {
            evaluation: Some(Evaluation::Proved(p)),
            pv: Vec::new(),
            ..found.clone()
        };
        let line = |p| info_line(&proved(p), Duration::from_millis(500));
        assert!(line(Proved::Win(2)).contains(" score proved win 2 nodes"));
        assert!(line(Proved::Draw).contains(" score proved draw nodes"));
        assert!(line(Proved::Loss(1)).contains(" score proved loss 1 nodes"));
    }
}

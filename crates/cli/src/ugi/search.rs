//! One `go`: the agent spec its limits make, the search on its own thread, and the `info` and
//! `bestmove` lines it prints.
//!
//! The search runs on a thread so that the command loop keeps reading: `isready` and `query`
//! are answered during a search, `stop` raises the agent's [`StopFlag`]. Under `go infinite` the
//! `bestmove` waits for `stop` even when the agent finishes early, as UCI requires.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ludus_ai::{AgentSpec, AnyAgent, AnyAnalysis, StopFlag};
use ludus_engine::AnyGame;

use super::Output;

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
    let score = found
        .evaluation
        .map_or_else(String::new, |e| format!(" score {}", e.ugi_score()));
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
    use ludus_ai::{Evaluation, Proved};

    use super::*;

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

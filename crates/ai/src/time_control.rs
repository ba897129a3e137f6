//! Time as a driver gives it: the limits of one UGI `go`, the rule that turns a seat's clock
//! into one decision's budget, and a tournament's time control `BASE+INC`.
//!
//! `ludus ugi` (reading `go`) and `ludus arena --tc` (keeping the clocks of built-in players)
//! both budget a decision with [`time_budget`], so a built-in player and the same player behind
//! a UGI pipe spend their clocks alike.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The limits of one `go`, in milliseconds where they are times.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GoLimits {
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `p1time` … `p4time`: each seat's remaining clock.
    pub time: [Option<u64>; 4],
    /// `p1inc` … `p4inc`: each seat's increment per move.
    pub inc: [Option<u64>; 4],
}

/// One decision's share of a clock of `left` ms with an increment of `inc` ms: a 20th of the
/// clock plus ¾ of the increment, never more than half the clock, less `overhead`, at least
/// 1 ms. A 20th keeps time for a long game; half the clock keeps a big increment from
/// spending a nearly empty clock.
pub fn clock_share(left: u64, inc: u64, overhead: u64) -> u64 {
    let share = (left / 20 + inc * 3 / 4).min(left / 2);
    share.saturating_sub(overhead).max(1)
}

/// The time a timed `go` gives the decision, in milliseconds, with what it was made of for
/// the `info string` that reports it: `movetime` less the overhead, or with clocks the
/// [`clock_share`] of the seat to move. At least 1 ms. `None` when the `go` has no time
/// (`infinite`, or no limit).
pub fn time_budget(limits: &GoLimits, seat: usize, overhead: u64) -> Option<(u64, String)> {
    if limits.infinite {
        return None;
    }
    if let Some(ms) = limits.movetime {
        let budget = ms.saturating_sub(overhead).max(1);
        return Some((budget, format!("movetime {ms}, overhead {overhead}")));
    }
    let left = (*limits.time.get(seat)?)?;
    let inc = limits.inc.get(seat).copied().flatten().unwrap_or(0);
    Some((
        clock_share(left, inc, overhead),
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

/// A tournament's clock: every seat starts with `base` and gains `increment` after each of
/// its turns. Written `BASE+INC` in seconds (`10+0.1`, `60`, `0.5+0`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    /// Each seat's time at the start.
    pub base: Duration,
    /// Added to a seat's clock after each of its turns.
    pub increment: Duration,
}

/// The longest base time of a [`TimeControl`]: one day.
const MAX_BASE_SECONDS: f64 = 86_400.0;
/// The longest increment: one hour.
const MAX_INCREMENT_SECONDS: f64 = 3_600.0;

/// Text that is not `BASE+INC`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "bad time control '{0}': expected BASE+INC in seconds (e.g. 10+0.1), a base above 0 up to \
     86400 and an increment from 0 to 3600"
)]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || TimeControlError(text.chars().take(40).collect());
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |t: &str, max: f64| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && (0.0..=max).contains(s))
        };
        let base = seconds(base, MAX_BASE_SECONDS).filter(|&s| s > 0.0);
        let inc = seconds(inc, MAX_INCREMENT_SECONDS);
        match (base, inc) {
            (Some(base), Some(inc)) => Ok(TimeControl {
                base: Duration::from_secs_f64(base).max(Duration::from_millis(1)),
                increment: Duration::from_secs_f64(inc),
            }),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for TimeControl {
    /// `BASE+INC` in seconds, as read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
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
        assert_eq!(time_budget(&limits, 2, 0), None);
        let movetime = GoLimits {
            movetime: Some(100),
            ..limits
        };
        assert_eq!(time_budget(&movetime, 0, 30).unwrap().0, 70);
        // A big increment never spends more than half a nearly empty clock.
        assert_eq!(clock_share(100, 1000, 0), 50);
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
    fn time_controls_read_base_plus_increment_in_seconds() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.to_string(), "10+0.1");
        let no_inc: TimeControl = "0.5".parse().unwrap();
        assert_eq!(no_inc.increment, Duration::ZERO);
        for bad in [
            "", "+1", "0+1", "-1+0", "10+", "ten+0", "1e9+0", "10+inf", "NaN",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }
}

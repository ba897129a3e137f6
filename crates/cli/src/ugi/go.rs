//! `go`: which agent searches and with what budget. A timed `go` (clocks or `movetime`), an
//! `infinite` one and one without limits use the game's kept agent with only its time limit
//! changed, so that its table carries over from move to move; a `go depth`/`go nodes` builds
//! an agent for that search alone. A decision that is the only legal one is answered at once.

use ludus_ai::{budget_params, time_budget, SearchBudget};

use super::command::GoLimits;
use super::engine::Engine;
use super::search::{with_params, Running};
use ludus_tui::players::Player;

impl Engine {
    /// Answers `go`: a `bestmove` always follows, at once or when the search ends.
    pub(super) fn go(&mut self, limits: &GoLimits) {
        let Some(seat) = self.game.to_move() else {
            self.error("go: the game is over");
            return self.out.line("bestmove (none)");
        };
        let legal = self.game.legal_moves();
        if let ([only], false) = (&legal[..], limits.infinite) {
            // Nothing to think about: the clock is better kept for the next decision.
            self.out.line("info string one legal decision: no search");
            self.out.line(&format!(
                "info depth 0 nodes 0 nps 0 time 0 pv {}",
                only.notation
            ));
            return self.out.line(&format!("bestmove {}", only.notation));
        }
        if limits.infinite || (limits.depth.is_none() && limits.nodes.is_none()) {
            self.go_with_kept(limits, seat.to_usize());
        } else {
            self.go_with_limits(limits, seat.to_usize());
        }
    }

    /// Searches with the game's agent, its time limit set from the `go`.
    fn go_with_kept(&mut self, limits: &GoLimits, seat: usize) {
        self.keep_agent();
        let Some(mut kept) = self.kept.take() else {
            return self.out.line("bestmove (none)");
        };
        let timed = time_budget(limits, seat, self.overhead);
        let spec = kept.agent.spec();
        match (kept.agent.budget_mut(), kept.own) {
            (Some(budget), Some(own)) => *budget = search_budget(own, timed.as_ref(), limits),
            _ if timed.is_some() || limits.infinite => self.out.line(&format!(
                "info string {spec} takes no time limit: searching as {spec}"
            )),
            _ => {}
        }
        if let Some((ms, parts)) = &timed {
            // Said, so that a driver's log shows what each decision was given.
            self.out
                .line(&format!("info string time budget {ms} ms ({parts})"));
        }
        self.lent = Some((kept.key, kept.own));
        self.search = Some(Running::start(
            kept.agent,
            spec,
            self.game.clone(),
            limits.infinite,
            self.out.clone(),
        ));
    }

    /// Searches with an agent of its own for a `go depth` or `go nodes`, trying fewer limits
    /// when the agent refuses one (random takes none, MCTS no depth).
    fn go_with_limits(&mut self, limits: &GoLimits, seat: usize) {
        let base = self.base_spec();
        let resources = self.resources();
        let tries = budget_params(limits, seat, self.overhead);
        let mut last_error = String::new();
        for params in &tries {
            let spec = super::kept::candidates(&base, resources)
                .into_iter()
                .map(|c| with_params(&c, params))
                .find_map(|c| Player::agent_as_typed(&c, self.game_id, resources.seed).ok());
            let Some(agent) = spec else {
                last_error = format!("{base} takes no such limit");
                continue;
            };
            let dropped: Vec<&str> = tries[0]
                .iter()
                .filter(|(k, _)| !params.iter().any(|(used, _)| used == k))
                .map(|(k, _)| k.as_str())
                .collect();
            let searching = agent.spec();
            if !dropped.is_empty() {
                self.out.line(&format!(
                    "info string {base} takes no {} limit: searching as {searching}",
                    dropped.join(" or ")
                ));
            }
            self.search = Some(Running::start(
                agent,
                searching,
                self.game.clone(),
                false,
                self.out.clone(),
            ));
            return;
        }
        self.error(&format!("go: {last_error}"));
        self.out.line("bestmove (none)");
    }
}

/// The kept agent's budget for one `go`: its own, with the time the `go` gives (none for
/// `infinite`).
fn search_budget(
    own: SearchBudget,
    timed: Option<&(u64, String)>,
    limits: &GoLimits,
) -> SearchBudget {
    let time = match timed {
        Some((ms, _)) => Some(std::time::Duration::from_millis(*ms)),
        None if limits.infinite => None,
        None => own.time,
    };
    SearchBudget { time, ..own }
}

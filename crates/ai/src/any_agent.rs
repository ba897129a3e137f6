//! Agents for the erased game: user interfaces hold an `AnyGame` and a `Box<dyn AnyAgent>`.
//!
//! The terminal app's `hint` command and evaluation bar build a level-4 agent for the game
//! (through the registry's dispatch: `erase(build_agent::<G>(&"ai:4".parse()?, seed)?)`) and
//! call [`AnyAgent::analyse`]; [`AnyAnalysis::evaluation`] is from the seat to move's view and
//! [`Evaluation::bar`](crate::Evaluation::bar) places it on a -1..1 bar.

use ludus_engine::{AnyGame, Game};

use crate::{Agent, Analysis, Evaluation, SearchBudget, StopFlag};

/// What a search found, in notation.
#[derive(Clone, PartialEq, Debug)]
pub struct AnyAnalysis {
    /// The suggested decision in canonical notation (playable with `ErasedGame::play` on an `AnyGame`).
    pub notation: String,
    /// The position's value for the seat to move, if the agent has one.
    pub evaluation: Option<Evaluation>,
    /// The search depth (decisions for alpha-beta, turns for minimax, tree depth for MCTS).
    pub depth: u32,
    /// Nodes searched or MCTS iterations.
    pub nodes: u64,
    /// The expected line, one decision per entry, starting with `notation`.
    pub pv: Vec<String>,
}

/// An agent that plays an [`AnyGame`] of the game type it was built for.
pub trait AnyAgent: Send {
    /// The notation of the chosen decision, or `None` if the game is over or of another type.
    fn choose(&mut self, game: &AnyGame, stop: &StopFlag) -> Option<String>;
    /// The agent's suggestion and evaluation for the seat to move, or `None` if the game is
    /// over or of another type. Returns early (with the best found so far) when `stop` rises.
    fn analyse(&mut self, game: &AnyGame, stop: &StopFlag) -> Option<AnyAnalysis> {
        self.analyse_with(game, stop, &mut |_| {})
    }
    /// Like [`AnyAgent::analyse`], calling `info` with the best found so far at each completed
    /// stage of the search (alpha-beta: each iteration), for a thinking display.
    fn analyse_with(
        &mut self,
        game: &AnyGame,
        stop: &StopFlag,
        info: &mut dyn FnMut(&AnyAnalysis),
    ) -> Option<AnyAnalysis>;
    /// The agent's spec.
    fn spec(&self) -> String;
    /// See [`Agent::budget_mut`].
    fn budget_mut(&mut self) -> Option<&mut SearchBudget> {
        None
    }
    /// See [`Agent::prepare`].
    fn prepare(&mut self) -> usize {
        0
    }
}

struct Erased<G: Game>(Box<dyn Agent<G>>);

impl<G: Game> AnyAgent for Erased<G> {
    fn choose(&mut self, game: &AnyGame, stop: &StopFlag) -> Option<String> {
        let state = game.session::<G>()?.state();
        state.to_move()?;
        let action = self.0.choose(state, stop);
        Some(state.format_action(action))
    }

    fn analyse_with(
        &mut self,
        game: &AnyGame,
        stop: &StopFlag,
        info: &mut dyn FnMut(&AnyAnalysis),
    ) -> Option<AnyAnalysis> {
        let state = game.session::<G>()?.state();
        state.to_move()?;
        let analysis = self
            .0
            .analyse_with(state, stop, &mut |found| info(&in_notation(state, found)));
        Some(in_notation(state, &analysis))
    }

    fn spec(&self) -> String {
        self.0.spec()
    }

    fn budget_mut(&mut self) -> Option<&mut SearchBudget> {
        self.0.budget_mut()
    }

    fn prepare(&mut self) -> usize {
        self.0.prepare()
    }
}

/// `analysis` of `state` written in the game's notation.
fn in_notation<G: Game>(state: &G, analysis: &Analysis<G::Action>) -> AnyAnalysis {
    let mut line = state.clone();
    let mut pv = Vec::with_capacity(analysis.pv.len());
    for &action in &analysis.pv {
        if line.outcome().is_some() || !line.is_legal(action) {
            break;
        }
        pv.push(line.format_action(action));
        line.apply(action);
    }
    AnyAnalysis {
        notation: state.format_action(analysis.action),
        evaluation: analysis.evaluation,
        depth: analysis.depth,
        nodes: analysis.nodes,
        pv,
    }
}

/// Erases an agent for game `G`.
pub fn erase<G: Game>(agent: Box<dyn Agent<G>>) -> Box<dyn AnyAgent> {
    Box::new(Erased(agent))
}

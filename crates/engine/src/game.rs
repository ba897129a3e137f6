//! The `Game` trait: the contract every Ludus game implements, documented like OpenSpiel's
//! `spiel.h`, with the pre- and postconditions each method promises.

use std::fmt::Debug;
use std::hash::Hash;

use rand::seq::IndexedRandom;
use rand::Rng;

use crate::endgame::{EndgameProbe, Endgames};
use crate::{
    Core, GameInfo, GameOptions, MoveError, Notation, Outcome, PackedAction, Presentation, Seat,
    Verdict,
};

/// A game state and its rules: the state machine, the part of the contract a new game writes
/// first. Six methods are required ([`Rules::new`], [`Rules::core`], [`Rules::core_mut`],
/// [`Rules::legal_actions`], [`Rules::apply`], [`Rules::key`]); the seat to move, the turn
/// count, the outcome, the options and resignation come from the [`Core`] the state keeps
/// ([`core_in!`](crate::core_in) writes `core` and `core_mut`).
/// Text formats ([`Notation`](crate::Notation)) and what a UI draws
/// ([`Presentation`](crate::Presentation)) are written apart, and a state with all three is a
/// [`Game`], which is what players, searches and front ends take.
///
/// **One action is one decision.** A turn as the rules define it may take several decisions by
/// the same seat (Qawale: the stack, then each sowing step). After [`Rules::apply`] the same
/// seat may decide again; [`Rules::turn`] counts completed turns, so a caller sees a turn end
/// when it grows. Games with several decisions per turn show whole turns in records and
/// history ([`Notation::format_turn`](crate::Notation::format_turn),
/// [`Notation::parse_turn`](crate::Notation::parse_turn)).
///
/// Cloning must be cheap (fixed-size arrays, no heap in the hot parts): searches clone states.
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    /// One decision. Small and `Copy`, and packs into 32 bits ([`PackedAction`]).
    type Action: Copy + Eq + Hash + Debug + Send + Sync + PackedAction + 'static;
    /// The rules options, with the spec's names and defaults.
    type Options: GameOptions;

    /// Id, names, seats and options of this game.
    const INFO: GameInfo;

    /// The start position. `seed` resolves random rules choices (a random first player); the
    /// same options and seed always give the same state.
    fn new(options: &Self::Options, seed: u64) -> Self;

    /// The bookkeeping this state keeps: options, seat to move, turn count and outcome.
    fn core(&self) -> &Core<Self::Options>;

    /// The same bookkeeping, to change (the default [`Rules::resign`] writes the outcome).
    fn core_mut(&mut self) -> &mut Core<Self::Options>;

    /// Clears `out` and fills it with every legal action, each once, in a fixed order that
    /// depends only on the state. Empty exactly when the game is over. Allocates only if `out`
    /// must grow.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Plays a legal action. The hot path: the caller guarantees legality, so it checks
    /// nothing (an illegal action leaves an unspecified but memory-safe state). Updates the
    /// key incrementally, and the core's seat to move, turn count and outcome.
    fn apply(&mut self, action: Self::Action);

    /// A Zobrist hash of everything that decides future play (board, hands, side to move,
    /// pending decisions). Equal positions have equal keys. Updated incrementally by `apply`.
    fn key(&self) -> u64;

    /// The rules options this game was created with.
    fn options(&self) -> &Self::Options {
        &self.core().options
    }

    /// How many seats play (2..=4). The default is the game's smallest number of seats; a game
    /// whose options choose the number says it here.
    fn seat_count(&self) -> usize {
        Self::INFO.min_seats
    }

    /// The rules' name for a seat ("Dark", "White", "Blue"), from [`GameInfo::seat_names`].
    fn seat_name(&self, seat: Seat) -> &'static str {
        Self::INFO
            .seat_names
            .get(seat.to_usize())
            .copied()
            .unwrap_or("a seat")
    }

    /// The seat to decide now, or `None` when the game is over.
    fn to_move(&self) -> Option<Seat> {
        let core = self.core();
        core.outcome.is_none().then_some(core.to_move)
    }

    /// Completed turns since the start of the game (or the turn number the position string
    /// gives). Grows by at most one per [`Rules::apply`].
    fn turn(&self) -> u32 {
        self.core().turn
    }

    /// How the game ended, or `None` while it goes on. Cached: costs nothing after the first
    /// call (a game may write the reason on demand).
    fn outcome(&self) -> Option<&Outcome> {
        self.core().outcome.as_ref()
    }

    /// Who won, or `None` while the game goes on: the [`Outcome`] without its words. Searches
    /// read only this, at every finished position they meet, so a game whose reason costs a
    /// formatted string (Yoxii's scores) answers it without writing the reason.
    fn verdict(&self) -> Option<Verdict> {
        self.outcome().map(|outcome| outcome.verdict)
    }

    /// `seat` resigns, at any moment. Ignored once the game is over. The default is the
    /// two-seat rule, the other seat wins ("Red resigned"); a game of more seats says here
    /// what a resignation does (in Splut! the seat's team leaves the game).
    fn resign(&mut self, seat: Seat) {
        if self.outcome().is_none() {
            let reason = format!("{} resigned", self.seat_name(seat));
            self.core_mut().outcome = Some(Outcome::win(seat.opponent(), reason));
        }
    }

    /// A uniformly random legal action (each legal action equally likely), or `None` exactly
    /// when the game is over: the step of a random playout. The default lists the actions in
    /// `buffer` and draws one with [`IndexedRandom::choose`]. A game may override it with a
    /// faster draw that builds no list (and need not touch `buffer`); such a draw may consume
    /// the generator differently, so it is for playouts, not for players that must reproduce
    /// an original program's choices.
    fn random_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buffer: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        self.legal_actions(buffer);
        buffer.choose(rng).copied()
    }

    /// Plays random decisions as [`Rules::random_action`] draws them until the game ends or
    /// `max_decisions` have been made; returns how many were made. The default is that loop
    /// (through `buffer`); a game may override it with a faster loop that makes the same
    /// decisions from the same generator (random playouts are most of what MCTS does).
    fn play_randomly<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        buffer: &mut Vec<Self::Action>,
        max_decisions: u64,
    ) -> u64 {
        let mut decisions = 0;
        while decisions < max_decisions {
            let Some(action) = self.random_action(rng, buffer) else {
                break;
            };
            self.apply(action);
            decisions += 1;
        }
        decisions
    }

    /// Whether `action` is legal now; agrees with [`Rules::legal_actions`].
    fn is_legal(&self, action: Self::Action) -> bool {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions.contains(&action)
    }

    /// The checked path: plays `action` if it is legal, or returns an error and leaves the
    /// state unchanged.
    fn try_apply(&mut self, action: Self::Action) -> Result<(), MoveError> {
        check_playable(self, action)?;
        self.apply(action);
        Ok(())
    }

    /// A key for exact results (solver and tablebase tables): equal for positions whose
    /// futures are the same up to one of the game's symmetries (the 8 symmetries of a square
    /// board map a won position to a won one), and a function of the position alone. `None`
    /// when the future also depends on how the game got here (a repetition count, plies
    /// without a capture): then an exact search must not share this position's value between
    /// paths. The default is [`Rules::key`], right for a game whose rules look only at the
    /// position; a game with symmetries returns the least key over its images, and a game
    /// with history rules returns `None` where they apply.
    fn canonical_key(&self) -> Option<u64> {
        Some(self.key())
    }

    /// The game's endgame positions for tablebases, if it has them (default: none).
    fn endgames() -> Option<&'static dyn Endgames>
    where
        Self: Sized,
    {
        None
    }

    /// Positions of this game solved offline and shipped with it, as the text `ludus solve
    /// --positions FILE --book-out BOOK` writes (valid under the default options), if it
    /// ships any (default: none).
    fn solved_book() -> Option<&'static str>
    where
        Self: Sized,
    {
        None
    }

    /// Where this position lies in the game's [`Rules::endgames`] tables: `None` unless it
    /// starts a turn of an ending the tables cover under these options. Says nothing of
    /// which tables exist.
    fn endgame_probe(&self) -> Option<EndgameProbe> {
        None
    }
}

/// The whole contract: the rules, their text formats and what a UI draws. Every state that
/// has all three is a `Game`; players, searches, sessions and front ends take this bound.
pub trait Game: Rules + Notation + Presentation {}

impl<G: Rules + Notation + Presentation> Game for G {}

/// Why `action` cannot be played on `state` now (the game is over, or it is not legal), as
/// [`Rules::try_apply`] and a session's checked play say it.
pub(crate) fn check_playable<G: Rules>(state: &G, action: G::Action) -> Result<(), MoveError> {
    if let Some(outcome) = state.outcome() {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    if !state.is_legal(action) {
        return Err(MoveError::illegal(
            &format!("{action:?}"),
            "not a legal action here",
        ));
    }
    Ok(())
}

/// Game knowledge for computer players: position evaluations, provided by each game.
pub trait Heuristic: Game {
    /// How good the position is for `seat`, in hundredths of a stone/piece (any scale the game
    /// likes, but stable). Higher is better; used at search horizons. Must not be called on a
    /// finished game (search scores those from the outcome).
    fn evaluate(&self, seat: Seat) -> i32;

    /// The original program's level-2 heuristic from `seat`'s view, as its README describes
    /// it. Defaults to [`Heuristic::evaluate`].
    fn seed_evaluate(&self, seat: Seat) -> i32 {
        self.evaluate(seat)
    }

    /// How the original's level-2 player rates the legal decision `action` for the seat to
    /// move; the greedy agent plays a best-rated decision (ties broken at random). The default
    /// plays the decision and rates the result with [`Heuristic::seed_evaluate`] (a won game
    /// rates `WIN_SCORE`, a lost one `-WIN_SCORE`, a draw 0). Games whose original looked at
    /// the decision itself, or at the opponent's reply, override it.
    fn seed_action_score(&self, action: Self::Action) -> i32 {
        let Some(seat) = self.to_move() else {
            return 0;
        };
        let mut next = self.clone();
        next.apply(action);
        match next.verdict() {
            Some(crate::Verdict::Win(winner)) if winner == seat => WIN_SCORE,
            Some(crate::Verdict::Win(_)) => -WIN_SCORE,
            Some(crate::Verdict::Draw) => 0,
            None => next.seed_evaluate(seat),
        }
    }

    /// How a rating on [`Heuristic::seed_evaluate`]'s scale that a search of this position
    /// found for `seat` (the seat to move) is shown to a person: the greedy player's rating of
    /// its decision, or minimax's value. Searches compare the ratings themselves; only what a
    /// person reads passes through here, so that a term whose size only serves the order of
    /// decisions (Splut!'s 20,000 per team knocked out) reads on the scale of the others. The
    /// default shows a rating as it is. Not called for finished games or forced results.
    fn seed_shown(&self, seat: Seat, rating: i32) -> i32 {
        let _ = seat;
        rating
    }

    /// The names of the terms of a **tuned** evaluation: [`Heuristic::evaluate`] is then the
    /// sum of each term ([`Heuristic::terms`]) times its weight, the weights fitted to
    /// self-play games (`ludus tune`). Empty (the default) for an evaluation not tuned.
    const TERMS: &'static [&'static str] = &[];

    /// The terms of the position from `seat`'s view, one per name of [`Heuristic::TERMS`], into
    /// `out` (of that length). Must not be called on a finished game. The default has none.
    fn terms(&self, seat: Seat, out: &mut [f64]) {
        let _ = (seat, out);
    }

    /// The evaluation as it was before tuning, kept to measure the tuned one against
    /// (`ai:alphabeta:eval=v1`). Defaults to [`Heuristic::evaluate`].
    fn evaluate_v1(&self, seat: Seat) -> i32 {
        self.evaluate(seat)
    }

    /// Whether the legal decision `action` is **tactical**: one a search should not stop in
    /// front of, such as a capture, a line that earns removals or a winning move. Searches
    /// with quiescence (`ai:alphabeta:quiesce=true`) extend their horizon along tactical
    /// decisions only. The default, no decision is tactical, turns quiescence into a plain
    /// static evaluation.
    fn is_tactical(&self, action: Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Whether a search with forward pruning (`ai:alphabeta:prune=true`) may leave out the
    /// legal decision `action` below its root: one that some other legal decision nearly
    /// always serves as well, so that the search sees deeper in the same time. The root
    /// keeps every decision, and a node whose decisions would all be left out keeps them all.
    /// The default leaves out none.
    fn is_pruned(&self, action: Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Whether the legal decision `action` undoes the mover's previous decision of the same
    /// turn, such as a piece stepping straight back: a turn spent that way changes nothing,
    /// and a watcher sees the computer shuffle. Searches play such a decision only when
    /// nothing else scores as well. The default, none does, suits games of one decision a turn.
    fn is_undoing(&self, action: Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Whether this position starts a turn that already started the same way earlier in the
    /// game (within the game's repetition memory). Searches score it as a draw, so that a
    /// side ahead steers away from a repetition draw long before it happens, and a side
    /// behind toward it; a game may also say so of a finished game drawn by that repetition,
    /// so that searches score the draw itself alike. The default, never, suits games without
    /// a repetition draw.
    fn repeats(&self) -> bool {
        false
    }
}

/// The score of a won game in evaluation units; evaluations of unfinished games stay well
/// inside `-WIN_SCORE..WIN_SCORE`.
pub const WIN_SCORE: i32 = 1_000_000;

/// A tuned evaluation ([`Heuristic::TERMS`]): the terms times their weights, rounded to the
/// evaluation's integer units (exact when both are integers or halves of even numbers, as
/// v1's weights are), and kept within a quarter of [`WIN_SCORE`] so that no weight can pass
/// for a won game. Games sum their fitted weights with it, and tuners their trial weights.
pub fn weighted_sum(terms: &[f64], weights: &[f64]) -> i32 {
    let score: f64 = terms.iter().zip(weights).map(|(t, w)| t * w).sum();
    let bound = f64::from(WIN_SCORE / 4);
    // Within ±WIN_SCORE / 4, the conversion is exact.
    score.round().clamp(-bound, bound) as i32
}

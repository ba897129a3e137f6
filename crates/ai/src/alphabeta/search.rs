//! The alpha-beta search proper: negamax over **decisions** with a principal-variation window,
//! a transposition-table probe at every node and move ordering.
//!
//! Scores are seen from the side of the seat to move at a node. Sides are paranoid: the root
//! seat against all others (with two seats, simply the two players). A child whose mover is
//! on the same side as the parent's, such as the same seat deciding again in a multi-decision
//! turn, keeps the score and the window as they are; only a change of side negates them. A
//! finished child is scored from its outcome at once, whatever depth is left.
//!
//! No allocation per node: decisions go into one reused buffer pair per ply, and states are
//! cloned (games keep their states in fixed-size arrays).

use ludus_engine::{zobrist_table, Game, Rules, Seat, Verdict, MAX_SEATS};

use super::ordering::{MoveOrder, SPECIAL};
use super::time::Clock;
use super::tt::{from_table, to_table, Bound, Table};
use crate::score::{static_score, terminal_score, EvalFn, INFINITY, MATE_BOUND};

/// How often (in nodes, a power of two) the clock and the stop flag are polled.
const POLL_MASK: u64 = 255;
/// With reductions on: the first decision (in search order) that may be reduced, the least
/// depth left at which reductions apply, and where a reduction grows to two decisions.
const REDUCE_FROM_INDEX: usize = 3;
const REDUCE_MIN_DEPTH: u32 = 3;
const REDUCE_TWICE: (usize, u32) = (8, 6);
/// With evaluation ordering on: the least depth left at which children are ordered by their
/// static evaluation (nearer the horizon the history order is cheaper and good enough).
const EVAL_ORDER_MIN_DEPTH: u32 = 2;
/// With quiescence on: the most tactical decisions followed beyond the horizon.
const QUIESCENCE_DEPTH: usize = 8;

/// Which decisions quiescence follows ([`ludus_engine::Heuristic::is_tactical`]), or forward
/// pruning leaves out ([`ludus_engine::Heuristic::is_pruned`]).
pub(crate) type TacticalFn<G> = fn(&G, <G as Rules>::Action) -> bool;

/// The optional refinements of the search (see the module doc of `alphabeta`).
#[derive(Debug)]
pub(crate) struct Features<G: Game> {
    /// Late move reductions.
    pub reductions: bool,
    /// Order the decisions after the table's move and the killers by the static evaluation
    /// of the position they lead to, rather than by history.
    pub eval_order: bool,
    /// Quiescence: at the horizon, these tactical decisions are searched on.
    pub tactical: Option<TacticalFn<G>>,
    /// How much worse than an even position a drawn game is for the root's side.
    pub contempt: i32,
    /// Forward pruning: below the root, these decisions are left out.
    pub pruned: Option<TacticalFn<G>>,
    /// Root decisions that undo the previous one of the turn
    /// ([`ludus_engine::Heuristic::is_undoing`]): they score one unit less, so that any other
    /// decision as good is played instead. `None` with `shuffle=allow`.
    pub undoing: Option<TacticalFn<G>>,
    /// Positions that repeat an earlier turn start ([`ludus_engine::Heuristic::repeats`]):
    /// scored as draws at `repetition`, so a side ahead steers away from a repetition draw
    /// early. `None` with `shuffle=allow`.
    pub repeats: Option<fn(&G) -> bool>,
    /// What a repeated position scores for the root (see `crate::shuffling`).
    pub repetition: i32,
}

/// `score`, seen from the root's side, as seen from the side `mine` (true: the root's).
fn for_side(score: i32, mine: bool) -> i32 {
    if mine {
        score
    } else {
        -score
    }
}

/// Keys are salted with the root seat: paranoid scores depend on who searches.
const SALTS: [u64; MAX_SEATS] = zobrist_table(0x5A17_AB00);

/// The key a position is stored under when `root` searches.
pub(crate) fn table_key(key: u64, root: Seat) -> u64 {
    key ^ SALTS[root.to_usize()]
}

/// Reused buffers of one ply.
#[derive(Debug)]
pub(crate) struct PlyBuffers<A> {
    actions: Vec<A>,
    scored: Vec<(i32, A)>,
}

impl<A> Default for PlyBuffers<A> {
    fn default() -> Self {
        PlyBuffers {
            actions: Vec::new(),
            scored: Vec::new(),
        }
    }
}

/// What one search thread keeps between decisions: the ordering and the buffers (the
/// transposition table is shared by all threads).
#[derive(Debug)]
pub(crate) struct Tables<A> {
    pub order: MoveOrder<A>,
    plies: Vec<PlyBuffers<A>>,
}

impl<A: Copy + Eq + std::hash::Hash> Tables<A> {
    /// Empty tables.
    pub(crate) fn new() -> Self {
        Tables {
            order: MoveOrder::new(),
            plies: Vec::new(),
        }
    }
}

/// The index of `action` in `actions` (the legal order), as the table stores decisions.
pub(crate) fn index_of<A: Copy + PartialEq>(actions: &[A], action: A) -> Option<usize> {
    actions.iter().position(|a| *a == action)
}

/// One search from one root.
#[derive(Debug)]
pub(crate) struct Searcher<'a, G: Game> {
    tt: &'a Table,
    tables: &'a mut Tables<G::Action>,
    clock: &'a Clock<'a>,
    eval: EvalFn<G>,
    root: Seat,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Set when the clock or the stop flag ended the search; scores are then meaningless.
    pub aborted: bool,
    /// Set when some score of the current iteration rests on a static evaluation.
    pub horizon: bool,
    features: Features<G>,
    /// The ply beyond which quiescence stops: set by each iteration from its depth.
    quiescence_limit: usize,
}

impl<'a, G: Game> Searcher<'a, G> {
    /// A search for `root` (the seat to move at the root).
    pub(crate) fn new(
        tt: &'a Table,
        tables: &'a mut Tables<G::Action>,
        clock: &'a Clock<'a>,
        eval: EvalFn<G>,
        root: Seat,
        features: Features<G>,
    ) -> Self {
        Searcher {
            tt,
            tables,
            clock,
            eval,
            root,
            nodes: 0,
            aborted: false,
            horizon: false,
            features,
            quiescence_limit: 0,
        }
    }

    /// The expected line from `state` starting with `first`, from the table.
    pub(crate) fn line(&self, state: &G, first: G::Action, length: usize) -> Vec<G::Action> {
        principal_variation(self.tt, state, self.root, first, length)
    }

    /// Searches every root decision in `moves` to `depth` decisions. Returns the index of the
    /// best fully searched decision and its score, or `None` if none was fully searched.
    /// `legal` is the same decisions in the legal order, for the table.
    pub(crate) fn root(
        &mut self,
        state: &G,
        depth: u32,
        moves: &[G::Action],
        legal: &[G::Action],
    ) -> Option<(usize, i32)> {
        self.nodes += 1;
        self.quiescence_limit = depth as usize + QUIESCENCE_DEPTH;
        let mut best: Option<(usize, i32)> = None;
        let mut alpha = -INFINITY;
        for (i, &action) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.apply(action);
            // The child is searched with the window shifted by the cost, so the cost decides
            // between equal values only.
            let cost = self
                .features
                .undoing
                .map_or(0, |undoing| i32::from(undoing(state, action)));
            let score = self.window(
                &child,
                depth - 1,
                (alpha.saturating_add(cost), INFINITY),
                1,
                best.is_none(),
                true,
            ) - cost;
            if self.aborted {
                break;
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
                alpha = alpha.max(score);
            }
        }
        if let Some((i, score)) = best.filter(|_| !self.aborted) {
            let key = table_key(state.key(), self.root);
            let draft = depth.min(u32::from(u16::MAX)) as u16;
            let action = index_of(legal, moves[i]);
            self.tt
                .store(key, action, to_table(score, 0), draft, Bound::Exact);
        }
        best
    }

    /// The score of `child` within `(alpha, beta)` from the side `mine` (true: the root's
    /// side) of its parent, probed with a null window first unless it is the `first` child.
    fn window(
        &mut self,
        child: &G,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        first: bool,
        mine: bool,
    ) -> i32 {
        if first || beta - alpha <= 1 {
            return self.child(child, depth, alpha, beta, ply, mine);
        }
        let probe = self.child(child, depth, alpha, alpha + 1, ply, mine);
        if probe > alpha && probe < beta && !self.aborted {
            self.child(child, depth, alpha, beta, ply, mine)
        } else {
            probe
        }
    }

    /// The score of `child` from the side `mine` (true: the root's side) of its parent.
    fn child(
        &mut self,
        child: &G,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        mine: bool,
    ) -> i32 {
        if self.repeats(child) {
            return for_side(self.features.repetition, mine);
        }
        match child.to_move() {
            None => for_side(self.terminal(child, ply), mine),
            Some(seat) if (seat == self.root) == mine => {
                self.negamax(child, seat, depth, alpha, beta, ply)
            }
            Some(seat) => -self.negamax(child, seat, depth, -beta, -alpha, ply),
        }
    }

    /// Whether `state` repeats an earlier turn start and the search scores it so (the game's
    /// own repetition draw included, so that both score alike).
    fn repeats(&self, state: &G) -> bool {
        self.features.repeats.is_some_and(|repeats| repeats(state))
    }

    /// The score of the finished `state`, `ply` decisions below the root, for the root's
    /// side: a draw costs the contempt.
    fn terminal(&self, state: &G, ply: usize) -> i32 {
        match state.verdict() {
            Some(Verdict::Draw) => -self.features.contempt,
            verdict => terminal_score(verdict, self.root, ply),
        }
    }

    /// Counts a node and polls the clock and the stop flag every [`POLL_MASK`] + 1 nodes.
    /// Returns whether the search is aborted.
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 && self.clock.must_stop(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The reused buffers of `ply`, taken out of the tables (put them back when done).
    fn take_buffers(&mut self, ply: usize) -> PlyBuffers<G::Action> {
        if self.tables.plies.len() <= ply {
            self.tables.plies.resize_with(ply + 1, PlyBuffers::default);
        }
        std::mem::take(&mut self.tables.plies[ply])
    }

    /// Quiescence: the static score of `state` for `mover`'s side, unless a tactical decision
    /// (followed at most [`QUIESCENCE_DEPTH`] deep) does better: the side to move may "stand
    /// pat" on the evaluation or play on tactically, so the horizon never falls in the middle
    /// of an exchange or just before a win.
    fn quiesce(
        &mut self,
        state: &G,
        mover: Seat,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        tactical: TacticalFn<G>,
    ) -> i32 {
        let mine = mover == self.root;
        let stand = for_side(static_score(self.eval, state, self.root), mine);
        if stand >= beta || ply >= self.quiescence_limit {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut buffers = self.take_buffers(ply);
        state.legal_actions(&mut buffers.actions);
        let mut best = stand;
        let pruned = self.pruned_here(state, &buffers.actions);
        for &action in &buffers.actions {
            if !tactical(state, action) || pruned.is_some_and(|pruned| pruned(state, action)) {
                continue;
            }
            if self.count_node() {
                break;
            }
            let mut child = state.clone();
            child.apply(action);
            let score = match child.to_move() {
                _ if self.repeats(&child) => for_side(self.features.repetition, mine),
                None => for_side(self.terminal(&child, ply + 1), mine),
                Some(seat) if (seat == self.root) == mine => {
                    self.quiesce(&child, seat, alpha, beta, ply + 1, tactical)
                }
                Some(seat) => -self.quiesce(&child, seat, -beta, -alpha, ply + 1, tactical),
            };
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.tables.plies[ply] = buffers;
        best
    }

    /// Re-scores the decisions below the table's move and the killers by the static
    /// evaluation, for `mover`'s side, of the position each leads to, and sorts again.
    fn order_by_evaluation(&self, state: &G, mover: Seat, scored: &mut [(i32, G::Action)]) {
        let mine = mover == self.root;
        for entry in scored.iter_mut().filter(|(score, _)| *score < SPECIAL) {
            let mut child = state.clone();
            child.apply(entry.1);
            let for_root = match child.to_move() {
                None => self.terminal(&child, 0),
                Some(_) => static_score(self.eval, &child, self.root),
            };
            entry.0 = for_side(for_root, mine);
        }
        scored.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    /// The forward pruning to apply at `state` with the legal `actions`: none when it is off
    /// or would leave out every decision.
    fn pruned_here(&self, state: &G, actions: &[G::Action]) -> Option<TacticalFn<G>> {
        let pruned = self.features.pruned?;
        actions
            .iter()
            .any(|&action| !pruned(state, action))
            .then_some(pruned)
    }

    /// How many decisions shallower the `index`-th decision (in search order) of a node with
    /// `depth` decisions left is first searched.
    fn reduction(&self, index: usize, depth: u32) -> u32 {
        if !self.features.reductions || index < REDUCE_FROM_INDEX || depth < REDUCE_MIN_DEPTH {
            0
        } else if index >= REDUCE_TWICE.0 && depth >= REDUCE_TWICE.1 {
            2
        } else {
            1
        }
    }

    /// The score of the unfinished `state` for the side of `mover`, within `(alpha, beta)`.
    // The search loop: probe, null window, move loop with reductions and the table store read
    // best as one piece (STYLE.md's one allowed long function).
    #[allow(clippy::too_many_lines)]
    fn negamax(
        &mut self,
        state: &G,
        mover: Seat,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.count_node() {
            return 0;
        }
        let mine = mover == self.root;
        if depth == 0 {
            self.horizon = true;
            if let Some(tactical) = self.features.tactical {
                return self.quiesce(state, mover, alpha, beta, ply, tactical);
            }
            return for_side(static_score(self.eval, state, self.root), mine);
        }
        let key = table_key(state.key(), self.root);
        let mut tt_index = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_index = entry.action;
            let score = from_table(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if u32::from(entry.depth) >= depth && usable {
                self.horizon |= score.abs() < MATE_BOUND;
                return score;
            }
        }
        let mut buffers = self.take_buffers(ply);
        state.legal_actions(&mut buffers.actions);
        let tt_move = tt_index.and_then(|i| buffers.actions.get(i).copied());
        self.tables
            .order
            .order(&buffers.actions, tt_move, ply, mover, &mut buffers.scored);
        if self.features.eval_order && depth >= EVAL_ORDER_MIN_DEPTH {
            self.order_by_evaluation(state, mover, &mut buffers.scored);
        }
        // Pruned decisions leave the search order only: the table keeps indices of the
        // legal order in `buffers.actions`.
        if let Some(pruned) = self.pruned_here(state, &buffers.actions) {
            buffers.scored.retain(|&(_, action)| !pruned(state, action));
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_action = None;
        for (i, &(_, action)) in buffers.scored.iter().enumerate() {
            let mut child = state.clone();
            child.apply(action);
            let reduction = self.reduction(i, depth);
            let score = if reduction > 0 {
                // A shallower null-window probe; only a decision that beats alpha there is
                // searched again at full depth.
                let probe = self.child(
                    &child,
                    depth - 1 - reduction,
                    alpha,
                    alpha + 1,
                    ply + 1,
                    mine,
                );
                if probe > alpha && !self.aborted {
                    self.window(&child, depth - 1, (alpha, beta), ply + 1, false, mine)
                } else {
                    probe
                }
            } else {
                self.window(&child, depth - 1, (alpha, beta), ply + 1, i == 0, mine)
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_action = Some(action);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.tables.order.cutoff(action, ply, depth, mover);
                        break;
                    }
                }
            }
        }
        let best_index = best_action.and_then(|action| index_of(&buffers.actions, action));
        self.tables.plies[ply] = buffers;
        if self.aborted || best_action.is_none() {
            return 0;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let draft = depth.min(u32::from(u16::MAX)) as u16;
        self.tt
            .store(key, best_index, to_table(best, ply), draft, bound);
        best
    }
}

/// The expected line from `state` starting with `first`, read from the table (at most
/// `length` decisions, each checked to be legal).
fn principal_variation<G: Game>(
    table: &Table,
    state: &G,
    root: Seat,
    first: G::Action,
    length: usize,
) -> Vec<G::Action> {
    let mut line = vec![first];
    let mut state = state.clone();
    state.apply(first);
    let mut actions = Vec::new();
    while line.len() < length && state.to_move().is_some() {
        let Some(index) = table
            .probe(table_key(state.key(), root))
            .and_then(|entry| entry.action)
        else {
            break;
        };
        state.legal_actions(&mut actions);
        let Some(&action) = actions.get(index) else {
            break;
        };
        line.push(action);
        state.apply(action);
    }
    line
}

//! The mechanics of one decision: placement and presses (§3.1), the transition (§3.2), slides
//! and removals (§3.3), the end tests and draw rules (§4), and the incremental Zobrist key.
//!
//! **Turns.** A turn is a placement or slide with its presses or removals, or one transition
//! removal. The counter grows when the turn's last decision is made, so Black's last
//! placement, each transition removal and Black's first slide are separate turns even when
//! Black decides them in a row. An automatic pass (an empty hand, §3.1 (b)) is not a turn.
//!
//! **Length bound.** Placements fill points that stay filled during stage 1 (≤ 24 turns), the
//! transition has ≤ 2 turns, and in stage 2 a draw comes after `draw_no_removal_plies` (100)
//! turns without a removal, while each removal turn takes one of at most 24 pieces: so with
//! default options a game has at most 24 + 2 + 25 · 100 turns.

use std::borrow::Cow;

use ludus_engine::{zobrist_table, BySeat, Core, Outcome, Seat};

use super::rules::{NoPressRule, QilinAction, QilinOptions, BLACK, RED};
use super::tables::{
    in_lines, lines_through, neighbours, slide_row, Point, Points, ADJACENT, ALL_POINTS,
};

/// Room for the legal actions of any position (at most 24 placements or takes, at most one
/// slide per edge: 40) plus 3 slots of slack: [`push_each`] and `push_slides` write up to
/// three candidates past the real count before cutting them off.
const RESERVE: usize = 44;

/// A Qilin Chess XiaSanZi position with everything the rules need to go on.
#[derive(Clone, Debug)]
pub struct Qilin {
    pub(super) core: Core<QilinOptions>,
    /// Unpressed pieces per seat (Red, Black).
    pub(super) pieces: [u32; 2],
    /// Pressed points (`P`): they belong to no one.
    pub(super) pressed: u32,
    pub(super) hands: BySeat<u8, 2>,
    pub(super) stage: Stage,
    /// Presses or removals (or, in the transition, the own removal) the side still owes.
    pub(super) pending: u8,
    /// Movement-stage turns in a row without a removal.
    pub(super) quiet: u16,
    pub(super) key: u64,
    /// Movement-stage keys since the last removal, for the repetition rule.
    pub(super) history: KeyRing,
}

/// The stage of the game (spec §2). A finished game keeps the stage it ended in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// Stage 1: placing pieces from hand, pressing after lines.
    Place,
    /// Between the stages, when nothing was pressed: each side removes one own piece.
    Transition,
    /// Stage 2: sliding pieces, removing after lines.
    Move,
}

impl Stage {
    /// The position-string word.
    pub const fn word(self) -> &'static str {
        match self {
            Stage::Place => "place",
            Stage::Transition => "transition",
            Stage::Move => "move",
        }
    }
}

/// How many movement-stage keys the repetition rule remembers: every position since the last
/// removal while `draw_no_removal_plies` ≤ 127 (the default is 100). With a larger limit (or
/// none), repetitions further apart than this are not seen.
pub const RING: usize = 128;

/// Keys of the movement-stage positions since the last removal, newest last, in a fixed ring
/// (cheap to clone, no heap).
#[derive(Clone, Debug)]
pub struct KeyRing {
    pub(super) keys: [u64; RING],
    /// Two Bloom filters of 256 bits, one per parity of the ring index (entries alternate the
    /// side to move, so a key can only recur at the same parity). A key picks one of four
    /// words and sets two bits in it (all from different bits of the key: one word read and
    /// written, no shift of a `u128`); a key missing either bit has not occurred and needs no
    /// scan. With 50 keys a filter answers "maybe" for about 1 new key in 10.
    seen: [[u64; 4]; 2],
    pub(super) next: u8,
    pub(super) len: u8,
}

impl KeyRing {
    pub(super) const fn new() -> Self {
        KeyRing {
            keys: [0; RING],
            seen: [[0; 4]; 2],
            next: 0,
            len: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.seen = [[0; 4]; 2];
    }

    /// The filter word of `key` and its two bits in it (from bits the Zobrist XOR spreads
    /// evenly).
    #[inline]
    fn filter_bits(key: u64) -> (usize, u64) {
        let word = (key >> 62) as usize;
        (word, (1 << ((key >> 56) & 63)) | (1 << ((key >> 50) & 63)))
    }

    /// Adds `key` and returns how often it now occurs. Consecutive entries alternate the side
    /// to move, so only every second one can match.
    #[inline]
    pub(super) fn push(&mut self, key: u64) -> u32 {
        let len = self.len as usize;
        let newest = self.next as usize;
        let (word, bits) = Self::filter_bits(key);
        let seen = &mut self.seen[newest & 1][word];
        let mut count = 1;
        if *seen & bits == bits {
            let mut back = 2;
            while back <= len {
                if self.keys[(newest + RING - back) % RING] == key {
                    count += 1;
                }
                back += 2;
            }
        }
        *seen |= bits;
        self.keys[newest] = key;
        self.next = ((newest + 1) % RING) as u8;
        self.len = (len + 1).min(RING) as u8;
        count
    }
}

const KEYS: [u64; 128] = zobrist_table(0x5149_4C49_4E00);
const SIDE_KEY: usize = 72;
const STAGE_KEY: usize = 73;
const PENDING_KEY: usize = 76;
/// The key change when the side to act changes.
pub(super) const SIDE_FLIP: u64 = KEYS[SIDE_KEY];
const HAND_KEY: usize = 80;

/// Kinds of occupant, as Zobrist feature offsets.
const PRESSED: usize = 2;

#[inline]
pub(super) const fn piece_key(point: Point, kind: usize) -> u64 {
    KEYS[point.to_usize() * 3 + kind]
}

fn hand_key(seat: usize, count: u8) -> u64 {
    KEYS[HAND_KEY + seat * 19 + count as usize]
}

/// The pieces each side starts with in hand.
pub const HAND: u8 = 18;

impl Qilin {
    /// The start: an empty board, 18 in hand each, Red to place.
    pub(super) fn start(options: &QilinOptions) -> Qilin {
        Qilin::assemble(options, [0, 0], 0, [HAND, HAND], Stage::Place, RED, 0)
    }

    /// A state from its parts (already validated), with key, history and outcome computed.
    pub(super) fn assemble(
        options: &QilinOptions,
        pieces: [u32; 2],
        pressed: u32,
        hands: [u8; 2],
        stage: Stage,
        side: Seat,
        pending: u8,
    ) -> Qilin {
        let mut state = Qilin {
            core: Core::new(options.clone(), side),
            pieces,
            pressed,
            hands: BySeat(hands),
            stage,
            pending,
            quiet: 0,
            key: 0,
            history: KeyRing::new(),
        };
        state.key = state.full_key();
        match stage {
            Stage::Move if pending == 0 => {
                let count = state.history.push(state.key);
                state.core.outcome = state.movement_outcome(count);
            }
            Stage::Transition if options.no_press_rule == NoPressRule::FirstPlayerLoses => {
                state.core.outcome = Some(Outcome::win(BLACK, "no line in the placement stage"));
            }
            _ => {}
        }
        state
    }

    /// The Zobrist key computed from scratch (`apply` keeps it up to date incrementally).
    pub(super) fn full_key(&self) -> u64 {
        let mut key = 0;
        for (kind, bits) in [self.pieces[0], self.pieces[1], self.pressed]
            .into_iter()
            .enumerate()
        {
            key ^= Points(bits).fold(0, |k, p| k ^ piece_key(p, kind));
        }
        if self.core.to_move == BLACK {
            key ^= KEYS[SIDE_KEY];
        }
        key ^= KEYS[STAGE_KEY + self.stage as usize] ^ KEYS[PENDING_KEY + self.pending as usize];
        if self.stage == Stage::Place {
            key ^= hand_key(0, self.hands[RED]) ^ hand_key(1, self.hands[BLACK]);
        }
        key
    }

    /// The empty points.
    pub(super) fn empty(&self) -> u32 {
        ALL_POINTS & !(self.pieces[0] | self.pieces[1] | self.pressed)
    }

    /// The unpressed pieces of `seat`.
    pub(super) fn own(&self, seat: Seat) -> u32 {
        self.pieces[seat.to_usize()]
    }

    /// The pieces the side to act may press or remove now (with `protect_lines`, pieces outside
    /// complete lines first).
    pub(super) fn targets(&self) -> u32 {
        let theirs = self.own(self.core.to_move.opponent());
        if self.core.options.protect_lines {
            let free = theirs & !in_lines(theirs);
            if free != 0 {
                return free;
            }
        }
        theirs
    }

    /// Whether `seat` has a legal slide.
    #[inline]
    pub(super) fn can_slide(&self, seat: Seat) -> bool {
        self.own(seat) & neighbours(self.empty()) != 0
    }

    #[inline]
    pub(super) fn fill_legal_actions(&self, out: &mut Vec<QilinAction>) {
        out.clear();
        if self.core.outcome.is_some() {
            return;
        }
        out.reserve(RESERVE);
        match (self.stage, self.pending) {
            (Stage::Place, 0) => push_each(out, self.empty(), QilinAction::Place),
            (Stage::Transition, _) => {
                push_each(out, self.own(self.core.to_move), QilinAction::Take);
            }
            (Stage::Move, 0) => self.push_slides(out),
            _ => push_each(out, self.targets(), QilinAction::Take),
        }
    }

    /// The slides of the side to move, in the canonical order (by origin, then destination).
    /// Each origin copies its precomputed row of four slides, chosen by which neighbours are
    /// empty, and keeps the valid ones: no branch per candidate.
    #[inline]
    fn push_slides(&self, out: &mut Vec<QilinAction>) {
        let empty = self.empty();
        for from in Points(self.own(self.core.to_move) & neighbours(empty)) {
            let (row, count) = slide_row(from, empty);
            let keep = out.len() + count;
            out.extend_from_slice(row);
            out.truncate(keep);
        }
    }

    pub(super) fn check_legal(&self, action: QilinAction) -> bool {
        if self.core.outcome.is_some() {
            return false;
        }
        match (action, self.stage, self.pending) {
            (QilinAction::Place(p), Stage::Place, 0) => self.empty() & p.bit() != 0,
            (QilinAction::Slide(from, to), Stage::Move, 0) => {
                self.own(self.core.to_move) & from.bit() != 0
                    && ADJACENT[from.to_usize()] & self.empty() & to.bit() != 0
            }
            (QilinAction::Take(p), Stage::Transition, _) => {
                self.own(self.core.to_move) & p.bit() != 0
            }
            (QilinAction::Take(p), _, 1..) => self.targets() & p.bit() != 0,
            _ => false,
        }
    }

    /// Plays a legal decision (the hot path: nothing is checked). Always inlined into
    /// `apply`, see there.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(super) fn play(&mut self, action: QilinAction) {
        let mover = self.core.to_move;
        let me = mover.to_usize();
        let them = 1 - me;
        match (action, self.stage) {
            (QilinAction::Place(p), _) => {
                self.toggle(p, me);
                self.set_hand(mover, self.hands[mover].saturating_sub(1));
                self.owe(lines_through(self.pieces[me], p) as u8);
            }
            (QilinAction::Take(p), Stage::Place) => {
                self.toggle(p, them);
                self.toggle(p, PRESSED);
                self.set_hand(mover, self.hands[mover].saturating_sub(1));
                self.owe(self.pending.saturating_sub(1));
            }
            (QilinAction::Take(p), Stage::Transition) => {
                self.toggle(p, me);
                self.end_transition_turn();
            }
            (QilinAction::Take(p), Stage::Move) => {
                self.toggle(p, them);
                self.quiet = 0;
                self.owe(self.pending.saturating_sub(1));
            }
            (QilinAction::Slide(from, to), _) => {
                self.pieces[me & 1] ^= from.bit() | to.bit();
                self.key ^= piece_key(from, me) ^ piece_key(to, me);
                self.quiet = self.quiet.saturating_add(1);
                // The opponent has pieces (else the game would be over): no removal is dropped.
                match lines_through(self.pieces[me], to) {
                    0 => self.end_movement_turn(),
                    lines => self.set_pending(lines as u8),
                }
            }
        }
    }

    /// Flips the occupant `kind` (0 Red, 1 Black, 2 pressed) of `point`, with its key.
    #[inline]
    fn toggle(&mut self, point: Point, kind: usize) {
        if kind == PRESSED {
            self.pressed ^= point.bit();
        } else {
            self.pieces[kind] ^= point.bit();
        }
        self.key ^= piece_key(point, kind);
    }

    fn set_hand(&mut self, seat: Seat, count: u8) {
        self.key ^= hand_key(seat.to_usize(), self.hands[seat]) ^ hand_key(seat.to_usize(), count);
        self.hands[seat] = count;
    }

    pub(super) fn set_pending(&mut self, pending: u8) {
        self.key ^=
            KEYS[PENDING_KEY + self.pending as usize] ^ KEYS[PENDING_KEY + pending as usize];
        self.pending = pending;
    }

    fn set_side(&mut self, side: Seat) {
        if side != self.core.to_move {
            self.key ^= KEYS[SIDE_KEY];
            self.core.to_move = side;
        }
    }

    fn set_stage(&mut self, stage: Stage) {
        if self.stage == Stage::Place {
            self.key ^= hand_key(0, self.hands[RED]) ^ hand_key(1, self.hands[BLACK]);
        }
        self.key ^= KEYS[STAGE_KEY + self.stage as usize] ^ KEYS[STAGE_KEY + stage as usize];
        self.stage = stage;
    }

    /// The side to act owes `count` presses or removals, those that can be made (§3.1 (a),
    /// §3.3); the turn ends when none is owed.
    #[inline]
    fn owe(&mut self, count: u8) {
        let me = self.core.to_move.to_usize();
        let possible = self.pieces[1 - me] != 0
            && (self.stage == Stage::Move || self.hands[self.core.to_move] > 0);
        let count = if possible { count } else { 0 };
        if count != self.pending {
            self.set_pending(count);
        }
        if count == 0 {
            if self.stage == Stage::Place {
                self.end_placement_turn();
            } else {
                self.end_movement_turn();
            }
        }
    }

    #[inline]
    fn end_placement_turn(&mut self) {
        self.core.turn += 1;
        // The hands are read one byte at a time: `set_hand` has just stored one, and a load
        // of both at once would wait for that store to reach the cache (about 8 % of Qilin's
        // MCTS time when both were read at once) instead of taking the stored byte directly.
        let mine = self.hands[self.core.to_move];
        let theirs = self.hands[self.core.to_move.opponent()];
        if self.empty() == 0 || (mine == 0 && theirs == 0) {
            self.end_placement();
        } else if theirs > 0 {
            self.set_side(self.core.to_move.opponent());
        }
        // Otherwise the opponent's hand is empty: they pass and the same side places again.
    }

    /// §3.2: pressed points are cleared, or each side removes an own piece, or Red loses.
    fn end_placement(&mut self) {
        if self.pressed != 0 {
            for point in Points(self.pressed) {
                self.toggle(point, PRESSED);
            }
            self.start_movement();
            return;
        }
        self.set_stage(Stage::Transition);
        self.set_side(RED);
        self.set_pending(1);
        if self.core.options.no_press_rule == NoPressRule::FirstPlayerLoses {
            self.core.outcome = Some(Outcome::win(BLACK, "no line in the placement stage"));
        }
    }

    fn end_transition_turn(&mut self) {
        self.core.turn += 1;
        if self.core.to_move == RED {
            self.set_side(BLACK);
        } else {
            self.start_movement();
        }
    }

    /// §3.3: Black moves first; the end tests run at once.
    fn start_movement(&mut self) {
        self.set_stage(Stage::Move);
        self.set_side(BLACK);
        self.set_pending(0);
        self.quiet = 0;
        self.history.clear();
        let count = self.history.push(self.key);
        self.core.outcome = self.movement_outcome(count);
    }

    // Always inlined: the removal turns of a random playout end here, and the call measured
    // about 1.5 % of Qilin's MCTS time (`perf` on `ludus bench qilin --agent ai:mcts`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn end_movement_turn(&mut self) {
        self.core.turn += 1;
        self.set_side(self.core.to_move.opponent());
        if self.quiet == 0 {
            self.history.clear();
        }
        let count = self.history.push(self.key);
        if self.movement_ends(count) {
            self.core.outcome = self.movement_outcome(count);
        }
    }

    /// Whether `seat` has fewer pieces than `min_pieces`.
    #[inline]
    fn too_few(&self, seat: Seat) -> bool {
        let pieces = self.own(seat);
        match self.core.options.min_pieces {
            1 => pieces == 0,
            // Fewer than 2 (or 3) pieces: clearing the lowest bit once (twice) leaves none.
            2 => pieces & pieces.wrapping_sub(1) == 0,
            _ => {
                let rest = pieces & pieces.wrapping_sub(1);
                rest & rest.wrapping_sub(1) == 0
            }
        }
    }

    /// A quick test whether [`Qilin::movement_outcome`] ends the game (the hot path).
    #[inline]
    fn movement_ends(&self, count: u32) -> bool {
        let limit = self.core.options.draw_no_removal_plies;
        let repetition = u32::from(self.core.options.draw_repetition);
        self.too_few(RED)
            || self.too_few(BLACK)
            || !self.can_slide(self.core.to_move)
            || (limit > 0 && self.quiet >= limit)
            || (repetition > 0 && count >= repetition)
    }

    /// The end tests at the start of a movement turn (§4), `count` being how often the
    /// position has occurred: too few pieces (Red tested first), no legal slide, then the draw
    /// rules.
    pub(super) fn movement_outcome(&self, count: u32) -> Option<Outcome> {
        let min = u32::from(self.core.options.min_pieces);
        for seat in [RED, BLACK] {
            if self.too_few(seat) {
                return Some(Outcome::win(seat.opponent(), too_few_reason(seat, min)));
            }
        }
        if !self.can_slide(self.core.to_move) {
            let reason = if self.core.to_move == RED {
                "Red has no legal move"
            } else {
                "Black has no legal move"
            };
            return Some(Outcome::win(self.core.to_move.opponent(), reason));
        }
        let limit = self.core.options.draw_no_removal_plies;
        if limit > 0 && self.quiet >= limit {
            let reason: Cow<'static, str> = if limit == 100 {
                "100 turns without a removal".into()
            } else {
                format!("{limit} turns without a removal").into()
            };
            return Some(Outcome::draw(reason));
        }
        let repetition = u32::from(self.core.options.draw_repetition);
        if repetition > 0 && count >= repetition {
            return Some(Outcome::draw("repetition of the position"));
        }
        None
    }
}

/// Pushes `make(p)` for every point `p` of `bits`, in the canonical order. Points are taken
/// four at a time without branching on each one: slots beyond the real count are cut off
/// again (there is room: see [`RESERVE`]).
#[inline]
fn push_each(out: &mut Vec<QilinAction>, mut bits: u32, make: impl Fn(Point) -> QilinAction) {
    while bits != 0 {
        let mut keep = out.len();
        for _ in 0..4 {
            out.push(make(Point::lowest_or_a1(bits)));
            keep += usize::from(bits != 0);
            bits &= bits.wrapping_sub(1);
        }
        out.truncate(keep);
    }
}

fn too_few_reason(seat: Seat, min: u32) -> &'static str {
    match (seat == RED, min) {
        (true, 1) => "Red has no pieces left",
        (false, 1) => "Black has no pieces left",
        (true, 2) => "Red has fewer than 2 pieces",
        (false, 2) => "Black has fewer than 2 pieces",
        (true, _) => "Red has fewer than 3 pieces",
        (false, _) => "Black has fewer than 3 pieces",
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn the_incremental_key_equals_the_full_key() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut actions = Vec::new();
        for _ in 0..200 {
            let mut state = Qilin::new(&QilinOptions::default(), 0);
            loop {
                assert_eq!(state.key, state.full_key(), "{}", state.position());
                state.legal_actions(&mut actions);
                let Some(&action) = actions.choose(&mut rng) else {
                    break;
                };
                state.apply(action);
            }
        }
    }

    #[test]
    fn the_ring_counts_every_second_entry() {
        let mut ring = KeyRing::new();
        assert_eq!(ring.push(1), 1);
        assert_eq!(ring.push(2), 1);
        assert_eq!(ring.push(1), 2);
        assert_eq!(ring.push(2), 2);
        assert_eq!(ring.push(1), 3);
        ring.clear();
        assert_eq!(ring.push(1), 1);
        for i in 0..300 {
            ring.push(10 + i);
        }
        assert_eq!(ring.push(10 + 298), 2);
        assert_eq!(ring.push(10), 1);
    }
}

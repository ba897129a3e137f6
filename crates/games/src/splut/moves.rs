//! Steps: the list of legal steps (§4, from the slot mask of `slots.rs`), application, the
//! flight of a thrown rock, turn ends, eliminations and the draw rules (§5).

use ludus_engine::{Outcome, Seat, MAX_SEATS};

use super::slots::{slot_of, SLOTS, SLOT_STEPS};
use super::state::{
    content, is_sorcerer, stops_rock, team_obj, Content, Kind, Lev, Object, RockId, Splut,
};
use super::tables::{Dir, Square, EMPTY, OFF};

/// One decision of Splut!: a step of one of the mover's pieces, or a forced pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SplutAction {
    /// `--`: the mover has no legal step; the rest of the turn is lost (§6.1).
    Pass,
    /// A step of one piece.
    Step(Step),
}

/// A step: which piece, which way, and what else it does (§ appendix).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Step {
    /// The moving piece (each team has at most one of each kind).
    pub kind: Kind,
    /// The direction of the step.
    pub dir: Dir,
    /// Pull, throw or levitation, if any.
    pub extra: Extra,
}

/// What a step does besides moving its piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Extra {
    /// A plain move (or a dwarf's push, which needs no choice).
    Plain,
    /// The troll pulls the rock behind it.
    Pull,
    /// The troll stepped onto a rock and throws it this way.
    Throw(Dir),
    /// The sorcerer levitates this rock in the same direction.
    Levitate(RockId),
}

/// What a throw did, for the notes `#` and `!`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Hit {
    Nothing,
    /// A sorcerer of this seat was killed.
    Kill(usize),
    /// A dwarf of this seat was crushed.
    Crush(usize),
}

/// The seats by index, built at compile time: `Seat::new` lives in another crate and is not
/// inlined, and the turn's end calls it at every turn.
const SEATS: [Seat; MAX_SEATS] = [Seat::new(0), Seat::new(1), Seat::new(2), Seat::new(3)];

impl Splut {
    /// Every legal step of the seat to move, in slot order (sorcerer, dwarf, troll; see
    /// `slots.rs`); `--` alone when there is none.
    pub(super) fn generate(&self, out: &mut Vec<SplutAction>) {
        out.clear();
        if self.core.outcome.is_some() {
            return;
        }
        let mut slots = self.legal_slots();
        if slots == 0 {
            out.push(SplutAction::Pass);
        }
        while slots != 0 {
            out.push(SLOT_STEPS[slots.trailing_zeros() as usize % SLOTS]);
            slots &= slots - 1;
        }
    }

    /// Whether `action` is legal, without allocating.
    pub(super) fn legal(&self, action: SplutAction) -> bool {
        if self.core.outcome.is_some() {
            return false;
        }
        let slots = self.legal_slots();
        match action {
            SplutAction::Pass => slots == 0,
            SplutAction::Step(step) => slots >> slot_of(step) & 1 != 0,
        }
    }

    /// The first square from `start` going `dir` that holds no piece (empty or off).
    #[inline]
    pub(super) fn chain_end(&self, start: Square, dir: Dir) -> Square {
        let mut sq = start;
        while !matches!(self.code(sq), EMPTY | OFF) {
            sq = sq.step(dir);
        }
        sq
    }

    /// §4.4: the first square beyond the troll (now on `to`, having left `from`) must be on
    /// the board and hold no rock and no troll.
    #[inline]
    pub(super) fn can_throw(&self, from: Square, to: Square, dir: Dir) -> bool {
        let first = to.step(dir);
        let code = self.code(first);
        first == from || !stops_rock(code)
    }

    /// Where a rock thrown from `to` toward `dir` comes down, by a troll that left `from`, and
    /// what it hits (the board is not changed).
    pub(super) fn flight(&self, from: Square, to: Square, dir: Dir) -> (Square, Hit) {
        let mut cur = to;
        loop {
            let next = cur.step(dir);
            let code = if next == from { EMPTY } else { self.code(next) };
            if stops_rock(code) {
                let hit = match content(self.code(cur)) {
                    Content::Piece(seat, Kind::Dwarf) if cur != to => Hit::Crush(seat),
                    _ => Hit::Nothing,
                };
                return (cur, hit);
            }
            if is_sorcerer(code) {
                let Content::Piece(seat, _) = content(code) else {
                    unreachable!("a sorcerer code is a piece");
                };
                return (next, Hit::Kill(seat));
            }
            cur = next;
        }
    }

    /// What a legal throw step would do (for the notation's notes).
    pub(super) fn throw_hit(&self, s: Step) -> Hit {
        let Extra::Throw(dir) = s.extra else {
            return Hit::Nothing;
        };
        let from = self.pos[team_obj(self.core.to_move.to_usize(), Kind::Troll)];
        self.flight(from, from.step(s.dir), dir).1
    }

    /// Plays a legal action (the hot path: nothing is checked).
    pub(super) fn play(&mut self, action: SplutAction) {
        match action {
            SplutAction::Step(s) => self.play_step(s),
            SplutAction::Pass => self.end_turn(),
        }
    }

    /// Plays a legal step.
    #[inline]
    pub(super) fn play_step(&mut self, s: Step) {
        self.before_step = self.piece_key;
        let seat = self.mover();
        let obj = team_obj(seat, s.kind);
        let from = self.pos[obj];
        let to = from.step(s.dir);
        match (s.kind, s.extra) {
            (_, Extra::Throw(dir)) => {
                self.throw(obj, to, dir);
                return;
            }
            (Kind::Sorcerer, Extra::Levitate(id)) => {
                self.move_obj(obj, to);
                let dest = self.pos[id.obj()].step(s.dir);
                self.move_obj(id.obj(), dest);
                self.moved |= id.bit();
                self.lev = Lev::Active(id);
            }
            (Kind::Troll, Extra::Pull) => {
                let behind = from.step(s.dir.opposite());
                let id = RockId(self.code(behind) - 1);
                self.move_obj(obj, to);
                self.move_obj(id.obj(), from);
                self.moved |= id.bit();
                self.end_levitation();
            }
            _ => {
                if self.code(to) != EMPTY {
                    self.push_chain(to, s.dir);
                }
                self.move_obj(obj, to);
                self.end_levitation();
            }
        }
        self.used += 1;
        if self.used >= Self::allowed(self.core.turn) {
            self.end_turn();
        }
    }

    /// A step that does not levitate ends an active levitation run.
    #[inline]
    fn end_levitation(&mut self) {
        if let Lev::Active(_) = self.lev {
            self.lev = Lev::Spent;
        }
    }

    /// Pushes the chain of pieces starting on `start` one square toward `dir`.
    fn push_chain(&mut self, start: Square, dir: Dir) {
        let mut sq = self.chain_end(start, dir);
        while sq != start {
            let prev = sq.step(dir.opposite());
            let obj = Object::from_code(self.code(prev));
            self.move_obj(obj, sq);
            if let Some(rock) = obj.rock() {
                self.moved |= rock.bit();
            }
            sq = prev;
        }
    }

    /// The troll `obj` steps onto the rock on `to` and throws it toward `dir`; the turn ends.
    fn throw(&mut self, obj: Object, to: Square, dir: Dir) {
        let from = self.pos[obj];
        let id = RockId(self.code(to) - 1);
        let (land, hit) = self.flight(from, to, dir);
        self.lift(id.obj());
        self.move_obj(obj, to);
        match hit {
            Hit::Kill(seat) => {
                self.remove_team(seat);
                self.history.clear();
            }
            Hit::Crush(seat) => {
                self.lift(team_obj(seat, Kind::Dwarf));
                self.history.clear();
            }
            Hit::Nothing => {}
        }
        self.place(id.obj(), land);
        self.moved |= id.bit();
        if self.alive_count() == 1 {
            let winner = self.alive.trailing_zeros() as u8;
            self.core.outcome = Some(Outcome::win(Seat::new(winner), "last sorcerer standing"));
        }
        self.end_turn();
    }

    /// Takes `seat`'s whole team off the board.
    fn remove_team(&mut self, seat: usize) {
        for kind in Kind::ALL {
            if self.pos[team_obj(seat, kind)] != Square::NONE {
                self.lift(team_obj(seat, kind));
            }
        }
        self.alive &= !(1 << seat);
    }

    /// Ends the turn: locks follow the rocks moved in it, the next surviving seat moves, and
    /// the draw rules are checked at the new turn's start.
    pub(super) fn end_turn(&mut self) {
        self.locked = self.moved;
        self.moved = 0;
        self.lev = Lev::Unused;
        self.used = 0;
        self.before_step = 0;
        self.core.turn += 1;
        self.core.to_move = SEATS[self.next_alive(self.core.to_move.to_usize())];
        if self.core.outcome.is_some() {
            return;
        }
        let max = self.core.options.max_turns;
        if max > 0 && self.core.turn >= max {
            self.core.outcome = Some(Outcome::draw("turn limit"));
            return;
        }
        let seen = self.history.push(self.full_key());
        let limit = self.core.options.repetition;
        if limit > 0 && seen >= limit {
            self.core.outcome = Some(Outcome::draw("repetition"));
        }
    }

    /// The next seat after `seat` in turn order that is still in the game (`seat` itself if
    /// it is the only one).
    #[inline]
    fn next_alive(&self, seat: usize) -> usize {
        // The lowest seat in the game after `seat`, else the lowest up to `seat` itself
        // (`alive` holds seats in play only).
        let alive = u32::from(self.alive);
        let after = alive & !((2 << seat) - 1);
        let next = if after != 0 { after } else { alive | 1 << seat };
        next.trailing_zeros() as usize % MAX_SEATS
    }

    /// `seat` resigns: its team leaves the game (§ issue: the others play on).
    pub(super) fn resign_seat(&mut self, seat: usize) {
        if self.core.outcome.is_some() || seat >= self.seats() || !self.is_alive(seat) {
            return;
        }
        self.remove_team(seat);
        self.history.clear();
        if self.alive_count() == 1 {
            let winner = self.alive.trailing_zeros() as u8;
            self.core.outcome = Some(Outcome::win(Seat::new(winner), Self::resigned_reason(seat)));
        }
        if seat == self.core.to_move.to_usize() {
            self.end_turn();
        }
    }
}

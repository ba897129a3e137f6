//! Steps: generation (§4), application, the flight of a thrown rock, turn ends, eliminations
//! and the draw rules (§5).

use ludus_engine::{Outcome, Seat};

use super::state::{
    content, is_rock, is_sorcerer, is_troll, team_obj, Content, Kind, Lev, Object, RockId, Splut,
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

/// The most steps a position can offer is 4 × 5 + 4 + 4 × 4 = 40; candidates are written
/// before they are known to be legal, so the buffer has room for one more write.
const MAX_STEPS: usize = 48;

/// A fixed-size list of steps under construction.
struct Buf<'a> {
    steps: &'a mut [SplutAction; MAX_STEPS],
    len: usize,
}

/// The filler of the candidate window.
const FILL: SplutAction = step(Kind::Sorcerer, Dir::North, Extra::Plain);

impl Buf<'_> {
    /// Writes `action` and keeps it if `legal` (no branch on the condition).
    #[inline]
    fn put(&mut self, action: SplutAction, legal: bool) {
        self.steps[self.len] = action;
        self.len += usize::from(legal);
    }
}

const fn step(kind: Kind, dir: Dir, extra: Extra) -> SplutAction {
    SplutAction::Step(Step { kind, dir, extra })
}

impl Splut {
    /// Every legal step of the seat to move; `--` alone when there is none.
    pub(super) fn generate(&self, out: &mut Vec<SplutAction>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        // Candidates are written into a fixed window of the caller's buffer (filled with a
        // step whose bytes are all defined: a few vector stores), then it is cut to the legal
        // ones. Cheaper than growing the Vec step by step.
        out.resize(MAX_STEPS, FILL);
        let steps: &mut [SplutAction; MAX_STEPS] = (&mut out[..MAX_STEPS])
            .try_into()
            .expect("the buffer was just sized");
        let len = self.steps_into(steps);
        out.truncate(len);
        if len == 0 {
            out.push(SplutAction::Pass);
        }
    }

    /// Whether `action` is legal, without allocating.
    pub(super) fn legal(&self, action: SplutAction) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let mut steps = [FILL; MAX_STEPS];
        let len = self.steps_into(&mut steps);
        match action {
            SplutAction::Pass => len == 0,
            SplutAction::Step(_) => steps[..len].contains(&action),
        }
    }

    /// Writes the legal steps at the start of `steps`; returns how many there are.
    #[inline]
    fn steps_into(&self, steps: &mut [SplutAction; MAX_STEPS]) -> usize {
        let mut buf = Buf { steps, len: 0 };
        let seat = self.to_move as usize;
        self.sorcerer_steps(seat, &mut buf);
        self.dwarf_steps(seat, &mut buf);
        self.troll_steps(seat, &mut buf);
        buf.len
    }

    #[inline]
    fn sorcerer_steps(&self, seat: usize, buf: &mut Buf) {
        let from = self.pos[team_obj(seat, Kind::Sorcerer)];
        let candidates = match self.lev {
            Lev::Unused => !self.locked & 0xF,
            Lev::Active(id) => id.bit(),
            Lev::Spent => 0,
        };
        let movable = if self.options.levitate_follow {
            self.levitation_masks::<true>(from)
        } else {
            self.levitation_masks::<false>(from)
        };
        for dir in Dir::ALL {
            let free = self.code(from.step(dir)) == EMPTY;
            let rocks = if free {
                movable[dir as usize] & candidates
            } else {
                0
            };
            buf.put(step(Kind::Sorcerer, dir, Extra::Plain), free);
            if rocks != 0 {
                for id in RockId::ALL {
                    buf.put(
                        step(Kind::Sorcerer, dir, Extra::Levitate(id)),
                        rocks & id.bit() != 0,
                    );
                }
            }
        }
    }

    /// For each direction, the rocks whose destination that way is free while the sorcerer
    /// on `from` steps (with `FOLLOW`, the square it leaves counts as free: option
    /// `levitate_follow`).
    #[inline]
    fn levitation_masks<const FOLLOW: bool>(&self, from: Square) -> [u8; 4] {
        let mut movable = [0u8; 4];
        for id in RockId::ALL {
            let rock = self.pos[id.obj()];
            for dir in Dir::ALL {
                let dest = rock.step(dir);
                let free = self.code(dest) == EMPTY || (FOLLOW && dest == from);
                movable[dir as usize] |= u8::from(free) << id.0;
            }
        }
        movable
    }

    #[inline]
    fn dwarf_steps(&self, seat: usize, buf: &mut Buf) {
        let from = self.pos[team_obj(seat, Kind::Dwarf)];
        if from == Square::NONE {
            return;
        }
        for dir in Dir::ALL {
            let free = self.code(self.chain_end(from.step(dir), dir)) == EMPTY;
            buf.put(step(Kind::Dwarf, dir, Extra::Plain), free);
        }
    }

    /// The first square from `start` going `dir` that holds no piece (empty or off).
    #[inline]
    fn chain_end(&self, start: Square, dir: Dir) -> Square {
        let mut sq = start;
        while !matches!(self.code(sq), EMPTY | OFF) {
            sq = sq.step(dir);
        }
        sq
    }

    #[inline]
    fn troll_steps(&self, seat: usize, buf: &mut Buf) {
        let from = self.pos[team_obj(seat, Kind::Troll)];
        let codes = Dir::ALL.map(|dir| self.code(from.step(dir)));
        for dir in Dir::ALL {
            let to = from.step(dir);
            let code = codes[dir as usize];
            let free = code == EMPTY;
            buf.put(step(Kind::Troll, dir, Extra::Plain), free);
            let behind = is_rock(codes[dir.opposite() as usize]);
            buf.put(step(Kind::Troll, dir, Extra::Pull), free & behind);
            if is_rock(code) {
                for throw in Dir::ALL {
                    buf.put(
                        step(Kind::Troll, dir, Extra::Throw(throw)),
                        self.can_throw(from, to, throw),
                    );
                }
            }
        }
    }

    /// §4.4: the first square beyond the troll (now on `to`, having left `from`) must be on
    /// the board and hold no rock and no troll.
    #[inline]
    pub(super) fn can_throw(&self, from: Square, to: Square, dir: Dir) -> bool {
        let first = to.step(dir);
        let code = self.code(first);
        first == from || (code != OFF && !is_rock(code) && !is_troll(code))
    }

    /// Where a rock thrown from `to` toward `dir` comes down, by a troll that left `from`, and
    /// what it hits (the board is not changed).
    pub(super) fn flight(&self, from: Square, to: Square, dir: Dir) -> (Square, Hit) {
        let mut cur = to;
        loop {
            let next = cur.step(dir);
            let code = if next == from { EMPTY } else { self.code(next) };
            if code == OFF || is_rock(code) || is_troll(code) {
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
        let from = self.pos[team_obj(self.to_move as usize, Kind::Troll)];
        self.flight(from, from.step(s.dir), dir).1
    }

    /// Plays a legal action (the hot path: nothing is checked).
    pub(super) fn play(&mut self, action: SplutAction) {
        let SplutAction::Step(s) = action else {
            self.end_turn();
            return;
        };
        self.before_step = self.piece_key;
        let seat = self.to_move as usize;
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
        if self.used >= Self::allowed(self.turn) {
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
            self.outcome = Some(Outcome::win(Seat::new(winner), "last sorcerer standing"));
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
        self.turn += 1;
        self.to_move = self.next_alive(self.to_move as usize) as u8;
        if self.outcome.is_some() {
            return;
        }
        let max = self.options.max_turns;
        if max > 0 && self.turn >= max {
            self.outcome = Some(Outcome::draw("turn limit"));
            return;
        }
        let seen = self.history.push(self.full_key());
        let limit = self.options.repetition;
        if limit > 0 && seen >= limit {
            self.outcome = Some(Outcome::draw("repetition"));
        }
    }

    /// The next seat after `seat` in turn order that is still in the game (`seat` itself if
    /// it is the only one).
    fn next_alive(&self, seat: usize) -> usize {
        let n = self.seats();
        let mut next = seat;
        for _ in 0..n {
            next = if next + 1 == n { 0 } else { next + 1 };
            if self.is_alive(next) {
                return next;
            }
        }
        seat
    }

    /// `seat` resigns: its team leaves the game (§ issue: the others play on).
    pub(super) fn resign_seat(&mut self, seat: usize) {
        if self.outcome.is_some() || seat >= self.seats() || !self.is_alive(seat) {
            return;
        }
        self.remove_team(seat);
        self.history.clear();
        if self.alive_count() == 1 {
            let winner = self.alive.trailing_zeros() as u8;
            self.outcome = Some(Outcome::win(Seat::new(winner), Self::resigned_reason(seat)));
        }
        if seat == self.to_move as usize {
            self.end_turn();
        }
    }
}

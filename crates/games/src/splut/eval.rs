//! Heuristics for computer players.
//!
//! Both evaluations rest on the **kill distance**: the fewest steps a troll needs to kill a
//! sorcerer — walk over empty squares to a square next to a rock, step onto the rock and throw
//! it in a legal direction whose flight ends on that sorcerer (other pieces are assumed to stay
//! put). A distance within the steps the troll's owner has next is a real threat.
//!
//! * [`Heuristic::evaluate`]: the terms of `terms.rs` times their weights in `weights.txt`
//!   for 2 seats, `weights_multi.txt` for 3 and 4 (fitted by `ludus tune splut`).
//! * [`Heuristic::evaluate_v1`] (`eval=v1`), the evaluation before tuning: threats both ways (scaled by who moves next), troll–rock
//!   distances, the sorcerer's free squares, the dwarves, and a central dwarf. With 3–4 players
//!   it is `seat`'s view: its best threat against any opponent, minus every opponent's threat
//!   against it.
//! * [`Heuristic::seed_evaluate`]: the original's level 2 (README "Computer level 2"): attack
//!   if a throw can kill this turn, else protect the threatened sorcerer, else bring the troll
//!   toward the rocks and the dwarf to the centre. The seed's own code never finished its
//!   protection search; here the greedy agent gets the same priorities as scores.

use ludus_engine::{Heuristic, Seat, WIN_SCORE};

use super::moves::{Extra, Hit, SplutAction, Step};
use super::state::{team_obj, Kind, RockId, Splut};
use super::tables::{Dir, Square, EMPTY, GRID};

/// Kill distances beyond this are not searched (and count as "no threat").
pub(super) const CAP: u8 = 7;
pub(super) const FAR: u8 = u8::MAX;

/// What the original's heuristic adds per team knocked out: more than any other rating can
/// differ, so that a knock-out outweighs everything else (a kill within reach is 10,000).
const KNOCKED_OUT: i32 = 20_000;

/// What a team knocked out is shown as, against [`KNOCKED_OUT`] in the rating: as much as
/// the heuristic's largest other term, a kill within reach.
const KNOCKED_OUT_SHOWN: i32 = 10_000;

impl Splut {
    /// `kd[a][v]`: the fewest steps seat `a`'s troll needs to kill seat `v`'s sorcerer
    /// (`FAR` if more than [`CAP`] or impossible).
    pub(super) fn kill_distances(&self) -> [[u8; 4]; 4] {
        let mut kd = [[FAR; 4]; 4];
        for (a, row) in kd.iter_mut().enumerate().take(self.seats()) {
            if self.is_alive(a) {
                *row = self.troll_threats(a);
            }
        }
        kd
    }

    fn troll_threats(&self, seat: usize) -> [u8; 4] {
        let mut out = [FAR; 4];
        let troll = self.pos[team_obj(seat, Kind::Troll)];
        let dist = self.walk_distances(troll);
        for id in RockId::ALL {
            let rock = self.rock(id);
            for dir in Dir::ALL {
                let start = rock.step(dir.opposite());
                let d = dist[start.to_usize()];
                if d >= CAP {
                    continue;
                }
                for throw in Dir::ALL {
                    if !self.can_throw(troll, rock, throw) {
                        continue;
                    }
                    if let (_, Hit::Kill(victim)) = self.flight(troll, rock, throw) {
                        out[victim] = out[victim].min(d + 1);
                    }
                }
            }
        }
        out
    }

    /// Steps from `start` to every square reachable over empty squares (`FAR` elsewhere).
    fn walk_distances(&self, start: Square) -> [u8; GRID] {
        let mut dist = [FAR; GRID];
        let mut queue = [Square::NONE; 128];
        let (mut head, mut tail) = (0, 0);
        dist[start.to_usize()] = 0;
        queue[tail] = start;
        tail += 1;
        while head < tail {
            let sq = queue[head];
            head += 1;
            let d = dist[sq.to_usize()];
            if d + 1 >= CAP {
                continue;
            }
            for dir in Dir::ALL {
                let next = sq.step(dir);
                if self.code(next) == EMPTY && dist[next.to_usize()] == FAR && tail < queue.len() {
                    dist[next.to_usize()] = d + 1;
                    queue[tail] = next;
                    tail += 1;
                }
            }
        }
        dist
    }

    /// Steps `attacker` has for its next chance to act.
    fn steps_for(&self, attacker: usize) -> u8 {
        if attacker == self.core.to_move.to_usize() {
            self.steps_left()
        } else {
            3
        }
    }

    /// The value of `attacker`'s kill distance `k`.
    pub(super) fn threat_value(&self, attacker: usize, k: u8) -> i32 {
        if k == FAR {
            0
        } else if k <= self.steps_for(attacker) {
            if attacker == self.core.to_move.to_usize() {
                6000
            } else {
                1500
            }
        } else {
            50 * i32::from(CAP + 1 - k.min(CAP))
        }
    }

    /// Manhattan distance from `seat`'s troll to the nearest rock square's neighbour.
    pub(super) fn troll_to_rock(&self, seat: usize) -> i32 {
        let troll = self.pos[team_obj(seat, Kind::Troll)];
        RockId::ALL
            .iter()
            .map(|&id| troll.distance(self.rock(id)).saturating_sub(1))
            .min()
            .unwrap_or(0) as i32
    }

    /// Manhattan distance from `seat`'s dwarf to the centre (0 without a dwarf).
    pub(super) fn dwarf_to_centre(&self, seat: usize) -> i32 {
        let c = ((self.core.options.size - 1) / 2) as u8;
        self.piece(Seat::new(seat as u8), Kind::Dwarf)
            .map_or(0, |d| d.distance(Square::new(c, c)) as i32)
    }

    /// Empty squares next to `seat`'s sorcerer.
    pub(super) fn sorcerer_room(&self, seat: usize) -> i32 {
        let s = self.pos[team_obj(seat, Kind::Sorcerer)];
        Dir::ALL
            .iter()
            .filter(|&&d| self.code(s.step(d)) == EMPTY)
            .count() as i32
    }

    pub(super) fn opponents(&self, seat: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats()).filter(move |&o| o != seat && self.is_alive(o))
    }

    fn full_evaluation(&self, seat: usize) -> i32 {
        let kd = self.kill_distances();
        let attack = self
            .opponents(seat)
            .map(|o| self.threat_value(seat, kd[seat][o]))
            .max()
            .unwrap_or(0);
        let danger: i32 = self
            .opponents(seat)
            .map(|o| self.threat_value(o, kd[o][seat]))
            .sum();
        let dwarves = |s: usize| i32::from(self.pos[team_obj(s, Kind::Dwarf)] != Square::NONE);
        let opponents = self.opponents(seat).count().max(1) as i32;
        let others: i32 = self
            .opponents(seat)
            .map(|o| 120 * dwarves(o) - 8 * self.troll_to_rock(o) + 10 * self.sorcerer_room(o))
            .sum();
        attack - danger + 120 * dwarves(seat) - 8 * self.troll_to_rock(seat)
            + 10 * self.sorcerer_room(seat)
            - 3 * self.dwarf_to_centre(seat)
            - others / opponents
            - 3000 * opponents
    }

    fn seed_value(&self, seat: usize) -> i32 {
        let kd = self.kill_distances();
        let mut value = 0;
        if seat == self.core.to_move.to_usize() {
            let best = self
                .opponents(seat)
                .map(|o| kd[seat][o])
                .min()
                .unwrap_or(FAR);
            if best <= self.steps_left() {
                value += 10_000 - 100 * i32::from(best);
            }
        }
        if self.opponents(seat).any(|o| kd[o][seat] <= 3) {
            value -= 5_000;
        }
        let out = self.seats() as i32 - self.alive_count() as i32;
        // The original moves its dwarf toward the centre; it never gives a dwarf away. A
        // crushed dwarf therefore counts as farther than any square (not as 0, which made
        // crushing one's own dwarf look like progress to levels 2 and 3).
        let dwarf = if self.piece(Seat::new(seat as u8), Kind::Dwarf).is_some() {
            self.dwarf_to_centre(seat)
        } else {
            self.core.options.size as i32
        };
        value + KNOCKED_OUT * out - 10 * self.troll_to_rock(seat) - 5 * dwarf
    }

    /// A seed rating for the living `seat` as shown: the knock-outs already made here count
    /// nothing, those the rating foresees [`KNOCKED_OUT_SHOWN`] each, and `seat`'s own team
    /// knocked out minus that. A rating is a multiple of [`KNOCKED_OUT`] plus the rest of
    /// [`Self::seed_value`], which stays within ±10,000 (the rest of a kill within reach is
    /// at most 9,900, and of a threat at least -5,000 less the distances), so the two come
    /// apart.
    fn seed_rating_shown(&self, seat: usize, rating: i32) -> i32 {
        if !self.is_alive(seat) || rating >= WIN_SCORE / 4 {
            return rating;
        }
        if rating <= -WIN_SCORE / 4 {
            return -KNOCKED_OUT_SHOWN;
        }
        let out = (rating + KNOCKED_OUT / 2).div_euclid(KNOCKED_OUT);
        let rest = rating - KNOCKED_OUT * out;
        let now = self.seats() as i32 - self.alive_count() as i32;
        rest + KNOCKED_OUT_SHOWN * (out - now)
    }
}

impl Heuristic for Splut {
    /// Throws: the only steps that kill a sorcerer or crush a dwarf.
    fn is_tactical(&self, action: SplutAction) -> bool {
        matches!(
            action,
            SplutAction::Step(Step {
                extra: Extra::Throw(_),
                ..
            })
        )
    }

    /// A step that brings every piece and rock back to where they stood before the turn's
    /// previous step (a piece stepping straight back, a rock levitated back).
    fn is_undoing(&self, action: SplutAction) -> bool {
        if self.used == 0 || matches!(action, SplutAction::Pass) {
            return false;
        }
        let mut next = self.clone();
        next.play(action);
        next.piece_key == self.before_step
    }

    /// A turn start whose position (pieces, locks, mover) occurred before since the last
    /// kill, crush or resignation, while repetition draws the game (`repetition` above 0);
    /// also a game drawn at a turn start, so that searches score that draw alike.
    fn repeats(&self) -> bool {
        let drawn_or_on = self
            .core
            .outcome
            .as_ref()
            .is_none_or(|o| o.winner().is_none());
        self.used == 0
            && self.core.options.repetition > 0
            && drawn_or_on
            && self.history.last_seen() >= 2
    }

    const TERMS: &'static [&'static str] = super::terms::TERMS;

    fn terms(&self, seat: Seat, out: &mut [f64]) {
        super::terms::terms(self, seat.to_usize(), out);
    }

    /// An eliminated seat scores as a half loss, as in v1; the terms are for the living.
    fn evaluate(&self, seat: Seat) -> i32 {
        if !self.is_alive(seat.to_usize()) {
            return -WIN_SCORE / 2;
        }
        super::terms::weights(self).evaluate(self, seat)
    }

    fn evaluate_v1(&self, seat: Seat) -> i32 {
        if !self.is_alive(seat.to_usize()) {
            return -WIN_SCORE / 2;
        }
        self.full_evaluation(seat.to_usize())
    }

    fn seed_evaluate(&self, seat: Seat) -> i32 {
        if !self.is_alive(seat.to_usize()) {
            return -WIN_SCORE / 2;
        }
        self.seed_value(seat.to_usize())
    }

    /// Knock-outs read on the scale of the other terms (see `seed_rating_shown`).
    fn seed_shown(&self, seat: Seat, rating: i32) -> i32 {
        self.seed_rating_shown(seat.to_usize(), rating)
    }
}

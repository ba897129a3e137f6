//! Position strings (§8.3), at any step boundary:
//!
//! ```text
//! size=9 seats=south,north tomove=south turn=5 used=0 lev=unused locked=-
//! south: Sd2 De2 Td4
//! north: Se7 Df7 Td8
//! rocks: e4 e1 a5 i5
//! ```
//!
//! Lines may also be separated by `;`. A seat whose team is out of the game is written
//! `north: -`. **Our addition:** the rocks moved so far in the current turn (they will be
//! locked for the next player) follow as `moved=c6,e4` at the end of the first line when there
//! are any; the spec's format has no field for them, but a position after a push or a pull in
//! the middle of a turn needs it to round-trip. Rocks are listed in identity order (the tips
//! they started on: South, West, North, East); reading a position gives them identities in the
//! order written.

use std::fmt::Write as _;

use ludus_engine::{GameOptions, Outcome, PositionError, Seat};

use super::rules::SplutOptions;
use super::state::{team_obj, Kind, Lev, Object, RockId, Splut};
use super::tables::{Side, Square, EMPTY};

impl Splut {
    /// The position string.
    pub(super) fn format_position(&self) -> String {
        let seats: Vec<&str> = (0..self.seats()).map(|s| self.side(s).name()).collect();
        let lev = match self.lev {
            Lev::Unused => "unused".to_string(),
            Lev::Active(id) => format!("active:{}", self.rock(id)),
            Lev::Spent => "spent".to_string(),
        };
        let mut text = format!(
            "size={} seats={} tomove={} turn={} used={} lev={lev} locked={}",
            self.core.options.size,
            seats.join(","),
            self.side(self.core.to_move.to_usize()).name(),
            self.core.turn,
            self.used,
            self.rock_list(self.locked),
        );
        if self.moved != 0 {
            text.push_str(" moved=");
            text.push_str(&self.rock_list(self.moved));
        }
        for seat in 0..self.seats() {
            text.push('\n');
            text.push_str(self.side(seat).name());
            text.push(':');
            if !self.is_alive(seat) {
                text.push_str(" -");
            }
            for kind in Kind::ALL {
                if let Some(sq) = self.piece(Seat::new(seat as u8), kind) {
                    let _ = write!(text, " {}{sq}", kind.letter());
                }
            }
        }
        text.push_str("\nrocks:");
        for id in RockId::ALL {
            let _ = write!(text, " {}", self.rock(id));
        }
        text
    }

    /// The squares of the rocks in `mask`, comma-separated, or `-`.
    fn rock_list(&self, mask: u8) -> String {
        let names: Vec<String> = RockId::ALL
            .into_iter()
            .filter(|id| mask & id.bit() != 0)
            .map(|id| self.rock(id).to_string())
            .collect();
        if names.is_empty() {
            "-".to_string()
        } else {
            names.join(",")
        }
    }

    /// Reads a position string, checking every rule of §8.3.
    pub(super) fn parse_position(
        text: &str,
        options: &SplutOptions,
    ) -> Result<Splut, PositionError> {
        options
            .validate()
            .map_err(|e| PositionError::new(text, format!("bad options: {e}")))?;
        Reader::new(text, options).read()
    }
}

/// The header fields of the first line.
#[derive(Default)]
struct Header<'a> {
    size: Option<&'a str>,
    seats: Option<&'a str>,
    tomove: Option<&'a str>,
    turn: Option<&'a str>,
    used: Option<&'a str>,
    lev: Option<&'a str>,
    locked: Option<&'a str>,
    moved: Option<&'a str>,
}

struct Reader<'a> {
    text: &'a str,
    options: &'a SplutOptions,
    state: Splut,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str, options: &'a SplutOptions) -> Self {
        Reader {
            text,
            options,
            state: Splut::empty(options),
        }
    }

    fn err(&self, reason: impl Into<String>) -> PositionError {
        PositionError::new(self.text, reason)
    }

    fn read(mut self) -> Result<Splut, PositionError> {
        let mut lines = self
            .text
            .split(['\n', ';'])
            .map(str::trim)
            .filter(|l| !l.is_empty());
        let first = lines
            .next()
            .ok_or_else(|| self.err("empty: expected 'size=9 seats=south,north ...'"))?;
        let header = self.header(first)?;
        self.check_frame(&header)?;
        let mut seen_sides = Vec::new();
        let mut rocks_seen = false;
        for line in lines {
            let (name, items) = line
                .split_once(':')
                .ok_or_else(|| self.err(format!("line '{line}': expected 'NAME: ...'")))?;
            let name = name.trim().to_ascii_lowercase();
            if name == "rocks" {
                if rocks_seen {
                    return Err(self.err("two rocks lines"));
                }
                rocks_seen = true;
                self.rocks(items)?;
            } else {
                let seat = self.seat_named(&name)?;
                if seen_sides.contains(&seat) {
                    return Err(self.err(format!("two lines for {name}")));
                }
                seen_sides.push(seat);
                self.team(seat, items)?;
            }
        }
        if !rocks_seen {
            return Err(self.err("missing the 'rocks:' line"));
        }
        if seen_sides.len() != self.state.seats() {
            return Err(
                self.err("expected one line per seat (write 'west: -' for a team out of the game)")
            );
        }
        self.turn_state(&header)?;
        self.finish()
    }

    fn header(&self, line: &'a str) -> Result<Header<'a>, PositionError> {
        let mut h = Header::default();
        for field in line.split_whitespace() {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| self.err(format!("'{field}': expected key=value")))?;
            let slot = match key {
                "size" => &mut h.size,
                "seats" => &mut h.seats,
                "tomove" => &mut h.tomove,
                "turn" => &mut h.turn,
                "used" => &mut h.used,
                "lev" => &mut h.lev,
                "locked" => &mut h.locked,
                "moved" => &mut h.moved,
                _ => return Err(self.err(format!(
                    "unknown field '{key}': expected size, seats, tomove, turn, used, lev, locked, moved"
                ))),
            };
            if slot.replace(value).is_some() {
                return Err(self.err(format!("field '{key}' given twice")));
            }
        }
        Ok(h)
    }

    fn need(&self, value: Option<&'a str>, key: &str) -> Result<&'a str, PositionError> {
        value.ok_or_else(|| self.err(format!("missing field '{key}='")))
    }

    /// Size and seats must be those of the options.
    fn check_frame(&self, h: &Header<'a>) -> Result<(), PositionError> {
        let size = self.need(h.size, "size")?;
        if size.parse::<u32>().ok() != Some(self.options.size) {
            return Err(self.err(format!(
                "size={size} but the options say size={} (set the option size={size})",
                self.options.size
            )));
        }
        let seats = self.need(h.seats, "seats")?;
        let expected: Vec<&str> = Side::seated(self.options.players)
            .iter()
            .map(|s| s.name())
            .collect();
        if seats.to_ascii_lowercase() != expected.join(",") {
            return Err(self.err(format!(
                "seats={seats} but players={} plays {} in this order",
                self.options.players,
                expected.join(",")
            )));
        }
        Ok(())
    }

    fn seat_named(&self, name: &str) -> Result<usize, PositionError> {
        (0..self.state.seats())
            .find(|&s| self.state.side(s).name() == name)
            .ok_or_else(|| self.err(format!("'{name}' is not a seat of this game")))
    }

    fn square(&self, text: &str) -> Result<Square, PositionError> {
        let sq: Square = text.parse().map_err(|e| self.err(format!("{e}")))?;
        if !sq.on_board(self.options.size) {
            return Err(self.err(format!(
                "{sq} is not on the {0}×{0} board",
                self.options.size
            )));
        }
        Ok(sq)
    }

    fn put(&mut self, obj: Object, sq: Square) -> Result<(), PositionError> {
        if self.state.code(sq) != EMPTY {
            return Err(self.err(format!("two pieces on {sq}")));
        }
        self.state.place(obj, sq);
        Ok(())
    }

    fn team(&mut self, seat: usize, items: &str) -> Result<(), PositionError> {
        let name = self.state.side(seat).name();
        if items.trim() == "-" {
            return Ok(());
        }
        for item in items.split_whitespace() {
            let kind = item
                .chars()
                .next()
                .and_then(|c| c.is_ascii_uppercase().then_some(c))
                .and_then(Kind::from_letter)
                .ok_or_else(|| self.err(format!("'{item}': expected S, D or T and a square")))?;
            let sq = self.square(&item[1..])?;
            if self.state.pos[team_obj(seat, kind)] != Square::NONE {
                return Err(self.err(format!("{name} has two pieces {}", kind.letter())));
            }
            self.put(team_obj(seat, kind), sq)?;
        }
        for kind in [Kind::Sorcerer, Kind::Troll] {
            if self.state.pos[team_obj(seat, kind)] == Square::NONE {
                return Err(self.err(format!(
                    "{name} has no {} (a team in play has its sorcerer and troll; write '{name}: -' for a team out of the game)",
                    kind.letter()
                )));
            }
        }
        self.state.alive |= 1 << seat;
        Ok(())
    }

    fn rocks(&mut self, items: &str) -> Result<(), PositionError> {
        let squares: Vec<&str> = items.split_whitespace().collect();
        if squares.len() != 4 {
            return Err(self.err(format!("expected exactly 4 rocks, found {}", squares.len())));
        }
        for (id, text) in RockId::ALL.into_iter().zip(squares) {
            let sq = self.square(text)?;
            self.put(id.obj(), sq)?;
        }
        Ok(())
    }

    /// The rocks on the squares of a `locked=`/`moved=` list.
    fn rock_mask(&self, list: &str, key: &str) -> Result<u8, PositionError> {
        if list == "-" {
            return Ok(0);
        }
        let mut mask = 0;
        for name in list.split(',') {
            let sq = self.square(name)?;
            let id = self
                .state
                .rock_at(sq)
                .ok_or_else(|| self.err(format!("{key}={list}: no rock on {sq}")))?;
            if mask & id.bit() != 0 {
                return Err(self.err(format!("{key}={list}: {sq} listed twice")));
            }
            mask |= id.bit();
        }
        Ok(mask)
    }

    fn turn_state(&mut self, h: &Header<'a>) -> Result<(), PositionError> {
        let tomove = self.need(h.tomove, "tomove")?.to_ascii_lowercase();
        let seat = self.seat_named(&tomove)?;
        if !self.state.is_alive(seat) {
            return Err(self.err(format!("tomove={tomove} but that team is out of the game")));
        }
        let (turn, used) = self.turn_and_used(h)?;
        let locked = self.rock_mask(self.need(h.locked, "locked")?, "locked")?;
        let moved = self.rock_mask(h.moved.unwrap_or("-"), "moved")?;
        let lev = self.levitation(self.need(h.lev, "lev")?)?;
        self.check_rocks_state(used, locked, moved, lev)?;
        let s = &mut self.state;
        (
            s.core.to_move,
            s.core.turn,
            s.used,
            s.locked,
            s.moved,
            s.lev,
        ) = (Seat::new(seat as u8), turn, used, locked, moved, lev);
        Ok(())
    }

    /// `turn=` and `used=`: steps used must leave at least one step of the turn, and the
    /// turn must not be past the turn limit.
    fn turn_and_used(&self, h: &Header<'a>) -> Result<(u32, u8), PositionError> {
        let turn = self.need(h.turn, "turn")?;
        let turn: u32 = turn
            .parse()
            .map_err(|_| self.err(format!("turn={turn}: expected a whole number")))?;
        let used = self.need(h.used, "used")?;
        let allowed = Splut::allowed(turn);
        let used: u8 = used.parse().ok().filter(|&u| u < allowed).ok_or_else(|| {
            self.err(format!(
                "used={used}: turn {turn} has {allowed} step(s), so expected 0..={}",
                allowed - 1
            ))
        })?;
        let max = self.options.max_turns;
        if max > 0 && (turn > max || (turn == max && used > 0)) {
            return Err(self.err(format!(
                "turn={turn} is past the turn limit max_turns={max} (set max_turns=0 for no limit)"
            )));
        }
        Ok((turn, used))
    }

    /// The levitation state, locks and moved rocks must be reachable by the rules.
    fn check_rocks_state(
        &self,
        used: u8,
        locked: u8,
        moved: u8,
        lev: Lev,
    ) -> Result<(), PositionError> {
        if moved != 0 && used == 0 {
            return Err(
                self.err("moved= needs used>0: no rock has moved before a turn's first step")
            );
        }
        match lev {
            Lev::Active(id) if moved & id.bit() == 0 || locked & id.bit() != 0 => {
                Err(self.err("the active levitated rock must be in moved= and not in locked="))
            }
            Lev::Spent if used < 2 || moved == 0 => {
                Err(self.err("lev=spent needs an earlier levitation: used>=2 and a rock in moved="))
            }
            _ => Ok(()),
        }
    }

    fn levitation(&self, text: &str) -> Result<Lev, PositionError> {
        match text {
            "unused" => Ok(Lev::Unused),
            "spent" => Ok(Lev::Spent),
            _ => {
                let square = text.strip_prefix("active:").ok_or_else(|| {
                    self.err(format!(
                        "lev={text}: expected unused, active:<rock square> or spent"
                    ))
                })?;
                let sq = self.square(square)?;
                let id = self
                    .state
                    .rock_at(sq)
                    .ok_or_else(|| self.err(format!("lev={text}: no rock on {sq}")))?;
                Ok(Lev::Active(id))
            }
        }
    }

    /// Caches the outcome the position already has, and starts the repetition history.
    fn finish(self) -> Result<Splut, PositionError> {
        let mut state = self.state;
        if state.alive == 0 {
            return Err(PositionError::new(self.text, "no team is in the game"));
        }
        if state.alive_count() == 1 {
            let winner = Seat::new(state.alive.trailing_zeros() as u8);
            state.core.outcome = Some(Outcome::win(winner, "last sorcerer standing"));
        } else if state.core.options.max_turns > 0
            && state.core.turn >= state.core.options.max_turns
        {
            state.core.outcome = Some(Outcome::draw("turn limit"));
        } else if state.used == 0 {
            state.history.push(state.full_key());
        }
        Ok(state)
    }
}

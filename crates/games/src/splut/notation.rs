//! Step notation (§8.1): the canonical form `Sd3-d4@b5`, `Td4-e4*n#`, `Td4-d5p`, `Dc5-d5`,
//! the forced pass `--`, and the short typed form `Sn`, `Te*n`, `Sn@b5`.
//!
//! Parsing has two stages: text → [`Syntax`] (syntax errors), then [`Syntax`] → a legal
//! [`SplutAction`] of the state (illegal-move errors saying why). Formatting is the exact inverse.

use std::fmt::Write as _;

use ludus_engine::{MoveError, Notation, PositionError, Seat};

use super::moves::{Extra, Hit, SplutAction, Step};
use super::state::{team_obj, Kind, Lev, Splut, COLOURS};
use super::tables::{Dir, Square, EMPTY, OFF};
use super::SplutOptions;

const EXPECTED: &str = "a step like Sd3-d4, Td4-e4*n, Td4-d5p, Sd3-d4@b5, Dc5-d5 or the short \
                        form Sn, Te*n, Sn@b5, or -- for a forced pass";

/// A step as written, before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    /// `--`.
    Pass,
    /// A step.
    Step {
        /// The piece letter.
        kind: Kind,
        /// The starting square, in the long form.
        from: Option<Square>,
        /// Where the piece goes.
        target: Target,
        /// `p`, `*dir` or `@square`.
        suffix: Suffix,
        /// `#` (a sorcerer was killed) or `!` (a dwarf was crushed).
        note: Option<char>,
    },
}

/// Where a written step goes: a square (long form) or a direction (short form).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// `-d4`.
    To(Square),
    /// `n`.
    Dir(Dir),
}

/// The suffix of a written step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Suffix {
    /// None.
    None,
    /// `p`.
    Pull,
    /// `*dir`.
    Throw(Dir),
    /// `@square`.
    Levitate(Square),
}

/// Reads a step without looking at any position.
pub fn parse_syntax(text: &str) -> Result<Syntax, MoveError> {
    let clean: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let syntax = || MoveError::syntax(text, EXPECTED);
    if clean == "--" {
        return Ok(Syntax::Pass);
    }
    if !clean.is_ascii() || clean.len() < 2 {
        return Err(syntax());
    }
    let (body, note) = match clean.as_bytes()[clean.len() - 1] {
        b @ (b'#' | b'!') => (&clean[..clean.len() - 1], Some(b as char)),
        _ => (clean.as_str(), None),
    };
    let bytes = body.as_bytes();
    let kind = Kind::from_letter(bytes[0] as char).ok_or_else(syntax)?;
    let rest = &body[1..];
    let (from, target, rest) = if rest.len() >= 2
        && rest.as_bytes()[0].is_ascii_alphabetic()
        && rest.as_bytes()[1].is_ascii_digit()
    {
        let (from, rest) = read_square(rest).ok_or_else(syntax)?;
        let rest = rest.strip_prefix('-').ok_or_else(syntax)?;
        let (to, rest) = read_square(rest).ok_or_else(syntax)?;
        (Some(from), Target::To(to), rest)
    } else {
        let dir = rest.chars().next().and_then(Dir::from_letter);
        (None, Target::Dir(dir.ok_or_else(syntax)?), &rest[1..])
    };
    let suffix = read_suffix(rest).ok_or_else(syntax)?;
    Ok(Syntax::Step {
        kind,
        from,
        target,
        suffix,
        note,
    })
}

/// A square at the start of `text` (a letter and one or two digits) and the rest.
fn read_square(text: &str) -> Option<(Square, &str)> {
    if !text.as_bytes().first()?.is_ascii_alphabetic() {
        return None;
    }
    let digits = text[1..]
        .bytes()
        .take(2)
        .take_while(u8::is_ascii_digit)
        .count();
    let (square, rest) = text.split_at(1 + digits);
    Some((square.parse().ok()?, rest))
}

fn read_suffix(text: &str) -> Option<Suffix> {
    if text.is_empty() {
        return Some(Suffix::None);
    }
    if text.eq_ignore_ascii_case("p") {
        return Some(Suffix::Pull);
    }
    if let Some(dir) = text.strip_prefix('*') {
        let mut chars = dir.chars();
        let d = chars.next().and_then(Dir::from_letter)?;
        return chars.next().is_none().then_some(Suffix::Throw(d));
    }
    let (square, rest) = read_square(text.strip_prefix('@')?)?;
    rest.is_empty().then_some(Suffix::Levitate(square))
}

impl Splut {
    /// The canonical notation of a legal action.
    pub(super) fn format(&self, action: SplutAction) -> String {
        let SplutAction::Step(s) = action else {
            return "--".to_string();
        };
        let from = self.pos[team_obj(self.core.to_move.to_usize(), s.kind)];
        let mut text = format!("{}{}-{}", s.kind.letter(), from, from.step(s.dir));
        match s.extra {
            Extra::Plain => {}
            Extra::Pull => text.push('p'),
            Extra::Throw(dir) => {
                let _ = write!(text, "*{}", dir.letter());
                match self.throw_hit(s) {
                    Hit::Kill(_) => text.push('#'),
                    Hit::Crush(_) => text.push('!'),
                    Hit::Nothing => {}
                }
            }
            Extra::Levitate(id) => {
                let _ = write!(text, "@{}", self.rock(id));
            }
        }
        text
    }

    /// Reads one decision and resolves it against this state.
    pub(super) fn parse(&self, text: &str) -> Result<SplutAction, MoveError> {
        let written = parse_syntax(text)?;
        if let Some(outcome) = &self.core.outcome {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let mut legal = Vec::new();
        self.generate(&mut legal);
        let only_pass = legal == [SplutAction::Pass];
        let Syntax::Step {
            kind,
            from,
            target,
            suffix,
            note,
        } = written
        else {
            return if only_pass {
                Ok(SplutAction::Pass)
            } else {
                Err(MoveError::illegal(
                    text,
                    "a pass (--) is only allowed when no step is possible",
                ))
            };
        };
        let illegal = |reason: String| MoveError::illegal(text, reason);
        if only_pass {
            return Err(illegal("no step is possible: the only move is --".into()));
        }
        let s = self.resolve(kind, from, target, suffix).map_err(illegal)?;
        if !legal.contains(&SplutAction::Step(s)) {
            return Err(illegal(self.why_illegal(s)));
        }
        self.check_note(s, note).map_err(illegal)?;
        Ok(SplutAction::Step(s))
    }

    /// The step a written piece, squares or direction, and suffix designate here.
    fn resolve(
        &self,
        kind: Kind,
        from: Option<Square>,
        target: Target,
        suffix: Suffix,
    ) -> Result<Step, String> {
        let seat = self.core.to_move.to_usize();
        let at = self
            .piece(Seat::new(seat as u8), kind)
            .ok_or_else(|| format!("{} has no {}", COLOURS[seat], kind_name(kind)))?;
        let dir = match target {
            Target::Dir(dir) => dir,
            Target::To(to) => {
                if from != Some(at) {
                    return Err(format!("your {} is on {at}", kind_name(kind)));
                }
                at.direction_to(to)
                    .ok_or_else(|| format!("{to} is not next to {at}"))?
            }
        };
        let extra = match suffix {
            Suffix::None => Extra::Plain,
            Suffix::Pull => Extra::Pull,
            Suffix::Throw(d) => Extra::Throw(d),
            Suffix::Levitate(sq) => Extra::Levitate(
                self.rock_at(sq)
                    .ok_or_else(|| format!("there is no rock on {sq} to levitate"))?,
            ),
        };
        Ok(Step { kind, dir, extra })
    }

    /// A written note must say what the step really does.
    fn check_note(&self, s: Step, note: Option<char>) -> Result<(), String> {
        let hit = self.throw_hit(s);
        match (note, hit) {
            (None, _) | (Some('#'), Hit::Kill(_)) | (Some('!'), Hit::Crush(_)) => Ok(()),
            (Some(n), Hit::Kill(_)) => Err(format!(
                "the note '{n}' is wrong: this throw kills a sorcerer (#)"
            )),
            (Some(n), Hit::Crush(_)) => Err(format!(
                "the note '{n}' is wrong: this throw crushes a dwarf (!)"
            )),
            (Some(n), Hit::Nothing) => Err(format!(
                "the note '{n}' is wrong: this step kills no sorcerer and crushes no dwarf"
            )),
        }
    }

    /// Why a well-formed step of an existing piece is not legal here.
    fn why_illegal(&self, s: Step) -> String {
        let from = self.pos[team_obj(self.core.to_move.to_usize(), s.kind)];
        let to = from.step(s.dir);
        let code = self.code(to);
        if code == OFF {
            return format!("{to} is off the board");
        }
        match (s.kind, s.extra) {
            (Kind::Sorcerer, Extra::Pull | Extra::Throw(_)) => {
                "only a troll pulls or throws rocks".into()
            }
            (Kind::Dwarf, Extra::Pull | Extra::Throw(_) | Extra::Levitate(_))
            | (Kind::Troll, Extra::Levitate(_)) => {
                format!(
                    "a {} only moves{}",
                    kind_name(s.kind),
                    if s.kind == Kind::Dwarf {
                        " and pushes"
                    } else {
                        ", pulls and throws"
                    }
                )
            }
            (Kind::Sorcerer, _) if code != EMPTY => {
                "a sorcerer can only step onto an empty square".into()
            }
            (Kind::Sorcerer, Extra::Levitate(id)) => self.why_no_levitation(from, id, s.dir),
            (Kind::Dwarf, _) => "the push would put a piece off the board".into(),
            (Kind::Troll, _) if self.rock_at(to).is_some() => match s.extra {
                Extra::Throw(d) => format!(
                    "the rock cannot be thrown toward {}: the first square is off the board or \
                     holds a rock or a troll",
                    d.letter()
                ),
                _ => "a troll stepping onto a rock must throw it: add *n, *e, *s or *w".into(),
            },
            (Kind::Troll, _) if code != EMPTY => {
                "a troll can only step onto an empty square or a rock".into()
            }
            (Kind::Troll, Extra::Throw(_)) => format!("there is no rock on {to} to throw"),
            (Kind::Troll, Extra::Pull) => format!(
                "there is no rock behind the troll on {} to pull",
                from.step(s.dir.opposite())
            ),
            _ => "not a legal step here".into(),
        }
    }

    fn why_no_levitation(&self, from: Square, id: RockId, dir: Dir) -> String {
        let rock = self.rock(id);
        match self.lev {
            Lev::Spent => "the levitation of this turn is over (one rock, one unbroken run)".into(),
            Lev::Active(other) if other != id => format!(
                "only the rock on {} may be levitated again this turn",
                self.rock(other)
            ),
            _ if self.is_locked(id) => {
                format!("the rock on {rock} moved in the previous turn and cannot be levitated")
            }
            _ => {
                let dest = rock.step(dir);
                let why = if dest == from {
                    "the sorcerer stands there when the step starts"
                } else if self.code(dest) == OFF {
                    "it is off the board"
                } else {
                    "it is not empty"
                };
                format!("the rock on {rock} cannot be levitated to {dest}: {why}")
            }
        }
    }
}

use super::state::RockId;

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Sorcerer => "sorcerer",
        Kind::Dwarf => "dwarf",
        Kind::Troll => "troll",
    }
}

impl Notation for Splut {
    fn from_position(text: &str, options: &SplutOptions) -> Result<Self, PositionError> {
        Splut::parse_position(text, options)
    }

    fn position(&self) -> String {
        self.format_position()
    }

    fn position_line(&self) -> String {
        self.format_position().replace('\n', "; ")
    }

    fn parse_action(&self, text: &str) -> Result<SplutAction, MoveError> {
        self.parse(text)
    }

    fn format_action(&self, action: SplutAction) -> String {
        self.format(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_and_short_forms_read() {
        let w = parse_syntax("Sd3-d4@b5").unwrap();
        assert!(matches!(
            w,
            Syntax::Step {
                kind: Kind::Sorcerer,
                from: Some(_),
                target: Target::To(_),
                suffix: Suffix::Levitate(_),
                note: None
            }
        ));
        assert!(matches!(
            parse_syntax("te*N").unwrap(),
            Syntax::Step {
                kind: Kind::Troll,
                target: Target::Dir(Dir::East),
                suffix: Suffix::Throw(Dir::North),
                ..
            }
        ));
        assert!(matches!(
            parse_syntax(" T n p ").unwrap(),
            Syntax::Step {
                suffix: Suffix::Pull,
                ..
            }
        ));
        assert!(matches!(
            parse_syntax("Td4-e4*n#").unwrap(),
            Syntax::Step {
                note: Some('#'),
                ..
            }
        ));
        assert_eq!(parse_syntax("--").unwrap(), Syntax::Pass);
        assert!(matches!(
            parse_syntax("Sf9-f10").unwrap(),
            Syntax::Step { .. }
        ));
    }

    #[test]
    fn bad_text_is_a_syntax_error() {
        for bad in [
            "",
            "S",
            "X",
            "Sx",
            "Sd3d4",
            "Sd3-",
            "Sd3-d4@",
            "Sd3-d4@b",
            "Td4-e4*",
            "Td4-e4*x",
            "Td4-e4*nn",
            "Sd3-d4q",
            "Sd3-d4@b5x",
            "Sé",
            "---",
            "Sd3-d4##",
            "Sd333-d4",
            "Sz1-z2",
        ] {
            let e = parse_syntax(bad).unwrap_err();
            assert!(matches!(e, MoveError::Syntax { .. }), "{bad}: {e}");
        }
    }
}

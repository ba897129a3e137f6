//! Replica's text forms (spec §1 and §6): actions `c3-d4`, `c3xc6`, `b2*`, the seed's history
//! form `A1|`, `C3-`, `C3/`, `B2x` on input, and the FEN-like position string.
//!
//! Parsing goes in two stages: text → [`Syntax`] (a syntax error names what was expected),
//! then resolved against the state (an illegal-move error says why the rules refuse it).

use ludus_engine::{MoveError, Notation, PositionError};

use super::moves::{ReplicaAction, DIRECTION_NAMES};
use super::rules::ReplicaOptions;
use super::state::{Replica, BLACK, SIDE_NAMES, TARGET, WHITE};
use super::tables::Square;

/// What an action text says, before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    /// `c3-d4` or `c3xc6`: a piece and its landing square (either separator).
    Advance {
        /// The moving piece's square.
        from: Square,
        /// The landing square.
        to: Square,
    },
    /// The seed's `C3|`, `C3-`, `C3/`: a piece and the index of a forward direction
    /// (0 vertical, 1 horizontal, 2 diagonal).
    Dir {
        /// The moving piece's square.
        from: Square,
        /// Index of the forward direction.
        index: usize,
    },
    /// `b2*` (or the seed's `B2x`).
    Transform(Square),
}

const EXPECTED_MOVE: &str =
    "a move like c3-d4, c3xc6 or b2* (or the original program's A1|, C3-, C3/, B2x)";

impl Syntax {
    /// Reads an action, ignoring case and whitespace.
    pub fn parse(text: &str) -> Result<Syntax, MoveError> {
        let compact: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let syntax = || MoveError::syntax(text, EXPECTED_MOVE);
        if !compact.is_ascii() || compact.len() < 3 {
            return Err(syntax());
        }
        let (head, tail) = compact.split_at(2);
        let from: Square = head.parse().map_err(|_| syntax())?;
        let notation = match tail {
            "*" | "x" => Syntax::Transform(from),
            "|" => Syntax::Dir { from, index: 0 },
            "-" => Syntax::Dir { from, index: 1 },
            "/" => Syntax::Dir { from, index: 2 },
            _ => {
                let (sep, to) = tail.split_at(1);
                if sep != "-" && sep != "x" {
                    return Err(syntax());
                }
                let to = to.parse().map_err(|_| syntax())?;
                Syntax::Advance { from, to }
            }
        };
        Ok(notation)
    }
}

impl Replica {
    /// Parses `text` and checks it against this position (the `parse_action` of the contract).
    pub(super) fn resolve_action(&self, text: &str) -> Result<ReplicaAction, MoveError> {
        let notation = Syntax::parse(text)?;
        if let Some(outcome) = &self.core.outcome {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let side = self.side();
        let name = SIDE_NAMES[side];
        let from = match notation {
            Syntax::Advance { from, .. } | Syntax::Dir { from, .. } | Syntax::Transform(from) => {
                from
            }
        };
        if self.pieces[side] & from.bit() == 0 {
            return Err(MoveError::illegal(
                text,
                format!("no {name} piece on {from}"),
            ));
        }
        match notation {
            Syntax::Advance { from, to } => {
                if self.direction_to(from, to).is_some() {
                    return Ok(ReplicaAction::Advance { from, to });
                }
                Err(MoveError::illegal(
                    text,
                    format!(
                        "the piece on {from} cannot land on {to}: {}",
                        self.reachable_text(from)
                    ),
                ))
            }
            Syntax::Dir { from, index } => match self.target_in(from, index) {
                Some(to) => Ok(ReplicaAction::Advance { from, to }),
                None => Err(MoveError::illegal(
                    text,
                    format!("the piece on {from} has no {} move", DIRECTION_NAMES[index]),
                )),
            },
            Syntax::Transform(square) => {
                if self.kings[side] & square.bit() != 0 {
                    Err(MoveError::illegal(
                        text,
                        format!("{square} is already a king"),
                    ))
                } else if self.transformable(side) & square.bit() == 0 {
                    Err(MoveError::illegal(
                        text,
                        format!("no {name} king sees {square}"),
                    ))
                } else {
                    Ok(ReplicaAction::Transform(square))
                }
            }
        }
    }

    /// "it reaches c6, d3, d4" or "it has no advance", for error messages.
    fn reachable_text(&self, from: Square) -> String {
        let targets: Vec<String> = (0..3)
            .filter_map(|i| self.target_in(from, i))
            .map(|s| s.to_string())
            .collect();
        if targets.is_empty() {
            "it has no advance".to_string()
        } else {
            format!("it reaches {}", targets.join(", "))
        }
    }

    /// The canonical notation of a legal action: `x` when an enemy stands on the landing square.
    pub(super) fn action_text(&self, action: ReplicaAction) -> String {
        match action {
            ReplicaAction::Advance { from, to } => {
                let enemy = self.pieces[1 - self.side()];
                let sep = if enemy & to.bit() != 0 { 'x' } else { '-' };
                format!("{from}{sep}{to}")
            }
            ReplicaAction::Transform(square) => format!("{square}*"),
        }
    }

    /// The seed's history form of a legal action (`A1|`, `C3-`, `C3/`, `B2x`).
    pub fn seed_notation(&self, action: ReplicaAction) -> String {
        let (square, mark) = match action {
            ReplicaAction::Advance { from, to } => {
                let mark = match self.direction_to(from, to) {
                    Some(0) => '|',
                    Some(1) => '-',
                    _ => '/',
                };
                (from, mark)
            }
            ReplicaAction::Transform(square) => (square, 'x'),
        };
        format!("{}{mark}", square.to_string().to_ascii_uppercase())
    }

    /// The position string of spec §1: ranks 8 to 1 separated by `/`, then `w` or `b`.
    pub(super) fn format_position(&self) -> String {
        let mut text = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let letter = match self.piece_at(Square::new(file, rank)) {
                    None => {
                        empty += 1;
                        continue;
                    }
                    Some((seat, king)) => piece_letter(seat == WHITE, king),
                };
                if empty > 0 {
                    text.push(char::from(b'0' + empty));
                    empty = 0;
                }
                text.push(letter);
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        text.push(if self.core.to_move == WHITE { 'w' } else { 'b' });
        text
    }

    /// Reads a position string and decides its outcome (the `from_position` of the contract).
    ///
    /// Besides the syntax, it refuses what no game can reach: more than 12 pieces a side, a
    /// side that acted last without a king (a lost king ends the game with its owner to
    /// move), and a side to move whose king already stands on its target corner.
    pub(super) fn parse_position(
        text: &str,
        options: &ReplicaOptions,
    ) -> Result<Replica, PositionError> {
        let bad = |reason: String| PositionError::new(text, reason);
        let mut fields = text.split_whitespace();
        let (Some(board), Some(side), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(bad(
                "expected 8 ranks separated by '/', a space and the side to move (w or b)".into(),
            ));
        };
        let to_move = match side {
            "w" | "W" => WHITE,
            "b" | "B" => BLACK,
            _ => return Err(bad(format!("side to move '{side}': expected w or b"))),
        };
        let (pieces, kings) = parse_board(board).map_err(bad)?;
        for s in 0..2 {
            let count = pieces[s].count_ones();
            if count > 12 {
                return Err(bad(format!(
                    "{} has {count} pieces: expected at most 12",
                    SIDE_NAMES[s]
                )));
            }
        }
        let side = to_move.to_usize();
        let last = 1 - side;
        if kings[last] == 0 {
            return Err(bad(format!(
                "{} acted last but has no king (a lost king ends the game with its owner to move)",
                SIDE_NAMES[last]
            )));
        }
        if kings[side] & TARGET[side].bit() != 0 {
            return Err(bad(format!(
                "{} is to move but already has a king on {}",
                SIDE_NAMES[side], TARGET[side]
            )));
        }
        let mut state = Replica::with_board(options, pieces, kings, to_move);
        state.core.outcome = state.settled_outcome();
        Ok(state)
    }
}

/// The letter of a piece: `w`/`W` White man/king, `b`/`B` Black man/king.
fn piece_letter(white: bool, king: bool) -> char {
    match (white, king) {
        (true, false) => 'w',
        (true, true) => 'W',
        (false, false) => 'b',
        (false, true) => 'B',
    }
}

/// Reads the board field: pieces and kings per side, or the reason it is malformed.
fn parse_board(board: &str) -> Result<([u64; 2], [u64; 2]), String> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "found {} ranks: expected 8 separated by '/'",
            ranks.len()
        ));
    }
    let (mut pieces, mut kings) = ([0u64; 2], [0u64; 2]);
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            let (side, king, empty) = match c {
                'w' => (0, false, 0),
                'W' => (0, true, 0),
                'b' => (1, false, 0),
                'B' => (1, true, 0),
                '.' => (0, false, 1),
                '1'..='8' => (0, false, c as u8 - b'0'),
                _ => {
                    return Err(format!(
                        "unexpected '{c}' in rank {}: expected w, W, b, B, '.' or a digit 1-8",
                        rank + 1
                    ))
                }
            };
            let width = empty.max(1);
            if file + width > 8 {
                return Err(format!("rank {} is longer than 8 squares", rank + 1));
            }
            if empty == 0 {
                let bit = Square::new(file, rank).bit();
                pieces[side] |= bit;
                if king {
                    kings[side] |= bit;
                }
            }
            file += width;
        }
        if file != 8 {
            return Err(format!("rank {} has {file} squares: expected 8", rank + 1));
        }
    }
    Ok((pieces, kings))
}

impl Notation for Replica {
    fn from_position(text: &str, options: &ReplicaOptions) -> Result<Self, PositionError> {
        Replica::parse_position(text, options)
    }

    fn position(&self) -> String {
        self.format_position()
    }

    fn parse_action(&self, text: &str) -> Result<ReplicaAction, MoveError> {
        self.resolve_action(text)
    }

    fn format_action(&self, action: ReplicaAction) -> String {
        self.action_text(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_reads_every_form() {
        let c3 = Square::new(2, 2);
        let d4 = Square::new(3, 3);
        assert_eq!(
            Syntax::parse("c3-d4"),
            Ok(Syntax::Advance { from: c3, to: d4 })
        );
        assert_eq!(
            Syntax::parse(" C3 x D4 "),
            Ok(Syntax::Advance { from: c3, to: d4 })
        );
        assert_eq!(Syntax::parse("c3*"), Ok(Syntax::Transform(c3)));
        assert_eq!(Syntax::parse("C3x"), Ok(Syntax::Transform(c3)));
        assert_eq!(Syntax::parse("C3|"), Ok(Syntax::Dir { from: c3, index: 0 }));
        assert_eq!(Syntax::parse("C3-"), Ok(Syntax::Dir { from: c3, index: 1 }));
        assert_eq!(Syntax::parse("C3/"), Ok(Syntax::Dir { from: c3, index: 2 }));
        for bad in [
            "", "c3", "c3d4", "c3-d", "c3-d44", "c3+", "z3-d4", "c3–d4", "c3-é4", "**",
        ] {
            assert!(
                matches!(Syntax::parse(bad), Err(MoveError::Syntax { .. })),
                "{bad}"
            );
        }
    }
}

//! Yoxii notation (spec §6): decisions (`d5`, `3@d4`), turns (`d5 3@d4`, or `d5,3@d4` on
//! input) and position strings.
//!
//! Decisions are read in two stages: text → [`Syntax`] (a syntax error names what was
//! expected), then resolved against the state (an illegal-move error says why).
//!
//! **Position strings** are those of §6: ranks 7 down to 1 separated by `/`, each listing only
//! its on-board squares (`.` empty, `#` Totem, `O T Y X` White 1–4, `o t y x` Red 1–4), a space
//! and the side to move (`w` or `r`). **Our extension** for a turn in progress (the Totem has
//! moved, the placement is pending), which §6 does not cover: a third field `place`, e.g.
//! `.../...../...#.../......./......./...../... w place`.

use ludus_engine::{parse_decisions, MoveError, Notation, PositionError, Rules, Seat};

use super::rules::{FirstPlayer, YoxiiAction, YoxiiOptions};
use super::state::{first_seat, Piece, Yoxii, INITIAL_HAND, RED, SEAT_NAMES, WHITE};
use super::tables::{Square, ON_BOARD};

/// A decision as written, before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    /// A square: a Totem destination.
    Totem(Square),
    /// `value@square`: a placement.
    Place(u8, Square),
}

const EXPECTED: &str = "a totem destination like d5 or a placement value@square like 3@d4";

/// Reads a decision without looking at a position. Values are `1`–`4` or the seed's letters
/// `O T Y X` (either case).
pub fn parse_syntax(text: &str) -> Result<Syntax, MoveError> {
    let word = text.trim();
    let square = |s: &str| {
        s.parse::<Square>()
            .map_err(|_| MoveError::syntax(text, EXPECTED))
    };
    match word.split_once('@') {
        None => square(word).map(Syntax::Totem),
        Some((value, at)) => {
            let value = parse_value(value).ok_or_else(|| {
                MoveError::syntax(text, "a value 1-4 or O/T/Y/X before '@', like 3@d4")
            })?;
            Ok(Syntax::Place(value, square(at)?))
        }
    }
}

fn parse_value(text: &str) -> Option<u8> {
    match text.to_ascii_uppercase().as_str() {
        "1" | "O" => Some(1),
        "2" | "T" => Some(2),
        "3" | "Y" => Some(3),
        "4" | "X" => Some(4),
        _ => None,
    }
}

/// The canonical notation of a decision: `d5` or `3@d4`.
pub fn format_action(action: YoxiiAction) -> String {
    match action {
        YoxiiAction::Totem(to) => to.to_string(),
        YoxiiAction::Place { value, square } => format!("{value}@{square}"),
    }
}

/// Reads a turn (`d5 3@d4`, `d5,3@d4`), an unfinished turn (`d5`), or any run of decisions.
pub fn parse_turn(state: &Yoxii, text: &str) -> Result<Vec<YoxiiAction>, MoveError> {
    let words = text.split(|c: char| c == ',' || c.is_whitespace());
    parse_decisions(state, text, words, "a move like d5 3@d4")
}

const SYMBOLS: [[char; 4]; 2] = [['O', 'T', 'Y', 'X'], ['o', 't', 'y', 'x']];

fn parse_board(text: &str) -> Result<([Option<Piece>; 49], Square), String> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 7 {
        return Err(format!(
            "expected 7 ranks separated by '/', found {}",
            ranks.len()
        ));
    }
    let mut board = [None; 49];
    let mut totems = Vec::new();
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 6 - row as u8;
        let squares = (0..7)
            .map(|file| Square::new(file, rank))
            .filter(|s| s.is_on_board());
        let length = squares.clone().count();
        if rank_text.chars().count() != length {
            return Err(format!(
                "rank {} has {} squares, expected {length}",
                rank + 1,
                rank_text.chars().count()
            ));
        }
        for (square, c) in squares.zip(rank_text.chars()) {
            match c {
                '.' => {}
                '#' => totems.push(square),
                _ => board[square.to_usize()] = Some(parse_piece(c, rank)?),
            }
        }
    }
    match totems[..] {
        [totem] => Ok((board, totem)),
        _ => Err(format!(
            "expected exactly one totem '#', found {}",
            totems.len()
        )),
    }
}

fn parse_piece(c: char, rank: u8) -> Result<Piece, String> {
    for (seat, symbols) in [WHITE, RED].into_iter().zip(SYMBOLS) {
        if let Some(i) = symbols.iter().position(|&s| s == c) {
            return Ok(Piece {
                seat,
                value: i as u8 + 1,
            });
        }
    }
    Err(format!(
        "unexpected '{c}' on rank {}: expected . # O T Y X o t y x",
        rank + 1
    ))
}

fn check_counts(
    board: &[Option<Piece>; 49],
    to_move: Seat,
    options: &YoxiiOptions,
) -> Result<(), String> {
    let mut counts = [[0u8; 4]; 2];
    for piece in Square::iter(ON_BOARD).filter_map(|s| board[s.to_usize()]) {
        counts[piece.seat.to_usize()][piece.value as usize - 1] += 1;
    }
    check_values(counts)?;
    check_balance(counts, to_move, options)
}

/// No colour has more pieces of a value on the board than it started with.
fn check_values(counts: [[u8; 4]; 2]) -> Result<(), String> {
    for seat in [WHITE, RED] {
        for value in 1..=4 {
            let (have, most) = (counts[seat.to_usize()][value - 1], INITIAL_HAND[value - 1]);
            if have > most {
                return Err(format!(
                    "{} has {have} pieces of value {value} on the board, at most {most}",
                    SEAT_NAMES[seat.to_usize()]
                ));
            }
        }
    }
    Ok(())
}

/// The first player has as many pieces as the other when it is to move, one more otherwise.
fn check_balance(
    counts: [[u8; 4]; 2],
    to_move: Seat,
    options: &YoxiiOptions,
) -> Result<(), String> {
    let total = |seat: Seat| -> u32 { counts[seat.to_usize()].iter().map(|&n| u32::from(n)).sum() };
    let first = first_seat(options);
    let (first_count, second_count) = (total(first), total(first.opponent()));
    let (expected, rule) = if to_move == first {
        (second_count, "as many pieces as")
    } else {
        (second_count + 1, "one piece more than")
    };
    if first_count == expected {
        return Ok(());
    }
    let first_name = SEAT_NAMES[first.to_usize()];
    let option = match options.first_player {
        FirstPlayer::White => "",
        FirstPlayer::Red => " (first_player=red)",
    };
    Err(format!(
        "with {first_name} first{option} and {} to move, {first_name} must have {rule} {} on \
         the board (White {}, Red {})",
        SEAT_NAMES[to_move.to_usize()],
        SEAT_NAMES[first.opponent().to_usize()],
        total(WHITE),
        total(RED)
    ))
}

impl Notation for Yoxii {
    /// Reads a position string, with every check of §6.
    fn from_position(text: &str, options: &YoxiiOptions) -> Result<Self, PositionError> {
        let err = |reason: String| PositionError::new(text, reason);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (board_text, side, placing) = match fields[..] {
            [board, side] => (board, side, false),
            [board, side, "place"] => (board, side, true),
            [_, _, other] => {
                return Err(err(format!(
                    "unexpected '{other}' after the side to move: expected nothing, or 'place' \
                     when the totem has moved and a piece must be placed"
                )))
            }
            _ => {
                return Err(err(
                    "expected 7 ranks separated by '/', a space and the side to move w or r".into(),
                ))
            }
        };
        let (board, totem) = parse_board(board_text).map_err(err)?;
        let to_move = match side {
            "w" => WHITE,
            "r" => RED,
            _ => return Err(err(format!("bad side to move '{side}': expected w or r"))),
        };
        check_counts(&board, to_move, options).map_err(err)?;
        let state = Yoxii::from_parts(options, &board, totem, to_move, placing);
        if placing && state.empty() == 0 {
            return Err(err("a placement is pending but no square is empty".into()));
        }
        Ok(state)
    }

    /// The position string of `state` (§6, plus ` place` while a placement is pending).
    fn position(&self) -> String {
        let mut text = String::with_capacity(56);
        for rank in (0..7).rev() {
            for file in 0..7 {
                let square = Square::new(file, rank);
                if !square.is_on_board() {
                    continue;
                }
                text.push(match self.piece_at(square) {
                    _ if square == self.totem() => '#',
                    Some(piece) => SYMBOLS[piece.seat.to_usize()][piece.value as usize - 1],
                    None => '.',
                });
            }
            text.push(if rank == 0 { ' ' } else { '/' });
        }
        text.push(if self.core.to_move == WHITE { 'w' } else { 'r' });
        if self.is_placing() {
            text.push_str(" place");
        }
        text
    }

    /// Reads one decision and resolves it against `state`: the result is legal there.
    fn parse_action(&self, text: &str) -> Result<YoxiiAction, MoveError> {
        let syntax = parse_syntax(text)?;
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let illegal = |reason: String| Err(MoveError::illegal(text, reason));
        let seat = self.core.to_move;
        let name = SEAT_NAMES[seat.to_usize()];
        match syntax {
            Syntax::Totem(to) | Syntax::Place(_, to) if !to.is_on_board() => {
                illegal(format!("{to} is off the board"))
            }
            Syntax::Totem(_) if self.is_placing() => illegal(format!(
                "the totem has moved: {name} must place a piece (value@square, like 3@d4)"
            )),
            Syntax::Place(..) if !self.is_placing() => illegal(format!(
                "{name} must move the totem first (a destination like d5)"
            )),
            Syntax::Totem(to) if self.totem_targets(seat) & to.bit() == 0 => illegal(format!(
                "the totem cannot go to {to}: it steps to an empty neighbour or jumps over a line \
                 of {name}'s own pieces to the first empty square"
            )),
            Syntax::Totem(to) => Ok(YoxiiAction::Totem(to)),
            Syntax::Place(value, _) if self.in_hand(seat, value) == 0 => {
                illegal(format!("{name} has no piece of value {value} left"))
            }
            Syntax::Place(_, square) if self.placement_squares() & square.bit() == 0 => {
                illegal(if self.empty() & square.bit() == 0 {
                    format!("{square} is not empty")
                } else {
                    format!("{square} is not next to the totem on {}", self.totem())
                })
            }
            Syntax::Place(value, square) => Ok(YoxiiAction::Place { value, square }),
        }
    }

    fn format_action(&self, action: YoxiiAction) -> String {
        format_action(action)
    }

    fn parse_turn(&self, text: &str) -> Result<Vec<YoxiiAction>, MoveError> {
        parse_turn(self, text)
    }
}

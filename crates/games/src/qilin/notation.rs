//! Text forms (spec §6 and §2): decisions (`d1`, `a1-a4` or `a1a4`, `xd2`), whole turns
//! (`a7 xd1 xc3`, also with the record's `13. R` prefix) and the QPN position string.
//!
//! Parsing goes in two stages: text → [`Syntax`] (no position needed; a syntax error), then
//! the syntax is resolved against the state (an illegal-move error saying why).

use ludus_engine::{parse_decisions, MoveError, Notation, PositionError, Seat};

use super::rules::{NoPressRule, QilinAction, QilinOptions, BLACK, RED};
use super::state::Qilin;
use super::state::{Stage, HAND};
use super::tables::{lines_through, Point, Points, ADJACENT, POINT_COUNT};

/// A decision as written, before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    /// A point alone: a placement.
    Point(Point),
    /// `from-to`: a slide.
    Slide(Point, Point),
    /// `x<point>`: a press, removal or own removal.
    Take(Point),
}

const EXPECTED: &str = "a placement like d1, a slide like a1-a4 or a press/removal like xd2";

/// Reads a decision without looking at a position. Case-insensitive; one trailing `.` (the
/// seed's Prolog input) is accepted.
pub fn parse_syntax(text: &str) -> Result<Syntax, MoveError> {
    let word = text.trim();
    let word = word.strip_suffix('.').unwrap_or(word).to_ascii_lowercase();
    let point = |s: &str| s.parse::<Point>().ok();
    let syntax = if let Some(rest) = word.strip_prefix('x') {
        point(rest).map(Syntax::Take)
    } else if let Some((from, to)) = word.split_once('-') {
        point(from).zip(point(to)).map(|(f, t)| Syntax::Slide(f, t))
    } else if word.len() == 4 {
        let from = word.get(..2).and_then(point);
        let to = word.get(2..).and_then(point);
        from.zip(to).map(|(f, t)| Syntax::Slide(f, t))
    } else {
        point(&word).map(Syntax::Point)
    };
    syntax.ok_or_else(|| MoveError::syntax(text, EXPECTED))
}

/// Reads one decision and resolves it against `state`.
pub fn parse_action(state: &Qilin, text: &str) -> Result<QilinAction, MoveError> {
    let syntax = parse_syntax(text)?;
    if let Some(outcome) = &state.core.outcome {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    let action = match syntax {
        Syntax::Point(p) => QilinAction::Place(p),
        Syntax::Slide(from, to) => QilinAction::Slide(from, to),
        Syntax::Take(p) => QilinAction::Take(p),
    };
    if state.check_legal(action) {
        Ok(action)
    } else {
        Err(MoveError::illegal(text, why_illegal(state, action)))
    }
}

fn name(seat: Seat) -> &'static str {
    if seat == RED {
        "Red"
    } else {
        "Black"
    }
}

/// What the side to act must do now, as advice in error messages.
fn expected_now(state: &Qilin) -> String {
    let who = name(state.core.to_move);
    match (state.stage, state.pending) {
        (Stage::Place, 0) => format!("{who} must place a piece on an empty point, like d1"),
        (Stage::Place, n) => format!("{who} must press {n} more piece(s), like xd2"),
        (Stage::Transition, _) => format!("{who} must remove one of its own pieces, like xd2"),
        (Stage::Move, 0) => format!("{who} must slide a piece to an adjacent point, like a1-a4"),
        (Stage::Move, n) => format!("{who} must remove {n} more piece(s), like xd2"),
    }
}

fn why_illegal(state: &Qilin, action: QilinAction) -> String {
    let (who, them) = (
        name(state.core.to_move),
        name(state.core.to_move.opponent()),
    );
    let empty = state.empty();
    let occupied = |p: Point| empty & p.bit() == 0;
    match (action, state.stage, state.pending) {
        (QilinAction::Place(p), Stage::Place, 0) if occupied(p) => format!("{p} is not empty"),
        (QilinAction::Slide(from, _), Stage::Move, 0)
            if state.own(state.core.to_move) & from.bit() == 0 =>
        {
            format!("there is no {who} piece on {from}")
        }
        (QilinAction::Slide(from, to), Stage::Move, 0)
            if ADJACENT[from.to_usize()] & to.bit() == 0 =>
        {
            format!("{from} and {to} are not adjacent")
        }
        (QilinAction::Slide(_, to), Stage::Move, 0) => format!("{to} is not empty"),
        (QilinAction::Take(p), Stage::Transition, _) => {
            format!("there is no {who} piece on {p} to remove")
        }
        (QilinAction::Take(p), _, 1..)
            if state.own(state.core.to_move.opponent()) & p.bit() == 0 =>
        {
            let verb = if state.stage == Stage::Place {
                "an unpressed"
            } else {
                "a"
            };
            format!("{p} does not hold {verb} {them} piece")
        }
        (QilinAction::Take(p), _, 1..) => {
            format!("{p} is protected by a complete line while other {them} pieces are not")
        }
        _ => expected_now(state),
    }
}

/// The canonical notation of a decision.
pub fn format_action(action: QilinAction) -> String {
    match action {
        QilinAction::Place(p) => p.to_string(),
        QilinAction::Slide(from, to) => format!("{from}-{to}"),
        QilinAction::Take(p) => format!("x{p}"),
    }
}

/// Reads a turn: decisions separated by spaces, optionally after the record's move number
/// (`13.` or `T.`) and the side's letter (`R` or `B`, which must be the side to act).
pub fn parse_turn(state: &Qilin, text: &str) -> Result<Vec<QilinAction>, MoveError> {
    let mut words = text.split_whitespace().peekable();
    if words.peek().is_some_and(|w| is_move_number(w)) {
        words.next();
    }
    if let Some(&letter) = words.peek() {
        let seat = match letter {
            "R" | "r" => Some(RED),
            "B" | "b" => Some(BLACK),
            _ => None,
        };
        if let Some(seat) = seat {
            words.next();
            if state.core.outcome.is_none() && seat != state.core.to_move {
                let reason = format!("it is {}'s turn", name(state.core.to_move));
                return Err(MoveError::illegal(text, reason));
            }
        }
    }
    parse_decisions(state, text, words, EXPECTED)
}

fn is_move_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| n == "T" || (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
}

/// The fields of a position string, read but not yet checked against the rules.
struct Fields {
    pieces: [u32; 2],
    pressed: u32,
    stage: Stage,
    side: Seat,
    hands: [u8; 2],
    pending: u8,
}

const FORMAT: &str = "expected '<24 points of . R B P> <place|transition|move> <R|B> \
                      <red hand>/<black hand> <pending>'";

fn read_fields(text: &str) -> Result<Fields, String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let &[board, stage, side, hands, pending] = parts.as_slice() else {
        return Err(format!("{FORMAT}, found {} fields", parts.len()));
    };
    let (pieces, pressed) = read_board(board)?;
    let stage = match stage.to_ascii_lowercase().as_str() {
        "place" => Stage::Place,
        "transition" => Stage::Transition,
        "move" => Stage::Move,
        _ => {
            return Err(format!(
                "unknown stage '{stage}': expected place, transition or move"
            ))
        }
    };
    let side = match side {
        "R" | "r" => RED,
        "B" | "b" => BLACK,
        _ => return Err(format!("unknown side '{side}': expected R or B")),
    };
    let hand = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= HAND);
    let hands = hands
        .split_once('/')
        .and_then(|(r, b)| Some([hand(r)?, hand(b)?]))
        .ok_or_else(|| format!("bad hands '{hands}': expected two counts 0..18 like 18/18"))?;
    let pending = pending
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= 3)
        .ok_or_else(|| format!("bad pending count '{pending}': expected 0..3"))?;
    Ok(Fields {
        pieces,
        pressed,
        stage,
        side,
        hands,
        pending,
    })
}

fn read_board(board: &str) -> Result<([u32; 2], u32), String> {
    if board.chars().count() != POINT_COUNT {
        return Err(format!(
            "the board has {} points, expected 24 (one of . R B P each)",
            board.chars().count()
        ));
    }
    let mut pieces = [0u32; 2];
    let mut pressed = 0;
    for (point, c) in Point::all().zip(board.chars()) {
        match c.to_ascii_uppercase() {
            'R' => pieces[0] |= point.bit(),
            'B' => pieces[1] |= point.bit(),
            'P' => pressed |= point.bit(),
            '.' => {}
            _ => return Err(format!("bad point '{c}' at {point}: expected . R B or P")),
        }
    }
    Ok((pieces, pressed))
}

fn check_fields(f: &Fields, options: &QilinOptions) -> Result<(), String> {
    let counts = [f.pieces[0].count_ones(), f.pieces[1].count_ones()];
    if counts.iter().any(|&n| n > u32::from(HAND)) {
        return Err("a side has more than 18 pieces on the board".into());
    }
    match f.stage {
        Stage::Place => check_placement(f, counts),
        Stage::Transition => check_transition(f, options),
        Stage::Move => check_movement(f),
    }
}

/// Stage 1: each pressed point holds one Red and one Black piece, so every hand is 18 minus
/// its side's pieces on the board minus the pressed points; Red started and the sides
/// alternate while both hold pieces; the side to act can act.
fn check_placement(f: &Fields, counts: [u32; 2]) -> Result<(), String> {
    let p = f.pressed.count_ones();
    let expected = [0, 1].map(|s| i64::from(HAND) - i64::from(counts[s] + p));
    if expected != [0, 1].map(|s| i64::from(f.hands[s])) {
        return Err(format!(
            "the hands should be {}/{}: 18 minus the side's pieces on the board and the \
             pressed points",
            expected[0], expected[1]
        ));
    }
    let (me, them) = (f.side.to_usize(), 1 - f.side.to_usize());
    if f.hands[0] > 0 && f.hands[1] > 0 {
        // Red's placements minus Black's is R - B + (Black's presses - Red's presses), where
        // the presses add up to the pressed points.
        // It is 0 when Red is to place or Black has just placed, else 1.
        let target = i64::from((f.side == BLACK) != (f.pending > 0));
        let diff = i64::from(counts[0]) - i64::from(counts[1]) - target;
        if diff.abs() > i64::from(p) || (diff + i64::from(p)) % 2 != 0 {
            return Err(format!(
                "Red places first and the sides alternate: it cannot be {}'s decision here",
                name(f.side)
            ));
        }
    }
    if f.pending == 0 {
        if f.pieces[0] | f.pieces[1] | f.pressed == super::tables::ALL_POINTS {
            return Err("the board is full: the placement stage is over".into());
        }
        if f.hands[me] == 0 {
            return Err(format!("{} has no piece in hand and passes", name(f.side)));
        }
        return Ok(());
    }
    if f.hands[me] == 0 || f.pieces[them] == 0 {
        return Err("presses that cannot be made are dropped: pending must be 0".into());
    }
    check_owed(f)
}

/// Pending presses or removals need an own point with that many complete lines through it.
fn check_owed(f: &Fields) -> Result<(), String> {
    let own = f.pieces[f.side.to_usize()];
    if Points(own).any(|p| lines_through(own, p) >= u32::from(f.pending)) {
        Ok(())
    } else {
        Err(format!(
            "{} owes {} but has no point with that many complete lines",
            name(f.side),
            f.pending
        ))
    }
}

/// The transition: no pressed point; Red removes from the full board, then Black from a board
/// with one empty point; `pending` is the one removal owed.
fn check_transition(f: &Fields, options: &QilinOptions) -> Result<(), String> {
    if f.pressed != 0 {
        return Err("pressed points are cleared before the transition".into());
    }
    if f.pending != 1 {
        return Err("in the transition the side owes one removal: pending must be 1".into());
    }
    let empty = POINT_COUNT as u32 - (f.pieces[0] | f.pieces[1]).count_ones();
    let expected = u32::from(f.side == BLACK);
    if empty != expected {
        return Err(format!(
            "{} removes in the transition when {expected} point(s) are empty, not {empty}",
            name(f.side)
        ));
    }
    if f.side == BLACK && options.no_press_rule == NoPressRule::FirstPlayerLoses {
        return Err(
            "with no_press_rule=first_player_loses nobody removes in the transition".into(),
        );
    }
    Ok(())
}

/// Stage 2: no pressed point; at most 2 removals owed, only after a line, to an opponent with
/// pieces.
fn check_movement(f: &Fields) -> Result<(), String> {
    if f.pressed != 0 {
        return Err("pressed points are cleared before the movement stage".into());
    }
    if f.pending == 0 {
        return Ok(());
    }
    if f.pending > 2 {
        return Err("a slide completes at most 2 lines: pending must be 0..2".into());
    }
    if f.pieces[1 - f.side.to_usize()] == 0 {
        return Err("removals that cannot be made are dropped: pending must be 0".into());
    }
    check_owed(f)
}

impl Notation for Qilin {
    /// Reads a QPN position string and checks it against every rule of §2–§3.
    fn from_position(text: &str, options: &QilinOptions) -> Result<Self, PositionError> {
        let fields = read_fields(text).map_err(|reason| PositionError::new(text, reason))?;
        check_fields(&fields, options).map_err(|reason| PositionError::new(text, reason))?;
        Ok(Qilin::assemble(
            options,
            fields.pieces,
            fields.pressed,
            fields.hands,
            fields.stage,
            fields.side,
            fields.pending,
        ))
    }

    /// The QPN position string: `<24 points . R B P> <stage> <side R|B> <handR>/<handB> <pending>`.
    fn position(&self) -> String {
        let board: String = Point::all()
            .map(|p| {
                let bit = p.bit();
                if self.pieces[0] & bit != 0 {
                    'R'
                } else if self.pieces[1] & bit != 0 {
                    'B'
                } else if self.pressed & bit != 0 {
                    'P'
                } else {
                    '.'
                }
            })
            .collect();
        format!(
            "{board} {} {} {}/{} {}",
            self.stage.word(),
            if self.core.to_move == RED { 'R' } else { 'B' },
            self.hands[RED],
            self.hands[BLACK],
            self.pending
        )
    }

    fn parse_action(&self, text: &str) -> Result<QilinAction, MoveError> {
        parse_action(self, text)
    }

    fn format_action(&self, action: QilinAction) -> String {
        super::notation::format_action(action)
    }

    fn parse_turn(&self, text: &str) -> Result<Vec<QilinAction>, MoveError> {
        parse_turn(self, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_forms() {
        assert_eq!(parse_syntax("d1"), Ok(Syntax::Point(Point::D1)));
        assert_eq!(parse_syntax(" D1. "), Ok(Syntax::Point(Point::D1)));
        assert_eq!(
            parse_syntax("a1-a4"),
            Ok(Syntax::Slide(Point::A1, Point::A4))
        );
        assert_eq!(
            parse_syntax("a1a4"),
            Ok(Syntax::Slide(Point::A1, Point::A4))
        );
        assert_eq!(parse_syntax("XD2"), Ok(Syntax::Take(Point::D2)));
        for bad in [
            "", "d4", "x", "xd4", "a1-", "a1-b1", "a1a", "é1é1", "resign", "a1--a4",
        ] {
            assert!(parse_syntax(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn move_numbers() {
        assert!(is_move_number("13."));
        assert!(is_move_number("T."));
        assert!(!is_move_number("."));
        assert!(!is_move_number("d1."));
    }
}

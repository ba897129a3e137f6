//! Qawale notation (spec §6): decisions, turns and position strings.
//!
//! **Decisions.** The stack is its square (`a1`); a sowing step is its direction letter
//! (`N`, `E`, `S`, `W`). A step may also be given as the square it drops on (`a2`), which is how
//! the list-of-squares form works word by word. Squares and letters are read in either case.
//!
//! **Turns.** Records and history write a turn as `<origin>:<dirs>` (`a1:NEN`). [`parse_turn`]
//! also reads the list-of-squares form (`a1 a2 b2 b3` or `a1-a2-b2-b3`), unfinished turns
//! (`a1:NE`, `a1`), a bare run of directions that continues a pending sowing (`NE`), and several
//! turns in a row separated by spaces.
//!
//! **Position string.** Between turns it is exactly §6:
//! `NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D` (ranks 4 to 1, squares a to d, stones bottom to top,
//! then the side to move). In the middle of a turn a third field gives the pending sowing in
//! turn notation, and the board is the board **as it stood when the turn began**:
//! `NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D a1:NE` is the start position after Dark lifted `a1`
//! and dropped two stones going north then east; `... D a1` is the moment right after the
//! stack was chosen. The board part then obeys every check of §6 unchanged, and reading the
//! string replays the pending decisions (each must be legal, and the sowing must be
//! unfinished).

use ludus_engine::{MoveError, Notation, PositionError, Rules, Seat};

use super::rules::{FirstPlayer, QawaleAction, QawaleOptions};
use super::state::{Qawale, Stone, DARK, LIGHT, MAX_HEIGHT, STONES_PER_COLOUR};
use super::tables::{Dir, Square};

const EXPECTED_DECISION: &str = "a square a1..d4 or a direction N/E/S/W";

/// Reads one decision: a square (the stack, or the next drop square) or a direction letter.
pub fn parse_action(state: &Qawale, text: &str) -> Result<QawaleAction, MoveError> {
    let word = text.trim();
    if let Ok(square) = word.parse::<Square>() {
        return resolve_square(state, square, text);
    }
    match word.as_bytes() {
        &[letter] => match Dir::from_letter(letter) {
            Some(dir) => resolve_step(state, dir, text),
            None => Err(MoveError::syntax(text, EXPECTED_DECISION)),
        },
        _ => Err(MoveError::syntax(text, EXPECTED_DECISION)),
    }
}

fn check_not_over(state: &Qawale) -> Result<(), MoveError> {
    match state.outcome() {
        Some(outcome) => Err(MoveError::GameOver(outcome.to_string())),
        None => Ok(()),
    }
}

fn resolve_square(state: &Qawale, square: Square, text: &str) -> Result<QawaleAction, MoveError> {
    check_not_over(state)?;
    let Some(at) = state.sowing_at() else {
        if state.height(square) == 0 {
            return Err(MoveError::illegal(
                text,
                format!("{square} is empty: choose a square with stones"),
            ));
        }
        return Ok(QawaleAction::Stack(square));
    };
    match at.dir_to(square) {
        Some(dir) => resolve_step(state, dir, text),
        None => Err(MoveError::illegal(
            text,
            format!("{square} is not next to {at}: drop one orthogonal step away"),
        )),
    }
}

fn resolve_step(state: &Qawale, dir: Dir, text: &str) -> Result<QawaleAction, MoveError> {
    check_not_over(state)?;
    let Some(at) = state.sowing_at() else {
        return Err(MoveError::illegal(
            text,
            "choose a stack first (its square, e.g. a1)",
        ));
    };
    if state.step_target(dir).is_none() {
        return Err(MoveError::illegal(
            text,
            format!("{} from {at} leaves the board", dir.letter()),
        ));
    }
    let action = QawaleAction::Step(dir);
    if !state.is_legal(action) {
        return Err(MoveError::illegal(
            text,
            format!("{} from {at} steps straight back", dir.letter()),
        ));
    }
    Ok(action)
}

/// Reads a turn, an unfinished turn or several turns (see the module documentation).
pub fn parse_turn(state: &Qawale, text: &str) -> Result<Vec<QawaleAction>, MoveError> {
    let mut state = state.clone();
    let mut actions = Vec::new();
    let words = text
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty());
    for word in words {
        parse_word(&mut state, word, &mut actions).map_err(|source| MoveError::InTurn {
            turn: text.to_string(),
            index: actions.len() + 1,
            cause: Box::new(source),
        })?;
    }
    if actions.is_empty() {
        return Err(MoveError::syntax(
            text,
            "a turn like a1:NEN or a1 a2 b2 b3, or one decision",
        ));
    }
    Ok(actions)
}

/// Reads one word of a turn, applying and collecting its decisions.
fn parse_word(
    state: &mut Qawale,
    word: &str,
    actions: &mut Vec<QawaleAction>,
) -> Result<(), MoveError> {
    let mut play = |state: &mut Qawale, action| {
        state.apply(action);
        actions.push(action);
    };
    if let Some((origin, dirs)) = word.split_once(':') {
        let square: Square = origin
            .parse()
            .map_err(|_| MoveError::syntax(word, "a turn like a1:NEN"))?;
        if state.outcome().is_none() && state.is_sowing() {
            return Err(MoveError::illegal(
                word,
                "the pending sowing must be finished first",
            ));
        }
        play(state, resolve_square(state, square, word)?);
        let height = state.pending_sowing().map_or(0, |s| s.2.len());
        return step_letters(state, dirs, word, height, &mut play);
    }
    if !word.is_empty() && word.bytes().all(|b| Dir::from_letter(b).is_some()) {
        let left = state.pending_sowing().map_or(0, |s| s.2.len());
        return step_letters(state, word, word, left, &mut play);
    }
    let action = parse_action(state, word)?;
    play(state, action);
    Ok(())
}

/// Plays the direction letters `dirs` of `word`; `stones` is how many the sowing had to drop.
fn step_letters(
    state: &mut Qawale,
    dirs: &str,
    word: &str,
    stones: usize,
    play: &mut impl FnMut(&mut Qawale, QawaleAction),
) -> Result<(), MoveError> {
    for letter in dirs.bytes() {
        let dir = Dir::from_letter(letter)
            .ok_or_else(|| MoveError::syntax(word, "directions N/E/S/W after the square"))?;
        if !state.is_sowing() && state.outcome().is_none() {
            return Err(MoveError::illegal(
                word,
                format!(
                    "{} steps, but the sowing had only {stones} stones",
                    dirs.len()
                ),
            ));
        }
        play(state, resolve_step(state, dir, word)?);
    }
    Ok(())
}

impl Qawale {
    /// Reads one complete turn (`a1:NEN` or `a1 a2 b2 b3`) from a turn boundary, refusing an
    /// unfinished one: `|dirs|` must equal the origin's height plus 1 (spec §6).
    pub fn parse_complete_turn(&self, text: &str) -> Result<Vec<QawaleAction>, MoveError> {
        if self.is_sowing() {
            return Err(MoveError::illegal(text, "a sowing is already under way"));
        }
        let actions = parse_turn(self, text)?;
        let mut state = self.clone();
        for (i, &action) in actions.iter().enumerate() {
            if i > 0 && !state.is_sowing() {
                return Err(MoveError::illegal(text, "more than one turn"));
            }
            state.apply(action);
        }
        if let Some((origin, _, stones, path)) = state.pending_sowing() {
            let height = stones.len() + path.len();
            return Err(MoveError::illegal(
                text,
                format!(
                    "{} steps, but the stack on {origin} holds {height} stones with the placed one",
                    path.len()
                ),
            ));
        }
        Ok(actions)
    }
}

fn parse_board(board: &str) -> Result<([u64; 16], [u8; 16]), String> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 4 {
        return Err(format!(
            "expected 4 ranks separated by '/', found {}",
            ranks.len()
        ));
    }
    let (mut stacks, mut heights) = ([0u64; 16], [0u8; 16]);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 3 - i as u8;
        let squares: Vec<&str> = rank_text.split(',').collect();
        if squares.len() != 4 {
            return Err(format!(
                "rank {} has {} squares: expected 4 separated by ','",
                rank + 1,
                squares.len()
            ));
        }
        for (file, square_text) in squares.iter().enumerate() {
            let square = Square::new(file as u8, rank).expect("file and rank are in 0..4");
            let (stack, height) = parse_stack(square_text)
                .ok_or_else(|| format!("bad stack '{square_text}' on {square}: expected stones N, L, D bottom to top, or '-'"))?;
            stacks[square.to_usize()] = stack;
            heights[square.to_usize()] = height;
        }
    }
    Ok((stacks, heights))
}

fn parse_stack(text: &str) -> Option<(u64, u8)> {
    if text == "-" {
        return Some((0, 0));
    }
    if text.is_empty() || text.len() > MAX_HEIGHT {
        return None;
    }
    let mut stack = 0u64;
    for (level, letter) in text.bytes().enumerate() {
        stack |= (Stone::from_letter(letter)? as u64) << (2 * level);
    }
    Some((stack, text.len() as u8))
}

fn check_counts(
    stacks: &[u64; 16],
    heights: &[u8; 16],
    to_move: Seat,
    first: FirstPlayer,
) -> Result<(), String> {
    let mut count = [0u8; 3];
    for (stack, &height) in stacks.iter().zip(heights) {
        for level in 0..height {
            count[Stone::from_code(stack >> (2 * level)) as usize] += 1;
        }
    }
    let [neutral, dark, light] = count;
    if neutral != STONES_PER_COLOUR {
        return Err(format!(
            "{neutral} neutral stones: expected exactly {STONES_PER_COLOUR}"
        ));
    }
    if dark > STONES_PER_COLOUR || light > STONES_PER_COLOUR {
        return Err(format!(
            "{dark} D and {light} L stones: each colour has at most {STONES_PER_COLOUR}"
        ));
    }
    let dark_first = dark == light && to_move == DARK || dark == light + 1 && to_move == LIGHT;
    let light_first = dark == light && to_move == LIGHT || light == dark + 1 && to_move == DARK;
    let ok = match first {
        FirstPlayer::Dark => dark_first,
        FirstPlayer::Light => light_first,
        FirstPlayer::Random => dark_first || light_first,
    };
    if ok {
        return Ok(());
    }
    let side = if to_move == DARK { "Dark" } else { "Light" };
    let rule = match first {
        FirstPlayer::Dark => {
            "with Dark first, Dark to move needs #D = #L and Light to move #D = #L + 1"
        }
        FirstPlayer::Light => {
            "with Light first, Light to move needs #D = #L and Dark to move #L = #D + 1"
        }
        FirstPlayer::Random => {
            "the side to move must have as many stones on the board as the other, or one fewer"
        }
    };
    Err(format!(
        "{dark} D and {light} L stones with {side} to move: {rule}"
    ))
}

fn replay_pending(state: &mut Qawale, pending: &str) -> Result<(), String> {
    if let Some(outcome) = state.outcome() {
        return Err(format!(
            "pending sowing '{pending}' after the end of the game ({outcome})"
        ));
    }
    let (origin, dirs) = pending.split_once(':').unwrap_or((pending, ""));
    let square: Square = origin.parse().map_err(|_| {
        format!("bad pending sowing '{pending}': expected a square and directions, like a1:NE")
    })?;
    if state.height(square) == 0 {
        return Err(format!("pending sowing from {square}, which is empty"));
    }
    state.apply(QawaleAction::Stack(square));
    for letter in dirs.bytes() {
        let dir = Dir::from_letter(letter).ok_or_else(|| {
            format!("bad pending sowing '{pending}': expected directions N/E/S/W")
        })?;
        if !state.is_sowing() {
            return Err(format!(
                "pending sowing '{pending}' is a complete turn: give the position after it"
            ));
        }
        let action = QawaleAction::Step(dir);
        if !state.is_legal(action) {
            return Err(format!(
                "pending sowing '{pending}': step {} is illegal",
                dir.letter()
            ));
        }
        state.apply(action);
    }
    if !state.is_sowing() {
        return Err(format!(
            "pending sowing '{pending}' is a complete turn: give the position after it"
        ));
    }
    Ok(())
}

impl Notation for Qawale {
    /// Reads a position string, with every check of §6.
    fn from_position(text: &str, options: &QawaleOptions) -> Result<Self, PositionError> {
        let bad = |reason: String| PositionError::new(text, reason);
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| bad("empty: expected ranks 4 to 1 and the side to move".into()))?;
        let side = fields
            .next()
            .ok_or_else(|| bad("expected the side to move (D or L) after the board".into()))?;
        let pending = fields.next();
        if let Some(extra) = fields.next() {
            return Err(bad(format!(
                "unexpected '{extra}' after the pending sowing"
            )));
        }
        let (stacks, heights) = parse_board(board).map_err(bad)?;
        let to_move = match side {
            "D" | "d" => DARK,
            "L" | "l" => LIGHT,
            _ => return Err(bad(format!("bad side to move '{side}': expected D or L"))),
        };
        check_counts(&stacks, &heights, to_move, options.first_player).map_err(bad)?;
        let mut state = Qawale::from_board(options, stacks, heights, to_move);
        if let Some(pending) = pending {
            replay_pending(&mut state, pending).map_err(bad)?;
        }
        Ok(state)
    }

    /// The position string: §6 between turns, plus the pending sowing in the middle of a turn.
    fn position(&self) -> String {
        let (stacks, heights) = self.boundary_stacks();
        let mut text = String::new();
        for rank in (0..4).rev() {
            for file in 0..4 {
                let s = rank * 4 + file;
                if heights[s] == 0 {
                    text.push('-');
                }
                for level in 0..heights[s] {
                    text.push(Stone::from_code(stacks[s] >> (2 * level)).letter());
                }
                text.push(if file < 3 { ',' } else { '/' });
            }
        }
        text.pop();
        let seat = self.core.to_move;
        text.push(' ');
        text.push(if seat == DARK { 'D' } else { 'L' });
        if let Some((origin, _, _, path)) = self.pending_sowing() {
            text.push(' ');
            text.push_str(&origin.to_string());
            if !path.is_empty() {
                text.push(':');
                text.extend(path.iter().map(|d| d.letter()));
            }
        }
        text
    }

    fn parse_action(&self, text: &str) -> Result<QawaleAction, MoveError> {
        parse_action(self, text)
    }

    fn format_action(&self, action: QawaleAction) -> String {
        match action {
            QawaleAction::Stack(square) => square.to_string(),
            QawaleAction::Step(dir) => dir.letter().to_string(),
        }
    }

    fn parse_turn(&self, text: &str) -> Result<Vec<QawaleAction>, MoveError> {
        parse_turn(self, text)
    }

    /// Writes decisions as turns: `a1:NEN`, `a1:NE` or `a1` for an unfinished turn, and a bare run
    /// of directions (`NE`) for steps continuing a sowing begun before `actions`.
    fn format_turn(&self, actions: &[QawaleAction]) -> String {
        let mut text = String::new();
        let mut colon = false;
        for &action in actions {
            match action {
                QawaleAction::Stack(square) => {
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(&square.to_string());
                    colon = true;
                }
                QawaleAction::Step(dir) => {
                    if colon {
                        text.push(':');
                        colon = false;
                    }
                    text.push(dir.letter());
                }
            }
        }
        text
    }
}

//! A book of solved positions: positions proved offline (`ludus solve --positions FILE
//! --book-out BOOK`, too slow to prove during a game) with their value and the position their
//! best turn leads to. A game ships its book through
//! [`ludus_engine::Rules::solved_book`]; every solver of
//! the process reads it ([`Book::shipped`]), below its root as it reads endgame tables, and at
//! its root to play the proved turn at once.
//!
//! The file is text, one position per line: `position<TAB>value<TAB>next`, where `value` is
//! `win N`, `draw` or `loss N` for the seat to move (N turns) and `next` is the position
//! after the best turn, or `end` when that turn ends the game. Keys are computed when the
//! book is read, from the positions, so the file does not depend on how keys are made. A
//! position is found under the board's symmetries (its canonical key); the turn to play is
//! found by trying the turns of the position actually met until one reaches an image of
//! `next`, so it is right whichever image the game is in.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError};

use ludus_engine::{Game, Notation, Seat};

use super::Proved;

/// Line 1 of a book: `# ludus solved book: GAME`.
const HEADER: &str = "# ludus solved book: ";

/// Turns tried at a book position before giving up (a turn of many decisions, such as a
/// long Qawale sowing, branches at each one).
const MOST_TURNS_TRIED: usize = 200_000;

/// A game's id and the book it ships, once read.
type ShippedBook = (&'static str, Option<Arc<Book>>);

/// What a book line says of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Entry {
    proved: Proved,
    /// The canonical key after the best turn; `None` when that turn ends the game.
    next: Option<u64>,
}

/// A line of a book that does not read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("book line {line}: {reason}")]
pub struct BookError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong and what was expected.
    pub reason: String,
}

/// The solved positions of one game under its default options.
#[derive(Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Entry>,
}

/// A turn the book proves best, as its decisions.
#[derive(Clone, PartialEq, Debug)]
pub struct BookTurn<A> {
    /// The position's value for the seat to move.
    pub proved: Proved,
    /// The decisions of the turn, in order.
    pub decisions: Vec<A>,
}

impl Book {
    /// Reads a book of game `G`.
    pub fn parse<G: Game>(text: &str) -> Result<Book, BookError> {
        let options = G::Options::default();
        let mut lines = text.lines().enumerate();
        let header = lines.next().map_or("", |(_, line)| line);
        if header.strip_prefix(HEADER) != Some(G::INFO.id) {
            return Err(BookError {
                line: 1,
                reason: format!("expected '{HEADER}{}', found '{header}'", G::INFO.id),
            });
        }
        let mut entries = HashMap::new();
        for (index, line) in lines {
            let bad = |reason: String| BookError {
                line: index + 1,
                reason,
            };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let [position, value, next] = fields(line).ok_or_else(|| {
                bad("expected 'position<TAB>value<TAB>next position or end'".into())
            })?;
            let state = G::from_position(position, &options).map_err(|e| bad(e.to_string()))?;
            let key = book_key(&state).ok_or_else(|| {
                bad("the position is finished, or its value depends on its history".into())
            })?;
            let proved = parse_value(value).ok_or_else(|| {
                bad(format!(
                    "bad value '{value}': expected 'win N', 'draw' or 'loss N'"
                ))
            })?;
            let next = match next {
                "end" => None,
                text => {
                    let after = G::from_position(text, &options).map_err(|e| bad(e.to_string()))?;
                    Some(after.canonical_key().ok_or_else(|| {
                        bad("the next position's value depends on its history".into())
                    })?)
                }
            };
            entries.insert(key, Entry { proved, next });
        }
        Ok(Book { entries })
    }

    /// The book game `G` ships ([`ludus_engine::Rules::solved_book`]), read once per process; `None` when
    /// it ships none (or, which the games' tests rule out, one that does not read).
    pub fn shipped<G: Game>() -> Option<Arc<Book>> {
        static READ: Mutex<Vec<ShippedBook>> = Mutex::new(Vec::new());
        let mut read = READ.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, book)) = read.iter().find(|(id, _)| *id == G::INFO.id) {
            return book.clone();
        }
        let book = G::solved_book()
            .and_then(|text| Book::parse::<G>(text).ok())
            .filter(|book| !book.is_empty())
            .map(Arc::new);
        read.push((G::INFO.id, book.clone()));
        book
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `state` for its seat to move, if the book holds it (or an image of it).
    pub fn probe<G: Game>(&self, state: &G) -> Option<Proved> {
        self.probe_key(book_key(state)?)
    }

    /// The value of the position whose canonical key is `key`, for a caller that has the key
    /// and knows the game is played under the default options (the solver's search).
    pub fn probe_key(&self, key: u64) -> Option<Proved> {
        Some(self.entries.get(&key)?.proved)
    }

    /// The best turn from `state`, if the book holds the position: the decisions that reach
    /// the book's next position (an image of it), or that end the game as proved.
    pub fn best_turn<G: Game>(&self, state: &G) -> Option<BookTurn<G::Action>> {
        let entry = *self.entries.get(&book_key(state)?)?;
        let mover = state.to_move()?;
        let mut decisions = Vec::new();
        let mut tried = 0;
        let reaches = |after: &G| match (after.verdict(), entry.next) {
            (Some(verdict), None) => match entry.proved {
                Proved::Win(_) => verdict.winner() == Some(mover),
                Proved::Draw => verdict.winner().is_none(),
                Proved::Loss(_) => verdict.winner().is_some_and(|w| w != mover),
            },
            (None, Some(next)) => {
                after.to_move() != Some(mover) && after.canonical_key() == Some(next)
            }
            _ => false,
        };
        find_turn(state, mover, &reaches, &mut decisions, &mut tried).then_some(BookTurn {
            proved: entry.proved,
            decisions,
        })
    }
}

/// Depth-first over the decisions of `mover`'s turn from `state`, until one reaches what
/// `reaches` accepts; the decisions taken are left in `path`.
fn find_turn<G: Game>(
    state: &G,
    mover: Seat,
    reaches: &dyn Fn(&G) -> bool,
    path: &mut Vec<G::Action>,
    tried: &mut usize,
) -> bool {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    for action in actions {
        *tried += 1;
        if *tried > MOST_TURNS_TRIED {
            return false;
        }
        let mut after = state.clone();
        after.apply(action);
        path.push(action);
        let turn_goes_on = after.verdict().is_none() && after.to_move() == Some(mover);
        if if turn_goes_on {
            find_turn(&after, mover, reaches, path, tried)
        } else {
            reaches(&after)
        } {
            return true;
        }
        path.pop();
    }
    false
}

/// The key a book files `state` under: its canonical key, under the default options only.
fn book_key<G: Game>(state: &G) -> Option<u64> {
    if state.verdict().is_some() || state.options() != &G::Options::default() {
        return None;
    }
    state.canonical_key()
}

fn fields(line: &str) -> Option<[&str; 3]> {
    let mut parts = line.split('\t').map(str::trim);
    let fields = [parts.next()?, parts.next()?, parts.next()?];
    parts.next().is_none().then_some(fields)
}

fn parse_value(text: &str) -> Option<Proved> {
    let mut words = text.split_whitespace();
    let proved = match (words.next()?, words.next()) {
        ("draw", None) => Proved::Draw,
        ("win", Some(n)) => Proved::Win(n.parse().ok()?),
        ("loss", Some(n)) => Proved::Loss(n.parse().ok()?),
        _ => return None,
    };
    words.next().is_none().then_some(proved)
}

/// A book line: `state`, its value and the position after its best turn (`None`: that turn
/// ends the game).
pub fn book_line<G: Game>(state: &G, proved: Proved, next: Option<&G>) -> String {
    let mut line = state.position();
    let value = match proved {
        Proved::Win(n) => format!("win {n}"),
        Proved::Draw => "draw".into(),
        Proved::Loss(n) => format!("loss {n}"),
    };
    let next = next.map_or_else(|| "end".to_string(), Notation::position);
    let _ = write!(line, "\t{value}\t{next}");
    line
}

/// A whole book file of game `G`: the header, then `lines` sorted and without repeats.
pub fn book_text<G: Game>(mut lines: Vec<String>) -> String {
    lines.sort();
    lines.dedup();
    let mut text = format!("{HEADER}{}\n", G::INFO.id);
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests;

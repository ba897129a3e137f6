//! `ludus solve GAME --positions FILE`: how long the solver takes, turn by turn, over a file
//! of positions (from `ludus datagen`, for instance): the table of `docs/SOLVING.md`.
//!
//! The lines are taken as games in order, a decision per line (as `ludus datagen` writes
//! them): only the first position of each turn is solved, the position between turns. With
//! `--dfpn` each value (no distance) is proved by proof-number search instead. With
//! `--book-out` the positions solved go into a book of solved positions
//! (`ludus_ai::Book`): each with its value and the position after its best turn.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use ludus_ai::{book_text, prove_value, Book, SolveBudget, Solver, SolverAids, StopFlag};
use ludus_engine::record::write_atomically;
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::args::SolveArgs;
use crate::output::outln;

/// Solves each position of `file` and prints, per turn, the median and worst time.
pub fn run(args: &SolveArgs, file: &Path) -> Result<()> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read positions from {}", file.display()))?;
    let game = args.game.clone().unwrap_or_default();
    let visit = Timing {
        text: &text,
        options: &args.options,
        time: Duration::from_secs_f64(args.time),
        hash: usize::try_from(args.hash).unwrap_or(256),
        aids: SolverAids {
            symmetry: !args.no_symmetry,
            ordering: !args.no_ordering,
        },
        dfpn: args.dfpn,
        book_out: args.book_out.as_deref(),
    };
    let rows = dispatch(&game, visit)??;
    outln!("turn  positions  solved  median s  worst s  in the book")?;
    for (turn, mut times) in rows.into_iter().rev() {
        let solved = times.iter().filter(|t| t.solved).count();
        let in_book = times.iter().filter(|t| t.in_book).count();
        times.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let median = times[times.len() / 2].seconds;
        let worst = times.last().map_or(0.0, |t| t.seconds);
        let n = times.len();
        outln!("{turn:>4}  {n:>9}  {solved:>6}  {median:>8.4}  {worst:>7.4}  {in_book:>11}")?;
    }
    Ok(())
}

/// One position's solve.
struct Timed {
    seconds: f64,
    solved: bool,
    /// Whether the game's shipped book holds the position (not used by the timed solve).
    in_book: bool,
}

/// Per turn, each position's solve.
type Rows = BTreeMap<u32, Vec<Timed>>;

struct Timing<'a> {
    text: &'a str,
    options: &'a [String],
    time: Duration,
    hash: usize,
    aids: SolverAids,
    dfpn: bool,
    book_out: Option<&'a Path>,
}

impl GameVisitor for Timing<'_> {
    type Output = Result<Rows>;
    fn visit<G: Game + Heuristic>(self) -> Result<Rows> {
        let options: G::Options = parse_options(G::INFO.id, self.options)?;
        let mut rows = Rows::new();
        let budget = SolveBudget {
            time: Some(self.time),
            ..SolveBudget::default()
        };
        let mut book = match self.book_out {
            Some(path) => Some(read_book::<G>(path)?),
            None => None,
        };
        let shipped = Book::shipped::<G>();
        let mut last_turn = None;
        for (number, line) in self.text.lines().enumerate() {
            let position = line.rsplit('\t').next().unwrap_or("").trim();
            if position.is_empty() {
                continue;
            }
            let state = G::from_position(position, &options)
                .with_context(|| format!("line {}", number + 1))?;
            let turn = state.turn();
            if state.to_move().is_none() || last_turn.replace(turn) == Some(turn) {
                continue;
            }
            if state.seat_count() != 2 {
                bail!("the solver takes games of two seats");
            }
            let (seconds, solved) = self.solve_one(&state, &budget, book.as_mut())?;
            let in_book = shipped.as_ref().is_some_and(|b| b.probe(&state).is_some());
            rows.entry(state.turn()).or_default().push(Timed {
                seconds,
                solved,
                in_book,
            });
        }
        if rows.is_empty() {
            bail!("no position to solve in the file");
        }
        if let (Some(path), Some(lines)) = (self.book_out, book) {
            write_book::<G>(path, &lines)?;
        }
        Ok(rows)
    }
}

impl Timing<'_> {
    /// Solves `state` with a fresh table, as a player meeting it cold would have, and
    /// without the shipped book, which may already hold it: the seconds it took and whether
    /// it was solved. A solved position goes into `book` (not timed), which is written at
    /// once, so that a long run keeps what it solved.
    fn solve_one<G: Game + Heuristic>(
        &self,
        state: &G,
        budget: &SolveBudget,
        book: Option<&mut Vec<String>>,
    ) -> Result<(f64, bool)> {
        let stop = StopFlag::default();
        let started = Instant::now();
        if self.dfpn {
            let value = prove_value(state, budget, self.hash, &stop).value;
            return Ok((started.elapsed().as_secs_f64(), value.is_some()));
        }
        let mut solver = Solver::<G>::new(self.hash)
            .with_aids(self.aids)
            .with_book(None);
        let solved = solver.solve(state, budget, &stop).proved().is_some();
        let seconds = started.elapsed().as_secs_f64();
        if let (Some(lines), Some(path), true) = (book, self.book_out, solved) {
            // The table holds the proof, so the turn is proved again quickly; the wider
            // limit only stops a pathological case.
            let again = SolveBudget {
                time: budget.time.map(|t| t * 4),
                ..*budget
            };
            match solver.book_entry(state, &again, &stop) {
                Some(line) => {
                    lines.push(line);
                    write_book::<G>(path, lines)?;
                }
                None => eprintln!(
                    "ludus solve: left out of the book: the best turn from {} was not proved \
                     again in time",
                    state.position()
                ),
            }
        }
        Ok((seconds, solved))
    }
}

/// Writes the book of game `G` with `lines` to `path`, in one step.
fn write_book<G: Game>(path: &Path, lines: &[String]) -> Result<()> {
    let text = book_text::<G>(lines.to_vec());
    write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write the book {}", path.display()))
}

/// The lines of the book at `path` (none when there is no file yet), checked.
fn read_book<G: Game>(path: &Path) -> Result<Vec<String>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    Book::parse::<G>(&text).with_context(|| format!("in the book {}", path.display()))?;
    Ok(text.lines().skip(1).map(str::to_string).collect())
}

//! The books of solved positions the games ship (`Rules::solved_book`, made by `ludus solve
//! --positions FILE --book-out BOOK`): each reads, each line's best turn is found from its
//! position, every twelfth line that the solver proves within a small budget agrees, and level 5
//! plays a book position's turn at once with its proved value.

use ludus_ai::{build_agent, AgentSpec, Book, Evaluation, SolveBudget, Solver, StopFlag};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor, GAMES};

/// Nodes the solver may spend on a book line (the book holds positions too slow to prove
/// during a game; the later ones prove within this).
const NODES: u64 = 300_000;

/// Every this many lines, one is proved again by the solver (all of them would take minutes
/// in a debug build).
const STRIDE: usize = 12;

/// Checks one game's shipped book: `None` when it ships none, else the lines checked and
/// the lines the solver proved again.
struct ShippedBook;

impl GameVisitor for ShippedBook {
    type Output = Option<(usize, usize)>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let text = G::solved_book()?;
        let book = Book::parse::<G>(text).unwrap_or_else(|e| panic!("{}: {e}", G::INFO.id));
        let mut solver = Solver::<G>::new(16).with_book(None).with_tablebases(None);
        let budget = SolveBudget {
            nodes: NODES,
            ..SolveBudget::default()
        };
        let (mut lines, mut proved_again) = (0, 0);
        for (index, line) in text
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with('#'))
            .enumerate()
        {
            let position = line.split('\t').next().unwrap_or_default();
            let state = G::from_position(position, &G::Options::default()).unwrap();
            let turn = book
                .best_turn(&state)
                .unwrap_or_else(|| panic!("{position}: no turn reaches the book's next position"));
            lines += 1;
            if index % STRIDE != 0 {
                continue;
            }
            solver.clear();
            let solution = solver.solve(&state, &budget, &StopFlag::default());
            if let Some(proved) = solution.proved() {
                assert_eq!(proved, turn.proved, "{position}: the solver disagrees");
                proved_again += 1;
            }
        }
        let Some(first) = text.lines().nth(1).and_then(|l| l.split('\t').next()) else {
            return Some((lines, proved_again));
        };
        let state = G::from_position(first, &G::Options::default()).unwrap();
        let spec: AgentSpec = "ai:5:time=0.05".parse().unwrap();
        let mut level5 = build_agent::<G>(&spec, 1).unwrap();
        let analysis = level5.analyse(&state, &StopFlag::default());
        let expected = book.best_turn(&state).map(|t| Evaluation::Proved(t.proved));
        assert_eq!(
            analysis.evaluation, expected,
            "{first}: level 5 did not play the book"
        );
        assert_eq!(
            analysis.nodes, 0,
            "{first}: level 5 searched a book position"
        );
        Some((lines, proved_again))
    }
}

#[test]
fn shipped_books_read_and_agree_with_the_solver() {
    for info in GAMES.iter().filter(|info| info.min_seats <= 2) {
        if let Some((lines, proved_again)) = dispatch(info.id, ShippedBook).unwrap() {
            assert!(lines > 0, "{}: an empty book", info.id);
            assert!(
                proved_again > 0,
                "{}: no line proved again within {NODES} nodes",
                info.id
            );
        }
    }
}

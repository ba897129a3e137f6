//! `ludus solve` over the real binary: the value and distance of a position and of each
//! decision, the JSON form, what an unfinished solve says, and the one-line errors.

use std::process::Output;

mod support;
use support::ludus;

/// A Qawale position two turns before the end: Dark completes the first rank by placing on
/// d3 and sowing d2, d1 (and in other ways); some decisions only draw, some lose.
const DARK_WINS: &str = "D,L,D,N/LD,DL,L,N/NL,NL,NL,-/ND,ND,ND,- D";

fn text(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_won_position_is_solved_with_every_decision() {
    let out = text(&ludus(&["solve", "qawale", "--position", DARK_WINS]));
    let mut lines = out.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("Dark to move: wins in 1 turn ("),
        "{out}"
    );
    let decisions: Vec<&str> = lines.collect();
    assert_eq!(decisions.len(), 14, "one line per stack: {out}");
    assert!(decisions.contains(&"d3  wins in 1 turn"), "{out}");
    assert!(decisions.contains(&"b3  loses in 2 turns"), "{out}");
    assert!(
        decisions.iter().any(|line| line.ends_with("  draw")),
        "{out}"
    );
}

#[test]
fn the_json_form_holds_the_value_and_each_decision() {
    let out = text(&ludus(&[
        "solve",
        "qawale",
        "--position",
        DARK_WINS,
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["proved"]["value"], "win");
    assert_eq!(report["proved"]["turns"], 1);
    assert_eq!(report["to_move"], "Dark");
    let decisions = report["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 14);
    let d3 = decisions.iter().find(|d| d["decision"] == "d3").unwrap();
    assert_eq!(d3["text"], "wins in 1 turn");
}

#[test]
fn the_same_value_after_moves_played_from_the_position() {
    // Dark plays the winning turn's first decision: Dark still wins in that turn.
    let out = text(&ludus(&[
        "solve",
        "qawale",
        "--position",
        DARK_WINS,
        "--after",
        "d3",
    ]));
    assert!(out.starts_with("Dark to move: wins in 1 turn"), "{out}");
}

#[test]
fn an_opening_not_solved_in_time_says_so() {
    let out = text(&ludus(&["solve", "qawale", "--time", "0.2"]));
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("Dark to move: unknown within 0.2 s ("),
        "{out}"
    );
}

#[test]
fn what_the_solver_cannot_take_is_refused_in_one_line() {
    for (args, needle) in [
        (vec!["solve", "splut", "-o", "players=3"], "two seats"),
        (vec!["solve", "chess"], "unknown game"),
        (
            vec![
                "solve",
                "qawale",
                "--position",
                "-,-,-,-/-,-,-,N/NL,NL,NL,-/ND,ND,ND,ND L",
            ],
            "game is over",
        ),
    ] {
        let output = ludus(&args);
        assert!(!output.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // An argument clap refuses: its message names what is expected.
    let output = ludus(&["solve", "qawale", "--time", "0"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected a number of seconds"));
}

#[test]
fn solved_positions_go_into_a_book_kept_between_runs() {
    let dir = support::temp_dir("solve", "book");
    let positions = dir.path().join("positions.txt");
    let book = dir.path().join("qawale.book");
    let book_text = || std::fs::read_to_string(&book).unwrap();
    let solve_into_book = |position: &str| {
        std::fs::write(&positions, format!("{position}\n")).unwrap();
        let (positions, book) = (positions.to_str().unwrap(), book.to_str().unwrap());
        let args = [
            "solve",
            "qawale",
            "--positions",
            positions,
            "--book-out",
            book,
        ];
        ludus(&[&args[..], &["--time", "5"]].concat())
    };
    let out = text(&solve_into_book(DARK_WINS));
    assert!(out.contains("in the book"), "{out}");
    assert_eq!(
        book_text(),
        format!("# ludus solved book: qawale\n{DARK_WINS}\twin 1\tend\n")
    );
    // A second run adds its positions to those already there (a position of a level-5 game,
    // two turns before the end).
    let later = "-,-,DLDL,-/-,LN,D,NNNNNDLN/N,DD,LL,D/-,-,-,L D";
    text(&solve_into_book(later));
    let lines: Vec<String> = book_text().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[1..]
            .iter()
            .any(|l| l.starts_with(&format!("{later}\t"))),
        "{lines:?}"
    );
    // A damaged book is refused with its line, and left as it was.
    std::fs::write(&book, "# ludus solved book: qawale\nnot a line\n").unwrap();
    let refused = solve_into_book(DARK_WINS);
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("book line 2: expected 'position<TAB>value<TAB>next"),
        "{error}"
    );
    assert_eq!(book_text(), "# ludus solved book: qawale\nnot a line\n");
}

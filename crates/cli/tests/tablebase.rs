//! `ludus tablebase` and `--tablebases` over the real binary: the tables are written with a
//! line per material, `ludus solve` says when its result comes from them, and a damaged
//! file or a game without tables is refused in one line, and `--check` checks a folder.

use std::fs;
use std::path::Path;
use std::process::Output;

mod support;
use support::ludus;

fn text(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn one_line_error(output: &Output, needle: &str) {
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
}

/// Red a1 d1 against Black b2 g7: two a side, a draw (nobody can form a line).
const TWO_A_SIDE: &str = "RR.B...................B move R 0/0 0";

#[test]
fn tables_are_made_and_used_by_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let out = text(&ludus(&[
        "tablebase",
        "qilin",
        "--pieces",
        "2",
        "--out",
        out_dir,
        "--threads",
        "2",
    ]));
    for material in ["1v1", "1v2", "2v1", "2v2"] {
        assert!(out.contains(&format!("qilin-{material}.ltb")), "{out}");
        assert!(Path::new(out_dir)
            .join(format!("qilin-{material}.ltb"))
            .is_file());
    }
    assert!(out.contains("4 tables"), "{out}");
    let solved = text(&ludus(&[
        "solve",
        "qilin",
        "--position",
        TWO_A_SIDE,
        "--tablebases",
        out_dir,
    ]));
    assert!(
        solved.starts_with("Red to move: draw (from the endgame tables;"),
        "{solved}"
    );
    // A flipped byte: the solve is refused, naming the file.
    let path = Path::new(out_dir).join("qilin-2v2.ltb");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    fs::write(&path, bytes).unwrap();
    let output = ludus(&[
        "solve",
        "qilin",
        "--position",
        TWO_A_SIDE,
        "--tablebases",
        out_dir,
    ]);
    one_line_error(&output, "qilin-2v2.ltb' is damaged: checksum mismatch");
}

#[test]
fn a_game_without_tables_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = ludus(&[
        "tablebase",
        "qawale",
        "--pieces",
        "2",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    one_line_error(&output, "has no endgame tables: expected one of qilin");
    // An argument clap refuses: its message names what is expected.
    let output = ludus(&["tablebase", "qilin", "--pieces", "9", "--out", "x"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected a whole number from 1 to 5"));
}

#[test]
fn tables_are_checked_against_the_rules_and_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    text(&ludus(&[
        "tablebase",
        "qilin",
        "--pieces",
        "2",
        "--out",
        out_dir,
    ]));
    let check = |extra: &[&str]| {
        let mut args = vec!["tablebase", "qilin", "--check", "200", "--json"];
        args.extend(["--tablebases", out_dir, "--solver-nodes", "2000"]);
        args.extend(extra);
        let out = text(&ludus(&args));
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let report = check(&[]);
    assert_eq!(
        report["pieces"], 2,
        "every material of the folder: {report}"
    );
    assert_eq!(report["positions"], 200, "{report}");
    assert_eq!(report["mismatches"], 0, "{report}");
    assert_eq!(report["unreadable"], 0, "{report}");
    // Three a side asks for tables the folder lacks: those positions are counted, not checked.
    let report = check(&["--pieces", "3"]);
    let missing = report["missing"].as_u64().unwrap();
    assert!(missing > 0, "{report}");
    assert_eq!(report["positions"].as_u64().unwrap() + missing, 200);
    // Without tables: one line saying what to give.
    let empty = tempfile::tempdir().unwrap();
    let output = ludus(&[
        "tablebase",
        "qilin",
        "--check",
        "10",
        "--tablebases",
        empty.path().to_str().unwrap(),
    ]);
    one_line_error(&output, "holds no complete set of tables");
}

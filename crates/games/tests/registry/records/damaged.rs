//! Damaged text records of every format: each error names its line and says what is wrong.

use super::*;

/// `text` is refused with an error on `line` that mentions `words`.
pub(crate) fn assert_line(text: &str, line: usize, words: &str) {
    match record_from_text(text) {
        Err(RecordError::Text { line: got, reason }) => {
            assert_eq!(got, line, "{reason}\n{text}");
            assert!(reason.contains(words), "'{reason}' should say '{words}'");
            let shown = RecordError::Text { line: got, reason }.to_string();
            assert!(
                shown.starts_with(&format!("record line {line}: ")),
                "{shown}"
            );
        }
        other => panic!("expected an error on line {line}, got {other:?}\n{text}"),
    }
}

#[test]
fn damaged_key_value_records_name_the_line() {
    let good = "Game: Qawale\nFirst: D\n\na1:NEN\nd4:SSS\n";
    assert!(record_from_text(good).is_ok());
    assert_line("Game: Qawale\nFirst: D\n\na1:NEN\nd4:NNN\n", 5, "d4:NNN");
    assert_line(
        "Game: Qawale\nFrist: L\n\na1:NEN\n",
        2,
        "unknown header key 'Frist'",
    );
    assert_line("Game: Qawale\nFirst: purple\n\na1:NEN\n", 2, "purple");
    assert_line("Game: Qawale\nFirst: D\na1:NEN\n", 3, "blank line");
    assert_line(
        "Game: Qawale\nResult: D+\n\na1:NEN\n",
        2,
        "the game goes on",
    );
    assert_line("Game: Qawale\nResult: Q+\n\na1:NEN\n", 2, "bad result");
    assert_line("Game: Qawale\nDark: \"Ann\n\na1:NEN\n", 2, "closing");
    assert_line("Game: Qawale\nFirst: D\nFirst: L\n\n", 3, "twice");
    assert_line("Game: Qawale\n\na1:NEN\nresign X\n", 4, "resign");
    assert_line(
        "Game: Qawale\n\na1:NEN\nresign L\nd4:SSS\n",
        5,
        "already over",
    );
    assert_line("Game: Qawale\nPosition: NN,-,-,NN D\n\n", 2, "position");
    assert_line("Game: Yoxii\n\nd5 3@d4 c4 1@b4\n", 3, "more than one turn");
    assert_line("Game: Yoxii\n\nd5\n3@d4\n", 3, "middle of a turn");
    assert_line("Game: Yoxii\n\nd5 9@d4\n", 3, "9@d4");
    assert_line("Game: Yoxii\nTiebreak: coin\n\n", 2, "coin");
}

#[test]
fn yoxii_scores_are_checked() {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut game = new_game("yoxii", &[], None, 0).unwrap();
    while game.outcome().is_none() {
        let moves = game.legal_moves();
        game.play(&moves.choose(&mut rng).unwrap().notation)
            .unwrap();
    }
    let text = record_to_text(&game.record()).unwrap();
    let (number, result) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("Result: "))
        .unwrap();
    let mark = result.split_whitespace().nth(1).unwrap();
    let damaged = text.replace(result, &format!("Result: {mark} 99-0"));
    assert_line(&damaged, number + 1, "99-0");
    let damaged = text.replace(result, &format!("Result: {mark} lots"));
    assert_line(&damaged, number + 1, "bad score");
}

#[test]
fn damaged_tag_records_name_the_line() {
    let replica = "[Game \"Replica\"]\n[Sight \"forward3\"]\n\n1. b4-c5 g5-f4\n2. b2* f7-e6\n";
    assert!(record_from_text(replica).is_ok());
    assert_line(&replica.replace("2. b2*", "3. b2*"), 5, "expected 2.");
    assert_line(&replica.replace("f7-e6", "f7-f2"), 5, "f7-f2");
    assert_line(&replica.replace("forward3", "sideways"), 2, "sideways");
    assert_line(
        &replica.replace("[Sight", "[Sigth"),
        2,
        "unknown tag 'Sigth'",
    );
    assert_line(
        &replica.replace("[Sight \"forward3\"]", "[Sight forward3]"),
        2,
        "quoted",
    );
    assert_line(&format!("{replica}1-0\n"), 6, "the game goes on");
    assert_line(&format!("{replica}resign\n"), 6, "resign White");
    assert_line(
        &replica.replace("1. b4-c5", "1... b4-c5"),
        4,
        "White is to move",
    );

    let qilin = "[Game \"Qilin XiaSanZi\"]\n\n1. R a1\n2. B a4\n3. R d1\n";
    assert!(record_from_text(qilin).is_ok());
    assert_line(&qilin.replace("2. B", "3. B"), 4, "expected '2.'");
    assert_line(&qilin.replace("2. B", "2. R"), 4, "side to act, B");
    assert_line(&qilin.replace("2. B", "T. B"), 4, "not a transition");
    assert_line(&qilin.replace("2. B a4", "2. B a1"), 4, "a1");
    assert_line(&qilin.replace("2. B a4", "B a4"), 4, "expected a turn");
    assert_line(&format!("{qilin}[Result \"R\"]\n"), 6, "expected a turn");
    assert_line(
        &qilin.replace("\n\n", "\n[Result \"R\"]\n\n"),
        2,
        "the game goes on",
    );
    assert_line(
        &qilin.replace("\n\n", "\n[Options \"min_pieces=9\"]\n\n"),
        2,
        "min_pieces",
    );
}

#[test]
fn damaged_splut_records_name_the_line() {
    let good = "splut 1\nsize 9\nseats south north\n1 Sd2-d3\n2 Sf8-f7 De8-e7\n";
    assert!(record_from_text(good).is_ok());
    assert_line(&good.replace("2 Sf8", "3 Sf8"), 5, "expected 2");
    assert_line(&good.replace("De8-e7", "De8-e5"), 5, "De8-e5");
    assert_line(&good.replace("splut 1", "splut 2"), 1, "expected 1");
    assert_line(
        &good.replace("south north", "north south"),
        3,
        "expected seats",
    );
    assert_line(&good.replace("size 9", "size 10"), 2, "size");
    assert_line(&format!("{good}size 9\n"), 6, "before the first turn");
    assert_line(&format!("{good}result south\n"), 6, "the game goes on");
    assert_line(&format!("{good}result east\n"), 6, "result <side>");
    assert_line(
        &format!("{good}result draw\n3 Sd3-d4\n"),
        7,
        "nothing may follow",
    );
    assert_line(&format!("{good}resign west\n"), 6, "side in play");
    assert_line(&format!("{good}hello\n"), 6, "unknown line 'hello'");
    assert_line(&good.replace("1 Sd2-d3", "1 Sd2-d3 Sd3-d4"), 4, "Sd3-d4");
    assert_line(
        &format!("{good}player up Ann\n"),
        6,
        "before the first turn",
    );
    assert_line(
        &good.replace(
            "seats south north\n",
            "seats south north\nplayer west Ann\n",
        ),
        4,
        "side 'west'",
    );
}

#[test]
fn texts_that_are_no_record_name_the_line() {
    assert_line("", 1, "empty");
    assert_line("\n  # only a comment\n\n", 1, "empty");
    assert_line("hello world\n", 1, "cannot tell the game");
    assert_line("\n\nGame: Chess\n", 3, "unknown game 'Chess'");
    assert_line("[Event \"x\"]\n[Game \"Go\"]\n", 2, "unknown game 'Go'");
    assert_line("[Event \"x\"]\n\n1. e4\n", 1, "cannot tell the game");
    assert_line("Game: Replica\n\nb4-c5\n", 1, "[Game \"Replica\"]");
}

//! Every game's position string on one line (`position_line`), as line protocols carry it
//! (UGI's `position fen` and `query position`, openings files): no line break, and read back
//! by the rules to the same position, at the start and after some decisions.

use ludus_games::{new_game, GAMES};

#[test]
fn one_line_positions_are_read_back_as_the_same_position() {
    for info in GAMES {
        let mut game = new_game(info.id, &[], None, 0).unwrap();
        for step in 0..6 {
            let line = game.position_line();
            assert!(!line.contains('\n'), "{}: {line}", info.id);
            let back = new_game(info.id, &[], Some(&line), 0)
                .unwrap_or_else(|e| panic!("{}: {line}: {e}", info.id));
            assert_eq!(back.position(), game.position(), "{} step {step}", info.id);
            let Some(first) = game.legal_moves().into_iter().next() else {
                break;
            };
            game.play(&first.notation).unwrap();
        }
    }
}

//! Every game's options are described once: the descriptions in `GameInfo`, the serde fields
//! and the defaults agree, and parsing refuses what the descriptions leave out.

use ludus_engine::testkit::check_option_descriptions;
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor, GAMES};

struct CheckOptions;

impl GameVisitor for CheckOptions {
    type Output = ();
    fn visit<G: Game + Heuristic>(self) {
        check_option_descriptions::<G>();
    }
}

#[test]
fn every_game_describes_its_options_once_and_right() {
    for info in GAMES {
        dispatch(info.id, CheckOptions).unwrap();
    }
}

#[test]
fn the_generated_checks_keep_the_spec_messages() {
    let bad = |id: &str, pair: &str| {
        ludus_games::new_game(id, &[pair.to_string()], None, 0)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(bad("splut", "players=5").contains("expected 2, 3 or 4"));
    assert!(bad("splut", "size=10").contains("expected an odd number from 9 to 25"));
    assert!(bad("qilin", "min_pieces=0").contains("expected 1, 2 or 3"));
    assert!(bad("qilin", "draw_no_removal_plies=1001").contains("expected 0 (off) to 1000"));
    assert!(bad("qilin", "draw_repetition=1").contains("expected 0 (off) or 2 to 10"));
}

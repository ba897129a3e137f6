//! Action ids and observation tensors of the games (`encoding.rs` in each game's folder): the
//! engine's conformance check over thousands of random games for every registered game and
//! its test variants of the options, and the documented ids of a few decisions.

use ludus_engine::encoding::observation_len;
use ludus_engine::testkit::check_encoding;
use ludus_engine::{parse_options, Encoding, Game, Heuristic, Notation, Rules, Seat};
use ludus_games::qawale::{Qawale, QawaleOptions};
use ludus_games::qilin::{Qilin, QilinOptions};
use ludus_games::replica::{Replica, ReplicaOptions};
use ludus_games::splut::{Splut, SplutOptions};
use ludus_games::yoxii::{Yoxii, YoxiiOptions};
use ludus_games::{dispatch, test_setups, GameVisitor};

fn options<G: Game>(pairs: &[&str]) -> G::Options {
    parse_options(G::INFO.id, pairs).expect("valid test options")
}

/// The id of the decision written `text` in `state`.
fn id_of<G: Encoding>(state: &G, text: &str) -> u32 {
    state.action_id(state.parse_action(text).expect("legal test move"))
}

/// The conformance check on one game with the options `pairs`.
struct Conforms {
    pairs: &'static [&'static str],
    games: usize,
    seed: u64,
}

impl GameVisitor for Conforms {
    type Output = ();
    fn visit<G: Game + Heuristic + Encoding>(self) {
        check_encoding::<G>(&options::<G>(self.pairs), self.games, self.seed);
    }
}

#[test]
fn every_game_s_ids_and_tensors_conform_for_every_test_variant() {
    for (seed, (info, pairs)) in (1..).zip(test_setups()) {
        // Thousands of games at the defaults, fewer for each variant of the options.
        let games = if pairs.is_empty() { 1000 } else { 200 };
        dispatch(info.id, Conforms { pairs, games, seed }).unwrap();
    }
}

#[test]
fn splut_ids_and_tensors_conform_on_the_largest_board() {
    check_encoding::<Splut>(&options::<Splut>(&["players=4", "size=13"]), 200, 5);
}

#[test]
fn ids_follow_the_documented_tables() {
    let qilin = Qilin::new(&QilinOptions::default(), 0);
    assert_eq!((id_of(&qilin, "a1"), id_of(&qilin, "g7")), (0, 23));
    assert_eq!(Qilin::num_distinct_actions(&QilinOptions::default()), 624);
    let replica = Replica::new(&ReplicaOptions::default(), 0);
    // b4 = 25, c5 = 34.
    assert_eq!(id_of(&replica, "b4-c5"), 25 * 64 + 34);
    let qawale = Qawale::new(&QawaleOptions::default(), 0);
    assert_eq!(id_of(&qawale, "d4"), 15);
    let mut sowing = qawale.clone();
    sowing.apply(sowing.parse_action("a1").unwrap());
    assert_eq!(id_of(&sowing, "N"), 16);
    let yoxii = Yoxii::new(&YoxiiOptions::default(), 0);
    // d5 = file 3 * 7 + rank 4.
    assert_eq!(id_of(&yoxii, "d5"), 25);
    let mut placing = yoxii.clone();
    placing.apply(placing.parse_action("d5").unwrap());
    assert_eq!(id_of(&placing, "3@d4"), 49 + 2 * 49 + 24);
    let splut = Splut::new(&SplutOptions::default(), 0);
    // Sd2-d3: the sorcerer steps north.
    assert_eq!(id_of(&splut, "Sn"), 1);
}

#[test]
fn shapes_depend_on_the_options_only() {
    assert_eq!(
        Qilin::observation_shape(&QilinOptions::default()),
        [12, 7, 7]
    );
    assert_eq!(
        Splut::observation_shape(&SplutOptions::default()),
        [27, 9, 9]
    );
    let big = options::<Splut>(&["players=4", "size=13"]);
    assert_eq!(Splut::observation_shape(&big), [27, 13, 13]);
    assert_eq!(
        Qawale::observation_shape(&QawaleOptions::default()),
        [156, 4, 4]
    );
    assert_eq!(
        Replica::observation_shape(&ReplicaOptions::default()),
        [6, 8, 8]
    );
    assert_eq!(
        Yoxii::observation_shape(&YoxiiOptions::default()),
        [20, 7, 7]
    );
    assert_eq!(observation_len::<Yoxii>(&YoxiiOptions::default()), 980);
}

#[test]
fn observations_take_the_observers_point_of_view() {
    let replica = Replica::new(&ReplicaOptions::default(), 0);
    let len = observation_len::<Replica>(&ReplicaOptions::default());
    let (mut white, mut black) = (vec![0.0; len], vec![0.0; len]);
    replica.observe(Seat::FIRST, &mut white);
    replica.observe(Seat::SECOND, &mut black);
    // White's king on a1 (row 7, column 0) is "my king" for White, "their king" for Black.
    let a1 = 7 * 8;
    assert_eq!((white[64 + a1], black[3 * 64 + a1]), (1.0, 1.0));
    // Plane 5: White is to move.
    assert_eq!((white[5 * 64], black[5 * 64]), (1.0, 0.0));
}

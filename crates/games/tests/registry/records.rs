//! The games' plain-text records: random games of every game round-trip through text, the
//! specs' examples read and replay, damaged records are refused with their line, files pick
//! JSON or text by content and extension, and no text makes the reader panic.

mod damaged;
use damaged::assert_line;

use std::fs;

use ludus_engine::testkit::mutate;
use ludus_engine::{AnyGame, GameRecord, PlayerRecord, RecordError, Seat};
use ludus_games::{
    load_record, load_record_file, new_game, record_from_text, record_to_text, save_record_file,
    test_setups, GAMES,
};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

const NAMES: &[&str] = &[
    "Ann",
    "Ann #1",
    "  padded  ",
    "",
    "say \"hi\" \\ back",
    "tab\there",
    "two\nlines",
    "Zoë 🎲",
    "[Black \"x\"]",
    "resign",
    "#",
    "D+",
];
const KINDS: &[&str] = &[
    "human",
    "ai:greedy",
    "ai:mcts:iters=100,c=1.4",
    "ai:2 spaced out",
];

fn options(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

/// Plays random legal decisions: to the end, or stopping anywhere (even mid-turn), or with a
/// resignation, a flag (a seat out of time) or an agreed draw at a random moment (play goes
/// on if the game does).
fn play_randomly(game: &mut AnyGame, rng: &mut SmallRng) {
    let style = rng.random_range(0..4);
    let stop_at = rng.random_range(0..120);
    let resign_at = rng.random_range(0..80);
    for decision in 0..20_000 {
        if game.outcome().is_some() || (style == 1 && decision == stop_at) {
            return;
        }
        if style == 2 && decision == resign_at {
            let seat = Seat::all(game.seat_count())
                .collect::<Vec<_>>()
                .choose(rng)
                .copied()
                .unwrap();
            match rng.random_range(0..3) {
                0 => game.resign(seat),
                1 => game.flag(seat),
                _ => {
                    game.agree_draw();
                }
            }
            continue;
        }
        let moves = game.legal_moves();
        let chosen = moves.choose(rng).expect("a game not over has a legal move");
        game.play(&chosen.notation).unwrap();
    }
}

fn random_players(game: &AnyGame, rng: &mut SmallRng) -> Vec<PlayerRecord> {
    Seat::all(game.seat_count())
        .map(|seat| {
            let name = if rng.random_range(0..3) == 0 {
                game.seat_name(seat)
            } else {
                NAMES.choose(rng).unwrap()
            };
            PlayerRecord {
                name: name.to_string(),
                kind: KINDS.choose(rng).unwrap().to_string(),
            }
        })
        .collect()
}

/// Record → text → record → replay gives the same game, and writing again the same text.
fn assert_round_trip(game: &AnyGame, label: &str) -> String {
    let record = game.record();
    let text = record_to_text(&record).unwrap_or_else(|e| panic!("{label}: {e}"));
    let back = record_from_text(&text).unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    assert_eq!(back.game, record.game, "{label}");
    assert_eq!(back.options, record.options, "{label}\n{text}");
    assert_eq!(back.position, record.position, "{label}\n{text}");
    assert_eq!(back.players, record.players, "{label}\n{text}");
    assert_eq!(back.moves, record.moves, "{label}\n{text}");
    assert_eq!(
        back.result.as_ref().map(|r| r.winner),
        record.result.as_ref().map(|r| r.winner),
        "{label}\n{text}"
    );
    if record.options.get("first_player").and_then(|v| v.as_str()) == Some("random") {
        assert_eq!(
            back.seed, record.seed,
            "{label}: the seed decides who starts"
        );
    }
    let replayed = load_record(&back).unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    assert_eq!(replayed.position(), game.position(), "{label}");
    assert_eq!(replayed.key(), game.key(), "{label}");
    assert_eq!(replayed.outcome(), game.outcome(), "{label}");
    assert_eq!(replayed.history(), game.history(), "{label}");
    assert_eq!(
        record_to_text(&back).unwrap(),
        text,
        "{label}: writing is stable"
    );
    text
}

#[test]
fn random_games_of_every_game_round_trip_through_text() {
    let mut rng = SmallRng::seed_from_u64(2026);
    // Every game at its defaults and with every option changed at least once.
    for (info, list) in test_setups() {
        let id = info.id;
        for round in 0..12 {
            let seed = rng.random_range(0..1_000_000);
            let mut game = new_game(id, &options(list), None, seed).unwrap();
            play_randomly(&mut game, &mut rng);
            let players = random_players(&game, &mut rng);
            game.set_players(players);
            assert_round_trip(&game, &format!("{id} {list:?} round {round}"));
        }
    }
}

#[test]
fn games_from_a_start_position_round_trip() {
    let mut rng = SmallRng::seed_from_u64(7);
    for (info, list) in test_setups() {
        let id = info.id;
        for round in 0..4 {
            let mut game = new_game(id, &options(list), None, 3).unwrap();
            for _ in 0..rng.random_range(0..30) {
                let moves = game.legal_moves();
                match moves.choose(&mut rng) {
                    Some(chosen) => game.play(&chosen.notation).unwrap(),
                    None => break,
                };
            }
            if game.outcome().is_some() {
                continue;
            }
            let position = game.position();
            let mut game = new_game(id, &options(list), Some(&position), 0).unwrap();
            play_randomly(&mut game, &mut rng);
            let text =
                assert_round_trip(&game, &format!("{id} {list:?} from {position:?} ({round})"));
            assert!(text.contains("osition"), "{text}");
        }
    }
}

#[test]
fn a_resignation_in_the_middle_of_a_splut_turn_round_trips() {
    let mut game = new_game("splut", &options(&["players=3"]), None, 0).unwrap();
    for turn in ["Sd2-d3", "Sb6-c6 Sc6-b6"] {
        game.play(turn).unwrap();
    }
    game.play("Sf8-f7").unwrap(); // north's turn 3, first step
    game.resign(Seat::new(1)); // west leaves while north is moving
    game.play("Sf7-f6").unwrap();
    let text = assert_round_trip(&game, "splut mid-turn resignation");
    assert!(text.contains("3 Sf8-f7\nresign west\n3 Sf7-f6\n"), "{text}");
}

#[test]
fn flags_and_agreed_draws_round_trip_in_every_text_format() {
    let mut splut = new_game("splut", &options(&["players=3"]), None, 0).unwrap();
    splut.play("Sd2-d3").unwrap();
    splut.flag(Seat::new(1)); // west's time runs out: it leaves, the others play on
    assert!(splut.agree_draw());
    let text = assert_round_trip(&splut, "splut flag and draw");
    assert!(
        text.contains("flag west\n") && text.contains("draw agreed\n"),
        "{text}"
    );
    for game in GAMES.iter().map(|info| info.id) {
        let mut flagged = new_game(game, &[], None, 0).unwrap();
        let first = flagged.legal_moves()[0].notation.clone();
        flagged.play(&first).unwrap();
        flagged.flag(Seat::FIRST);
        let text = assert_round_trip(&flagged, game);
        assert!(text.contains("flag "), "{game}: {text}");
        let reason = &flagged.outcome().unwrap().reason;
        assert!(reason.ends_with("ran out of time"), "{game}: {reason}");

        let mut drawn = new_game(game, &[], None, 0).unwrap();
        assert!(drawn.agree_draw());
        let text = assert_round_trip(&drawn, game);
        assert!(text.contains("draw agreed"), "{game}: {text}");
    }
}

// ----------------------------------------------------------------------------------------
// The specs' examples, written by hand

fn read_and_replay(text: &str) -> (GameRecord, AnyGame) {
    let record = record_from_text(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let game = load_record(&record).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (record, game)
}

#[test]
fn qawale_example_reads_and_replays() {
    let (record, game) = read_and_replay(
        "# A Qawale game (spec §6)\n\
         Game: Qawale\n\
         Dark: Ann\n\
         Light: Bob\n\
         Light-kind: ai:greedy\n\
         First: D\n\
         Both-lines: mover_wins\n\
         Result: D+\n\
         \n\
         a1:NEN      # the stack of three goes north, east, north\n\
         d4:SSS\n\
         b2 b3 a3    # the list-of-squares input form\n\
         resign L\n",
    );
    assert_eq!(record.game, "qawale");
    assert_eq!(record.moves, ["a1:NEN", "d4:SSS", "b2:NW", "resign 2"]);
    assert_eq!(record.players[0].name, "Ann");
    assert_eq!(record.players[1].kind, "ai:greedy");
    assert_eq!(record.result.unwrap().winner, Some(1));
    assert_eq!(game.turn(), 3);
}

#[test]
fn yoxii_example_reads_and_replays() {
    let mut game = new_game("yoxii", &[], None, 0).unwrap();
    let mut rng = SmallRng::seed_from_u64(5);
    while game.outcome().is_none() {
        let moves = game.legal_moves();
        game.play(&moves.choose(&mut rng).unwrap().notation)
            .unwrap();
    }
    let text = record_to_text(&game.record()).unwrap();
    let score = text
        .lines()
        .find_map(|l| l.strip_prefix("Result: "))
        .unwrap()
        .to_string();
    assert!(score.contains('-'), "the score follows the result: {score}");
    let (record, _) = read_and_replay(&text);
    assert_eq!(record.moves, game.record().moves);

    let (record, game) = read_and_replay(
        "Game: Yoxii\n\
         First: W\n\
         Tiebreak: adjacent_count\n\
         Result: *\n\
         \n\
         d5 3@d4   # the Totem to d5, a 3 on d4\n\
         c4,1@b4   # the comma form\n\
         d3 X@c3   # the seed's letter for a 4\n",
    );
    assert_eq!(record.moves, ["d5 3@d4", "c4 1@b4", "d3 4@c3"]);
    assert_eq!(game.turn(), 3);
    assert!(record.result.is_none());
}

#[test]
fn replica_example_reads_and_replays() {
    let (record, game) = read_and_replay(
        "[Game \"Replica\"]\n\
         [White \"Ann\"] [Black \"Bob\"]\n\
         [Event \"Club night\"]\n\
         [Sight \"forward3\"]\n\
         [Result \"0-1\"]\n\
         \n\
         1. b4-c5 g5-f4 2. b2* # a comment\n\
         f7-e6 3.c5-d6 resign White 0-1\n",
    );
    assert_eq!(
        record.moves,
        ["b4-c5", "g5-f4", "b2*", "f7-e6", "c5-d6", "resign 1"]
    );
    assert_eq!(record.players[1].name, "Bob");
    assert_eq!(record.result.unwrap().winner, Some(2));
    assert!(game.outcome().is_some());
}

#[test]
fn qilin_example_reads_and_replays() {
    let (record, game) = read_and_replay(
        "[Game \"Qilin XiaSanZi\"]\n\
         [Red \"Ann\"]\n\
         [Black \"Bob\"]\n\
         [Options \"no_press_rule=remove_own,min_pieces=1\"]\n\
         [Result \"R\"]\n\
         \n\
         1. R a1\n\
         2. B a4\n\
         3. R d1\n\
         4. B b4\n\
         5. R g1 xa4   # a line of three: Red presses a4\n\
         resign B\n",
    );
    assert_eq!(record.moves, ["a1", "a4", "d1", "b4", "g1 xa4", "resign 2"]);
    assert_eq!(record.options["min_pieces"], 1);
    assert_eq!(record.result.unwrap().winner, Some(1));
    assert_eq!(game.turn(), 5);

    // The spec's `13. R a7 xd1 xc3`, from a start position (numbered from 1 there).
    let (record, _) = read_and_replay(
        "[Game \"Qilin XiaSanZi\"]\n\
         [Position \"RB..B.B.BR.....R..R..... place R 14/14 0\"]\n\
         \n\
         1. R a7 xd1 xc3\n",
    );
    assert_eq!(record.moves, ["a7 xd1 xc3"]);
}

#[test]
fn qilin_transition_removals_are_numbered_t() {
    // Fill the board with no line: the transition makes each side remove an own piece.
    let mut game = new_game("qilin", &[], None, 0).unwrap();
    let mut rng = SmallRng::seed_from_u64(11);
    let mut seen = false;
    for _ in 0..400 {
        let mut attempt = new_game("qilin", &[], None, 0).unwrap();
        while attempt.outcome().is_none() && attempt.turn() < 30 {
            let moves = attempt.legal_moves();
            attempt
                .play(&moves.choose(&mut rng).unwrap().notation)
                .unwrap();
        }
        let text = record_to_text(&attempt.record()).unwrap();
        if text.contains("\nT. R x") {
            assert!(text.contains("\nT. B x"), "{text}");
            assert!(text.contains("\n25. B "), "{text}");
            game = attempt;
            seen = true;
            break;
        }
    }
    assert!(seen, "some random placement stage ends without a line");
    assert_round_trip(&game, "qilin transition");
}

#[test]
fn splut_example_reads_and_replays() {
    let (record, game) = read_and_replay(
        "splut 1\n\
         size 9\n\
         seats south north          # turn order\n\
         options max_turns=1000 repetition=3\n\
         player south \"Ann #1\"\n\
         kind north ai:greedy\n\
         1 Sd2-d3\n\
         2 Sf8-f7 De8-e7\n\
         3 Tf2-f3 Tf3-f4 Sd3-d4\n\
         resign north\n\
         result south\n",
    );
    assert_eq!(
        record.moves,
        [
            "Sd2-d3",
            "Sf8-f7 De8-e7",
            "Tf2-f3 Tf3-f4 Sd3-d4",
            "resign 2"
        ]
    );
    assert_eq!(record.players[0].name, "Ann #1");
    assert_eq!(record.players[1].kind, "ai:greedy");
    assert_eq!(record.result.unwrap().winner, Some(1));
    assert_eq!(game.outcome().unwrap().reason, "Red resigned");
}

#[test]
fn splut_draws_name_their_reason() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut game = new_game("splut", &options(&["max_turns=6"]), None, 0).unwrap();
    while game.outcome().is_none() {
        let moves = game.legal_moves();
        game.play(&moves.choose(&mut rng).unwrap().notation)
            .unwrap();
    }
    let text = assert_round_trip(&game, "splut turn limit");
    assert!(text.ends_with("result draw turn-limit\n"), "{text}");
    let wrong = text.replace("turn-limit", "repetition");
    let line = text.lines().count();
    assert_line(&wrong, line, "turn-limit");
}

// ----------------------------------------------------------------------------------------
// Files

#[test]
fn files_pick_json_or_text_by_content_and_extension() {
    // Removed when the test ends, also when it fails.
    let guard = tempfile::TempDir::with_prefix("ludus-text-records-files-").unwrap();
    let dir = guard.path();
    let mut rng = SmallRng::seed_from_u64(1);
    for info in GAMES {
        let mut game = new_game(info.id, &[], None, 0).unwrap();
        play_randomly(&mut game, &mut rng);
        let record = game.record();

        let text_path = dir.join(format!("{}.txt", info.id));
        save_record_file(&text_path, &record).unwrap();
        let saved = fs::read_to_string(&text_path).unwrap();
        assert_eq!(saved, record_to_text(&record).unwrap());
        assert_eq!(load_record_file(&text_path).unwrap().moves, record.moves);

        let upper = dir.join(format!("{}.TXT", info.id));
        save_record_file(&upper, &record).unwrap();
        assert!(!fs::read_to_string(&upper).unwrap().starts_with('{'));

        let json_path = dir.join(format!("{}.json", info.id));
        save_record_file(&json_path, &record).unwrap();
        assert!(fs::read_to_string(&json_path).unwrap().starts_with('{'));
        assert_eq!(load_record_file(&json_path).unwrap(), record);

        // Loading goes by content, whatever the name says.
        let misnamed = dir.join(format!("{}-text.json", info.id));
        fs::write(&misnamed, &saved).unwrap();
        assert_eq!(load_record_file(&misnamed).unwrap().moves, record.moves);
        let misnamed = dir.join(format!("{}-json.txt", info.id));
        fs::write(&misnamed, format!("\n  {}", record.to_json())).unwrap();
        assert_eq!(load_record_file(&misnamed).unwrap(), record);
    }
    let leftovers = fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(leftovers, 0, "saving leaves no temporary file");
    assert!(matches!(
        load_record_file(&dir.join("missing.txt")),
        Err(RecordError::Io { .. })
    ));
    let broken = dir.join("broken.txt");
    fs::write(&broken, "Game: Qawale\n\na1:NEN\nz9:N\n").unwrap();
    assert!(matches!(
        load_record_file(&broken),
        Err(RecordError::Text { line: 4, .. })
    ));
}

#[test]
fn records_that_do_not_replay_are_not_written() {
    let mut record = new_game("qawale", &[], None, 0).unwrap().record();
    record.moves.push("z9:N".into());
    assert!(matches!(
        record_to_text(&record),
        Err(RecordError::Move { index: 1, .. })
    ));
    record.game = "chess".into();
    assert!(matches!(
        record_to_text(&record),
        Err(RecordError::UnknownGame(_))
    ));
}

// ----------------------------------------------------------------------------------------
// Robustness

const ALPHABET: &[char] = &[
    'a', 'd', 'x', 'R', 'B', 'S', 'T', '1', '2', '9', ':', '-', '*', '@', '#', '"', '\\', '[', ']',
    '.', ' ', '\n', '+', '=', 'é', '\u{0}',
];

#[test]
fn mutated_text_records_never_panic() {
    let mut rng = SmallRng::seed_from_u64(77);
    for info in GAMES {
        let mut game = new_game(info.id, &[], None, 0).unwrap();
        for _ in 0..40 {
            if game.outcome().is_some() {
                break;
            }
            let moves = game.legal_moves();
            game.play(&moves.choose(&mut rng).unwrap().notation)
                .unwrap();
        }
        let players = random_players(&game, &mut rng);
        game.set_players(players);
        let text = record_to_text(&game.record()).unwrap();
        for _ in 0..1500 {
            let damaged = mutate(&text, ALPHABET, &mut rng);
            if let Ok(record) = record_from_text(&damaged) {
                load_record(&record).expect("a record read from text replays");
            }
        }
    }
}

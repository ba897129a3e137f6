//! A game's snapshot turned into what a UGI engine reads: the rules options as `setoption`
//! pairs, the `position` command (the start position and every turn played, so that rules
//! about repeated positions see the whole game), and the `go` command with the clocks or a
//! move time, with how long to wait for its `bestmove`. Positions go on one line
//! ([`position_line`](ludus_engine::Game::position_line)), as `query position` and the arena
//! send them: a line protocol would read a position's second line as another command.

use std::fmt::Write;
use std::time::Duration;

use serde_json::Value;

use super::settings::DEFAULT_MOVETIME;

/// How much longer than its time an engine may take to answer.
const MARGIN: Duration = Duration::from_secs(1);

/// The snapshot's `options` (`{"key": value}`) as `(key, value)` pairs for `setoption`.
pub fn rules_options(options: &Value) -> Vec<(String, String)> {
    options
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(key, value)| {
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some((key.clone(), text))
        })
        .collect()
}

/// The server's position string `text` of `game` on one line, as the game writes it for line
/// protocols; a string the rules do not read has its line breaks written as `; `, the form
/// every game's `from_position` reads.
pub fn position_on_one_line(game: &str, options: &[(String, String)], text: &str) -> String {
    let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    ludus_games::new_game(game, &options, Some(text), 0).map_or_else(
        |_| text.lines().collect::<Vec<_>>().join("; "),
        |parsed| parsed.position_line(),
    )
}

/// Whether a history entry is a decision list an engine can replay (not `resign 3`,
/// `flag 3` or `draw agreed`, which only the referee writes).
fn playable(entry: &str) -> bool {
    !(entry.starts_with("resign ") || entry.starts_with("flag ") || entry == "draw agreed")
}

/// `position fen START moves M...` with the snapshot's turns (the last one may be a turn
/// still being decided), or `position fen CURRENT` when the start is unknown or a seat left
/// the game along the way.
pub fn position_command(start: Option<&str>, moves: &[String], current: &str) -> String {
    match start {
        Some(start) if moves.iter().all(|m| playable(m)) => {
            if moves.is_empty() {
                format!("position fen {start}")
            } else {
                format!("position fen {start} moves {}", moves.join(" "))
            }
        }
        _ => format!("position fen {current}"),
    }
}

/// The `go` command for `seat` (from 1) of `seats`, and the longest wait for its answer.
/// `clock` is the snapshot's `clock` (or `null`), received `elapsed` ago: the running
/// seat's time is counted down by that much. `--movetime` wins over the clocks, within half
/// the seat's time.
pub fn go_command(
    clock: &Value,
    seat: usize,
    seats: usize,
    movetime: Option<Duration>,
    elapsed: Duration,
) -> (String, Duration) {
    let Some(remaining) = clock["remaining_ms"].as_array() else {
        let time = movetime.unwrap_or(DEFAULT_MOVETIME);
        return (format!("go movetime {}", time.as_millis()), time + MARGIN);
    };
    let running = clock["running"].as_u64().map(|s| s as usize);
    let elapsed_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    let times: Vec<u64> = remaining
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let time = t.as_u64().unwrap_or(0);
            if running == Some(i + 1) {
                time.saturating_sub(elapsed_ms)
            } else {
                time
            }
        })
        .collect();
    let increment = clock["increment_ms"].as_u64().unwrap_or(0);
    let own = Duration::from_millis(times.get(seat.wrapping_sub(1)).copied().unwrap_or(0));
    if let Some(movetime) = movetime {
        let time = movetime.min(own / 2).max(Duration::from_millis(1));
        return (format!("go movetime {}", time.as_millis()), time + MARGIN);
    }
    let mut go = String::from("go");
    if seats == 2 && times.len() == 2 {
        let _ = write!(
            go,
            " wtime {} btime {} winc {increment} binc {increment}",
            times[0], times[1]
        );
    } else {
        for (i, time) in times.iter().enumerate() {
            let _ = write!(go, " p{}time {time}", i + 1);
        }
        for i in 0..times.len() {
            let _ = write!(go, " p{}inc {increment}", i + 1);
        }
    }
    (go, own + MARGIN)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn options_become_setoption_pairs() {
        let pairs = rules_options(&json!({"first_player":"dark","size":9,"levitate":true}));
        assert!(pairs.contains(&("first_player".into(), "dark".into())));
        assert!(pairs.contains(&("size".into(), "9".into())));
        assert!(pairs.contains(&("levitate".into(), "true".into())));
        assert!(rules_options(&Value::Null).is_empty());
    }

    #[test]
    fn the_position_replays_the_turns_from_the_start() {
        let moves = vec!["a1:NEN".to_string(), "d4:S".to_string()];
        assert_eq!(
            position_command(Some("S L"), &moves, "C D"),
            "position fen S L moves a1:NEN d4:S"
        );
        assert_eq!(
            position_command(Some("S L"), &[], "S L"),
            "position fen S L"
        );
        assert_eq!(position_command(None, &moves, "C D"), "position fen C D");
        let left = vec!["a".to_string(), "resign 3".to_string()];
        assert_eq!(position_command(Some("S"), &left, "C"), "position fen C");
    }

    #[test]
    fn positions_of_several_lines_are_sent_on_one() {
        for info in ludus_games::GAMES {
            let game = ludus_games::new_game(info.id, &[], None, 0).unwrap();
            let line = position_on_one_line(info.id, &[], &game.position());
            assert_eq!(line, game.position_line(), "{}", info.id);
        }
        assert_eq!(position_on_one_line("no such game", &[], "a\nb"), "a; b");
    }

    #[test]
    fn clocks_become_wtime_btime_or_per_seat_times() {
        let clock = json!({"remaining_ms":[60_000, 50_000],"running":2,"increment_ms":2000});
        let (go, limit) = go_command(&clock, 2, 2, None, Duration::from_millis(500));
        assert_eq!(go, "go wtime 60000 btime 49500 winc 2000 binc 2000");
        assert_eq!(limit, Duration::from_millis(50_500));
        let (go, limit) = go_command(&clock, 2, 2, Some(Duration::from_secs(60)), Duration::ZERO);
        assert_eq!(go, "go movetime 25000");
        assert_eq!(limit, Duration::from_secs(26));
        let three = json!({"remaining_ms":[1, 2, 3],"running":1,"increment_ms":0});
        let (go, _) = go_command(&three, 1, 3, None, Duration::ZERO);
        assert_eq!(go, "go p1time 1 p2time 2 p3time 3 p1inc 0 p2inc 0 p3inc 0");
        let (go, limit) = go_command(&Value::Null, 1, 2, None, Duration::ZERO);
        assert_eq!(go, "go movetime 1000");
        assert_eq!(limit, Duration::from_secs(2));
    }
}

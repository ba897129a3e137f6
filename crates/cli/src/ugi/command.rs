//! The UGI commands a driver sends, read from one line of text. Reading knows no game: moves
//! and position strings stay text until the engine plays them through the rules.

use std::fmt;

/// One command of the UGI protocol (see `docs/UGI.md`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `ugi`: the identification and the options, then `ugiok`.
    Ugi,
    /// `isready`: answered `readyok`, also during a search.
    IsReady,
    /// `uginewgame`: forget the last game (the agent starts afresh).
    NewGame,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The option's name as `ugi` lists it.
        name: String,
        /// The value (empty for none).
        value: String,
    },
    /// `position startpos|fen POSITION [moves M...]`.
    Position {
        /// The position string, or `None` for the usual start.
        fen: Option<String>,
        /// Decisions or whole turns to play from it.
        moves: Vec<String>,
    },
    /// `go ...`: search and answer `bestmove`.
    Go(GoLimits),
    /// `stop`: end the search now.
    Stop,
    /// `query WHAT`: answered `response ...`.
    Query(Query),
    /// `quit`.
    Quit,
}

/// What `query` asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Query {
    /// `gameover`: `true` or `false`.
    GameOver,
    /// `p1turn` … `p4turn`: whether that seat (0-based here) decides now.
    Turn(usize),
    /// `result`: `p1win` … `p4win`, `draw` or `none`.
    Result,
    /// `moves`: the legal decisions, or `(none)`.
    Moves,
    /// `position`: the position string.
    Position,
}

/// The limits of one `go` (the arena's clocks budget built-in players with the same rule).
pub use ludus_ai::GoLimits;

/// A line that is not a valid command: the message says what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The longest time a `go` may name: one day.
pub const MAX_MILLIS: u64 = 86_400_000;
/// The deepest `go depth`.
pub const MAX_DEPTH: u32 = 1000;

const COMMANDS: &str = "ugi, isready, uginewgame, setoption, position, go, stop, query, quit";

/// Text from outside made safe to echo: control characters become `?` and long text is cut.
pub fn echo(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn error<T>(message: String) -> Result<T, CommandError> {
    Err(CommandError(message))
}

/// Reads one line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Ok(None);
    };
    let command = match first {
        "ugi" => Command::Ugi,
        "isready" => Command::IsReady,
        "uginewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest)?,
        "go" => Command::Go(parse_go(rest)?),
        "query" => Command::Query(parse_query(rest)?),
        other => {
            return error(format!(
                "unknown command '{}': expected one of {COMMANDS}",
                echo(other)
            ))
        }
    };
    if matches!(
        command,
        Command::Ugi | Command::IsReady | Command::NewGame | Command::Stop | Command::Quit
    ) && !rest.is_empty()
    {
        return error(format!("'{first}' takes no arguments"));
    }
    Ok(Some(command))
}

fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let usage = || CommandError("expected setoption name NAME [value VALUE]".to_string());
    let (&"name", words) = words.split_first().ok_or_else(usage)? else {
        return Err(usage());
    };
    let split = words.iter().position(|w| *w == "value");
    let (name, value) = match split {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    if name.is_empty() {
        return Err(usage());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

fn parse_position(words: &[&str]) -> Result<Command, CommandError> {
    let split = words.iter().position(|w| *w == "moves");
    let (head, moves) = match split {
        Some(i) => (&words[..i], words[i + 1..].to_vec()),
        None => (words, Vec::new()),
    };
    let fen = match head.split_first() {
        Some((&"startpos", [])) => None,
        Some((&"fen", text)) if !text.is_empty() => Some(text.join(" ")),
        _ => {
            return error(
                "expected position startpos [moves M...] or position fen POSITION [moves M...]"
                    .to_string(),
            )
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.into_iter().map(str::to_string).collect(),
    })
}

fn number<T: std::str::FromStr + PartialOrd + fmt::Display + Copy>(
    key: &str,
    text: Option<&&str>,
    max: T,
) -> Result<T, CommandError> {
    let Some(text) = text else {
        return error(format!("'go {key}' needs a number"));
    };
    match text.parse::<T>() {
        Ok(value) if value <= max => Ok(value),
        _ => error(format!(
            "bad value '{}' for go {key}: expected a whole number from 0 to {max}",
            echo(text)
        )),
    }
}

/// A clock: negative values (a driver whose clock ran out) count as zero.
fn clock(key: &str, text: Option<&&str>) -> Result<u64, CommandError> {
    if let Some(rest) = text.and_then(|t| t.strip_prefix('-')) {
        if rest.parse::<u64>().is_ok() {
            return Ok(0);
        }
    }
    number(key, text, MAX_MILLIS)
}

fn parse_go(words: &[&str]) -> Result<GoLimits, CommandError> {
    let mut limits = GoLimits::default();
    let mut iter = words.iter();
    while let Some(&key) = iter.next() {
        match key {
            "infinite" => limits.infinite = true,
            "movetime" => limits.movetime = Some(number(key, iter.next(), MAX_MILLIS)?),
            "depth" => limits.depth = Some(number(key, iter.next(), MAX_DEPTH)?.max(1)),
            "nodes" => limits.nodes = Some(number(key, iter.next(), u64::MAX)?.max(1)),
            _ => {
                let seat = clock_seat(key).ok_or_else(|| {
                    CommandError(format!(
                        "unknown go parameter '{}': expected movetime, depth, nodes, infinite, \
                         pNtime or pNinc (N = 1..4), wtime, btime, winc or binc",
                        echo(key)
                    ))
                })?;
                let value = clock(key, iter.next())?;
                if key.ends_with("time") {
                    limits.time[seat] = Some(value);
                } else {
                    limits.inc[seat] = Some(value);
                }
            }
        }
    }
    Ok(limits)
}

/// The seat (0-based) of `p1time` … `p4inc`, or of UCI's `wtime`, `btime`, `winc`, `binc`
/// (seat 1 and seat 2), which drivers written for chess send.
fn clock_seat(key: &str) -> Option<usize> {
    match key {
        "wtime" | "winc" => return Some(0),
        "btime" | "binc" => return Some(1),
        _ => {}
    }
    let rest = key.strip_prefix('p')?;
    let digit = rest.chars().next()?.to_digit(10)? as usize;
    let suffix = &rest[1..];
    ((1..=4).contains(&digit) && (suffix == "time" || suffix == "inc")).then_some(digit - 1)
}

fn parse_query(words: &[&str]) -> Result<Query, CommandError> {
    let query = match words {
        ["gameover"] => Query::GameOver,
        ["result"] => Query::Result,
        ["moves"] => Query::Moves,
        ["position"] => Query::Position,
        [turn] => turn
            .strip_prefix('p')
            .and_then(|r| r.strip_suffix("turn"))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=4).contains(n))
            .map(|n| Query::Turn(n - 1))
            .ok_or_else(|| query_usage(turn))?,
        _ => return Err(query_usage(&words.join(" "))),
    };
    Ok(query)
}

fn query_usage(text: &str) -> CommandError {
    CommandError(format!(
        "unknown query '{}': expected gameover, p1turn (… p4turn), result, moves or position",
        echo(text)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn positions_keep_spaces_inside_the_position_string() {
        assert_eq!(
            ok("position fen NN,-,-,NN/-,-,-,-/-,-,-,-/-,-,-,NN L moves a1 N"),
            Command::Position {
                fen: Some("NN,-,-,NN/-,-,-,-/-,-,-,-/-,-,-,NN L".into()),
                moves: vec!["a1".into(), "N".into()],
            }
        );
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                fen: None,
                moves: vec![]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen moves a1").is_err());
        assert!(parse("position startpos a1").is_err());
    }

    #[test]
    fn go_reads_every_limit_and_refuses_the_rest() {
        let Command::Go(chess) = ok("go wtime 300 btime 200 winc 3 binc 2") else {
            panic!("not go");
        };
        assert_eq!(chess.time, [Some(300), Some(200), None, None]);
        assert_eq!(chess.inc, [Some(3), Some(2), None, None]);
        let Command::Go(limits) = ok("go p1time 1000 p2time -5 p1inc 10 p3time 7 movetime 50")
        else {
            panic!("not go");
        };
        assert_eq!(limits.time, [Some(1000), Some(0), Some(7), None]);
        assert_eq!(limits.inc[0], Some(10));
        assert_eq!(limits.movetime, Some(50));
        assert!(matches!(
            ok("go infinite"),
            Command::Go(GoLimits { infinite: true, .. })
        ));
        for bad in [
            "go depth",
            "go depth x",
            "go movetime 1e9",
            "go p5time 1",
            "go fast",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn setoption_and_queries() {
        assert_eq!(
            ok("setoption name Agent Params value time=0.1 depth=3"),
            Command::SetOption {
                name: "Agent Params".into(),
                value: "time=0.1 depth=3".into()
            }
        );
        assert_eq!(ok("query p2turn"), Command::Query(Query::Turn(1)));
        assert!(parse("query p5turn").is_err());
        assert!(parse("setoption value 3").is_err());
        assert_eq!(parse("   ").unwrap(), None);
    }

    #[test]
    fn errors_echo_safely() {
        let err = parse("\u{1b}]0;evil\u{7}").unwrap_err().to_string();
        assert!(!err.contains('\u{1b}'), "{err}");
        let long = parse(&"x".repeat(10_000)).unwrap_err().to_string();
        assert!(long.len() < 200, "{long}");
    }
}

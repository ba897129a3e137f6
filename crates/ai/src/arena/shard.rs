//! Tournaments across machines: shards of one deterministic game list, written as JSON lines,
//! and their merge into the same report as one run.
//!
//! A shard file starts with a header line (`format`, the tournament `fingerprint`, the game,
//! the players, the total number of games and the shard `I/N`), then one line per game played
//! (its number in the tournament, seats, players, winner, result, length and reason), flushed as
//! each game ends, so a killed shard keeps its finished games. The fingerprint is a hash of
//! everything that defines the game list (game, options, players, games per pair, seed,
//! openings, move time): [`merge`] refuses files of different tournaments, the same game twice
//! and missing games.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{ArenaReport, GameResult};

/// The `format` of a shard file's header.
pub const SHARD_FORMAT: &str = "ludus-arena-shard 1";

/// The most shards a tournament may be cut into.
pub const MAX_SHARDS: usize = 1_000_000;

/// Which part of the game list a run plays: the games whose number `i` has `i % count ==
/// index` (`index` from 0, as Slurm's array task ids and Kubernetes' completion indexes are).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shard {
    /// This shard, from 0.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

/// A bad `--shard`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("bad shard '{0}': expected I/N with 1 <= N <= 1000000 and 0 <= I < N (I counts from 0)")]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || ShardError(text.chars().take(40).collect());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The whole tournament as one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// How many of `total` games this shard plays.
    pub fn games(&self, total: usize) -> usize {
        total.saturating_sub(self.index).div_ceil(self.count)
    }

    /// The tournament number of this shard's `n`-th game.
    pub fn game(&self, n: usize) -> usize {
        n.saturating_mul(self.count).saturating_add(self.index)
    }
}

/// The first line of a shard file.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ShardHeader {
    /// [`SHARD_FORMAT`].
    pub format: String,
    /// The tournament's fingerprint (hex).
    pub fingerprint: String,
    /// The game id.
    pub game: String,
    /// The players, in tournament order.
    pub players: Vec<String>,
    /// Games in the whole tournament.
    pub total: usize,
    /// `I/N`.
    pub shard: String,
}

/// One game line of a shard file.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct ShardGame {
    index: usize,
    seats: Vec<String>,
    players: Vec<usize>,
    winner: Option<usize>,
    result: String,
    plies: u64,
    reason: String,
}

/// The fingerprint of a tournament described by `description` (64-bit FNV-1a, hex).
pub fn fingerprint(description: &str) -> String {
    let hash = description.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Why shards cannot be written or merged.
#[derive(Debug, thiserror::Error)]
pub enum ShardFileError {
    /// A file cannot be read or written.
    #[error("cannot use '{path}': {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// A line that is not what a shard file holds.
    #[error("'{path}' line {line}: not a shard line of ludus arena ({message})")]
    Format {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A file of another tournament.
    #[error(
        "'{path}' is from another tournament (fingerprint {found}, the first file's is {expected})"
    )]
    Fingerprint {
        /// The file.
        path: PathBuf,
        /// Its fingerprint.
        found: String,
        /// The first file's.
        expected: String,
    },
    /// The same game in two places.
    #[error("game {0} appears twice (the same shard given twice?)")]
    Duplicate(usize),
    /// Games missing.
    #[error("{missing} of {total} games are missing (a shard not given or not finished)")]
    Missing {
        /// How many.
        missing: usize,
        /// Of how many.
        total: usize,
    },
    /// No file.
    #[error("no shard file given")]
    NoFiles,
}

/// Writes a shard file as games end.
#[derive(Debug)]
pub struct ShardWriter {
    path: PathBuf,
    file: BufWriter<File>,
}

impl ShardWriter {
    /// Creates `path` (replacing it) and writes `header`.
    pub fn create(path: &Path, header: &ShardHeader) -> Result<Self, ShardFileError> {
        let io = |reason| ShardFileError::Io {
            path: path.to_path_buf(),
            reason,
        };
        let file = File::create(path).map_err(io)?;
        let mut writer = ShardWriter {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        };
        writer.line(&serde_json::to_string(header).unwrap_or_default())?;
        Ok(writer)
    }

    fn line(&mut self, text: &str) -> Result<(), ShardFileError> {
        writeln!(self.file, "{text}")
            .and_then(|()| self.file.flush())
            .map_err(|reason| ShardFileError::Io {
                path: self.path.clone(),
                reason,
            })
    }

    /// Appends one finished game.
    pub fn game(&mut self, game: &GameResult) -> Result<(), ShardFileError> {
        let line = ShardGame {
            index: game.index,
            seats: game.seats.clone(),
            players: game.agents.clone(),
            winner: game.winner,
            result: game.result.clone(),
            plies: game.plies,
            reason: game.reason.clone(),
        };
        self.line(&serde_json::to_string(&line).unwrap_or_default())
    }
}

/// Reads shard files and builds the report of the whole tournament.
pub fn merge(paths: &[PathBuf]) -> Result<ArenaReport, ShardFileError> {
    merge_with_warnings(paths, &mut |_| {})
}

/// [`merge`], telling `warn` of each file whose last line was cut (a shard killed while it
/// wrote a game): that line is dropped, as if the game had not ended.
pub fn merge_with_warnings(
    paths: &[PathBuf],
    warn: &mut dyn FnMut(String),
) -> Result<ArenaReport, ShardFileError> {
    let mut first: Option<ShardHeader> = None;
    let mut games = BTreeMap::new();
    for path in paths {
        read_shard(path, &mut first, &mut games, warn, &mut None)?;
    }
    let header = first.ok_or(ShardFileError::NoFiles)?;
    if games.len() != header.total || games.keys().any(|&i| i >= header.total) {
        return Err(ShardFileError::Missing {
            missing: header.total.saturating_sub(games.len()),
            total: header.total,
        });
    }
    let results = games.into_values().map(ShardGame::result).collect();
    Ok(ArenaReport::new(&header.game, &header.players, results))
}

impl ShardGame {
    fn result(self) -> GameResult {
        GameResult {
            index: self.index,
            seats: self.seats,
            result: self.result,
            plies: self.plies,
            agents: self.players,
            winner: self.winner,
            reason: self.reason,
        }
    }
}

/// The games an interrupted run of the tournament `expected` describes wrote to `path`, for
/// `--resume`: its fingerprint and shard must be `expected`'s. A last line cut short (the run
/// was stopped while writing it) is dropped: that game is played again.
pub(crate) fn read_resumed(
    path: &Path,
    expected: &ShardHeader,
) -> Result<Vec<GameResult>, ShardFileError> {
    let mut first = Some(expected.clone());
    let mut games = BTreeMap::new();
    let mut header = None;
    read_shard(path, &mut first, &mut games, &mut |_| {}, &mut header)?;
    let found = header.map(|h| h.shard).unwrap_or_default();
    if found != expected.shard {
        return Err(ShardFileError::Format {
            path: path.to_path_buf(),
            line: 1,
            message: format!("shard {found}, this run plays {}", expected.shard),
        });
    }
    Ok(games.into_values().map(ShardGame::result).collect())
}

/// Reads one shard file into `games`; its header must match `first` (or becomes it), and is
/// kept in `own`.
fn read_shard(
    path: &Path,
    first: &mut Option<ShardHeader>,
    games: &mut BTreeMap<usize, ShardGame>,
    warn: &mut dyn FnMut(String),
    own: &mut Option<ShardHeader>,
) -> Result<(), ShardFileError> {
    let io = |reason| ShardFileError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let format = |line: usize, message: String| ShardFileError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut text = String::new();
    BufReader::new(File::open(path).map_err(io)?)
        .read_to_string(&mut text)
        .map_err(io)?;
    // Every whole line ends with a line break: only the last line can lack it, when the
    // writer was killed in the middle of it.
    let cut = !text.is_empty() && !text.ends_with('\n');
    let count = text.lines().count();
    let mut lines = text.lines().enumerate();
    let header: ShardHeader = match lines.next() {
        Some((_, text)) => serde_json::from_str(text).map_err(|e| format(1, e.to_string()))?,
        _ => return Err(format(1, "empty file".to_string())),
    };
    if header.format != SHARD_FORMAT {
        return Err(format(1, format!("format '{}'", header.format)));
    }
    match first {
        Some(expected) if expected.fingerprint != header.fingerprint => {
            return Err(ShardFileError::Fingerprint {
                path: path.to_path_buf(),
                found: header.fingerprint,
                expected: expected.fingerprint.clone(),
            })
        }
        Some(_) => {}
        None => *first = Some(header.clone()),
    }
    *own = Some(header);
    for (i, text) in lines {
        let game: ShardGame = match serde_json::from_str(text) {
            Ok(game) => game,
            Err(_) if cut && i + 1 == count => {
                warn(format!(
                    "'{}' line {}: cut short (the shard was stopped while writing it): dropped",
                    path.display(),
                    i + 1
                ));
                continue;
            }
            Err(e) => return Err(format(i + 1, e.to_string())),
        };
        let index = game.index;
        if games.insert(index, game).is_some() {
            return Err(ShardFileError::Duplicate(index));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_game_numbers() {
        let shard: Shard = "1/3".parse().unwrap();
        assert_eq!(shard.games(10), 3, "games 1, 4, 7");
        assert_eq!(shard.game(2), 7);
        assert_eq!("2/3".parse::<Shard>().unwrap().games(10), 3);
        assert_eq!(Shard::ALL.games(10), 10);
        for bad in ["3/3", "0/0", "1", "a/b", "-1/2", "0/2000000"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fingerprints_tell_tournaments_apart() {
        assert_eq!(fingerprint("a"), fingerprint("a"));
        assert_ne!(fingerprint("a"), fingerprint("b"));
        assert_eq!(fingerprint("").len(), 16);
    }
}

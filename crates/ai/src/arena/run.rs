//! Running a tournament: worker threads take the next game number in turn and play it; the
//! calling thread gathers the results, writes the shard file, feeds the SPRT and stops the
//! workers when it decides or a game fails.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use ludus_engine::{Game, Heuristic, Session};

use super::play::play_fixture;
use super::schedule::Schedule;
use super::shard::{fingerprint, read_resumed, ShardHeader, ShardWriter, SHARD_FORMAT};
use super::sprt_tracker::SprtTracker;
use super::{check_ranges, ArenaConfig, ArenaError, ArenaReport, GameResult, Progress};
use crate::build_agent;

/// Like [`run_arena`](super::run_arena), reporting the SPRT's state too. Games run on
/// `threads` workers that take the next game number in turn; this thread gathers the results,
/// writes the shard file and stops the workers when the SPRT decides.
pub fn run_arena_with<G: Game + Heuristic>(
    config: &ArenaConfig<G>,
    mut observe: impl FnMut(&Progress),
) -> Result<ArenaReport, ArenaError> {
    let players = config.players();
    check_ranges(config, players.len())?;
    for spec in &config.agents {
        build_agent::<G>(spec, 0)?;
    }
    if let Some(dir) = &config.save_dir {
        std::fs::create_dir_all(dir).map_err(|reason| ArenaError::SaveDir {
            path: dir.clone(),
            reason,
        })?;
    }
    let schedule = Schedule {
        players: players.len(),
        games_per_pair: config.games_per_pair,
        seat_count: Session::<G>::new(&config.options, config.seed)
            .state()
            .seat_count(),
    };
    let names: Vec<String> = players.iter().map(ToString::to_string).collect();
    let (mut gathered, held, decided) = start_gathering(config, &names, schedule.total())?;
    let mine = config.shard.games(schedule.total());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(decided);
    std::thread::scope(|scope| {
        let (send, results) = channel();
        for _ in 0..worker_count(config.threads, mine) {
            let (send, next, stop, players, schedule, held) =
                (send.clone(), &next, &stop, &players, &schedule, &held);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= mine {
                        break;
                    }
                    if held.contains(&config.shard.game(n)) {
                        continue;
                    }
                    let fixture = schedule.fixture(config.shard.game(n));
                    if send.send(play_fixture(config, players, &fixture)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for result in results {
            if gathered.add(result) {
                stop.store(true, Ordering::Relaxed);
            }
            observe(&gathered.progress(mine));
        }
    });
    gathered.report(G::INFO.id, &names)
}

/// The workers for `mine` games: `threads`, or one per core for 0, never more than the games.
fn worker_count(threads: usize, mine: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    match threads {
        0 => cores,
        n => n,
    }
    .min(mine)
    .max(1)
}

/// The gatherer of this run, holding the games of the interrupted run it resumes (if
/// `config.resume`), their numbers, and whether they already end it (the SPRT decided).
fn start_gathering<G: Game>(
    config: &ArenaConfig<G>,
    names: &[String],
    total: usize,
) -> Result<(Gathered, BTreeSet<usize>, bool), ArenaError> {
    let header = shard_header(config, names, total);
    // Read before the writer replaces the file: it writes the resumed games back first.
    let resumed = match (&config.out, config.resume) {
        (Some(path), true) if path.exists() => read_resumed(path, &header)?,
        _ => Vec::new(),
    };
    let held = resumed.iter().map(|g| g.index).collect();
    let mut gathered = Gathered {
        writer: match &config.out {
            Some(path) => Some(ShardWriter::create(path, &header)?),
            None => None,
        },
        sprt: config
            .sprt
            .map(|c| SprtTracker::new(c, config.sprt_player, names)),
        games: Vec::new(),
        failure: None,
    };
    let mut decided = false;
    for game in resumed {
        decided |= gathered.add(Ok(game));
    }
    Ok((gathered, held, decided))
}

/// The header of the tournament's `--out` file.
fn shard_header<G: Game>(config: &ArenaConfig<G>, names: &[String], total: usize) -> ShardHeader {
    ShardHeader {
        format: SHARD_FORMAT.to_string(),
        fingerprint: fingerprint(&config.description()),
        game: G::INFO.id.to_string(),
        players: names.to_vec(),
        total,
        shard: config.shard.to_string(),
    }
}

/// What the gathering thread holds.
struct Gathered {
    writer: Option<ShardWriter>,
    sprt: Option<SprtTracker>,
    games: Vec<GameResult>,
    failure: Option<ArenaError>,
}

impl Gathered {
    /// Takes one game's result; true when the workers should stop (the SPRT decided, or
    /// something failed).
    fn add(&mut self, result: Result<GameResult, ArenaError>) -> bool {
        let game = match result {
            Ok(game) => game,
            Err(error) => {
                self.failure.get_or_insert(error);
                return true;
            }
        };
        let mut stop = false;
        if let Some(Err(error)) = self.writer.as_mut().map(|w| w.game(&game)) {
            self.failure.get_or_insert(error.into());
            stop = true;
        }
        if let Some(tracker) = self.sprt.as_mut() {
            stop |= tracker.add(&game).verdict.is_some();
        }
        self.games.push(game);
        stop
    }

    fn progress(&self, total: usize) -> Progress {
        Progress {
            done: self.games.len(),
            total,
            sprt: self.sprt.as_ref().map(SprtTracker::summary),
        }
    }

    /// The report of the games in schedule order, or the first failure.
    fn report(mut self, game: &str, names: &[String]) -> Result<ArenaReport, ArenaError> {
        if let Some(error) = self.failure {
            return Err(error);
        }
        self.games.sort_by_key(|g| g.index);
        let mut report = ArenaReport::new(game, names, self.games);
        report.sprt = self.sprt.as_ref().map(SprtTracker::summary);
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::worker_count;

    #[test]
    fn workers_never_outnumber_the_games() {
        assert_eq!(worker_count(8, 3), 3);
        assert_eq!(worker_count(2, 100), 2);
        assert_eq!(worker_count(5, 0), 1);
        assert!(worker_count(0, 1000) >= 1);
    }
}

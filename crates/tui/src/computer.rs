//! The computer players' side of a game: starting and stopping searches, the watching delay,
//! their answers (decisions, progress, hints) and the evaluation they leave for the panel,
//! pause, step and speed.

use ludus_ai::{AnyAnalysis, StopFlag, LEVEL_FIVE_WITHIN};

use super::app::{App, Insight, Play, Thinking, SPEEDS};
use super::msg::Cmd;
use super::play::after_change;
use super::pointing;
use super::setup::level_of;
use super::worker::{Job, SharedAgent, Task};
use crate::players::Player;

/// The computer players tried for hints, strongest first.
const HINT_SPECS: [&str; 4] = ["ai:4", "ai:3", "ai:2", "ai:1"];

/// What a hint player searches with: alpha-beta (level 4) also tries the exact solver level 5
/// uses near the end, so that a proved position reads "wins in 3 turns" rather than a score.
fn hint_search(spec: &str) -> String {
    if spec == HINT_SPECS[0] {
        format!("{spec}:solve={LEVEL_FIVE_WITHIN}")
    } else {
        spec.to_string()
    }
}

/// A computer player as people call it: `level 4`, or its spec.
fn who(spec: &str) -> String {
    level_of(spec).map_or_else(|| spec.to_string(), |level| format!("level {level}"))
}

/// Starts the search of the computer to move.
pub fn think(app: &mut App) -> Option<Cmd> {
    let id = app.next_job();
    let play = app.screen.play_mut()?;
    let seat = play.game.to_move()?;
    let agent = play.seats.get(seat.to_usize())?.agent.clone()?;
    let stop = StopFlag::default();
    play.wait = 0;
    play.thinking = Some(Thinking {
        job: id,
        stop: stop.clone(),
    });
    Some(Cmd::Think(Job {
        id,
        game: play.game.clone(),
        agent,
        task: Task::Move,
        stop,
    }))
}

/// Stops every search of the current game.
pub fn stop_all(app: &mut App) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    play.wait = 0;
    let mut cmd = None;
    for thinking in [play.thinking.take(), play.hint_job.take()]
        .into_iter()
        .flatten()
    {
        cmd = Cmd::then(cmd, Some(Cmd::Stop(thinking.stop)));
    }
    cmd
}

/// Time passes: the watching delay counts down.
pub fn tick(app: &mut App) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    if play.wait == 0 || play.paused {
        return None;
    }
    play.wait -= 1;
    if play.wait == 0 && play.thinking.is_none() {
        return think(app);
    }
    None
}

/// A computer's decision arrives.
pub fn on_ai_move(app: &mut App, job: u64, result: Result<AnyAnalysis, String>) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    if play.thinking.as_ref().map(|t| t.job) != Some(job) {
        return None; // stale: an undo or a new game came in between
    }
    play.thinking = None;
    let seat = play.game.to_move()?;
    let played = result.and_then(|analysis| {
        play.game
            .play(&analysis.notation)
            .map(|_| analysis)
            .map_err(|e| e.to_string())
    });
    match played {
        Ok(analysis) => {
            let by = who(&play.seats[seat.to_usize()].kind);
            let insight = Insight {
                seat,
                analysis,
                by,
                live: false,
            };
            let at = play.game.entry_count();
            play.evaluations.retain(|(entry, _)| *entry < at);
            play.evaluations.push((at, insight.clone()));
            play.insight = Some(insight);
            after_change(app, false)
        }
        Err(e) => {
            play.warn(format!("computer player: {e}"));
            play.paused = true;
            None
        }
    }
}

/// A search reports progress.
pub fn on_ai_info(app: &mut App, job: u64, analysis: AnyAnalysis) {
    let Some(play) = app.screen.play_mut() else {
        return;
    };
    let is = |t: &Option<Thinking>| t.as_ref().map(|t| t.job) == Some(job);
    let by = if is(&play.thinking) {
        play.game
            .to_move()
            .and_then(|s| play.seats.get(s.to_usize()))
            .map(|s| who(&s.kind))
    } else if is(&play.hint_job) {
        Some("hint".to_string())
    } else {
        None
    };
    if let (Some(by), Some(seat)) = (by, play.game.to_move()) {
        play.insight = Some(Insight {
            seat,
            analysis,
            by,
            live: true,
        });
    }
}

/// A hint arrives.
pub fn on_hint(app: &mut App, job: u64, result: Result<AnyAnalysis, String>) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    if play.hint_job.as_ref().map(|t| t.job) != Some(job) {
        return None;
    }
    play.hint_job = None;
    let by = format!(
        "hint, {}",
        who(play.hint_agent.as_ref().map_or("", |(_, s)| s))
    );
    match result {
        Ok(analysis) => {
            let notation = analysis.notation.clone();
            let cells = pointing::cells_of(&play.game.legal_moves(), &notation);
            play.note_passing(format!("hint: {notation}"));
            play.hint = Some((notation, cells));
            if let Some(seat) = play.game.to_move() {
                play.insight = Some(Insight {
                    seat,
                    analysis,
                    by,
                    live: false,
                });
            }
        }
        Err(e) => play.warn(format!("no hint: {e}")),
    }
    None
}

pub fn hint(app: &mut App) -> Option<Cmd> {
    let id = app.next_job();
    let play = app.screen.play_mut()?;
    if play.human_to_move().is_none() {
        play.warn("hints are for a person to move");
        return None;
    }
    if play.hint_job.is_some() {
        return None;
    }
    if play.hint_agent.is_none() {
        let id = play.game.info().id;
        play.hint_agent = HINT_SPECS.iter().find_map(|spec| {
            match Player::parse(&hint_search(spec), id, 0x4849_4E54).ok()? {
                Player::Computer(agent) => Some((SharedAgent::new(agent), *spec)),
                Player::Human => None,
            }
        });
    }
    let Some((agent, _)) = play.hint_agent.clone() else {
        play.warn("no computer player can give hints for this game");
        return None;
    };
    let stop = StopFlag::default();
    play.hint_job = Some(Thinking {
        job: id,
        stop: stop.clone(),
    });
    play.note_passing("looking for a hint…");
    Some(Cmd::Think(Job {
        id,
        game: play.game.clone(),
        agent,
        task: Task::Hint,
        stop,
    }))
}

pub fn toggle_pause(app: &mut App) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    play.paused = !play.paused;
    if play.paused {
        play.note("paused: computers wait (n steps, p resumes)");
        None
    } else {
        play.note("resumed");
        if play.thinking.is_none() && play.game.to_move().is_some_and(|s| play.is_computer(s)) {
            return think(app);
        }
        None
    }
}

pub fn step(app: &mut App) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    let computer = play.game.to_move().is_some_and(|s| play.is_computer(s));
    if computer && play.thinking.is_none() {
        return think(app);
    }
    None
}

pub fn change_speed(play: &mut Play, delta: isize) {
    let next = (play.speed as isize + delta).clamp(0, SPEEDS.len() as isize - 1) as usize;
    play.speed = next;
    play.note(format!("computer speed: {}", SPEEDS[next].1));
}

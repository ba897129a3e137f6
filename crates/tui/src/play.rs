//! Updates of the game screens: pointing and typing moves, the commands of the key bar (undo,
//! redo, save, resign, menu, quit; hint, pause, step and speed go to `computer`), the game-over
//! summary's offers and the replay.

use std::path::PathBuf;

use ludus_engine::{CellId, Seat};
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::app::{
    App, Confirm, Phase, Play, Prompt, PromptKind, Replay, Screen, ScreenKind, SPEEDS,
};
use super::layout::{game_areas, BoardGeometry};
use super::msg::Cmd;
use super::pointing::{self, Pick};
use super::theme::THEMES;
use super::view::{game_over_lines, GAME_OVER_KEYS, GAME_OVER_KEY_WIDTH};
use super::{computer, menu, update};

/// Starts showing a game.
pub fn start(app: &mut App, mut play: Play) -> Option<Cmd> {
    let view = play.game.view();
    play.cursor = pointing::initial_cursor(&view, &play.game.legal_moves());
    app.screen = Screen::Game {
        play: Box::new(play),
        phase: Phase::Playing,
    };
    after_change(app, false)
}

/// Brings the screens in line with the game after anything changed it, and starts the next
/// computer decision. `by_human` skips the watching delay: people do not wait for themselves.
pub fn after_change(app: &mut App, by_human: bool) -> Option<Cmd> {
    let on_game_screen = matches!(
        app.screen.kind(),
        ScreenKind::Playing | ScreenKind::GameOver
    );
    let play = app.screen.play_mut()?;
    // Whatever went wrong before this change is stale now, and so is a hint.
    play.notes.retain(|note| !note.error && !note.passing);
    play.selection.clear();
    play.chooser = None;
    play.hint = None;
    play.hint_job = None;
    play.wait = 0;
    let cells = play.game.view().cells.len();
    if play.cursor.to_usize() >= cells {
        play.cursor = CellId(0);
    }
    if announce_seats_out(play) && play.game.outcome().is_none() && on_game_screen {
        app.confirm = Some(Confirm::LeaveOrWatch);
    }
    if let Some(outcome) = play.game.outcome() {
        let text = match outcome.winner() {
            Some(seat) => format!("{} wins: {}", play.label(seat), outcome.reason),
            None => format!("draw: {}", outcome.reason),
        };
        play.note(text);
        set_phase(app, on_game_screen, Phase::Over);
        return None;
    }
    set_phase(app, on_game_screen, Phase::Playing);
    let play = app.screen.play_mut()?;
    let seat = play.game.to_move()?;
    if !play.is_computer(seat) || play.thinking.is_some() || play.paused {
        return None;
    }
    let delay = SPEEDS[play.speed].0;
    if by_human || delay == 0 {
        computer::think(app)
    } else {
        play.wait = delay;
        None
    }
}

/// Shows the game screen `phase` when a game screen (not a rules page over it) is showing.
fn set_phase(app: &mut App, on_game_screen: bool, phase: Phase) {
    if let (Some(now), true) = (app.screen.phase_mut(), on_game_screen) {
        *now = phase;
    }
}

/// Notes every seat that went out with the last move ("Blue is out after Green played …");
/// true when the last person still playing went out, so they may choose to leave or watch.
fn announce_seats_out(play: &mut Play) -> bool {
    let out: Vec<Seat> = play
        .game
        .view()
        .seats
        .iter()
        .filter(|s| !s.alive)
        .map(|s| s.seat)
        .collect();
    let newly: Vec<Seat> = out
        .iter()
        .copied()
        .filter(|s| !play.out.contains(s))
        .collect();
    play.out = out;
    let last = play.game.history().last().cloned();
    let mut person_out = false;
    for seat in newly {
        let text = match &last {
            Some(turn) if turn.seat != seat => format!(
                "{} is out after {} played {}",
                play.label(seat),
                play.label(turn.seat),
                turn.text
            ),
            _ => format!("{} is out", play.label(seat)),
        };
        play.note(text);
        person_out |= !play.is_computer(seat);
    }
    let person_left = (0..play.game.seat_count())
        .map(|i| Seat::new(i as u8))
        .any(|seat| !play.is_computer(seat) && !play.out.contains(&seat));
    person_out && !person_left && play.has_human()
}

/// A save finished.
pub fn on_saved(app: &mut App, path: PathBuf, result: Result<(), String>) {
    let Some(play) = app.screen.play_mut() else {
        return;
    };
    match result {
        Ok(()) => {
            play.note(format!("saved to {}", path.display()));
            play.saved_entries = Some(play.game.entry_count());
            play.save_path = Some(path);
        }
        Err(e) => play.warn(format!("not saved: {e}")),
    }
}

/// Keys on the game screen.
pub fn play_key(app: &mut App, code: KeyCode) -> Option<Cmd> {
    if app.screen.play()?.chooser.is_some() {
        return chooser_key(app, code);
    }
    let play = app.screen.play_mut()?;
    match code {
        KeyCode::Left => move_cursor(play, -1, 0),
        KeyCode::Right => move_cursor(play, 1, 0),
        KeyCode::Up => move_cursor(play, 0, 1),
        KeyCode::Down => move_cursor(play, 0, -1),
        KeyCode::Enter | KeyCode::Char(' ') => {
            let cell = play.cursor;
            return select(app, cell);
        }
        KeyCode::Esc => {
            if play.selection.is_empty() && play.hint.is_none() {
                app.confirm = Some(Confirm::Menu);
            } else {
                play.selection.clear();
                play.hint = None;
            }
        }
        KeyCode::Char(':' | '/') => {
            // Open even while a computer thinks, so the keys that follow are typed, not
            // taken as commands; the move is played (or kept) on Enter.
            app.prompt = Some(Prompt {
                kind: PromptKind::Move,
                text: String::new(),
                choices: Vec::new(),
            });
        }
        KeyCode::Char('h') => return computer::hint(app),
        KeyCode::Char('u') => return undo(app),
        KeyCode::Char('r') => return redo(app),
        KeyCode::Char('s') => save_prompt(app),
        KeyCode::Char('R') => resign_prompt(app),
        KeyCode::Char('p') => return computer::toggle_pause(app),
        KeyCode::Char('n') => return computer::step(app),
        KeyCode::Char('+' | '=') => computer::change_speed(play, -1),
        KeyCode::Char('-') => computer::change_speed(play, 1),
        KeyCode::Char('m') => app.confirm = Some(Confirm::Menu),
        KeyCode::Char('q') => app.confirm = Some(Confirm::Quit),
        KeyCode::Char('?') => show_help(app),
        KeyCode::Char('t') => return Some(menu::next_theme(app)),
        _ => {}
    }
    None
}

fn move_cursor(play: &mut Play, dx: i32, dy: i32) {
    play.cursor = pointing::step_cursor(&play.game.view(), play.cursor, dx, dy);
}

fn show_help(app: &mut App) {
    let Some(play) = app.screen.play() else {
        return;
    };
    let id = play.game.info().id;
    menu::open_help(app, Some(id));
}

/// A click at screen position (column, row).
pub fn click(app: &mut App, column: u16, row: u16) -> Option<Cmd> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let play = app.screen.play_mut()?;
    let view = play.game.view();
    let geometry = BoardGeometry::fit(&view, game_areas(area).board)?;
    let cell = geometry.cell_at(&view, column, row)?;
    play.cursor = cell;
    if play.chooser.is_some() {
        play.chooser = None;
    }
    select(app, cell)
}

/// A person selects `cell` for the next decision.
pub fn select(app: &mut App, cell: CellId) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    if play.human_to_move().is_none() {
        play.warn(if play.game.outcome().is_some() {
            "the game is over"
        } else {
            "the computer is to move"
        });
        return None;
    }
    let moves = play.game.legal_moves();
    let view = play.game.view();
    let pick = if moves.iter().all(|m| m.input.cells.is_empty()) {
        pointing::cell_free(&moves).map_or(Pick::Illegal("no legal move".into()), Pick::Choose)
    } else {
        pointing::pick(&view, &moves, &play.selection, cell)
    };
    match pick {
        Pick::Play(notation) => return play_notation(app, &notation),
        Pick::Choose(chooser) => play.chooser = Some(chooser),
        Pick::Select(cells) => play.selection = cells,
        Pick::Illegal(reason) => match pointing::cell_free(&moves) {
            Some(chooser) if play.selection.is_empty() => play.chooser = Some(chooser),
            _ => play.warn(reason),
        },
    }
    None
}

fn chooser_key(app: &mut App, code: KeyCode) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    let chooser = play.chooser.as_mut()?;
    let count = chooser.entries.len() + usize::from(chooser.more);
    match code {
        KeyCode::Up => chooser.index = (chooser.index + count - 1) % count,
        KeyCode::Down | KeyCode::Tab => chooser.index = (chooser.index + 1) % count,
        KeyCode::Esc => {
            play.chooser = None;
            play.selection.clear();
        }
        KeyCode::Char(c @ '1'..='9') => {
            let index = c as usize - '1' as usize;
            if index < count {
                chooser.index = index;
                return choose(app);
            }
        }
        KeyCode::Enter | KeyCode::Char(' ') => return choose(app),
        _ => {}
    }
    None
}

fn choose(app: &mut App) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    let chooser = play.chooser.take()?;
    if let Some((_, notation)) = chooser.entries.get(chooser.index) {
        let notation = notation.clone();
        return play_notation(app, &notation);
    }
    // "keep selecting": keep the selection of the chosen cells.
    let moves = play.game.legal_moves();
    let first = chooser.entries.first().map(|(_, n)| n.as_str());
    play.selection = first.map_or_else(Vec::new, |n| pointing::cells_of(&moves, n));
    None
}

/// Plays a decision chosen by pointing.
fn play_notation(app: &mut App, notation: &str) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    match play.game.play(notation) {
        Ok(_) => after_change(app, true),
        Err(e) => {
            play.warn(e.to_string());
            None
        }
    }
}

/// Plays a move typed in notation (a decision or a whole turn).
pub fn play_typed(app: &mut App, text: &str) -> Option<Cmd> {
    let play = app.screen.play_mut()?;
    if play.human_to_move().is_none() {
        play.warn("not your turn yet: the move stays in the prompt");
        app.prompt = Some(Prompt {
            kind: PromptKind::Move,
            text: text.to_string(),
            choices: Vec::new(),
        });
        return None;
    }
    play_notation(app, text)
}

/// Takes back moves: against a computer, back to the person's last decision; between
/// computers only, one decision, and play pauses.
fn undo(app: &mut App) -> Option<Cmd> {
    let stop = computer::stop_all(app);
    let play = app.screen.play_mut()?;
    if !play.has_human() {
        if !play.game.undo() {
            play.warn("nothing to undo");
            return stop;
        }
        play.paused = true;
        play.insight = None;
        play.note("undone one decision; paused (p resumes, n steps)");
        return Cmd::then(stop, after_change(app, true));
    }
    let mut game = play.game.clone();
    let mut undone = 0;
    loop {
        if !game.undo() {
            play.warn("nothing to undo");
            return stop;
        }
        undone += 1;
        if game.to_move().is_some_and(|s| !play.is_computer(s)) {
            break;
        }
    }
    play.game = game;
    play.insight = None;
    play.note(format!(
        "undone {undone} decision{}",
        if undone == 1 { "" } else { "s" }
    ));
    Cmd::then(stop, after_change(app, true))
}

/// Replays undone moves, up to the next decision of a person.
fn redo(app: &mut App) -> Option<Cmd> {
    let stop = computer::stop_all(app);
    let play = app.screen.play_mut()?;
    if !play.game.redo() {
        play.warn("nothing to redo");
        return stop;
    }
    play.insight = None;
    let mut redone = 1;
    while play.has_human()
        && play.game.redo_len() > 0
        && play.game.to_move().is_some_and(|s| play.is_computer(s))
    {
        play.game.redo();
        redone += 1;
    }
    play.note(format!(
        "redone {redone} decision{}",
        if redone == 1 { "" } else { "s" }
    ));
    Cmd::then(stop, after_change(app, true))
}

fn save_prompt(app: &mut App) {
    let Some(play) = app.screen.play() else {
        return;
    };
    let text = play.save_path.as_ref().map_or_else(
        || format!("ludus-{}.json", play.game.info().id),
        |p| p.display().to_string(),
    );
    app.prompt = Some(Prompt {
        kind: PromptKind::Save,
        text,
        choices: Vec::new(),
    });
}

/// Saves the game to `path`.
pub fn save_to(app: &mut App, path: PathBuf) -> Option<Cmd> {
    let play = app.screen.play()?;
    Some(Cmd::Save {
        path,
        record: Box::new(play.game.record()),
    })
}

fn resign_prompt(app: &mut App) {
    let Some(play) = app.screen.play() else {
        return;
    };
    let Some(to_move) = play.game.to_move() else {
        return;
    };
    let humans: Vec<Seat> = (0..play.seats.len())
        .map(|i| Seat::new(i as u8))
        .filter(|s| !play.is_computer(*s))
        .collect();
    let seat = match humans.as_slice() {
        [only] => *only,
        _ => to_move,
    };
    app.confirm = Some(Confirm::Resign(seat));
}

/// `seat` gives up.
pub fn resign(app: &mut App, seat: Seat) -> Option<Cmd> {
    let stop = computer::stop_all(app);
    let play = app.screen.play_mut()?;
    play.game.resign(seat);
    let label = play.label(seat);
    play.note(format!("{label} resigns"));
    Cmd::then(stop, after_change(app, true))
}

/// Leaves the game for the start screen.
pub fn leave(app: &mut App) -> Option<Cmd> {
    let stop = computer::stop_all(app);
    app.screen = Screen::Menu { index: 0 };
    stop
}

/// Keys on the game-over summary.
pub fn over_key(app: &mut App, code: KeyCode) -> Option<Cmd> {
    match code {
        KeyCode::Char('s') => save_prompt(app),
        KeyCode::Char('v') => {
            let replay = Replay::new(&app.screen.play()?.game);
            *app.screen.phase_mut()? = Phase::Replay(replay);
        }
        KeyCode::Char('a') => {
            let setup = app.screen.play()?.setup.clone();
            return menu::start_game(app, setup);
        }
        KeyCode::Char('u') => return undo(app),
        KeyCode::Char('m') | KeyCode::Esc => return leave(app),
        KeyCode::Char('q') => return update::quit(app),
        KeyCode::Char('?') => show_help(app),
        _ => {}
    }
    None
}

/// A click on the game-over box's keys acts as the key; elsewhere, as on the board.
pub fn over_click(app: &mut App, column: u16, row: u16) -> Option<Cmd> {
    let panel = game_areas(Rect::new(0, 0, app.size.0, app.size.1)).panel;
    let play = app.screen.play()?;
    let theme = &THEMES[app.theme % THEMES.len()];
    let count = game_over_lines(play, theme, panel.width.saturating_sub(2) as usize).len();
    let line = usize::from(row.checked_sub(panel.y + 1)?);
    let pair = line.checked_sub(count - GAME_OVER_KEYS.len())?;
    let item = column.checked_sub(panel.x + 1)? / GAME_OVER_KEY_WIDTH;
    let (key, _) = GAME_OVER_KEYS.get(pair)?.get(usize::from(item))?;
    over_key(app, KeyCode::Char(*key))
}

/// Keys of the replay: step back and forth through the decisions.
pub fn replay_key(app: &mut App, code: KeyCode) {
    let Some(Phase::Replay(replay)) = app.screen.phase_mut() else {
        return;
    };
    match code {
        KeyCode::Right | KeyCode::Char('n' | ' ') => {
            replay.game.redo();
        }
        KeyCode::Left | KeyCode::Char('b') => {
            replay.game.undo();
        }
        KeyCode::Home => while replay.game.undo() {},
        KeyCode::End => while replay.game.redo() {},
        KeyCode::Esc | KeyCode::Char('q') => {
            if let Some(phase) = app.screen.phase_mut() {
                *phase = Phase::Over;
            }
        }
        _ => {}
    }
}

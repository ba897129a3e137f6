//! `update`: the one place the model changes. It never blocks and does no I/O; effects go
//! back to the loop as a [`Cmd`]. Keys go to the open prompt or question first, then to the
//! screen showing (start screen and setup in `menu`, the game in `play`).

use std::path::PathBuf;

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::app::{App, Confirm, PromptKind, ScreenKind};
use super::msg::{Cmd, Msg};
use super::setup::typed_value;
use super::{computer, menu, play};

/// Applies one message to the app; returns the effects to run.
pub fn update(app: &mut App, msg: Msg) -> Option<Cmd> {
    match msg {
        Msg::Resize(w, h) => {
            app.size = (w, h);
            None
        }
        Msg::Tick => {
            app.ticks += 1;
            computer::tick(app)
        }
        Msg::AiMove { job, result } => computer::on_ai_move(app, job, result),
        Msg::AiInfo { job, analysis } => {
            computer::on_ai_info(app, job, analysis);
            None
        }
        Msg::Hint { job, result } => computer::on_hint(app, job, result),
        Msg::Saved { path, result } => {
            play::on_saved(app, path, result);
            None
        }
        Msg::Loaded { path, result } => menu::on_loaded(app, path, result),
        Msg::SavesFound(names) => {
            if let Some(prompt) = app.prompt.as_mut().filter(|p| p.kind == PromptKind::Load) {
                prompt.choices = names;
            }
            None
        }
        Msg::ThemeNotRemembered(reason) => {
            let text = format!("the theme is not remembered: {reason}");
            match app.screen.play_mut() {
                Some(play) => play.warn(text),
                None => app.notify(text, true),
            }
            None
        }
        Msg::Key(key) => on_key(app, key),
        Msg::Mouse(mouse) => {
            let click = matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left));
            let free = app.prompt.is_none() && app.confirm.is_none();
            if !(click && free) {
                return None;
            }
            let (column, row) = (mouse.column, mouse.row);
            match app.screen.kind() {
                ScreenKind::Playing => play::click(app, column, row),
                ScreenKind::Menu => menu::menu_click(app, column, row),
                ScreenKind::Setup => menu::setup_click(app, column, row),
                ScreenKind::GameOver => play::over_click(app, column, row),
                ScreenKind::Replay | ScreenKind::Help => None,
            }
        }
    }
}

fn on_key(app: &mut App, key: KeyEvent) -> Option<Cmd> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return quit(app);
    }
    if app.confirm.is_some() {
        return confirm_key(app, key.code);
    }
    if app.prompt.is_some() {
        return prompt_key(app, key);
    }
    match app.screen.kind() {
        ScreenKind::Menu => menu::menu_key(app, key.code),
        ScreenKind::Setup => menu::setup_key(app, key.code),
        ScreenKind::Help => {
            menu::help_key(app, key.code);
            None
        }
        ScreenKind::Playing => play::play_key(app, key.code),
        ScreenKind::GameOver => play::over_key(app, key.code),
        ScreenKind::Replay => {
            play::replay_key(app, key.code);
            None
        }
    }
}

/// Closes the app, stopping any search.
pub fn quit(app: &mut App) -> Option<Cmd> {
    app.quit = true;
    Cmd::then(computer::stop_all(app), Some(Cmd::Quit))
}

fn confirm_key(app: &mut App, code: KeyCode) -> Option<Cmd> {
    let confirm = app.confirm.take()?;
    match code {
        KeyCode::Char('y' | 'Y') | KeyCode::Enter => match confirm {
            Confirm::Resign(seat) => play::resign(app, seat),
            Confirm::Menu | Confirm::LeaveOrWatch => play::leave(app),
            Confirm::Quit => quit(app),
        },
        KeyCode::Char('n' | 'N') | KeyCode::Esc => None,
        _ => {
            app.confirm = Some(confirm);
            None
        }
    }
}

fn prompt_key(app: &mut App, key: KeyEvent) -> Option<Cmd> {
    let prompt = app.prompt.as_mut()?;
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        // Ctrl-U clears the line, as in shells; other control keys type nothing.
        if key.code == KeyCode::Char('u') {
            prompt.text.clear();
        }
        return None;
    }
    match key.code {
        KeyCode::Char(c) => {
            if prompt.text.chars().count() < 200 {
                prompt.text.push(c);
            }
            None
        }
        KeyCode::Backspace => {
            prompt.text.pop();
            None
        }
        KeyCode::Tab | KeyCode::BackTab if !prompt.choices.is_empty() => {
            // Steps through the ready answers, starting after the one shown.
            let count = prompt.choices.len();
            let now = prompt.choices.iter().position(|c| *c == prompt.text);
            let next = match (now, key.code) {
                (None, _) => 0,
                (Some(i), KeyCode::BackTab) => (i + count - 1) % count,
                (Some(i), _) => (i + 1) % count,
            };
            prompt.text.clone_from(&prompt.choices[next]);
            None
        }
        KeyCode::Esc => {
            app.prompt = None;
            None
        }
        KeyCode::Enter => {
            let prompt = app.prompt.take()?;
            submit(app, prompt.kind, prompt.text.trim())
        }
        _ => None,
    }
}

fn submit(app: &mut App, kind: PromptKind, text: &str) -> Option<Cmd> {
    match kind {
        PromptKind::Save if !text.is_empty() => play::save_to(app, PathBuf::from(text)),
        PromptKind::Load if !text.is_empty() => Some(Cmd::Load(PathBuf::from(text))),
        PromptKind::Move if !text.is_empty() => play::play_typed(app, text),
        PromptKind::Value(index) => {
            let setup = app.screen.setup_mut()?;
            match typed_value(setup.info.options[index].values, text) {
                Ok(value) => {
                    setup.values[index] = value;
                    setup.refresh();
                    app.notice = None;
                }
                Err(e) => app.notify(e, true),
            }
            None
        }
        PromptKind::Name(seat) => {
            if let Some(setup) = app.screen.setup_mut() {
                setup.seats[seat].name = text.to_string();
            }
            None
        }
        _ => None,
    }
}

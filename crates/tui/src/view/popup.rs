//! Things drawn over a screen: the chooser of decisions that share cells, the text prompt, the
//! yes/no question, the game-over summary, and the too-small-terminal message.

use ludus_engine::Verdict;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::text::{fit, wrap};
use crate::app::{App, Chooser, Confirm, Play, Prompt, PromptKind};
use crate::layout::{centred, game_areas, MIN_SIZE};
use crate::theme::Theme;

fn boxed<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.accent())
        .title(Span::styled(format!(" {title} "), theme.accent()))
}

/// The chooser, over the board.
pub fn draw_chooser(frame: &mut Frame, chooser: &Chooser, theme: &Theme) {
    let mut entries: Vec<(&str, &str)> = chooser
        .entries
        .iter()
        .map(|(label, notation)| (label.as_str(), notation.as_str()))
        .collect();
    if chooser.more {
        entries.push(("keep selecting", ""));
    }
    let label_width = entries
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    // Over the foot of the side panel, not over the seats and their pieces in hand, which a
    // choice of value is about; as wide as its labels need, reaching left into the board's
    // margin only for a long label ("throw s: crushes Blue's dwarf"). The notation goes
    // where the labels leave no room for it: a cut notation would mislead.
    let panel = game_areas(frame.area()).panel;
    let labels = (2 + label_width + 2 + 2) as u16;
    let notation_width = entries.iter().map(|(_, n)| n.chars().count()).max();
    let with_notation =
        usize::from(labels) + 1 + notation_width.unwrap_or(0) <= usize::from(panel.width);
    let width = panel.width.max(labels).min(panel.right());
    let height = (entries.len() as u16 + 2).min(panel.height);
    let area = Rect {
        x: panel.right() - width,
        y: panel.bottom().saturating_sub(height),
        width,
        height,
    };
    let lines: Vec<Line> = entries
        .iter()
        .enumerate()
        .map(|(i, (label, notation))| {
            let style = if i == chooser.index {
                theme.selected_row()
            } else {
                theme.text()
            };
            let mut spans = vec![
                Span::styled(format!("{} ", i + 1), theme.muted()),
                Span::styled(format!(" {label:<label_width$} "), style),
            ];
            if with_notation {
                spans.push(Span::styled(format!(" {notation}"), theme.muted()));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(boxed("choose", theme)), area);
}

/// The text prompt, on the bottom line.
pub fn draw_prompt(frame: &mut Frame, prompt: &Prompt, theme: &Theme) {
    let area = frame.area();
    let line_area = Rect {
        y: area.bottom().saturating_sub(1),
        height: 1,
        ..area
    };
    let question = match prompt.kind {
        PromptKind::Save => "Save to file:",
        PromptKind::Load => "Load file:",
        PromptKind::Move => "Move:",
        PromptKind::Name(_) => "Name:",
        PromptKind::Value(_) => "Value:",
    };
    let keys = if prompt.choices.is_empty() {
        "   ⏎ ok · Esc cancel"
    } else {
        "   Tab next saved game · ⏎ ok · Esc cancel"
    };
    let line = Line::from(vec![
        Span::styled(format!(" {question} "), theme.accent()),
        Span::styled(prompt.text.clone(), theme.text()),
        Span::styled("█", theme.accent()),
        Span::styled(keys, theme.muted()),
    ]);
    frame.render_widget(Clear, line_area);
    frame.render_widget(Paragraph::new(line), line_area);
    draw_choices(frame, prompt, theme);
}

/// The ready answers of a prompt, in a box above it, the one typed highlighted.
fn draw_choices(frame: &mut Frame, prompt: &Prompt, theme: &Theme) {
    if prompt.choices.is_empty() {
        return;
    }
    let area = frame.area();
    let shown = prompt.choices.len().min(8);
    let height = shown as u16 + 2;
    let width = prompt
        .choices
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(20, 60) as u16
        + 4;
    // Above the prompt's line and the screen's key line (the start and set-up screens keep
    // theirs just above the bottom), so that no key is half covered.
    let rect = Rect {
        x: area.x,
        y: area.bottom().saturating_sub(2 + height),
        width: width.min(area.width),
        height: height.min(area.height.saturating_sub(2)),
    };
    let first = prompt
        .choices
        .iter()
        .position(|c| *c == prompt.text)
        .map_or(0, |i| i.saturating_sub(shown - 1));
    let lines: Vec<Line> = prompt
        .choices
        .iter()
        .skip(first)
        .take(shown)
        .map(|choice| {
            let style = if *choice == prompt.text {
                theme.selected_row()
            } else {
                theme.text()
            };
            Line::styled(fit(&format!(" {choice}"), width as usize - 2), style)
        })
        .collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(boxed("saved games", theme)),
        rect,
    );
}

/// The yes/no question, centred.
pub fn draw_confirm(frame: &mut Frame, app: &App, confirm: Confirm, theme: &Theme) {
    let question = match confirm {
        Confirm::Resign(seat) => {
            let who = app
                .play()
                .map_or_else(|| seat.to_string(), |p| p.label(seat));
            format!("{who} resigns?")
        }
        Confirm::Menu => "Leave this game for the menu?".to_string(),
        Confirm::LeaveOrWatch => {
            "Your team is out. Leave for the menu (y), or keep watching (n)?".to_string()
        }
        Confirm::Quit => "Quit Ludus?".to_string(),
    };
    let unsaved = app.screen.play().is_some_and(Play::unsaved)
        && matches!(confirm, Confirm::Menu | Confirm::Quit);
    // The box is as wide as the question needs (within the screen), wrapped beyond that.
    let width = (question.chars().count() as u16 + 4)
        .clamp(40, 64)
        .min(frame.area().width);
    let mut lines: Vec<Line> = wrap(&question, width.saturating_sub(2) as usize)
        .into_iter()
        .map(|line| Line::styled(line, theme.text()))
        .collect();
    if unsaved {
        lines.push(Line::styled("The game is not saved.", theme.error()));
    }
    lines.push(Line::styled("y yes · n no", theme.muted()));
    let area = centred(frame.area(), width, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(boxed("confirm", theme)), area);
}

/// The summary of a finished game, over the top of the side panel so the final position
/// stays in view.
pub fn draw_game_over(frame: &mut Frame, play: &Play, theme: &Theme) {
    let Some(outcome) = play.game.outcome() else {
        return;
    };
    let panel = game_areas(frame.area()).panel;
    let lines = game_over_lines(play, theme, panel.width.saturating_sub(2) as usize);
    let height = (lines.len() as u16 + 2).min(panel.height);
    let area = Rect { height, ..panel };
    frame.render_widget(Clear, area);
    // The box's title says who won and why ("Green wins: last sorcerer standing").
    let title = format!("{}: {}", headline(play), outcome.reason);
    let title = fit(&title, (area.width as usize).saturating_sub(4));
    frame.render_widget(Paragraph::new(lines).block(boxed(&title, theme)), area);
}

/// The keys of the game-over box, two a line, each [`GAME_OVER_KEY_WIDTH`] columns wide.
pub const GAME_OVER_KEYS: [[(char, &str); 2]; 3] = [
    [('s', "save"), ('v', "replay")],
    [('a', "again"), ('m', "menu")],
    [('u', "undo"), ('q', "quit")],
];

/// The columns one key of the game-over box takes.
pub const GAME_OVER_KEY_WIDTH: u16 = 11;

fn headline(play: &Play) -> String {
    match play.game.outcome().map(|o| o.verdict) {
        Some(Verdict::Win(seat)) => format!("{} wins", play.label(seat)),
        _ => "Draw".to_string(),
    }
}

/// The lines of the game-over box for an inner width; its last lines are the key pairs
/// (a click maps its row and column through them).
pub fn game_over_lines(play: &Play, theme: &Theme, inner: usize) -> Vec<Line<'static>> {
    let reason = play
        .game
        .outcome()
        .map(|o| o.reason.to_string())
        .unwrap_or_default();
    let mut lines: Vec<Line> = wrap(&headline(play), inner)
        .into_iter()
        .map(|l| Line::styled(l, theme.accent()))
        .collect();
    lines.extend(
        wrap(&reason, inner)
            .into_iter()
            .map(|l| Line::styled(l, theme.text())),
    );
    lines.push(Line::styled(
        format!("after {} turns", play.game.turn()),
        theme.muted(),
    ));
    if let Some(path) = play.save_path.as_ref().filter(|_| !play.unsaved()) {
        lines.push(Line::styled(
            fit(&format!("saved in {}", path.display()), inner),
            theme.muted(),
        ));
    }
    lines.push(Line::default());
    for pair in GAME_OVER_KEYS {
        let mut spans = Vec::new();
        for (key, label) in pair {
            spans.push(Span::styled(key.to_string(), theme.accent()));
            let width = usize::from(GAME_OVER_KEY_WIDTH) - 2;
            spans.push(Span::styled(format!(" {label:<width$}"), theme.text()));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The message for a terminal smaller than the app needs.
pub fn draw_too_small(frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    let text = vec![
        Line::styled("Terminal too small", theme.accent()),
        Line::styled(
            format!(
                "{}×{} now; Ludus needs at least {}×{}.",
                area.width, area.height, MIN_SIZE.0, MIN_SIZE.1
            ),
            theme.text(),
        ),
        Line::styled("Enlarge the window (Ctrl-C quits).", theme.muted()),
    ];
    let height = (text.len() as u16).min(area.height);
    let rect = Rect {
        y: area.y + area.height.saturating_sub(height) / 2,
        height,
        ..area
    };
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: true }).centered(),
        rect,
    );
}

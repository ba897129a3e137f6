//! The start screen (games with their descriptions, load, theme, quit), the setup screen
//! (mode, players, levels, names, rules options) and the rules pages.

use ludus_engine::{label_of, GameInfo, OptionValues};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::text::{fit, key_line, wrap};
use crate::app::{App, PromptKind, Screen};
use crate::layout::{centred, SCREEN_FRAME_WIDTH};
use crate::menu::{games, Extra, EXTRAS};
use crate::rules_help;
use crate::setup::{Row, Setup};
use crate::theme::{Theme, THEMES};

const TITLE: &str = "L U D U S";

fn frame_block<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()))
}

/// The start screen.
pub fn draw_menu(app: &App, frame: &mut Frame, theme: &Theme) {
    let area = centred(frame.area(), SCREEN_FRAME_WIDTH, frame.area().height);
    let block = frame_block(TITLE, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (mut lines, _) = menu_body(app, theme, inner.width as usize, inner.height as usize);
    lines.push(Line::default());
    if let Some(notice) = &app.notice {
        let style = if notice.error {
            theme.error()
        } else {
            theme.text()
        };
        lines.push(Line::styled(notice.text.clone(), style));
    }
    let keys = [
        ("↑↓", "choose"),
        ("⏎", "open"),
        ("?", "rules"),
        ("l", "load"),
        ("t", "theme"),
        ("q", "quit"),
    ];
    render_with_keys(frame, inner, lines, &keys, theme);
}

/// The start screen's body lines for an inner size, and the entry (game or extra) each line
/// belongs to: the view draws the lines, a click maps its row through the entries.
pub fn menu_body(
    app: &App,
    theme: &Theme,
    width: usize,
    height: usize,
) -> (Vec<Line<'static>>, Vec<Option<usize>>) {
    let highlighted = match app.screen {
        Screen::Menu { index } => index,
        _ => usize::MAX,
    };
    let mut entries: Vec<Option<usize>> = vec![None, None];
    let mut lines = vec![
        Line::styled(
            format!(
                "{} abstract strategy games, for people and computers.",
                capitalised(&ludus_games::game_count_in_words())
            ),
            theme.muted(),
        ),
        Line::default(),
    ];
    let name_width = games()
        .iter()
        .map(|g| g.name.chars().count())
        .max()
        .unwrap_or(10);
    let most = summary_lines(name_width, width, height);
    for (i, info) in games().iter().enumerate() {
        let style = if i == highlighted {
            theme.selected_row()
        } else {
            theme.text()
        };
        for line in game_entry(i, info, (name_width, width, most), style, theme) {
            lines.push(line);
            entries.push(Some(i));
        }
    }
    if games().is_empty() {
        lines.push(Line::styled(" (no games are registered)", theme.error()));
        entries.push(None);
    }
    lines.push(Line::default());
    entries.push(None);
    for (j, extra) in EXTRAS.iter().enumerate() {
        let index = games().len() + j;
        let style = if index == highlighted {
            theme.selected_row()
        } else {
            theme.text()
        };
        let text = match extra {
            Extra::Load => "Load a saved game…".to_string(),
            Extra::Theme => format!("Theme: {}", THEMES[app.theme].name),
            Extra::Quit => "Quit".to_string(),
        };
        lines.push(Line::styled(format!("   {text} "), style));
        entries.push(Some(index));
    }
    (lines, entries)
}

/// How many lines each game's summary may take: all it needs when the screen has the rows
/// (the title, a blank, the games, a blank, the extras, a blank, a notice and the key bar),
/// else as many as fit, at least two.
fn summary_lines(name_width: usize, width: usize, height: usize) -> usize {
    let rest = summary_width(name_width, width);
    let needs: Vec<usize> = games()
        .iter()
        .map(|g| wrap(g.description, rest).len().max(1))
        .collect();
    let fixed = 2 + 1 + EXTRAS.len() + 3;
    let room = height.saturating_sub(fixed);
    let longest = needs.iter().copied().max().unwrap_or(1);
    (2..=longest.max(2))
        .rev()
        .find(|&most| needs.iter().map(|&n| n.min(most)).sum::<usize>() <= room)
        .unwrap_or(2)
}

/// The columns beside a game's number and name for its summary.
fn summary_width(name_width: usize, width: usize) -> usize {
    let indent = name_width + 5;
    width.saturating_sub(indent + 1).max(10)
}

/// A game's entry on the start screen: number, name and a summary of up to `most` lines, the
/// last ending in "…" when it is cut.
fn game_entry(
    i: usize,
    info: &GameInfo,
    (name_width, width, most): (usize, usize, usize),
    style: Style,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let head = format!(" {} {:<name_width$}  ", i + 1, info.name);
    let indent = head.chars().count();
    let rest = summary_width(name_width, width);
    let parts = wrap(info.description, rest);
    let cut = parts.len() > most;
    let mut lines = Vec::new();
    for (n, part) in parts.into_iter().take(most).enumerate() {
        let text = if cut && n + 1 == most {
            fit(&format!("{part} …"), rest)
        } else {
            part
        };
        if n == 0 {
            lines.push(Line::from(vec![
                Span::styled(head.clone(), style),
                Span::styled(text, theme.muted()),
            ]));
        } else {
            lines.push(Line::styled(format!("{:indent$}{text}", ""), theme.muted()));
        }
    }
    lines
}

fn render_with_keys(
    frame: &mut Frame,
    inner: Rect,
    lines: Vec<Line<'static>>,
    keys: &[(&str, &str)],
    theme: &Theme,
) {
    let body = Rect {
        height: inner.height.saturating_sub(1),
        ..inner
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
    let bar = Rect {
        y: inner.bottom().saturating_sub(1),
        height: 1,
        ..inner
    };
    frame.render_widget(Paragraph::new(key_line(keys, bar.width, theme)), bar);
}

/// The setup screen of a game.
pub fn draw_setup(app: &App, frame: &mut Frame, theme: &Theme) {
    let Some(setup) = app.screen.setup() else {
        return;
    };
    let area = centred(frame.area(), SCREEN_FRAME_WIDTH, frame.area().height);
    let title = format!("{} — new game", setup.info.name);
    let block = frame_block(&title, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let mut lines = Vec::new();
    let rows = setup.rows();
    // Room for the rows: the inner height less a blank line, the row's help, the notice and
    // the key bar.
    let (first, room) = setup_visible_rows(setup, inner.height);
    for (i, row) in rows.iter().enumerate().skip(first).take(room) {
        // A name being typed shows in its own field, with the cursor.
        let typing = app.prompt.as_ref().and_then(|p| match (p.kind, *row) {
            (PromptKind::Name(a), Row::Name(b)) if a == b => Some(p.text.as_str()),
            _ => None,
        });
        lines.push(row_line(setup, *row, i == setup.row, typing, theme, width));
    }
    lines.push(Line::default());
    // The help wraps into every free line above the notice and the key bar, so that a long
    // description is read whole rather than cut.
    let help_room = (inner.height as usize)
        .saturating_sub(lines.len() + 2)
        .max(2);
    for line in wrap(&row_help(setup), width).into_iter().take(help_room) {
        lines.push(Line::styled(line, theme.muted()));
    }
    let notice = setup
        .error
        .clone()
        .map(|e| (e, true))
        .or_else(|| app.notice.as_ref().map(|n| (n.text.clone(), n.error)));
    if let Some((text, error)) = notice {
        let style = if error { theme.error() } else { theme.text() };
        lines.push(Line::styled(fit(&text, width), style));
    }
    let keys = [
        ("↑↓", "row"),
        ("←→", "change"),
        ("⏎", "edit/start"),
        ("s", "start"),
        ("?", "rules"),
        ("Esc", "back"),
    ];
    render_with_keys(frame, inner, lines, &keys, theme);
}

/// The first setup row shown and how many fit in an inner height: room for the rows is the
/// height less a blank line, two lines of the row's help, the notice and the key bar. Clicks
/// use it too.
pub fn setup_visible_rows(setup: &Setup, inner_height: u16) -> (usize, usize) {
    let room = (inner_height as usize).saturating_sub(5).max(1);
    ((setup.row + 1).saturating_sub(room), room)
}

fn row_help(setup: &Setup) -> String {
    match setup.current() {
        Row::Mode => "Who plays: ←→ cycles the combinations of people and computers.".into(),
        Row::Player(_) => "←→ human, or a computer of level 1 (random) to 5 (strongest).".into(),
        Row::Name(_) => "⏎ types a name (empty: the seat's colour).".into(),
        Row::Option(index) => {
            let option = &setup.info.options[index];
            let how = match option.values {
                OptionValues::Range { .. } => "←→ changes it, ⏎ types it",
                _ => "←→ changes it",
            };
            format!("{} ({how})", option.description())
        }
        Row::Start => "⏎ starts the game.".into(),
        Row::Rules => "⏎ shows a summary of the rules.".into(),
    }
}

fn row_line(
    setup: &Setup,
    row: Row,
    selected: bool,
    typing: Option<&str>,
    theme: &Theme,
    width: usize,
) -> Line<'static> {
    let (label, value, help) = match row {
        Row::Mode => ("Mode".to_string(), setup.mode_label(), String::new()),
        Row::Player(seat) => (
            format!("Player {}", seat + 1),
            setup.player_label(seat),
            setup.seat_names.get(seat).cloned().unwrap_or_default(),
        ),
        Row::Name(_) if typing.is_some() => (
            "  name".to_string(),
            format!("{}█", typing.unwrap_or_default()),
            "⏎ ok · Esc cancel".to_string(),
        ),
        Row::Name(seat) => {
            let name = setup.seats[seat].name.trim();
            let shown = if name.is_empty() {
                format!("{} (⏎ to type)", setup.display_name(seat))
            } else {
                name.to_string()
            };
            ("  name".to_string(), shown, String::new())
        }
        Row::Option(index) => {
            let option = &setup.info.options[index];
            (
                option.label(),
                shown_value(option.values, &setup.values[index]),
                option.description(),
            )
        }
        Row::Start => (
            "  Start the game ⏎".to_string(),
            String::new(),
            String::new(),
        ),
        Row::Rules => (
            "  Rules of the game".to_string(),
            String::new(),
            String::new(),
        ),
    };
    let style = if selected {
        theme.selected_row()
    } else {
        theme.text()
    };
    let arrows = matches!(row, Row::Mode | Row::Player(_) | Row::Option(_));
    let value = if arrows && selected {
        format!("◀ {value} ▶")
    } else {
        value
    };
    // Room for the longest value with its arrows ("◀ Computer 5 (strongest) ▶"), so that at
    // 140 columns every option's description fits beside it.
    let head = format!(" {label:<21} {value:<28}");
    Line::from(vec![
        Span::styled(fit(&head, width), style),
        Span::styled(format!(" {}", beside(help, &head, width)), theme.muted()),
    ])
}

/// A row's description beside it when it fits whole; else nothing rather than a cut one: the
/// selected row's description is wrapped whole below the rows.
fn beside(help: String, head: &str, width: usize) -> String {
    let rest = width.saturating_sub(head.chars().count() + 1);
    if help.chars().count() <= rest {
        help
    } else {
        String::new()
    }
}

/// A rules page.
pub fn draw_help(app: &App, frame: &mut Frame, theme: &Theme) {
    let Screen::Help { help, .. } = &app.screen else {
        return;
    };
    let name = help
        .game
        .and_then(|id| ludus_games::game_info(id).ok())
        .map_or("Ludus", |info| info.name);
    let title = format!("Rules: {name}");
    let area = centred(frame.area(), 90, frame.area().height);
    let block = frame_block(&title, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut text = String::new();
    if let Some(id) = help.game {
        text.push_str(rules_help::rules(id));
        text.push_str("\n\n");
    }
    text.push_str(rules_help::KEYS);
    let lines: Vec<Line> = text
        .lines()
        .map(|l| Line::styled(l.to_string(), theme.text()))
        .collect();
    let body = Rect {
        height: inner.height.saturating_sub(1),
        ..inner
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((help.scroll, 0)),
        body,
    );
    let bar = Rect {
        y: inner.bottom().saturating_sub(1),
        height: 1,
        ..inner
    };
    let keys = [("↑↓ PgUp PgDn", "scroll"), ("Esc", "back")];
    frame.render_widget(Paragraph::new(key_line(&keys, bar.width, theme)), bar);
}

/// An option's value as people read it: switches as `on`/`off`, as `ludus games` writes them.
fn shown_value(values: OptionValues, value: &str) -> String {
    match (values, value) {
        (OptionValues::Flag, "true") => "on".into(),
        (OptionValues::Flag, "false") => "off".into(),
        _ => label_of(value),
    }
}

/// `text` with its first letter in upper case ("five" → "Five").
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

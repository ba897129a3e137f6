//! The game screen: a title line (game, turn, status), the board, the side panel (players with
//! their colours and pieces in hand, the stacks, the move history, messages) and the key bar.
//! The replay uses the same screen with its own copy of the game.

use ludus_ai::Evaluation;
use ludus_engine::{AnyGame, BoardView, HandView, Hue, Seat};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::board::{draw_board, piece_style, piece_text, Marks, SEAT_BRACKETS};
use super::text::{fit, key_line, wrap};
use crate::app::{App, Insight, Play, ScreenKind, SPEEDS};
use crate::contrast::ink_on;
use crate::layout::game_areas;
use crate::pointing;
use crate::theme::Theme;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Draws a game in progress (and, under the summary, a finished one).
pub fn draw_game(app: &App, frame: &mut Frame, theme: &Theme) {
    let Some(play) = app.screen.play() else {
        return;
    };
    let view = play.game.view();
    let moves = play.game.legal_moves();
    let human = play.human_to_move().is_some() && app.screen == ScreenKind::Playing;
    let targets = if human {
        pointing::targets(&moves, &play.selection)
    } else {
        Vec::new()
    };
    let hint = play.hint.as_ref().map_or(&[][..], |(_, cells)| cells);
    let marks = Marks {
        cursor: human.then_some(play.cursor),
        selected: &play.selection,
        targets: &targets,
        hint,
    };
    let keys = key_items(app, play);
    draw_table(frame, theme, app, play, &play.game, &view, &marks, &keys);
}

/// Draws the replay of a finished game.
pub fn draw_replay(app: &App, frame: &mut Frame, theme: &Theme) {
    let (Some(play), Some(replay)) = (app.screen.play(), app.screen.replay()) else {
        return;
    };
    let view = replay.game.view();
    let keys = [("←→", "step"), ("Home/End", "start/end"), ("Esc", "back")];
    draw_table(
        frame,
        theme,
        app,
        play,
        &replay.game,
        &view,
        &Marks::default(),
        &keys,
    );
}

fn key_items(app: &App, play: &Play) -> Vec<(&'static str, &'static str)> {
    if app.screen == ScreenKind::GameOver {
        return vec![
            ("s", "save"),
            ("v", "replay"),
            ("a", "play again"),
            ("u", "undo"),
            ("m", "menu"),
            ("q", "quit"),
        ];
    }
    if play.chooser.is_some() {
        return vec![
            ("↑↓", "choose"),
            ("⏎", "play"),
            ("1-9", "pick"),
            ("Esc", "cancel"),
        ];
    }
    if play.human_to_move().is_some() {
        return vec![
            ("⏎", "select"),
            (":", "type"),
            ("h", "hint"),
            ("u", "undo"),
            ("s", "save"),
            ("R", "resign"),
            ("m", "menu"),
            ("?", "help"),
            ("t", "theme"),
            ("q", "quit"),
            // Last, so at 80 columns the rarer key gives way (the `?` page lists it).
            ("r", "redo"),
        ];
    }
    vec![
        ("p", if play.paused { "resume" } else { "pause" }),
        ("n", "step"),
        ("+/-", "speed"),
        ("u", "undo"),
        ("s", "save"),
        ("R", "resign"),
        ("m", "menu"),
        ("?", "help"),
        ("t", "theme"),
        ("q", "quit"),
    ]
}

#[allow(clippy::too_many_arguments)]
fn draw_table(
    frame: &mut Frame,
    theme: &Theme,
    app: &App,
    play: &Play,
    game: &AnyGame,
    view: &BoardView,
    marks: &Marks,
    keys: &[(&str, &str)],
) {
    let areas = game_areas(frame.area());
    let title = title_line(app, game, view, theme, areas.title.width as usize);
    frame.render_widget(Paragraph::new(title), areas.title);
    draw_board(frame.buffer_mut(), areas.board, view, theme, marks);
    draw_panel(frame, areas.panel, app, play, game, view, theme);
    frame.render_widget(
        Paragraph::new(key_line(keys, areas.keys.width, theme)),
        areas.keys,
    );
}

fn title_line(
    app: &App,
    game: &AnyGame,
    view: &BoardView,
    theme: &Theme,
    width: usize,
) -> Line<'static> {
    let mut spans = vec![
        Span::styled(format!(" {} ", game.info().name), theme.accent()),
        Span::styled(format!("· turn {} ", game.turn() + 1), theme.text()),
    ];
    if app.screen == ScreenKind::Replay {
        if let Some(replay) = app.screen.replay() {
            spans.push(Span::styled(
                format!("· replay {}/{} ", replay.game.entry_count(), replay.total),
                theme.accent(),
            ));
        }
    }
    if !view.status.is_empty() {
        // The status's later parts ("in hand Red 18, Black 18", also in the panel) give way
        // first when the line is too narrow, so the title is not cut mid-word.
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        let mut parts: Vec<&str> = view.status.split(" · ").collect();
        while parts.len() > 1 && used + 2 + parts.join(" · ").chars().count() > width {
            parts.pop();
        }
        spans.push(Span::styled(
            format!("· {}", parts.join(" · ")),
            theme.muted(),
        ));
    }
    Line::from(spans)
}

fn draw_panel(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    play: &Play,
    game: &AnyGame,
    view: &BoardView,
    theme: &Theme,
) {
    let block = Block::default()
        .borders(Borders::LEFT)
        .border_style(theme.border());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width.saturating_sub(1) as usize;
    let mut top = seat_lines(app, play, game, view, theme, width);
    top.extend(computer_line(play, theme));
    // A replay shows the evaluation of the search whose move led to the position shown.
    let insight = match app.screen.replay() {
        Some(replay) => {
            let at = replay.game.entry_count();
            play.evaluations
                .iter()
                .find(|(entry, _)| *entry == at)
                .map(|(_, i)| i)
        }
        None => play.insight.as_ref(),
    };
    top.extend(insight_lines(insight, game, view, theme, width));
    top.extend(stack_lines(view, theme, width));
    let notes = note_lines(play, theme, width, 4);
    let budget = (inner.height as usize).saturating_sub(top.len() + notes.len() + 1);
    let mut lines = top;
    lines.push(Line::styled("Moves", theme.accent()));
    lines.extend(history_lines(play, game, view, theme, width, budget));
    while lines.len() + notes.len() < inner.height as usize {
        lines.push(Line::default());
    }
    lines.extend(notes);
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(1),
            ..inner
        },
    );
}

fn seat_lines(
    app: &App,
    play: &Play,
    game: &AnyGame,
    view: &BoardView,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for seat_view in &view.seats {
        let seat = seat_view.seat;
        let to_move = view.to_move == Some(seat);
        let mut name_style = if to_move {
            theme.accent()
        } else {
            theme.text()
        };
        if !seat_view.alive {
            name_style = name_style.add_modifier(Modifier::CROSSED_OUT);
        }
        // Three or four seats share the panel: one line each.
        let compact = view.seats.len() > 2;
        let thinking = play.thinking.is_some() && to_move && app.screen != ScreenKind::Replay;
        let kind = kind_text(play, seat, !thinking && !compact);
        let name_room = if compact {
            width.saturating_sub(kind.chars().count() + 7)
        } else {
            width.saturating_sub(5)
        };
        let mut name_line = vec![
            Span::styled(if to_move { "▶ " } else { "  " }, theme.accent()),
            seat_chip(seat, Some(seat_view.hue), theme),
            Span::styled(
                format!(" {}", fit(&label(play, game, seat), name_room)),
                name_style,
            ),
        ];
        let mut detail = vec![Span::styled(
            if compact {
                format!(" · {kind}")
            } else {
                format!("    {kind}")
            },
            theme.muted(),
        )];
        if thinking {
            let frame = SPINNER[(app.ticks % SPINNER.len() as u64) as usize];
            let text = if compact {
                format!(" {frame}")
            } else {
                format!(" {frame} thinking")
            };
            detail.push(Span::styled(text, theme.accent()));
        }
        if !seat_view.alive {
            detail.push(Span::styled(" · out", theme.muted()));
        }
        if compact {
            name_line.extend(detail);
            lines.push(Line::from(name_line));
        } else {
            lines.push(Line::from(name_line));
            lines.push(Line::from(detail));
        }
        if let Some(hand) = view.hands.iter().find(|h| h.seat == seat) {
            lines.extend(hand_lines(hand, theme, width));
        }
    }
    lines
}

/// A seat's chip: its colour and its brackets with its number, as on its pieces, so seats
/// differ without colour too.
fn seat_chip(seat: Seat, hue: Option<Hue>, theme: &Theme) -> Span<'static> {
    let (open, close) = SEAT_BRACKETS[seat.to_usize() % 4].split_at(1);
    let text = format!("{open}{}{close}", seat.number());
    let style = match (hue, theme.mono) {
        (Some(hue), false) => {
            let hue = theme.hue(hue);
            Style::new().bg(hue).fg(ink_on(hue))
        }
        _ => theme.text(),
    };
    Span::styled(text, style.add_modifier(Modifier::BOLD))
}

/// "in hand: (D)×8", wrapped under its first entry when the panel is too narrow for every
/// count (Yoxii's four values at 80 columns), so that no count is cut off.
fn hand_lines(hand: &HandView, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    const HEAD: &str = "    in hand:";
    let mut lines = Vec::new();
    let mut spans = vec![Span::styled(HEAD, theme.muted())];
    let mut used = HEAD.chars().count();
    for (piece, count) in &hand.pieces {
        let text = piece_text(piece, theme);
        let tally = format!("×{count}");
        let room = 1 + text.chars().count() + tally.chars().count();
        if used + room > width && spans.len() > 1 {
            lines.push(Line::from(std::mem::take(&mut spans)));
            spans.push(Span::raw(" ".repeat(HEAD.chars().count())));
            used = HEAD.chars().count();
        }
        spans.push(Span::raw(" "));
        spans.push(Span::styled(text, piece_style(piece, theme)));
        spans.push(Span::styled(tally, theme.text()));
        used += room;
    }
    lines.push(Line::from(spans));
    lines
}

fn label(play: &Play, game: &AnyGame, seat: Seat) -> String {
    let colour = game.seat_name(seat);
    match game.players().get(seat.to_usize()) {
        Some(p) if p.name != colour => format!("{} ({colour})", p.name),
        _ => play.label(seat),
    }
}

fn kind_text(play: &Play, seat: Seat, long: bool) -> String {
    let Some(seated) = play.seats.get(seat.to_usize()) else {
        return String::new();
    };
    if seated.agent.is_none() {
        return "human".into();
    }
    match crate::setup::level_of(&seated.kind) {
        Some(level) if long => {
            format!("computer L{level} ({})", crate::setup::level_name(level))
        }
        Some(level) => format!("computer L{level}"),
        None => format!("computer {}", seated.kind),
    }
}

fn computer_line(play: &Play, theme: &Theme) -> Option<Line<'static>> {
    if play.seats.iter().all(|s| s.agent.is_none()) {
        return None;
    }
    let mut text = format!("  speed: {}", SPEEDS[play.speed].1);
    if play.paused {
        text.push_str(" · paused");
    }
    Some(Line::styled(text, theme.muted()))
}

/// The evaluation bar: for two seats a tug of war between their colours from the first
/// seat's side; for more, the share of the seat the search was for.
fn insight_lines(
    insight: Option<&Insight>,
    game: &AnyGame,
    view: &BoardView,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let Some(insight) = insight else {
        return Vec::new();
    };
    let analysis = &insight.analysis;
    let mut lines = Vec::new();
    let head = if analysis.depth > 0 {
        format!("Evaluation · {} · depth {}", insight.by, analysis.depth)
    } else {
        format!("Evaluation · {}", insight.by)
    };
    lines.push(Line::styled(fit(&head, width), theme.accent()));
    if let Some(evaluation) = analysis.evaluation {
        let hue = |seat: Seat| {
            view.seats
                .iter()
                .find(|s| s.seat == seat)
                .map_or(theme.text, |s| theme.hue(s.hue))
        };
        let two = view.seats.len() == 2;
        let first = view.seats.first().map_or(Seat::FIRST, |s| s.seat);
        let mut value = evaluation.bar();
        if two && insight.seat != first {
            value = -value;
        }
        let bar_width = width.saturating_sub(2).clamp(4, 24);
        let filled = (f64::midpoint(value, 1.0) * bar_width as f64).round() as usize;
        let (left, right) = if two {
            (hue(first), hue(first.opponent()))
        } else {
            (hue(insight.seat), theme.muted)
        };
        // In colour the bar is two blocks of background in the seats' colours (no glyph to
        // vanish on a dark or light panel); in monochrome, full and light shade.
        let (fill, rest, left, right) = if theme.mono {
            ("█", "░", Style::new(), Style::new())
        } else {
            (" ", " ", Style::new().bg(left), Style::new().bg(right))
        };
        if two {
            // One fixed point of view, the first seat's, with a legend: the number does not
            // change sign with whichever computer searched last.
            let second = first.opponent();
            let (a, b) = (game.seat_name(first), game.seat_name(second));
            let gap = bar_width.saturating_sub(a.chars().count() + b.chars().count() + 4);
            let legend = format!("  ◀ {a}{} {b} ▶", " ".repeat(gap));
            lines.push(Line::styled(fit(&legend, width), theme.muted()));
        }
        lines.push(Line::from(vec![
            Span::styled("  ", theme.text()),
            Span::styled(fill.repeat(filled.min(bar_width)), left),
            Span::styled(rest.repeat(bar_width - filled.min(bar_width)), right),
        ]));
        let text = evaluation_text(game, insight.seat, first, two, evaluation);
        lines.push(Line::styled(fit(&text, width), theme.text()));
    }
    if analysis.pv.len() > 1 {
        let pv = format!("  line: {}", analysis.pv.join(" "));
        lines.push(Line::styled(fit(&pv, width), theme.muted()));
    }
    lines
}

/// The evaluation's number: for two seats always from the first seat's side ("-1.50 for
/// White"), for three or four the searching seat's share of the chances, 0-100 %.
fn evaluation_text(
    game: &AnyGame,
    searcher: Seat,
    first: Seat,
    two: bool,
    evaluation: Evaluation,
) -> String {
    if two {
        let shown = if searcher == first {
            evaluation
        } else {
            flipped(evaluation)
        };
        format!("  {shown} for {}", game.seat_name(first))
    } else {
        let share = f64::midpoint(evaluation.bar(), 1.0) * 100.0;
        format!("  {} {share:.0}% share", game.seat_name(searcher))
    }
}

/// The same evaluation from the other seat's side (two seats).
fn flipped(evaluation: Evaluation) -> Evaluation {
    match evaluation {
        Evaluation::Score(score) => Evaluation::Score(-score),
        Evaluation::Win(n) => Evaluation::Loss(n),
        Evaluation::Loss(n) => Evaluation::Win(n),
        Evaluation::Reward(reward) => Evaluation::Reward(1.0 - reward),
        Evaluation::Proved(proved) => Evaluation::Proved(proved.flipped()),
    }
}

fn stack_lines(view: &BoardView, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let tall: Vec<_> = view.cells.iter().filter(|c| c.stack.len() > 1).collect();
    if tall.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::styled("Stacks, bottom → top", theme.accent())];
    for cell in tall {
        let mut spans = vec![Span::styled(format!("{:>3} ", cell.name), theme.muted())];
        let mut used = 4;
        for piece in &cell.stack {
            let text = piece_text(piece, theme);
            used += text.chars().count() + 1;
            if used > width {
                spans.push(Span::styled("…", theme.muted()));
                break;
            }
            spans.push(Span::styled(text, piece_style(piece, theme)));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    lines
}

fn history_lines(
    play: &Play,
    game: &AnyGame,
    view: &BoardView,
    theme: &Theme,
    width: usize,
    budget: usize,
) -> Vec<Line<'static>> {
    let history = game.history();
    if history.is_empty() {
        return vec![Line::styled("  (none yet)", theme.muted())];
    }
    let skip = history.len().saturating_sub(budget);
    history
        .iter()
        .enumerate()
        .skip(skip)
        .map(|(i, turn)| {
            let hue = view
                .seats
                .iter()
                .find(|s| s.seat == turn.seat)
                .map(|s| s.hue);
            // Seats by brackets and colour chip; the move in text colour on the panel, so
            // every seat reads on any background.
            let style = theme.text();
            let who = fit(&play.label(turn.seat), 12);
            let text = if turn.complete {
                in_words(&turn.text)
            } else {
                format!("{} …", turn.text)
            };
            Line::from(vec![
                Span::styled(format!("{:>3}. ", i + 1), theme.muted()),
                seat_chip(turn.seat, hue, theme),
                Span::styled(
                    fit(&format!(" {who} {text}"), width.saturating_sub(8)),
                    style,
                ),
            ])
        })
        .collect()
}

/// A history entry as people read it: the record's `resign N` and `flag N` in words (the
/// seat is already named before it).
fn in_words(text: &str) -> String {
    if text.starts_with("resign ") {
        "resigns".to_string()
    } else if text.starts_with("flag ") {
        "ran out of time".to_string()
    } else {
        text.to_string()
    }
}

fn note_lines(play: &Play, theme: &Theme, width: usize, count: usize) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    for note in play.notes.iter().rev() {
        let style = if note.error {
            theme.error()
        } else {
            theme.muted()
        };
        let mut wrapped: Vec<Line<'static>> = wrap(&note.text, width)
            .into_iter()
            .map(|l| Line::styled(l, style))
            .collect();
        if lines.len() + wrapped.len() > count {
            break;
        }
        wrapped.append(&mut lines);
        lines = wrapped;
    }
    lines
}

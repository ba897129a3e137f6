//! Chat per game, over the game's WebSocket, as lichess does it: two channels. The players'
//! channel is written by the seats' sockets and read by everyone (players and spectators);
//! the spectators' channel is written and read by spectators only (sockets without a seat
//! token), so the players never see it. Chat is off in a game with fewer than two seats
//! played by people (against the computer, or computers among themselves).
//!
//! A line is one line of text of 1 to [`TEXT_MAX`] characters without control characters
//! (surrounding spaces trimmed), at most one a second per socket with a burst of
//! [`PACE_BURST`] (beyond the general action limit every message pays). A game keeps its last
//! [`KEPT`] lines: a new line past that pushes the oldest out. A store writes each line
//! (SQLite: its `chat` table), so the chat survives a restart; it does not change the game's
//! `seq`. A socket is sent the last [`HISTORY`] lines it may read when it opens.

use std::collections::VecDeque;
use std::sync::{Arc, Weak};

use axum::http::StatusCode;
use serde::Serialize;
use std::time::{Duration, Instant};

use ludus_engine::Seat;

use super::{LiveGame, Outlet, Table};
use crate::error::ApiError;
use crate::hub::Hub;

/// The most characters of a line.
pub const TEXT_MAX: usize = 300;
/// The lines a game keeps (in memory and in the database); a new one pushes the oldest out.
pub const KEPT: usize = 500;
/// The lines sent to a socket when it opens.
pub const HISTORY: usize = 100;
/// Lines a socket may send at once before it has to wait a second per line.
pub const PACE_BURST: f64 = 3.0;
/// The sustained rate of lines per socket.
const PACE_PER_SECOND: f64 = 1.0;

/// Where a line is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// Written by the seats, read by everyone.
    Players,
    /// Written and read by spectators only.
    Spectators,
}

impl Channel {
    /// `players` or `spectators`.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
        }
    }

    /// The channel named `text`.
    pub fn parse(text: &str) -> Option<Channel> {
        match text {
            "players" => Some(Channel::Players),
            "spectators" => Some(Channel::Spectators),
            _ => None,
        }
    }
}

/// A line of chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// Its channel.
    pub channel: Channel,
    /// Who said it: the seat's account or name (its side when it has none), a spectator's
    /// account, or `spectator`.
    pub from: String,
    /// The seat (1-based) that said it; `None` for a spectator.
    pub seat: Option<usize>,
    /// What was said.
    pub text: String,
    /// When, Unix milliseconds.
    pub at_ms: u64,
}

/// The start of every frame of the spectators' channel: a player's socket skips those.
pub const SPECTATORS_FRAME: &str = "{\"type\":\"chat\",\"channel\":\"spectators\"";

impl ChatLine {
    /// The line as a WebSocket frame: `{"type":"chat","channel":…,"from":…,"seat":…,
    /// "text":…,"at_ms":…}`.
    pub fn frame(&self) -> String {
        // Serialising a struct of strings and numbers cannot fail; its text starts with '{'.
        let line = serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string());
        format!("{{\"type\":\"chat\",{}", &line[1..])
    }
}

/// Whether the socket of a seat (`true`) may read a frame: every frame but the spectators'
/// channel's.
pub fn player_may_read(frame: &str) -> bool {
    !frame.starts_with(SPECTATORS_FRAME)
}

/// The text of a line as kept: trimmed, 1 to [`TEXT_MAX`] characters, no control characters
/// (line breaks included) nor bidirectional overrides (which would turn the text around).
pub fn check_text(text: &str) -> Result<&str, ApiError> {
    let text = text.trim();
    let count = text.chars().count();
    if count == 0 || count > TEXT_MAX {
        return Err(ApiError::unprocessable(format!(
            "chat text of {count} characters: expected 1 to {TEXT_MAX} characters (not only spaces)"
        )));
    }
    if let Some(bad) = text.chars().find(|&c| c.is_control() || is_bidi_control(c)) {
        return Err(ApiError::unprocessable(format!(
            "chat text with the control character U+{:04X}: expected one line of text without control characters",
            bad as u32
        )));
    }
    Ok(text)
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// One socket's pace of chat lines: a bucket of [`PACE_BURST`] lines refilled at one a second.
#[derive(Debug)]
pub struct ChatPace {
    lines: f64,
    refilled: Instant,
}

impl Default for ChatPace {
    fn default() -> ChatPace {
        ChatPace {
            lines: PACE_BURST,
            refilled: Instant::now(),
        }
    }
}

impl ChatPace {
    /// Passes when a line may go now, else a 429 saying how long to wait.
    pub fn ready(&mut self) -> Result<(), ApiError> {
        let now = Instant::now();
        let refill = (now - self.refilled).as_secs_f64() * PACE_PER_SECOND;
        self.lines = (self.lines + refill).min(PACE_BURST);
        self.refilled = now;
        if self.lines >= 1.0 {
            return Ok(());
        }
        let wait = Duration::from_secs_f64((1.0 - self.lines) / PACE_PER_SECOND);
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many chat lines: expected at most one a second per socket (a burst of {PACE_BURST}), the next in {:.1} s",
                wait.as_secs_f64()
            ),
        ))
    }

    /// Counts a line sent.
    pub fn spend(&mut self) {
        self.lines -= 1.0;
    }
}

/// Who writes a line, as the socket knows them.
#[derive(Clone, Copy, Debug)]
pub struct Speaker<'a> {
    /// The socket's token, if it has one.
    pub token: Option<&'a str>,
    /// The signed-in account of a spectator, if any.
    pub account: Option<&'a str>,
    /// The socket reads a finished game kept on disk only: its chat is read only.
    pub archived: bool,
}

impl LiveGame {
    /// Joins `outlet` to the game's sockets: the current snapshot, the chat lines a socket
    /// may read (a seat's socket: the players' channel only), and its place in the frames'
    /// log, taken together so that no change nor line falls between them. The lines are
    /// `None` when there are none.
    pub fn subscribe_with_chat(
        &self,
        seat_socket: bool,
        outlet: Weak<dyn Outlet>,
    ) -> (Arc<str>, Option<String>, u64) {
        let mut table = self.lock();
        let readable: Vec<&ChatLine> = table
            .chat
            .iter()
            .filter(|line| !seat_socket || line.channel == Channel::Players)
            .collect();
        let history = (!readable.is_empty()).then(|| {
            let last = &readable[readable.len().saturating_sub(HISTORY)..];
            serde_json::json!({"type": "chat_history", "lines": last}).to_string()
        });
        (table.snapshot(), history, self.frames().join(outlet))
    }

    /// `speaker` says `text` in `channel` (by default, the channel its socket writes in):
    /// the line is checked, stored, kept and sent to every socket that may read it. Its
    /// commit is awaited in the game's turn, with the table unlocked and no thread held, so
    /// lines are kept and sent in the order they were stored.
    pub async fn chat(
        &self,
        hub: &Hub,
        speaker: Speaker<'_>,
        channel: Option<&str>,
        text: &str,
    ) -> Result<(), ApiError> {
        if speaker.archived {
            return Err(ApiError::conflict(format!(
                "game '{}' is over and kept on disk only: its chat can be read, not written",
                self.id
            )));
        }
        let text = check_text(text)?;
        let _turn = self.turn().await;
        let line = self.line_of(speaker, channel, text)?;
        hub.store
            .chat(&self.id, &line)
            .committed()
            .await
            .map_err(|e| {
                ApiError::unavailable(format!("the chat line could not be stored: {e}"))
            })?;
        let mut table = self.lock();
        self.broadcast(line.frame());
        table.chat.push_back(line);
        while table.chat.len() > KEPT {
            table.chat.pop_front();
        }
        Ok(())
    }

    /// The line `speaker` writes: refused in a game against the computer, or in a channel
    /// the speaker may not write in.
    fn line_of(
        &self,
        speaker: Speaker<'_>,
        channel: Option<&str>,
        text: &str,
    ) -> Result<ChatLine, ApiError> {
        let table = self.lock();
        let people = table.seats.iter().filter(|s| s.computer.is_none()).count();
        if people < 2 {
            return Err(ApiError::unprocessable(
                "chat is off in games against the computer: expected a game between people",
            ));
        }
        let seat = speaker.token.and_then(|token| table.seat_of(token));
        let own = writes_in(seat.is_some(), channel)?;
        let from = match seat {
            Some(seat) => table.speaker_name(seat),
            None => speaker.account.unwrap_or("spectator").to_string(),
        };
        Ok(ChatLine {
            channel: own,
            from,
            seat: seat.map(Seat::number),
            text: text.to_string(),
            at_ms: super::unix_ms(),
        })
    }
}

/// The channel a socket writes in (a seat's: the players'; another: the spectators'), or why
/// it may not write in the one it asked for.
fn writes_in(seat: bool, asked: Option<&str>) -> Result<Channel, ApiError> {
    let own = if seat {
        Channel::Players
    } else {
        Channel::Spectators
    };
    let Some(asked) = asked else {
        return Ok(own);
    };
    let asked = Channel::parse(asked).ok_or_else(|| {
        ApiError::unprocessable(format!(
            "chat channel '{asked}': expected \"players\" or \"spectators\""
        ))
    })?;
    if asked == own {
        return Ok(own);
    }
    let who = match own {
        Channel::Players => "a player's socket writes in the players' channel",
        Channel::Spectators => {
            "a spectator's socket (no seat token) writes in the spectators' channel"
        }
    };
    Err(ApiError::forbidden(format!(
        "{who}: expected \"channel\":\"{}\"",
        own.name()
    )))
}

impl Table {
    /// How a seat is named in the chat: its account, else its player's name, else its side.
    fn speaker_name(&self, seat: Seat) -> String {
        let account = self
            .seats
            .get(seat.to_usize())
            .and_then(|s| s.account.as_ref());
        let name = self.names().get(seat.to_usize()).copied().unwrap_or("");
        match account {
            Some(account) => account.name.clone(),
            None if !name.trim().is_empty() => name.to_string(),
            None => self.game.seat_name(seat).to_string(),
        }
    }
}

/// The lines of a game as a store read them back, oldest first, at most [`KEPT`].
pub fn kept(lines: Vec<ChatLine>) -> VecDeque<ChatLine> {
    let mut lines = VecDeque::from(lines);
    while lines.len() > KEPT {
        lines.pop_front();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_one_line_of_1_to_300_characters() {
        assert_eq!(check_text("  gg  ").unwrap(), "gg");
        assert_eq!(
            check_text("<script>alert(1)</script>").unwrap(),
            "<script>alert(1)</script>"
        );
        assert!(check_text(&"é".repeat(300)).is_ok());
        for bad in [
            "",
            "   ",
            &"a".repeat(301),
            "two\nlines",
            "bell\u{7}",
            "\u{202e}gg",
        ] {
            let error = check_text(bad).unwrap_err();
            assert_eq!(error.status, StatusCode::UNPROCESSABLE_ENTITY);
            assert!(error.message.contains("expected"), "{}", error.message);
        }
    }

    #[test]
    fn a_frame_names_its_type_and_channel_first() {
        let line = ChatLine {
            channel: Channel::Spectators,
            from: "spectator".into(),
            seat: None,
            text: "hi \"you\"".into(),
            at_ms: 5,
        };
        let frame = line.frame();
        assert!(frame.starts_with(SPECTATORS_FRAME), "{frame}");
        assert!(!player_may_read(&frame));
        let parsed: serde_json::Value = serde_json::from_str(&frame).unwrap();
        assert_eq!(parsed["text"], "hi \"you\"");
        assert_eq!(parsed["seat"], serde_json::Value::Null);
        let players = ChatLine {
            channel: Channel::Players,
            seat: Some(1),
            ..line
        };
        assert!(player_may_read(&players.frame()));
        assert!(player_may_read("{\"type\":\"snapshot\"}"));
    }

    #[test]
    fn the_pace_allows_a_burst_then_one_a_second() {
        let mut pace = ChatPace::default();
        for _ in 0..3 {
            pace.ready().unwrap();
            pace.spend();
        }
        let error = pace.ready().unwrap_err();
        assert_eq!(error.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(error.message.contains("one a second"), "{}", error.message);
        pace.refilled -= Duration::from_millis(1100);
        pace.ready().unwrap();
    }

    #[test]
    fn a_game_keeps_its_last_lines() {
        let line = |n: usize| ChatLine {
            channel: Channel::Players,
            from: "a".into(),
            seat: Some(1),
            text: n.to_string(),
            at_ms: 0,
        };
        let lines = kept((0..KEPT + 3).map(line).collect());
        assert_eq!(lines.len(), KEPT);
        assert_eq!(lines[0].text, "3");
    }
}

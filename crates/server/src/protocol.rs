//! What clients send: the request bodies of the POST routes and the WebSocket messages, each
//! refusing unknown fields, with a valid example for error messages.

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::RequestBody;

/// `POST /api/games`: a new game, or a game loaded from a record.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The registry id, for a new game.
    pub game: Option<String>,
    /// Rules options by key.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// `human` or a computer spec per seat.
    #[serde(default)]
    pub players: Vec<String>,
    /// Names per seat.
    #[serde(default)]
    pub names: Vec<String>,
    /// Seed of random rules choices and computer players.
    pub seed: Option<u64>,
    /// The pause before each computer move in games without a person.
    pub speed_ms: Option<u64>,
    /// A record to load: a JSON record object, or JSON or text record as a string.
    pub record: Option<Value>,
    /// Human seats (1-based) kept for other people: each gets an invitation link instead of
    /// a token in the answer.
    #[serde(default)]
    pub invite: Vec<usize>,
    /// Left out of the lobby (only the link leads to it).
    #[serde(default)]
    pub private: bool,
    /// Clocks: an initial time and an increment, the same for every seat.
    pub clock: Option<crate::live::ClockSetup>,
}

/// `POST .../offer`: a request to the other side.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// The asking seat's token.
    pub token: String,
    /// `takeback`.
    pub kind: String,
}

impl RequestBody for OfferRequest {
    const EXAMPLE: &'static str = r#"{"token":"<seat token>","kind":"takeback"}"#;
}

/// `POST .../answer`: the other side's answer to a waiting request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// The answering seat's token.
    pub token: String,
    /// Accept or decline.
    pub accept: bool,
}

impl RequestBody for AnswerRequest {
    const EXAMPLE: &'static str = r#"{"token":"<seat token>","accept":true}"#;
}

/// `POST .../absent`: after the grace period, what becomes of an absent person's seat.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbsentRequest {
    /// The token of a seat that stayed.
    pub token: String,
    /// The absent seat (1-based).
    pub seat: usize,
    /// `win` (the absent seat resigns) or `computer` (a computer player takes it).
    pub then: String,
    /// The computer player for `computer` (default `ai:3`).
    pub player: Option<String>,
}

impl RequestBody for AbsentRequest {
    const EXAMPLE: &'static str = r#"{"token":"<seat token>","seat":2,"then":"win"}"#;
}

/// `POST .../claim`: takes a seat with its invitation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The seat (1-based).
    pub seat: usize,
    /// The invitation from the link.
    pub invite: String,
}

impl RequestBody for ClaimRequest {
    const EXAMPLE: &'static str = r#"{"seat":2,"invite":"<the invite of the link>"}"#;
}

impl RequestBody for CreateGame {
    const EXAMPLE: &'static str = r#"{"game":"<an id from GET /api/meta>","options":{},"players":["human","ai:3"],"names":["Ana","Ludus"]}"#;
}

/// `POST .../moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat's token.
    pub token: String,
    /// A decision or a whole turn in notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The snapshot's `seq` the move was decided on.
    pub seq: u64,
}

impl RequestBody for MoveRequest {
    const EXAMPLE: &'static str = r#"{"token":"<seat token>","move":"a1","seq":0}"#;
}

/// How far an undo or redo goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// One decision.
    Decision,
    /// To the start of a person's turn.
    #[default]
    Turn,
}

/// `POST .../undo` and `.../redo`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryRequest {
    /// A seat token or the owner's.
    pub token: String,
    /// The snapshot's `seq`.
    pub seq: u64,
    /// One decision or a whole turn.
    #[serde(default)]
    pub scope: Scope,
}

impl RequestBody for HistoryRequest {
    const EXAMPLE: &'static str = r#"{"token":"<token>","seq":4,"scope":"turn"}"#;
}

/// `POST .../resign`, `.../hint`, `DELETE /api/games/{id}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// A seat token (or, for hints and deletion, the owner's).
    pub token: String,
}

impl RequestBody for TokenRequest {
    const EXAMPLE: &'static str = r#"{"token":"<token>"}"#;
}

/// What `control` changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Control {
    /// Stop (or let) computer players start their moves.
    pub paused: Option<bool>,
    /// Let a paused computer make one decision.
    pub step: Option<bool>,
    /// The pause before each computer move in games without a person.
    pub speed_ms: Option<u64>,
}

/// `POST .../control`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlRequest {
    /// The owner's token.
    pub token: String,
    /// Stop (or let) computer players start their moves.
    pub paused: Option<bool>,
    /// Let a paused computer make one decision.
    pub step: Option<bool>,
    /// The pause before each computer move in games without a person.
    pub speed_ms: Option<u64>,
}

impl ControlRequest {
    /// The change asked for.
    pub fn control(&self) -> Control {
        Control {
            paused: self.paused,
            step: self.step,
            speed_ms: self.speed_ms,
        }
    }
}

impl RequestBody for ControlRequest {
    const EXAMPLE: &'static str = r#"{"token":"<owner token>","paused":true}"#;
}

/// A WebSocket message from a client; the token is the socket's.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    /// Play a decision or a whole turn.
    Move {
        /// The notation.
        #[serde(rename = "move")]
        notation: String,
        /// The snapshot's `seq`.
        seq: u64,
    },
    /// Take back.
    Undo {
        /// The snapshot's `seq`.
        seq: u64,
        /// How far.
        #[serde(default)]
        scope: Scope,
    },
    /// Play again what was taken back.
    Redo {
        /// The snapshot's `seq`.
        seq: u64,
        /// How far.
        #[serde(default)]
        scope: Scope,
    },
    /// The socket's seat resigns.
    Resign {},
    /// A suggestion for the seat to move.
    Hint {},
    /// Pause, step, speed.
    Control {
        /// Stop (or let) computer players start their moves.
        paused: Option<bool>,
        /// Let a paused computer make one decision.
        step: Option<bool>,
        /// The pause before each computer move.
        speed_ms: Option<u64>,
    },
    /// A takeback request or a draw offer to the other side.
    Offer {
        /// `takeback` or `draw`.
        kind: String,
    },
    /// Accept or decline the waiting request.
    Answer {
        /// Yes or no.
        accept: bool,
    },
    /// A line of chat (a seat's socket writes in the players' channel, a socket without a
    /// seat token in the spectators').
    Chat {
        /// One line, 1 to 300 characters.
        text: String,
        /// `players` or `spectators`; the socket's own channel when left out.
        channel: Option<String>,
    },
    /// Answered with a pong.
    Ping {},
    /// Answered with the whole snapshot (a client whose deltas do not follow on from the
    /// snapshot it holds).
    Sync {},
}

impl RequestBody for ClientMessage {
    const EXAMPLE: &'static str = r#"{"type":"move","move":"a1","seq":0} (types: move, undo, redo, resign, hint, control, offer, answer, chat, ping, sync)"#;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::parse_body;

    #[test]
    fn unknown_fields_and_types_are_refused_with_an_example() {
        let error =
            parse_body::<MoveRequest>(br#"{"token":"t","move":"a1","seq":1,"x":2}"#).unwrap_err();
        assert!(
            error.message.contains("unknown field `x`"),
            "{}",
            error.message
        );
        assert!(error.message.contains("expected a JSON object like"));
        assert!(parse_body::<ClientMessage>(br#"{"type":"dance"}"#).is_err());
        assert!(
            parse_body::<ClientMessage>(br#"{"type":"move","move":"a1","seq":1,"y":1}"#).is_err()
        );
        assert!(matches!(
            parse_body::<ClientMessage>(br#"{"type":"resign"}"#),
            Ok(ClientMessage::Resign {})
        ));
        assert!(matches!(
            parse_body::<ClientMessage>(br#"{"type":"undo","seq":3}"#),
            Ok(ClientMessage::Undo {
                seq: 3,
                scope: Scope::Turn
            })
        ));
    }
}

/// An empty body (`{}`), for routes whose path says everything.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nothing {}

impl RequestBody for Nothing {
    const EXAMPLE: &'static str = "{}";
}

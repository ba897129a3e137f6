//! The text formats of a game: position strings and move notation, written apart from the
//! state machine ([`Rules`]) as shakmaty keeps FEN and SAN beside its positions.

use crate::{MoveError, PositionError, Rules};

/// Position strings and move notation of a game's [`Rules`]. Required: reading and writing
/// a position string and writing an action; reading an action has a default that matches
/// the written forms of the legal actions.
pub trait Notation: Rules {
    /// Parses a position string of the spec's format. Every rule the spec states about valid
    /// strings is checked; the error says what is wrong.
    fn from_position(text: &str, options: &Self::Options) -> Result<Self, PositionError>;

    /// The position string. `from_position(&s.position(), s.options())` gives back a state
    /// with the same position string and key.
    fn position(&self) -> String;

    /// The position string on one line, for line protocols (UGI's `position fen` and `query
    /// position`, openings files, `ludus position`): a game whose position string spans lines
    /// writes them separated by `; `, which its `from_position` reads as line breaks.
    fn position_line(&self) -> String {
        self.position()
    }

    /// The canonical notation of a legal `action` in this state; `parse_action` reads it back
    /// to the same action.
    fn format_action(&self, action: Self::Action) -> String;

    /// Reads one decision in the game's notation and resolves it against this state: the result
    /// is a legal action, or a syntax or illegal-move error naming the text. The default finds
    /// the legal action whose [`Notation::format_action`] is the text (ignoring case and the
    /// spaces around it); a game overrides it to read more forms or to say more precisely what
    /// is wrong.
    fn parse_action(&self, text: &str) -> Result<Self::Action, MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let wanted = text.trim();
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        let mut first = None;
        for &action in &actions {
            let written = self.format_action(action);
            if written.eq_ignore_ascii_case(wanted) {
                return Ok(action);
            }
            first.get_or_insert(written);
        }
        let example = first.map_or(String::new(), |written| format!(" (such as {written})"));
        Err(MoveError::illegal(
            text,
            format!("not a legal move here; expected one of the legal moves{example}"),
        ))
    }

    /// Reads a whole turn (or any run of decisions) and returns its decisions, each legal in
    /// turn from this state. The default reads whitespace-separated decisions; games with a
    /// turn notation (`a1:NEN`) accept it as well.
    fn parse_turn(&self, text: &str) -> Result<Vec<Self::Action>, MoveError> {
        parse_decisions(self, text, text.split_whitespace(), "a move")
    }

    /// The notation of `actions` played in a row from this state, as records and history show
    /// a turn. The default joins the decisions with spaces (Yoxii's `d5 3@d4`). The result is
    /// read back by [`Notation::parse_turn`], also for an unfinished turn.
    fn format_turn(&self, actions: &[Self::Action]) -> String {
        let mut state = self.clone();
        let mut words = Vec::with_capacity(actions.len());
        for &action in actions {
            words.push(state.format_action(action));
            state.apply(action);
        }
        words.join(" ")
    }
}

/// Reads `words` (the decisions of `text`, already split) one after the other from `state`,
/// each resolved against the state the previous ones lead to. An error names the failing
/// decision's index; no words at all is a syntax error saying `expected`.
pub fn parse_decisions<'a, G: Notation>(
    state: &G,
    text: &str,
    words: impl Iterator<Item = &'a str>,
    expected: &str,
) -> Result<Vec<G::Action>, MoveError> {
    let mut state = state.clone();
    let mut actions = Vec::new();
    for (i, word) in words.filter(|w| !w.is_empty()).enumerate() {
        let action = state.parse_action(word).map_err(|e| MoveError::InTurn {
            turn: text.to_string(),
            index: i + 1,
            cause: Box::new(e),
        })?;
        state.apply(action);
        actions.push(action);
    }
    if actions.is_empty() {
        return Err(MoveError::syntax(text, expected));
    }
    Ok(actions)
}

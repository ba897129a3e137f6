//! The snapshot's fields that seldom change (the seats and their people, the outcome, the
//! search under way, the controls, the offer, the clocks), each kept as the JSON text the
//! sockets were last sent: a delta carries one only when its text changed, where it repeated
//! every one of them after every move (about 500 bytes, a third of a short game's delta).

use ludus_engine::Seat;
use serde::Serialize;
use serde_json::{json, Value};

use super::knock_outs::KnockOut;
use super::snapshot::outcome_json;
use super::Table;

#[derive(Serialize)]
struct SeatEntry<'a> {
    seat: usize,
    name: &'a str,
    player: &'a str,
    side: &'static str,
    /// Kept for an invited player who has not come yet.
    free: bool,
    /// Its player's last socket closed.
    away: bool,
    /// For an away seat: when (Unix ms) the others may claim the win or hand it to a computer.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim_from_ms: Option<u64>,
    /// The account seated by pairing, with its rating as the game began.
    account: Option<AccountEntry<'a>>,
    /// Once a rated game ended: the seat's rating before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_change: Option<Value>,
    /// Out of a game of three or four: the turn (1-based in `history`) that put it out and
    /// the seat that played it.
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<&'a KnockOut>,
}

#[derive(Serialize)]
struct AccountEntry<'a> {
    name: &'a str,
    bot: bool,
    rating: String,
}

/// Each seldom-changing field's name and JSON text, in a fixed order.
#[derive(Debug, PartialEq)]
pub(super) struct SteadyTexts {
    /// The fields' texts one after another.
    text: Vec<u8>,
    /// Each field's name and where its text ends in `text`.
    ends: Vec<(&'static str, usize)>,
}

impl SteadyTexts {
    fn with_capacity(bytes: usize) -> SteadyTexts {
        SteadyTexts {
            text: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(FIELDS),
        }
    }

    /// Adds field `name` (a plain identifier: written without escaping) with `value`.
    fn add<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) {
        let start = self.text.len();
        // Serialising strings, numbers and JSON values into memory cannot fail; a field that
        // did would read `null` rather than half a value.
        if serde_json::to_writer(&mut self.text, value).is_err() {
            self.text.truncate(start);
            self.text.extend_from_slice(b"null");
        }
        self.ends.push((name, self.text.len()));
    }

    /// The fields' names and texts, in order.
    fn fields(&self) -> impl Iterator<Item = (&'static str, &[u8])> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|(_, end)| *end));
        self.ends
            .iter()
            .zip(starts)
            .map(|((name, end), start)| (*name, &self.text[start..*end]))
    }

    /// Writes into `object` (the JSON text of an object with at least one field) the fields
    /// whose text differs from `before`'s, every field without `before`.
    pub(super) fn append_changed(&self, object: &mut Vec<u8>, before: Option<&SteadyTexts>) {
        if object.last() != Some(&b'}') {
            return;
        }
        object.pop();
        let mut was = before.map(SteadyTexts::fields);
        for (name, text) in self.fields() {
            let old = was.as_mut().and_then(Iterator::next);
            if old.is_some_and(|(old_name, old_text)| old_name == name && old_text == text) {
                continue;
            }
            object.extend_from_slice(b",\"");
            object.extend_from_slice(name.as_bytes());
            object.extend_from_slice(b"\":");
            object.extend_from_slice(text);
        }
        object.push(b'}');
    }
}

/// Room for the fields [`Table::steady_texts`] writes.
const FIELDS: usize = 13;

impl Table {
    /// The seldom-changing fields as they are now.
    pub(super) fn steady_texts(&self) -> SteadyTexts {
        let names = self.names();
        let mut texts = SteadyTexts::with_capacity(512);
        texts.add("players", &self.kinds());
        texts.add("names", &names);
        texts.add("seats", &self.seat_entries(&names));
        texts.add("outcome", &outcome_json(self));
        let thinking = self
            .thinking
            .as_ref()
            .map(|t| json!({"seat": t.seat.number(), "since_ms": t.since_ms}));
        texts.add("thinking", &thinking);
        texts.add("paused", &self.paused);
        texts.add("speed_ms", &self.speed_ms);
        texts.add("analysis", &self.analysis);
        texts.add("offer", &self.offer.as_ref().map(|o| self.offer_json(o)));
        texts.add(
            "clock",
            &self.clocks.as_ref().map(super::clock::Clocks::json),
        );
        texts.add("can_undo", &(self.game.entry_count() > 0));
        texts.add("can_redo", &(self.game.redo_len() > 0));
        texts.add("rated", &self.rated);
        texts
    }

    fn seat_entries<'a>(&'a self, names: &[&'a str]) -> Vec<SeatEntry<'a>> {
        Seat::all(self.game.seat_count())
            .map(|seat| SeatEntry {
                seat: seat.number(),
                name: names.get(seat.to_usize()).copied().unwrap_or(""),
                player: self
                    .seats
                    .get(seat.to_usize())
                    .map_or("", |s| s.kind.as_str()),
                side: self.game.seat_name(seat),
                free: self
                    .seats
                    .get(seat.to_usize())
                    .is_some_and(|s| s.invite.is_some()),
                away: self.is_away(seat.to_usize()),
                claim_from_ms: self
                    .presence
                    .get(seat.to_usize())
                    .and_then(|p| p.claim_from_ms),
                account: self
                    .seats
                    .get(seat.to_usize())
                    .and_then(|s| s.account.as_ref())
                    .map(|a| AccountEntry {
                        name: &a.name,
                        bot: a.bot,
                        rating: a.rating.shown(),
                    }),
                rating_change: self.rating_changes.get(seat.to_usize()).map(|change| {
                    json!({
                        "before": change.before.rating,
                        "after": change.after.rating,
                        "shown_before": change.before.shown(),
                        "shown_after": change.after.shown(),
                    })
                }),
                out: self.knock_outs.iter().find(|k| k.seat == seat.number()),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::SteadyTexts;

    fn texts(fields: &[(&'static str, &str)]) -> SteadyTexts {
        let mut texts = SteadyTexts::with_capacity(0);
        for (name, value) in fields {
            texts.add(name, value);
        }
        texts
    }

    fn appended(now: &SteadyTexts, before: Option<&SteadyTexts>) -> String {
        let mut object = br#"{"type":"delta"}"#.to_vec();
        now.append_changed(&mut object, before);
        String::from_utf8(object).unwrap()
    }

    #[test]
    fn only_the_fields_whose_text_changed_are_written() {
        let before = texts(&[("a", "x"), ("b", "y"), ("c", "z")]);
        let now = texts(&[("a", "x"), ("b", "Y"), ("c", "z")]);
        assert_eq!(appended(&now, Some(&before)), r#"{"type":"delta","b":"Y"}"#);
        assert_eq!(appended(&now, Some(&now)), r#"{"type":"delta"}"#);
        assert_eq!(
            appended(&now, None),
            r#"{"type":"delta","a":"x","b":"Y","c":"z"}"#
        );
        let value: serde_json::Value = serde_json::from_str(&appended(&now, None)).unwrap();
        assert_eq!(value["b"], "Y");
    }
}

//! Requests between people: a takeback (a move is taken back only through a request the
//! other side accepts; within an unfinished turn the mover may still take back their own
//! steps; with three or four seats every person still in the game whose turn it undoes must
//! accept) and a draw offer (with three or four seats, every other seat still in the game must
//! accept). An offer waits in the snapshot (`offer`) until it is answered or any change to the
//! game clears it. A waiting offer is stored (an `offer` row that does not bump `seq`), so a
//! restart shows exactly what clients were last told.

use std::sync::Arc;

use ludus_engine::{AnyGame, Seat};
use serde_json::{json, Value};

use super::planned::Planned;
use super::{LiveGame, Table};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::Change;

/// What an offer asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// Take back the asking seat's last turn.
    Takeback,
    /// End the game drawn by agreement.
    Draw,
}

impl OfferKind {
    fn name(self) -> &'static str {
        match self {
            OfferKind::Takeback => "takeback",
            OfferKind::Draw => "draw",
        }
    }

    fn parse(text: &str) -> Option<OfferKind> {
        match text {
            "takeback" => Some(OfferKind::Takeback),
            "draw" => Some(OfferKind::Draw),
            _ => None,
        }
    }
}

/// A request waiting for the other side's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// What it asks for.
    pub kind: OfferKind,
    /// The seat that asks.
    pub from: Seat,
    /// The seats that accepted so far (with three or four seats in the game).
    pub accepted: Vec<Seat>,
}

impl Offer {
    /// The snapshot's `offer`.
    pub fn json(&self) -> Value {
        let mut json = json!({"kind": self.kind.name(), "from": self.from.number()});
        // A takeback shows its acceptances once there are some: with two seats the only
        // acceptance ends it, so its offer keeps the shape it always had.
        if self.kind == OfferKind::Draw || !self.accepted.is_empty() {
            let accepted: Vec<usize> = self.accepted.iter().map(|s| s.number()).collect();
            json["accepted"] = json!(accepted);
        }
        json
    }

    /// The stored form: `draw 1 2 3` (kind, the asking seat, the seats that accepted).
    pub fn stored(&self) -> String {
        let seats = std::iter::once(self.from).chain(self.accepted.iter().copied());
        let numbers: Vec<String> = seats.map(|s| s.number().to_string()).collect();
        format!("{} {}", self.kind.name(), numbers.join(" "))
    }

    /// Reads the stored form back (`None` for an empty row: no offer waits).
    pub fn from_stored(text: &str, seats: usize) -> Result<Option<Offer>, BadOffer> {
        let bad = |problem| BadOffer {
            row: text.to_string(),
            problem,
        };
        let mut words = text.split_whitespace();
        let Some(kind) = words.next() else {
            return Ok(None);
        };
        let kind = OfferKind::parse(kind).ok_or_else(|| bad("not a kind of offer"))?;
        let mut seat_numbers = words.map(|w| {
            w.parse()
                .ok()
                .and_then(|n| Seat::from_number(n, seats))
                .ok_or_else(|| bad("a seat the game does not have"))
        });
        let from = seat_numbers.next().ok_or_else(|| bad("no seat named"))??;
        let accepted = seat_numbers.collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Offer {
            kind,
            from,
            accepted,
        }))
    }
}

/// A stored offer that does not read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad offer row '{row}': {problem}")]
pub struct BadOffer {
    /// The stored row.
    pub row: String,
    /// What is wrong with it.
    pub problem: &'static str,
}

impl Table {
    /// Between people, undo and redo stay within the mover's own unfinished turn.
    pub fn check_own_steps(&self, token: &str) -> Result<(), ApiError> {
        if !self.between_people {
            return Ok(());
        }
        let own = self.seat_of(token).is_some_and(|seat| {
            self.game.to_move() == Some(seat)
                && self
                    .game
                    .history()
                    .last()
                    .is_some_and(|turn| !turn.complete && turn.seat == seat)
        });
        if own {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                "against a person a move is taken back only through an accepted takeback: expected POST /api/games/{id}/offer {\"token\":…,\"kind\":\"takeback\"}",
            ))
        }
    }

    /// The seats still in the game other than `seat` (Splut! removes teams).
    fn other_live_seats(&self, seat: Seat) -> Vec<Seat> {
        self.game
            .view()
            .seats
            .iter()
            .filter(|s| s.alive && s.seat != seat)
            .map(|s| s.seat)
            .collect()
    }

    fn is_live(&self, seat: Seat) -> bool {
        self.game
            .view()
            .seats
            .iter()
            .any(|s| s.alive && s.seat == seat)
    }

    /// A draw offer from `seat` may wait: `seat` and every other live seat are people's.
    fn check_draw_offer(&self, seat: Seat) -> Result<(), ApiError> {
        if !self.is_live(seat) {
            return Err(ApiError::unprocessable(
                "this seat has left the game: expected a seat still in play",
            ));
        }
        let others = self.other_live_seats(seat);
        if others.iter().any(|&other| !self.is_human(other)) {
            return Err(ApiError::unprocessable(
                "a computer player does not answer draw offers: expected a game between people",
            ));
        }
        Ok(())
    }

    /// The snapshot's `offer`: [`Offer::json`] and the seats whose answer it waits for
    /// (`waiting`), so that a page offers Accept and Decline only to them.
    pub fn offer_json(&self, offer: &Offer) -> Value {
        let mut json = offer.json();
        let waiting: Vec<usize> = self.waiting_for(offer).iter().map(|s| s.number()).collect();
        json["waiting"] = json!(waiting);
        json
    }

    /// The seats still to accept `offer`.
    fn waiting_for(&self, offer: &Offer) -> Vec<Seat> {
        let needed = match offer.kind {
            OfferKind::Draw => self.other_live_seats(offer.from),
            OfferKind::Takeback => self.takeback_needs(offer.from),
        };
        needed
            .into_iter()
            .filter(|seat| !offer.accepted.contains(seat))
            .collect()
    }

    /// Who must accept `from`'s takeback: every other person still in the game who played
    /// (part of) a turn it undoes; when it undoes only `from`'s own turn, the seat now to
    /// move (or, if that is a computer's, every other person still in the game).
    fn takeback_needs(&self, from: Seat) -> Vec<Seat> {
        let others = self.other_live_seats(from);
        let person = |seat: &Seat| others.contains(seat) && self.is_human(*seat);
        let Some((game, _)) = taken_back(&self.game, from) else {
            return Vec::new();
        };
        let history = self.game.history();
        let undone = history.get(game.history().len()..);
        let mut needs: Vec<Seat> = others
            .iter()
            .copied()
            .filter(|seat| undone.is_some_and(|turns| turns.iter().any(|t| t.seat == *seat)))
            .filter(person)
            .collect();
        if needs.is_empty() {
            needs = match self.game.to_move().filter(person) {
                Some(seat) => vec![seat],
                None => others.iter().copied().filter(person).collect(),
            };
        }
        needs
    }
}

/// The game taken back to the start of `seat`'s last turn, and how many decisions that is.
fn taken_back(game: &AnyGame, seat: Seat) -> Option<(AnyGame, usize)> {
    let mut game = game.clone();
    let mut undone = 0;
    while game.undo() {
        undone += 1;
        let turn_start = game.history().last().is_none_or(|t| t.complete);
        if turn_start && game.to_move() == Some(seat) {
            return Some((game, undone));
        }
    }
    None
}

/// A takeback from `seat` may wait: it has a turn to take back, and taking it back brings
/// no seat back into the game (a seat that resigned, ran out of time or was claimed against
/// left for good, and was not asked).
fn check_takeback(game: &AnyGame, seat: Seat) -> Result<(), ApiError> {
    let alive = |game: &AnyGame| game.view().seats.iter().filter(|s| s.alive).count();
    match taken_back(game, seat) {
        None => Err(ApiError::unprocessable(
            "nothing to take back: this seat has not played a turn yet",
        )),
        Some((back, _)) if alive(&back) > alive(game) => Err(ApiError::unprocessable(
            "a takeback does not bring back a seat that left the game: expected a takeback of a turn played since it left",
        )),
        Some(_) => Ok(()),
    }
}

/// Why a seat may not answer `offer` (it waits for `waiting`).
fn not_waiting(offer: &Offer, waiting: &[Seat]) -> ApiError {
    if offer.kind == OfferKind::Draw {
        return ApiError::unprocessable(
            "this seat has already answered or has left the game: expected a seat still to answer",
        );
    }
    let seats: Vec<String> = waiting.iter().map(|s| s.number().to_string()).collect();
    ApiError::unprocessable(format!(
        "this seat has already answered or none of its turns is taken back: expected an answer from seat {}",
        seats.join(" or ")
    ))
}

impl Table {
    /// Checks `token`'s offer of `kind`: the offer's row, and what showing it does.
    fn plan_offer(&self, token: &str, kind: OfferKind) -> Result<Planned<()>, ApiError> {
        let seat = self.require_seat(token)?;
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::unprocessable(format!(
                "the game is over ({outcome}): expected a game in progress"
            )));
        }
        match kind {
            OfferKind::Takeback => {
                if self.rated {
                    return Err(ApiError::unprocessable(
                        "no takebacks in a rated game: expected a casual game",
                    ));
                }
                check_takeback(&self.game, seat)?;
                // Else the request would wait for an answer nobody can give.
                if self.takeback_needs(seat).is_empty() {
                    return Err(ApiError::unprocessable(
                        "no other person in the game answers a takeback: expected a game between people (against the computer, undo instead)",
                    ));
                }
            }
            OfferKind::Draw => self.check_draw_offer(seat)?,
        }
        let offer = Offer {
            kind,
            from: seat,
            accepted: Vec::new(),
        };
        Ok(Planned::new(
            Change::Offer(offer.stored()),
            move |live, _, table| {
                table.offer = Some(offer);
                live.refresh(table);
            },
        ))
    }

    /// Checks `token`'s answer to the waiting request: the change it makes (the offer still
    /// waiting for others, or gone, or taken up), and what applying it does.
    fn plan_answer(&self, token: &str, accept: bool) -> Result<Planned<Value>, ApiError> {
        let seat = self.require_seat(token)?;
        let Some(mut offer) = self.offer.clone() else {
            return Err(ApiError::unprocessable(
                "no request is waiting for an answer",
            ));
        };
        if offer.from == seat {
            return Err(ApiError::forbidden(
                "a request is answered by the other side: expected another seat's token",
            ));
        }
        let waiting = self.waiting_for(&offer);
        if !waiting.contains(&seat) {
            return Err(not_waiting(&offer, &waiting));
        }
        if !accept {
            return Ok(Planned::new(
                Change::Offer(String::new()),
                |live, _, table| {
                    table.offer = None;
                    live.refresh(table);
                    json!({"accepted": false})
                },
            ));
        }
        offer.accepted.push(seat);
        let waiting = self.waiting_for(&offer);
        Ok(match offer.kind {
            _ if !waiting.is_empty() => {
                let waiting: Vec<usize> = waiting.iter().map(|s| s.number()).collect();
                Planned::new(Change::Offer(offer.stored()), move |live, _, table| {
                    table.offer = Some(offer);
                    live.refresh(table);
                    json!({"accepted": true, "waiting": waiting})
                })
            }
            OfferKind::Takeback => {
                let (game, undone) = taken_back(&self.game, offer.from)
                    .ok_or_else(|| ApiError::unprocessable("nothing left to take back"))?;
                Planned::new(Change::Undo(undone), move |live, hub, table| {
                    table.stop_searches();
                    table.rewind_clocks(&game);
                    table.game = game;
                    table.analysis = None;
                    let job = live.commit(table, hub, &[]);
                    debug_assert!(job.is_none(), "between people no computer is to move");
                    json!({"accepted": true, "undone": undone})
                })
            }
            OfferKind::Draw => Planned::new(Change::Draw, |live, hub, table| {
                table.stop_searches();
                table.game.agree_draw();
                table.analysis = None;
                let job = live.commit(table, hub, &[]);
                debug_assert!(job.is_none(), "a finished game starts no search");
                json!({"accepted": true})
            }),
        })
    }
}

impl LiveGame {
    /// `token`'s seat asks to take back its last turn (`takeback`) or offers a draw (`draw`).
    /// Stored first, and run to its end whatever becomes of the caller
    /// ([`to_the_end`](super::to_the_end)).
    pub async fn offer(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        token: &str,
        kind: &str,
    ) -> Result<(), ApiError> {
        let kind = OfferKind::parse(kind).ok_or_else(|| {
            ApiError::unprocessable(format!("offer '{kind}': expected \"takeback\" or \"draw\""))
        })?;
        let (game, hub, token) = (Arc::clone(self), Arc::clone(hub), token.to_string());
        super::to_the_end(async move {
            let _turn = game.turn().await;
            let planned = game.lock().plan_offer(&token, kind)?;
            game.store_then_apply(&hub, planned).await.map(|_| ())
        })
        .await
    }

    /// Another seat accepts or declines the waiting request. Stored first, and run to its
    /// end whatever becomes of the caller ([`to_the_end`](super::to_the_end)).
    pub async fn answer(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        token: &str,
        accept: bool,
    ) -> Result<Value, ApiError> {
        let (game, hub, token) = (Arc::clone(self), Arc::clone(hub), token.to_string());
        super::to_the_end(async move {
            let _turn = game.turn().await;
            let planned = game.lock().plan_answer(&token, accept)?;
            let answer = game.store_then_apply(&hub, planned).await?.1;
            // An accepted draw ends the game (rated if due); between people no search follows.
            game.after_change(&hub, None).await;
            Ok(answer)
        })
        .await
    }

    /// Shows a changed offer without a change to the game (`seq` stays).
    pub(super) fn refresh(&self, table: &mut Table) {
        let frame = table.change_frame();
        self.broadcast(frame);
    }
}

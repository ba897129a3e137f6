//! Adjudication: the arena ends a game early when the players' own scores agree that it is
//! decided, as fastchess and cutechess do (`-draw`, `-resign`). Both rules are off unless
//! asked for, and both are part of the tournament's fingerprint.
//!
//! - **Draw** (`movenumber=N,movecount=K,score=S`): once the game has `N` decisions, if every
//!   seat's last `K` decisions each came with a score within `±S`, the game is a draw.
//! - **Resign** (`movecount=K,score=S`, two seats): if a seat's last `K` decisions each scored
//!   `-S` or worse for itself *and* its opponent's last `K` each scored `+S` or better, the
//!   seat loses. Both players must agree: one engine's pessimism never ends a game.
//!
//! Scores are read as the saved notes write them (UGI's `cp N`, `mate N`, `proved win N`,
//! `proved draw`, `proved loss N`), from the point of view of the seat that decided; a mate or
//! a proved result counts as beyond any threshold, a proved draw as 0. A decision without a
//! score (a forced one, or an engine that reports none) breaks the streak of its seat: the
//! arena only adjudicates on what the players said.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The largest threshold a rule accepts, in the players' score units (centipawns).
pub const MAX_ADJUDICATION_SCORE: i32 = 100_000;
/// The most decisions a rule may count or wait for.
pub const MAX_ADJUDICATION_COUNT: u32 = 100_000;

/// A score beyond every threshold: a mate or a proved win.
const DECIDED: i32 = MAX_ADJUDICATION_SCORE + 1;

/// The draw rule: `movenumber=N,movecount=K,score=S`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawRule {
    /// Decisions played before the rule applies.
    pub after: u32,
    /// Consecutive decisions of every seat within the score.
    pub count: u32,
    /// The largest score, either way, that still counts as level.
    pub score: i32,
}

/// The resign rule: `movecount=K,score=S`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ResignRule {
    /// Consecutive decisions of each seat agreeing on the result.
    pub count: u32,
    /// The score the winner must claim and the loser concede, at least.
    pub score: i32,
}

/// Why a rule's text was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AdjudicationError {
    /// A part that is not `key=value` with a known key.
    #[error("unknown part '{part}' in '{text}': expected {expected}")]
    Part {
        /// The part.
        part: String,
        /// The whole text.
        text: String,
        /// The rule's form.
        expected: &'static str,
    },
    /// A value out of range, or a key left out.
    #[error("'{text}': {key} must be a whole number from {min} to {max}; expected {expected}")]
    Value {
        /// The whole text.
        text: String,
        /// The key.
        key: &'static str,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
        /// The rule's form.
        expected: &'static str,
    },
}

const DRAW_FORM: &str = "movenumber=N,movecount=K,score=S (movenumber may be left out: 0)";
const RESIGN_FORM: &str = "movecount=K,score=S";

/// A value that is not a whole number: below every range, so [`in_range`] refuses it.
const NOT_A_NUMBER: i64 = i64::MIN;

/// Reads `key=value,...` into the values of `keys` (in order; `None` where absent).
fn read_parts<const N: usize>(
    text: &str,
    keys: [&'static str; N],
    expected: &'static str,
) -> Result<[Option<i64>; N], AdjudicationError> {
    let mut values = [None; N];
    for part in text.split(',').map(str::trim) {
        let slot = part
            .split_once('=')
            .and_then(|(key, value)| Some((keys.iter().position(|k| *k == key.trim())?, value)));
        let Some((slot, value)) = slot else {
            return Err(AdjudicationError::Part {
                part: part.to_string(),
                text: text.to_string(),
                expected,
            });
        };
        values[slot] = Some(value.trim().parse::<i64>().unwrap_or(NOT_A_NUMBER));
    }
    Ok(values)
}

/// `value` checked against `min..=max` (absent: out of range).
fn in_range(
    text: &str,
    key: &'static str,
    value: Option<i64>,
    (min, max): (i64, i64),
    expected: &'static str,
) -> Result<i64, AdjudicationError> {
    match value {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(AdjudicationError::Value {
            text: text.to_string(),
            key,
            min,
            max,
            expected,
        }),
    }
}

/// Both range limits checked above fit the target types.
fn narrow<T: TryFrom<i64> + Default>(value: i64) -> T {
    T::try_from(value).unwrap_or_default()
}

const COUNTS: (i64, i64) = (1, MAX_ADJUDICATION_COUNT as i64);
const SCORES: (i64, i64) = (0, MAX_ADJUDICATION_SCORE as i64);

impl FromStr for DrawRule {
    type Err = AdjudicationError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let keys = ["movenumber", "movecount", "score"];
        let [after, count, score] = read_parts(text, keys, DRAW_FORM)?;
        let after = in_range(
            text,
            "movenumber",
            Some(after.unwrap_or(0)),
            (0, COUNTS.1),
            DRAW_FORM,
        )?;
        Ok(DrawRule {
            after: narrow(after),
            count: narrow(in_range(text, "movecount", count, COUNTS, DRAW_FORM)?),
            score: narrow(in_range(text, "score", score, SCORES, DRAW_FORM)?),
        })
    }
}

impl FromStr for ResignRule {
    type Err = AdjudicationError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let [count, score] = read_parts(text, ["movecount", "score"], RESIGN_FORM)?;
        Ok(ResignRule {
            count: narrow(in_range(text, "movecount", count, COUNTS, RESIGN_FORM)?),
            score: narrow(in_range(text, "score", score, SCORES, RESIGN_FORM)?),
        })
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "movenumber={},movecount={},score={}",
            self.after, self.count, self.score
        )
    }
}

impl fmt::Display for ResignRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movecount={},score={}", self.count, self.score)
    }
}

/// A saved note's score as a number for the seat that decided: mates and proved results
/// beyond every threshold, `None` for no score or one this arena cannot read.
pub(crate) fn score_value(score: &str) -> Option<i32> {
    let words: Vec<&str> = score.split_whitespace().collect();
    let number = |text: &str| text.parse::<i64>().ok();
    let clamp = |v: i64| narrow::<i32>(v.clamp(-i64::from(DECIDED), i64::from(DECIDED)));
    match words[..] {
        ["cp", cp] => number(cp).map(clamp),
        ["mate", n] => number(n).map(|n| if n > 0 { DECIDED } else { -DECIDED }),
        ["proved", "win", _] => Some(DECIDED),
        ["proved", "loss", _] => Some(-DECIDED),
        ["proved", "draw"] => Some(0),
        _ => None,
    }
}

/// What the rules decided.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Adjudged {
    /// A draw, with the reason for the record.
    Draw(String),
    /// `seat` (from 0) loses, with the reason.
    Loses(usize, String),
}

/// Follows a game's scores and says when a rule ends it.
pub(crate) struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    decisions: u32,
    /// Per seat: consecutive decisions within the draw score.
    level: Vec<u32>,
    /// Per seat: consecutive decisions conceding the resign score.
    conceding: Vec<u32>,
    /// Per seat: consecutive decisions claiming the resign score.
    claiming: Vec<u32>,
}

impl Adjudicator {
    /// An adjudicator for a game of `seats` seats (the resign rule needs two).
    pub(crate) fn new(draw: Option<DrawRule>, resign: Option<ResignRule>, seats: usize) -> Self {
        Adjudicator {
            draw,
            resign: resign.filter(|_| seats == 2),
            decisions: 0,
            level: vec![0; seats],
            conceding: vec![0; seats],
            claiming: vec![0; seats],
        }
    }

    /// Counts one decision of `seat` (from 0) with its `score`; what the rules decide now.
    pub(crate) fn observe(&mut self, seat: usize, score: Option<&str>) -> Option<Adjudged> {
        self.decisions = self.decisions.saturating_add(1);
        let value = score.and_then(score_value);
        let bump = |streak: &mut u32, holds: bool| *streak = if holds { *streak + 1 } else { 0 };
        if let Some(rule) = self.resign {
            bump(
                &mut self.conceding[seat],
                value.is_some_and(|v| v <= -rule.score),
            );
            bump(
                &mut self.claiming[seat],
                value.is_some_and(|v| v >= rule.score),
            );
            let other = 1 - seat;
            for (loser, winner) in [(seat, other), (other, seat)] {
                if self.conceding[loser] >= rule.count && self.claiming[winner] >= rule.count {
                    return Some(Adjudged::Loses(
                        loser,
                        format!(
                            "adjudicated: both players scored the game at least {} for seat {} \
                             over their last {} decisions",
                            rule.score,
                            winner + 1,
                            rule.count
                        ),
                    ));
                }
            }
        }
        if let Some(rule) = self.draw {
            bump(
                &mut self.level[seat],
                value.is_some_and(|v| v.abs() <= rule.score),
            );
            if self.decisions >= rule.after && self.level.iter().all(|&n| n >= rule.count) {
                return Some(Adjudged::Draw(format!(
                    "adjudicated a draw: every player scored within ±{} over its last {} \
                     decisions",
                    rule.score, rule.count
                )));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_and_write_their_text() {
        let draw: DrawRule = "movenumber=40,movecount=8,score=10".parse().unwrap();
        assert_eq!(
            draw,
            DrawRule {
                after: 40,
                count: 8,
                score: 10
            }
        );
        assert_eq!(draw.to_string().parse::<DrawRule>().unwrap(), draw);
        assert_eq!("score=5, movecount=3".parse::<DrawRule>().unwrap().after, 0);
        let resign: ResignRule = "movecount=4,score=600".parse().unwrap();
        assert_eq!(resign.to_string(), "movecount=4,score=600");
    }

    #[test]
    fn bad_rules_say_what_was_expected() {
        for (text, says) in [
            (
                "movecount=0,score=10",
                "movecount must be a whole number from 1",
            ),
            ("movecount=3", "score must be"),
            ("moves=3,score=1", "unknown part 'moves=3'"),
            ("movecount=x,score=1", "movecount must be"),
            ("movecount=3,score=-4", "score must be"),
        ] {
            let error = text.parse::<ResignRule>().unwrap_err().to_string();
            assert!(error.contains(says), "{text}: {error}");
            assert!(error.contains("expected movecount=K,score=S"), "{error}");
        }
    }

    #[test]
    fn scores_read_as_the_notes_write_them() {
        assert_eq!(score_value("cp -35"), Some(-35));
        assert_eq!(score_value("mate 3"), Some(DECIDED));
        assert_eq!(score_value("mate -1"), Some(-DECIDED));
        assert_eq!(score_value("proved win 4"), Some(DECIDED));
        assert_eq!(score_value("proved loss 2"), Some(-DECIDED));
        assert_eq!(score_value("proved draw"), Some(0));
        assert_eq!(score_value("cp"), None);
        assert_eq!(score_value("lowerbound 3"), None);
    }

    fn resign_after(count: u32, scores: &[(usize, Option<&str>)]) -> Option<Adjudged> {
        let rule = ResignRule { count, score: 500 };
        let mut adjudicator = Adjudicator::new(None, Some(rule), 2);
        scores
            .iter()
            .find_map(|&(seat, score)| adjudicator.observe(seat, score))
    }

    #[test]
    fn resigning_needs_both_players_to_agree_for_the_whole_count() {
        let agreed = [
            (0, Some("cp 600")),
            (1, Some("cp -700")),
            (0, Some("mate 5")),
            (1, Some("cp -900")),
        ];
        match resign_after(2, &agreed) {
            Some(Adjudged::Loses(1, reason)) => assert!(reason.contains("seat 1"), "{reason}"),
            other => panic!("{other:?}"),
        }
        // The loser never conceded: its own scores stay hopeful.
        let one_sided = [
            (0, Some("cp 600")),
            (1, Some("cp 10")),
            (0, Some("cp 800")),
            (1, Some("cp 20")),
        ];
        assert_eq!(resign_after(2, &one_sided), None);
        // A forced decision (no score) breaks the streak.
        let broken = [
            (0, Some("cp 600")),
            (1, Some("cp -700")),
            (0, None),
            (1, Some("cp -700")),
            (0, Some("cp 600")),
        ];
        assert_eq!(resign_after(2, &broken), None);
    }

    #[test]
    fn a_draw_waits_for_its_move_number_and_every_seat() {
        let rule = DrawRule {
            after: 6,
            count: 2,
            score: 20,
        };
        let mut adjudicator = Adjudicator::new(Some(rule), None, 2);
        let scores = [
            "cp 0", "cp 5", "cp -3", "cp 15", "cp 0", "cp 40", "cp 1", "cp 0", "cp 2", "cp 3",
        ];
        let ended: Vec<bool> = scores
            .iter()
            .enumerate()
            .map(|(k, s)| adjudicator.observe(k % 2, Some(s)).is_some())
            .collect();
        // Both runs reach two at decision 4, but the rule waits for decision 6, which breaks
        // seat 2's run (40); its decisions 8 and 10 make two again.
        let mut expected = [false; 10];
        expected[9] = true;
        assert_eq!(ended, expected);
    }

    #[test]
    fn the_resign_rule_is_left_out_beyond_two_seats() {
        let rule = ResignRule { count: 1, score: 1 };
        let mut adjudicator = Adjudicator::new(None, Some(rule), 3);
        assert_eq!(adjudicator.observe(0, Some("mate 1")), None);
        assert_eq!(adjudicator.observe(1, Some("mate -1")), None);
    }
}

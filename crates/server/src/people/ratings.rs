//! Rating arithmetic: Glicko-2 ratings, the clock classes they are kept per, and how one
//! finished game of any number of seats changes them.
//!
//! Pure functions only: storing ratings and asking who played whom belong elsewhere. The
//! Glicko-2 steps come from the `skillratings` crate; the tests check it against Glickman's
//! published example and against a hand-written copy of his steps.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{self, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's Glicko-2 rating on the public scale (1500 is the average newcomer).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating itself.
    pub rating: f64,
    /// The rating deviation: how unsure the rating is (350 for someone never seen playing).
    pub deviation: f64,
    /// The volatility: how erratic the player's results have been.
    pub volatility: f64,
}

/// Above this deviation a rating is provisional; lichess uses the same threshold, so a
/// newcomer's rating settles after some ten to fifteen games.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl Default for Rating {
    /// Glicko-2's newcomer: 1500, deviation 350, volatility 0.06.
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (deviation above 110, as on lichess).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as people see it: rounded, with a `?` while provisional ("1500?", "1623").
    pub fn shown(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        format!("{:.0}{mark}", self.rating.round())
    }
}

fn to_glicko(rating: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
    }
}

fn from_glicko(rating: Glicko2Rating) -> Rating {
    Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
    }
}

/// The speed class a game is rated in; each person has one rating per game and class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockClass {
    /// An estimated duration under 10 minutes.
    Fast,
    /// From 10 minutes to under a day.
    Slow,
    /// A day or more, days per move (a correspondence clock), or no clock at all.
    Correspondence,
}

const MINUTE_MS: u64 = 60_000;
const DAY_MS: u64 = 24 * 60 * MINUTE_MS;

impl ClockClass {
    /// The class of a game with `initial_ms` on each clock (`None`: no clock) and
    /// `increment_ms` added per move.
    ///
    /// A game without a clock may last days, so it is Correspondence. Otherwise the duration
    /// is estimated as lichess does, `initial + 40 × increment` (a game of 40 moves each):
    /// under 10 minutes is Fast, under a day Slow, a day or more Correspondence.
    pub fn of(initial_ms: Option<u64>, increment_ms: u64) -> ClockClass {
        let Some(initial_ms) = initial_ms else {
            return ClockClass::Correspondence;
        };
        let estimate = initial_ms.saturating_add(increment_ms.saturating_mul(40));
        if estimate < 10 * MINUTE_MS {
            ClockClass::Fast
        } else if estimate < DAY_MS {
            ClockClass::Slow
        } else {
            ClockClass::Correspondence
        }
    }

    /// The class's name as stored and sent: "fast", "slow" or "correspondence".
    pub fn as_str(self) -> &'static str {
        match self {
            ClockClass::Fast => "fast",
            ClockClass::Slow => "slow",
            ClockClass::Correspondence => "correspondence",
        }
    }
}

/// A clock class name that is none of the three.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockClassError(pub String);

impl fmt::Display for ClockClassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad clock class '{}': expected fast, slow or correspondence",
            self.0
        )
    }
}

impl std::error::Error for ClockClassError {}

impl FromStr for ClockClass {
    type Err = ClockClassError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "fast" => Ok(ClockClass::Fast),
            "slow" => Ok(ClockClass::Slow),
            "correspondence" => Ok(ClockClass::Correspondence),
            _ => Err(ClockClassError(text.chars().take(40).collect())),
        }
    }
}

/// The pairwise results of one finished game, from each seat's score in `[0, 1]` (the
/// engine's `Verdict::reward`: 1 for the winner and 0 for the others, or `1 / n` each in a
/// draw).
///
/// Every pair of seats `(i, j)` with `i < j` comes with the outcome for `i`: 1.0 when `i`
/// scored more (a win), 0.0 when it scored less (a loss), 0.5 when both scored the same
/// above 0 (a draw). Two seats that both scored 0 are left out: they are two losers of a
/// multi-seat game, and neither beat the other. This is how a Splut! game of 3 or 4 seats is
/// rated: the winner beat every other seat, each loser lost to the winner only, and each
/// seat's game counts as one Glicko-2 rating period against all the opponents it met.
pub fn pairwise(scores: &[f64]) -> Vec<(usize, usize, f64)> {
    let mut pairs = Vec::new();
    for (i, &mine) in scores.iter().enumerate() {
        for (j, &theirs) in scores.iter().enumerate().skip(i + 1) {
            if let Some(outcome) = outcome(mine, theirs) {
                pairs.push((i, j, outcome));
            }
        }
    }
    pairs
}

/// The outcome for the seat that scored `mine` against one that scored `theirs`, or `None`
/// when the pair does not count (both at 0, or a score that is not a number).
fn outcome(mine: f64, theirs: f64) -> Option<f64> {
    match mine.partial_cmp(&theirs)? {
        Ordering::Greater => Some(1.0),
        Ordering::Less => Some(0.0),
        Ordering::Equal if mine > 0.0 => Some(0.5),
        Ordering::Equal => None,
    }
}

/// The new rating of every seat after one finished game: `ratings[i]` is seat `i`'s rating
/// before the game and `scores[i]` its score, as for [`pairwise`].
///
/// Each seat's game is one Glicko-2 rating period (tau 0.5) over its pairwise results
/// against the opponents' ratings before the game, so the order in which seats are rated
/// does not matter. A seat with no counted pair keeps its rating, and its deviation grows as
/// after a period without games.
///
/// Panics when `ratings` and `scores` differ in length.
pub fn rate_game(ratings: &[Rating], scores: &[f64]) -> Vec<Rating> {
    assert_eq!(ratings.len(), scores.len(), "one score per rated seat");
    let mut results: Vec<Vec<(Glicko2Rating, Outcomes)>> = vec![Vec::new(); ratings.len()];
    for (i, j, score) in pairwise(scores) {
        results[i].push((to_glicko(&ratings[j]), outcome_of(score)));
        results[j].push((to_glicko(&ratings[i]), outcome_of(1.0 - score)));
    }
    let config = Glicko2Config::new();
    ratings
        .iter()
        .zip(&results)
        .map(|(rating, results)| {
            from_glicko(glicko2::glicko2_rating_period(
                &to_glicko(rating),
                results,
                &config,
            ))
        })
        .collect()
}

fn outcome_of(score: f64) -> Outcomes {
    if score > 0.5 {
        Outcomes::WIN
    } else if score < 0.5 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

/// The chance that `a` beats `b` in `[0, 1]`, counting both ratings' uncertainty (for
/// pairing people of close strength).
pub fn expected_score(a: &Rating, b: &Rating) -> f64 {
    glicko2::expected_score(&to_glicko(a), &to_glicko(b)).0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's conversion factor between the public and the Glicko-2 scale.
    const SCALE: f64 = 173.7178;

    fn rating(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// g(φ) and E(μ, μj, φj) of Glickman's step 3, on the Glicko-2 scale.
    fn g_and_e(mu: f64, opponent: &Rating) -> (f64, f64) {
        let phi = opponent.deviation / SCALE;
        let g = 1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI.powi(2))).sqrt();
        let e = 1.0 / (1.0 + (-g * (mu - (opponent.rating - 1500.0) / SCALE)).exp());
        (g, e)
    }

    /// Step 5: the new volatility σ' by the Illinois iteration, to within 0.000001.
    fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 0.000_001 {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                (big_a, f_a) = (big_b, f_b);
            } else {
                f_a /= 2.0;
            }
            (big_b, f_b) = (big_c, f_c);
        }
        (big_a / 2.0).exp()
    }

    /// Glickman's steps 1–8 by hand, for one player's rating period.
    fn glickman(player: &Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
        let mu = (player.rating - 1500.0) / SCALE;
        let phi = player.deviation / SCALE;
        let (mut v_inverse, mut sum) = (0.0, 0.0);
        for (opponent, score) in games {
            let (g, e) = g_and_e(mu, opponent);
            v_inverse += g * g * e * (1.0 - e);
            sum += g * (score - e);
        }
        let v = 1.0 / v_inverse;
        let sigma = new_volatility(player.volatility, phi, v, v * sum, tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * sum;
        rating(SCALE * new_mu + 1500.0, SCALE * new_phi, sigma)
    }

    /// The crate's rating period with Glickman's tau 0.5.
    fn crate_period(player: &Rating, games: &[(Rating, f64)]) -> Rating {
        let results: Vec<_> = games
            .iter()
            .map(|(opponent, score)| (to_glicko(opponent), outcome_of(*score)))
            .collect();
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        from_glicko(glicko2::glicko2_rating_period(
            &to_glicko(player),
            &results,
            &config,
        ))
    }

    fn assert_close(got: &Rating, want: &Rating, rating: f64, volatility: f64) {
        assert!(
            (got.rating - want.rating).abs() < rating,
            "{got:?} vs {want:?}"
        );
        assert!(
            (got.deviation - want.deviation).abs() < rating,
            "{got:?} vs {want:?}"
        );
        assert!(
            (got.volatility - want.volatility).abs() < volatility,
            "{got:?} vs {want:?}"
        );
    }

    fn glickman_example() -> (Rating, Vec<(Rating, f64)>) {
        let games = vec![
            (rating(1400.0, 30.0, 0.06), 1.0),
            (rating(1550.0, 100.0, 0.06), 0.0),
            (rating(1700.0, 300.0, 0.06), 0.0),
        ];
        (rating(1500.0, 200.0, 0.06), games)
    }

    #[test]
    fn default_tau_is_glickmans() {
        // rate_game relies on the crate's default being the tau of Glickman's example.
        assert!((Glicko2Config::new().tau - 0.5).abs() < f64::EPSILON);
        assert!((Glicko2Config::default().tau - 0.5).abs() < f64::EPSILON);
    }

    #[test]
    fn glickman_published_example() {
        let (player, games) = glickman_example();
        let want = rating(1464.06, 151.52, 0.05999);
        assert_close(&crate_period(&player, &games), &want, 0.01, 0.000_01);
        assert_close(&glickman(&player, &games, 0.5), &want, 0.01, 0.000_01);
    }

    #[test]
    fn crate_agrees_with_glickmans_steps() {
        let (player, games) = glickman_example();
        let second = (
            rating(1700.0, 80.0, 0.06),
            vec![
                (rating(1500.0, 50.0, 0.06), 0.5),
                (rating(1800.0, 120.0, 0.06), 1.0),
            ],
        );
        // A newcomer's upset: Δ² > φ² + v, the other branch of step 5.
        let upset = (
            rating(1500.0, 350.0, 0.06),
            vec![(rating(2200.0, 50.0, 0.06), 1.0)],
        );
        for (player, games) in [(player, games), second, upset] {
            let by_hand = glickman(&player, &games, 0.5);
            assert_close(&crate_period(&player, &games), &by_hand, 1e-6, 1e-7);
        }
    }

    #[test]
    fn pairwise_two_seats() {
        assert_eq!(pairwise(&[1.0, 0.0]), vec![(0, 1, 1.0)]);
        assert_eq!(pairwise(&[0.0, 1.0]), vec![(0, 1, 0.0)]);
        assert_eq!(pairwise(&[0.5, 0.5]), vec![(0, 1, 0.5)]);
    }

    #[test]
    fn pairwise_four_seat_win_leaves_out_the_losers_pairs() {
        assert_eq!(
            pairwise(&[0.0, 0.0, 1.0, 0.0]),
            vec![(0, 2, 0.0), (1, 2, 0.0), (2, 3, 1.0)]
        );
    }

    #[test]
    fn pairwise_three_seat_draw() {
        let third = 1.0 / 3.0;
        assert_eq!(
            pairwise(&[third, third, third]),
            vec![(0, 1, 0.5), (0, 2, 0.5), (1, 2, 0.5)]
        );
    }

    #[test]
    fn rate_game_two_seat_win() {
        let before = [Rating::default(), Rating::default()];
        let after = rate_game(&before, &[1.0, 0.0]);
        let gain = after[0].rating - before[0].rating;
        let loss = before[1].rating - after[1].rating;
        assert!(gain > 0.0 && loss > 0.0, "{after:?}");
        assert!((gain - loss).abs() < 1e-9, "{after:?}");
        assert!(after.iter().all(|r| r.deviation < before[0].deviation));
    }

    #[test]
    fn rate_game_rates_against_ratings_before_the_game() {
        let before = [
            rating(1600.0, 90.0, 0.06),
            rating(1500.0, 200.0, 0.06),
            rating(1450.0, 120.0, 0.06),
        ];
        let after = rate_game(&before, &[0.0, 1.0, 0.0]);
        let winner = crate_period(&before[1], &[(before[0], 1.0), (before[2], 1.0)]);
        assert_eq!(after[1], winner);
        assert_eq!(after[0], crate_period(&before[0], &[(before[1], 0.0)]));
    }

    #[test]
    fn seat_without_pairs_only_grows_deviation() {
        let before = [rating(1700.0, 60.0, 0.06), rating(1500.0, 349.9, 0.06)];
        let after = rate_game(&before, &[0.0, 0.0]);
        assert!((after[0].rating - 1700.0).abs() < f64::EPSILON);
        assert!(after[0].deviation > 60.0);
        assert!(
            (after[1].deviation - 350.0).abs() < f64::EPSILON,
            "capped at a newcomer's"
        );
    }

    #[test]
    fn expected_score_favours_the_stronger() {
        let (strong, weak) = (rating(1800.0, 60.0, 0.06), rating(1500.0, 60.0, 0.06));
        let chance = expected_score(&strong, &weak);
        assert!(chance > 0.8 && chance < 1.0, "{chance}");
        assert!((chance + expected_score(&weak, &strong) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn clock_class_boundaries() {
        let minutes = |m: u64| Some(m * MINUTE_MS);
        assert_eq!(ClockClass::of(None, 0), ClockClass::Correspondence);
        assert_eq!(ClockClass::of(minutes(3), 2_000), ClockClass::Fast);
        assert_eq!(ClockClass::of(minutes(9), 0), ClockClass::Fast);
        assert_eq!(ClockClass::of(minutes(10), 0), ClockClass::Slow);
        assert_eq!(ClockClass::of(minutes(24 * 60 - 1), 0), ClockClass::Slow);
        assert_eq!(
            ClockClass::of(minutes(24 * 60), 0),
            ClockClass::Correspondence
        );
        assert_eq!(
            ClockClass::of(Some(u64::MAX), u64::MAX),
            ClockClass::Correspondence
        );
    }

    #[test]
    fn clock_class_names() {
        for class in [
            ClockClass::Fast,
            ClockClass::Slow,
            ClockClass::Correspondence,
        ] {
            assert_eq!(class.as_str().parse(), Ok(class));
            let json = serde_json::to_string(&class).unwrap();
            assert_eq!(json, format!("\"{}\"", class.as_str()));
        }
        let error = "blitz".parse::<ClockClass>().unwrap_err().to_string();
        assert_eq!(
            error,
            "bad clock class 'blitz': expected fast, slow or correspondence"
        );
    }

    #[test]
    fn provisional_and_shown() {
        assert!(Rating::default().provisional());
        assert_eq!(Rating::default().shown(), "1500?");
        let settled = rating(1622.6, 110.0, 0.06);
        assert!(!settled.provisional());
        assert_eq!(settled.shown(), "1623");
        assert_eq!(rating(1622.6, 110.5, 0.06).shown(), "1623?");
    }
}

//! Estimates from game pairs (pentanomial counts): Elo, normalized Elo and the likelihood of
//! superiority, as fastchess prints them next to its SPRT.
//!
//! With `x` a pair's points divided by two (0, ¼, ½, ¾, 1), `N` pairs, `μ` their mean and `σ²`
//! their variance:
//! - **Elo**: the logistic Elo of `μ` (see [`elo_from_score`]), with the 95 % interval of
//!   `μ ± 1.96 · √(σ²/N)` taken through the same curve and halved, as the per-game table does;
//! - **nElo** (normalized Elo, Hansen and Van den Bergh): `(μ − ½) / √(2σ²) · 800 / ln 10`,
//!   with `± 1.96 · 800 / ln 10 / √(2N)`: its error depends on the number of pairs only;
//! - **LOS** (likelihood of superiority): `Φ((μ − ½) / √(σ²/N))`, the normal model's
//!   probability that the player is stronger at all.
//!
//! Pairs all in one class have no measured variance: as for a game score of 100 %, the mean is
//! kept half a pair inside `[0, 1]` and the variance taken as `μ(1 − μ)`, the largest any
//! pairs of that mean can have.

use serde::Serialize;

use super::elo::elo_from_score;
use super::sprt::{Pentanomial, NELO_SCALE};
use super::GameResult;

/// A player's estimates from its game pairs.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct PairEstimate {
    /// Logistic Elo of the mean pair score.
    pub elo: f64,
    /// Half-width of its 95 % interval.
    pub elo_ci95: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half-width of its 95 % interval.
    pub nelo_ci95: f64,
    /// Likelihood of superiority, from 0 to 1.
    pub los: f64,
}

/// The estimates of `pairs` (see the module doc); no pairs give zeros and a LOS of ½.
pub fn pair_estimate(pairs: &Pentanomial) -> PairEstimate {
    let n = f64::from(pairs.iter().sum::<u32>());
    if n == 0.0 {
        return PairEstimate {
            los: 0.5,
            ..PairEstimate::default()
        };
    }
    let class = |c: usize| f64::from(pairs[c]) / n;
    let mean: f64 = (0..5).map(|c| class(c) * c as f64 / 4.0).sum();
    let edge = 0.5 / n;
    let clamped = mean.clamp(edge, 1.0 - edge);
    let mut variance: f64 = (0..5)
        .map(|c| class(c) * (c as f64 / 4.0 - mean).powi(2))
        .sum();
    if variance <= 0.0 {
        variance = clamped * (1.0 - clamped);
    }
    let error = (variance / n).sqrt();
    let low = (clamped - 1.96 * error).clamp(edge, 1.0 - edge);
    let high = (clamped + 1.96 * error).clamp(edge, 1.0 - edge);
    PairEstimate {
        elo: elo_from_score(clamped),
        elo_ci95: (elo_from_score(high) - elo_from_score(low)) / 2.0,
        nelo: (clamped - 0.5) / (2.0 * variance).sqrt() * NELO_SCALE,
        nelo_ci95: 1.96 * NELO_SCALE / (2.0 * n).sqrt(),
        los: 0.5 * (1.0 + libm::erf((clamped - 0.5) / (error * std::f64::consts::SQRT_2))),
    }
}

/// The pentanomial counts of `player`'s game pairs among `games`: games `2k` and `2k + 1` of
/// a pair of players (see `schedule.rs`), counted from the first game of that pair; a game
/// whose partner is missing (the last of an odd `--games`, or one cut by the SPRT) is left out.
pub fn pairs_of(player: usize, games: &[GameResult]) -> Pentanomial {
    let mut mine: Vec<&GameResult> = games
        .iter()
        .filter(|g| g.agents.contains(&player))
        .collect();
    mine.sort_by_key(|g| g.index);
    let opponent = |g: &GameResult| g.agents.iter().copied().find(|&a| a != player);
    let half_points = |g: &GameResult| match g.winner {
        Some(w) if w == player => 2,
        Some(_) => 0,
        None => 1,
    };
    let mut counts = [0; 5];
    // The current opponent and the index of its first game with `player`.
    let mut block = (None, 0);
    let mut held: Option<&GameResult> = None;
    for game in mine {
        if block.0 != Some(opponent(game)) {
            block = (Some(opponent(game)), game.index);
            held = None;
        }
        if (game.index - block.1) % 2 == 0 {
            held = Some(game);
        } else if let Some(first) = held.take().filter(|f| f.index + 1 == game.index) {
            counts[half_points(first) + half_points(game)] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, agents: [usize; 2], winner: Option<usize>) -> GameResult {
        GameResult {
            index,
            seats: vec![],
            result: String::new(),
            plies: 1,
            agents: agents.to_vec(),
            winner,
            reason: String::new(),
        }
    }

    #[test]
    fn pairs_are_counted_per_opponent_from_its_first_game() {
        // Three games per pair of players: games 0-1 are a pair, game 2 stands alone; then
        // player 0 meets player 2 from game 3 (pair 3-4).
        let games = [
            game(0, [0, 1], Some(0)),
            game(1, [1, 0], None),
            game(2, [0, 1], Some(1)),
            game(3, [0, 2], Some(2)),
            game(4, [2, 0], Some(2)),
            game(5, [1, 2], Some(1)),
        ];
        assert_eq!(pairs_of(0, &games), [1, 0, 0, 1, 0]);
        assert_eq!(pairs_of(1, &games), [0, 1, 0, 0, 0]);
        assert_eq!(pairs_of(2, &games), [0, 0, 0, 0, 1]);
    }

    #[test]
    fn estimates_match_a_hand_computation() {
        // 100 pairs 5, 10, 40, 30, 15: μ = 0.6, σ² = 0.065, √(σ²/N) = 0.025495.
        //   Elo = −400 · log10(1/0.6 − 1) = 70.44; scores 0.6 ± 0.049970 = 0.550030..0.649970,
        //   Elo 34.88..107.52: ± 36.32.
        //   nElo = 0.1 / √0.13 · 347.4355 = 96.36, ± 1.96 · 347.4355 / √200 = 48.15.
        //   LOS = Φ(0.1 / 0.025495) = Φ(3.922) = 0.999956.
        let e = pair_estimate(&[5, 10, 40, 30, 15]);
        assert!((e.elo - 70.44).abs() < 0.01, "{e:?}");
        assert!((e.elo_ci95 - 36.32).abs() < 0.01, "{e:?}");
        assert!((e.nelo - 96.36).abs() < 0.01, "{e:?}");
        assert!((e.nelo_ci95 - 48.15).abs() < 0.01, "{e:?}");
        assert!((e.los - 0.999_956).abs() < 1e-6, "{e:?}");
        let even = pair_estimate(&[10, 20, 40, 20, 10]);
        assert!(even.elo.abs() < 1e-9 && even.nelo.abs() < 1e-9);
        assert!((even.los - 0.5).abs() < 1e-12);
        let none = pair_estimate(&[0; 5]);
        assert!((none.los - 0.5).abs() < 1e-12 && none.elo == 0.0);
        let all_won = pair_estimate(&[0, 0, 0, 0, 8]);
        assert!(all_won.elo.is_finite() && all_won.nelo > 0.0 && all_won.los > 0.99);
    }
}

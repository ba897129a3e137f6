//! Elo differences from match results, with a 95 % interval.
//!
//! **Model.** In the logistic (Elo) model a player `D` points stronger than its opponents
//! expects the score `p = 1 / (1 + 10^(-D/400))` per game (a win counts 1, a draw ½). Reading
//! it backwards, a measured score `p` over `N` games gives `D = -400 · log10(1/p - 1)`:
//! 75 % is +191, 50 % is 0, 25 % is -191.
//!
//! **Interval.** The score is the mean of `N` per-game results `x ∈ {1, ½, 0}`, so its standard
//! error is `s = sqrt(σ² / N)` with `σ² = (W·(1-p)² + D·(½-p)² + L·p²) / N`. The 95 % interval
//! of the score is `p ± 1.96·s`; both ends go through the formula above and the reported
//! `± value` is half the width of the resulting Elo interval (the Elo curve is not symmetric,
//! so this is an honest average of both sides).
//!
//! **All won or all lost.** A 100 % (or 0 %) score would be an infinite Elo. As is common, the
//! score is then taken as if half a game had gone the other way, `p = 1 - 1/(2N)` (or
//! `1/(2N)`), with the binomial variance `p·(1-p)` in place of the measured one, which is zero.
//! Every end of an interval is kept in the same range `[1/(2N), 1 - 1/(2N)]`.

/// The Elo difference of a score `p` in `(0, 1)` under the logistic model.
pub fn elo_from_score(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference and the half-width of its 95 % interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// The score as a fraction of the points available, in `[0, 1]`.
    pub score: f64,
    /// The Elo difference to the opponents faced.
    pub elo: f64,
    /// Half the width of the 95 % interval, in Elo.
    pub ci95: f64,
}

/// The estimate for `wins`, `draws` and `losses` (see the module doc). With no games at all
/// the score is ½ and the Elo 0 ± 0.
pub fn estimate(wins: u32, draws: u32, losses: u32) -> EloEstimate {
    let count = wins + draws + losses;
    let games = f64::from(count);
    if count == 0 {
        return EloEstimate {
            score: 0.5,
            elo: 0.0,
            ci95: 0.0,
        };
    }
    let score = (f64::from(wins) + f64::from(draws) / 2.0) / games;
    let edge = 0.5 / games;
    let clamped = score.clamp(edge, 1.0 - edge);
    let variance = if wins == count || losses == count {
        clamped * (1.0 - clamped)
    } else {
        (f64::from(wins) * (1.0 - score).powi(2)
            + f64::from(draws) * (0.5 - score).powi(2)
            + f64::from(losses) * score.powi(2))
            / games
    };
    let margin = 1.96 * (variance / games).sqrt();
    let low = (clamped - margin).clamp(edge, 1.0 - edge);
    let high = (clamped + margin).clamp(edge, 1.0 - edge);
    EloEstimate {
        score,
        elo: elo_from_score(clamped),
        ci95: (elo_from_score(high) - elo_from_score(low)) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_scores_give_known_elo() {
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
        let e = estimate(30, 0, 10);
        assert!((e.elo - 190.85).abs() < 0.01 && (e.score - 0.75).abs() < 1e-12);
    }

    #[test]
    fn the_interval_narrows_with_more_games() {
        let few = estimate(6, 2, 2);
        let many = estimate(60, 20, 20);
        assert!((few.elo - many.elo).abs() < 1e-9);
        assert!(many.ci95 < few.ci95 && many.ci95 > 0.0);
        // 100 games at 70 %: σ² = 0.16, s = 0.04, scores 0.622..0.778, Elo 86..218: ±66.
        assert!((many.ci95 - 66.0).abs() < 1.0, "{}", many.ci95);
    }

    #[test]
    fn all_won_or_all_lost_stays_finite() {
        let won = estimate(20, 0, 0);
        assert!(won.elo.is_finite() && won.elo > 500.0 && won.ci95.is_finite());
        assert!((won.score - 1.0).abs() < 1e-12);
        let lost = estimate(0, 0, 20);
        assert!((lost.elo + won.elo).abs() < 1e-9);
        let drawn = estimate(0, 10, 0);
        assert!(drawn.elo.abs() < 1e-9 && drawn.ci95.abs() < 1e-9);
        assert!(estimate(0, 0, 0).elo.abs() < 1e-12);
    }
}

//! The sequential probability ratio test over game pairs, as fastchess and OpenBench run it.
//!
//! **Pentanomial model.** A match is played in game pairs (the same opening, seats swapped).
//! The first player's points in a pair are 0, ½, 1, 1½ or 2; counting pairs in these five
//! classes removes the noise of the opening from the variance. With `x` the pair's points
//! divided by two (0, ¼, ½, ¾, 1) and `N` pairs, the log-likelihood ratio of H1 (the first
//! player is `elo1` stronger) against H0 (`elo0`) is the generalised SPRT's approximation, as in
//! fishtest's `LLR_alt` and fastchess's logistic model:
//!
//! `LLR = N/2 · ln(r0 / r1)`, with `r = Σ p(x) · (x − s)²` the spread of the pair scores around
//! `s = 1 / (1 + 10^(−elo/400))` (logistic Elo) for `elo0` and `elo1`.
//!
//! A class with no pairs counts 0.001 pair, as fastchess and OpenBench do, so that no spread is
//! zero. The test accepts H1 when the LLR reaches `ln((1 − β)/α)` and H0 when it falls to
//! `ln(β/(1 − α))`, but not before [`MIN_PAIRS`] pairs: the spread is estimated from the pairs
//! themselves, and a few identical ones (three drawn Qawale pairs, three Replica pairs each
//! won by the side moving first) estimate it near zero, which made the LLR cross a bound
//! (-4.87 after three pairs) on no evidence.

use std::fmt;
use std::str::FromStr;

use super::elo::score_from_elo;

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SprtConfig {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1 (above `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// A bad `--sprt` value.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("bad sprt '{0}': expected elo0=E0,elo1=E1[,alpha=A,beta=B] with -1000 <= E0 < E1 <= 1000 and A, B in 0.001..0.5")]
pub struct SprtError(pub String);

impl FromStr for SprtConfig {
    type Err = SprtError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || SprtError(text.chars().take(80).collect());
        let mut config = SprtConfig {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for pair in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = pair.split_once('=').ok_or_else(bad)?;
            let value: f64 = value.trim().parse().map_err(|_| bad())?;
            match key.trim() {
                "elo0" => config.elo0 = value,
                "elo1" => config.elo1 = value,
                "alpha" => config.alpha = value,
                "beta" => config.beta = value,
                _ => return Err(bad()),
            }
        }
        let elo = -1000.0..=1000.0;
        let rate = 0.001..=0.5;
        let valid = elo.contains(&config.elo0)
            && elo.contains(&config.elo1)
            && config.elo0 < config.elo1
            && rate.contains(&config.alpha)
            && rate.contains(&config.beta);
        if valid {
            Ok(config)
        } else {
            Err(bad())
        }
    }
}

/// What the test concluded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtVerdict {
    /// The first player is not `elo1` stronger (H0 accepted).
    H0,
    /// The first player is `elo1` stronger (H1 accepted).
    H1,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::H1 => "H1 accepted",
        })
    }
}

/// Pair counts by the first player's points: 0, ½, 1, 1½, 2.
pub type Pentanomial = [u32; 5];

/// Pairs played before the test may conclude (see the module doc).
pub const MIN_PAIRS: u32 = 30;

impl SprtConfig {
    /// The lower (H0) and upper (H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs counted in `pairs` (see the module doc).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.iter().all(|&n| n == 0) {
            return 0.0;
        }
        let counts: Vec<f64> = pairs.iter().map(|&n| f64::from(n).max(1e-3)).collect();
        let n: f64 = counts.iter().sum();
        let spread = |s: f64| {
            counts
                .iter()
                .enumerate()
                .map(|(class, c)| c * (class as f64 / 4.0 - s).powi(2))
                .sum::<f64>()
                / n
        };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n / 2.0 * (spread(s0) / spread(s1)).ln()
    }

    /// The verdict once the LLR of `pairs` crosses a bound, after at least [`MIN_PAIRS`].
    pub fn verdict(&self, pairs: &Pentanomial) -> Option<SprtVerdict> {
        if pairs.iter().sum::<u32>() < MIN_PAIRS {
            return None;
        }
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtVerdict::H1)
        } else if llr <= lower {
            Some(SprtVerdict::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> SprtConfig {
        "elo0=0,elo1=10,alpha=0.05,beta=0.05".parse().unwrap()
    }

    #[test]
    fn bounds_are_the_classic_ones() {
        // ln(0.05 / 0.95) = -2.9444, ln(0.95 / 0.05) = 2.9444.
        let (lower, upper) = standard().bounds();
        assert!((lower + 2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);
    }

    #[test]
    fn llr_matches_a_hand_computation() {
        // 100 pairs: 5 lost both, 10 lost one and drew one, 40 even, 30 won one and drew
        // one, 15 won both. Pair scores x = 0, .25, .5, .75, 1.
        //   μ = (0·5 + .25·10 + .5·40 + .75·30 + 1·15) / 100 = 60 / 100 = 0.6
        //   E[x²] = (.0625·10 + .25·40 + .5625·30 + 1·15) / 100 = 42.5 / 100 = 0.425
        //   s0 = 0.5; s1 = 1 / (1 + 10^(−10/400)) = 1 / 1.944061 = 0.514387
        //   r = E[(x − s)²] = E[x²] − 2sμ + s²
        //   r0 = 0.425 − 0.6 + 0.25 = 0.075
        //   r1 = 0.425 − 1.2 · 0.514387 + 0.514387² = 0.425 − 0.617264 + 0.264594 = 0.072330
        //   LLR = 100/2 · ln(0.075 / 0.072330) = 50 · 0.036255 = 1.8128
        let llr = standard().llr(&[5, 10, 40, 30, 15]);
        assert!((llr - 1.8128).abs() < 1e-3, "{llr}");
        assert_eq!(standard().verdict(&[5, 10, 40, 30, 15]), None);
        // Twice the pairs, same shares: the LLR doubles to 3.6255, above 2.944: H1.
        assert_eq!(
            standard().verdict(&[10, 20, 80, 60, 30]),
            Some(SprtVerdict::H1)
        );
    }

    #[test]
    fn an_even_match_leans_to_h0() {
        // 100 pairs 10, 20, 40, 20, 10: μ = 0.5, E[x²] = (.0625·20 + .25·40 + .5625·20 +
        // 1·10) / 100 = 0.325; r0 = 0.325 − 0.5 + 0.25 = 0.075;
        // r1 = 0.325 − 0.514387 + 0.264594 = 0.075207; LLR = 50 · ln(0.075 / 0.075207)
        // = 50 · (−0.0027561) = −0.13780.
        let llr = standard().llr(&[10, 20, 40, 20, 10]);
        assert!((llr + 0.13780).abs() < 1e-4, "{llr}");
        // 30 times as many pairs: −4.134, below −2.944: H0.
        assert_eq!(
            standard().verdict(&[300, 600, 1200, 600, 300]),
            Some(SprtVerdict::H0)
        );
    }

    #[test]
    fn a_one_sided_start_stays_finite_and_bad_specs_are_refused() {
        // Three pairs won twice: the empty classes count 0.001 pair each, N = 3.004;
        // r0 ≈ (3·0.25 + 0.001·(.25 + .0625 + 0 + .0625)) / 3.004 = 0.249792;
        // r1 ≈ (3·0.235820 + 0.001·(.264594 + .070896 + .000207 + .055313)) / 3.004 = 0.235636;
        // LLR = 1.502 · ln(0.249792 / 0.235636) = 0.0876: far from a verdict after 3 pairs.
        let llr = standard().llr(&[0, 0, 0, 0, 3]);
        assert!((llr - 0.0876).abs() < 1e-3, "{llr}");
        assert!(standard().llr(&[0; 5]).abs() < 1e-12);
        for bad in [
            "elo0=10,elo1=0",
            "elo0=0",
            "elo0=0,elo1=5,alpha=0",
            "elo0=nan,elo1=1",
            "x=1",
        ] {
            assert!(bad.parse::<SprtConfig>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_few_identical_pairs_decide_nothing() {
        // Three pairs each split 1-1 estimate the spread near zero: the LLR is far below the
        // lower bound, yet three pairs are no evidence.
        // (The LLR was -4.87 in a Qawale run with elo1 = 50.)
        let wide: SprtConfig = "elo0=0,elo1=50".parse().unwrap();
        let drawn = [0, 0, 3, 0, 0];
        assert!(wide.llr(&drawn) < wide.bounds().0, "{}", wide.llr(&drawn));
        assert_eq!(wide.verdict(&drawn), None);
        let even = [0, 0, MIN_PAIRS, 0, 0];
        assert_eq!(wide.verdict(&even), Some(SprtVerdict::H0));
    }
}

//! The Texel method: the weights `w` of a game's evaluation terms `x` (so that the evaluation
//! is `w·x`) minimising the mean squared error between each sample's target and
//! `sigmoid(k·w·x)`. By default the target is half the game's result and half the search's
//! own prediction there, `sigmoid(k·score)` (the result alone when the search gave no score):
//! a game's result is one noisy outcome of many decisions, and the search's score already
//! sees the tactics a static evaluation misses; fitted to results alone, the weights
//! predicted results better but played worse (Qilin, Replica: docs/STRENGTH.md).
//! [`TuneConfig`] changes the share, keeps quiet positions only, mirrors 2-seat samples,
//! pulls the weights toward v1's and holds chosen terms at 0.
//!
//! Steps: the terms of every sample (side to move's view) are computed once; the current
//! weights are recovered by least squares of [`Heuristic::evaluate`] on the terms (exact
//! when the evaluation is linear in them, as tuned evaluations are); the scale `k` is fitted
//! to the current evaluation (golden-section search) and then held; the weights are fitted
//! by full-batch gradient descent (Adam, each weight's step scaled to its term's size) from
//! the current ones. One sample in ten is held out and only measured, so the report shows
//! whether the fit generalises: chosen by a hash of its index, not every tenth, since a
//! game's samples can alternate kinds (Yoxii's Totem moves and placements) and every tenth
//! would then hold out only one kind (none at all with `--quiet`).

use ludus_engine::{splitmix64, Game, Heuristic, Seat};
use thiserror::Error;

use super::Sample;

/// How [`tune_with`] fits: [`TuneConfig::default`] is what [`tune`] does.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct TuneConfig {
    /// The share of the game's result in a sample's target; the rest is the search's
    /// prediction `sigmoid(k·score)`.
    pub result_share: f64,
    /// Fit on quiet positions only: those where the side to move has no tactical decision
    /// ([`Heuristic::is_tactical`]), where a static evaluation is meant to be right.
    pub quiet_only: bool,
    /// In 2-seat games, also take each sample from the waiting side's view (its terms, the
    /// target `1 - t`): searches evaluate leaves from the root seat's view, so the weights
    /// must fit both views.
    pub mirror: bool,
    /// An L2 pull of the weights toward v1's ([`Heuristic::evaluate_v1`], recovered by least
    /// squares), in squared logit units of each term's typical size: collinear terms then
    /// cannot run away. 0: none; when above 0 the fit also starts from v1's weights.
    pub ridge: f64,
    /// Terms held at weight 0, bit `i` for the `i`-th of [`Heuristic::TERMS`]: the fit of the
    /// evaluation without them, whose other weights take up what they carried.
    pub dropped: u64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            result_share: 0.5,
            quiet_only: false,
            mirror: false,
            ridge: 0.0,
            dropped: 0,
        }
    }
}

/// Gradient steps of the weight fit.
const STEPS: usize = 3000;
/// Adam's first step size, as the change of the predicted logit (`k·w·x`) for a term of
/// typical size (its root mean square); it falls linearly to a tenth. Per term, so that the
/// fit moves as fast whether a game's scores run to hundreds (Qilin) or tens of thousands
/// (Splut!), and whether a term is a count or a sum of values.
const LOGIT_STEP: f64 = 0.01;

/// Why the weights cannot be fitted.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum TuneError {
    /// The game's evaluation names no terms.
    #[error("{0}'s evaluation has no tunable terms (Heuristic::TERMS is empty)")]
    NoTerms(&'static str),
    /// Too few usable positions.
    #[error("only {0} usable positions: need at least 20")]
    TooFew(usize),
}

/// What [`tune`] found.
#[derive(Clone, PartialEq, Debug)]
pub struct TuneReport {
    /// The term names, in order.
    pub terms: Vec<&'static str>,
    /// The current weights (recovered from the evaluation).
    pub before: Vec<f64>,
    /// The fitted weights.
    pub after: Vec<f64>,
    /// The sigmoid's scale: a score `s` predicts the result `1 / (1 + e^(-k·s))`.
    pub k: f64,
    /// Positions fitted on, and held out.
    pub fitted: usize,
    /// Positions held out.
    pub held_out: usize,
    /// Mean squared error of the current evaluation against the targets: fitted set, held-out
    /// set.
    pub error_before: (f64, f64),
    /// Mean squared error of the fitted weights: fitted set, held-out set.
    pub error_after: (f64, f64),
    /// Samples skipped: positions that do not parse, games already over, or (with
    /// [`TuneConfig::quiet_only`]) positions with a tactical decision.
    pub skipped: usize,
}

/// One position's terms and result.
struct Point {
    terms: Vec<f64>,
    evaluation: f64,
    /// v1's evaluation.
    v1: f64,
    /// Whether the side to move has no tactical decision.
    quiet: bool,
    /// The game's result, then (once `k` is known) the target.
    result: f64,
    /// The search's score, if it gave one.
    score: Option<f64>,
}

/// Fits the evaluation weights of game `G` to `samples` (see the module doc).
pub fn tune<G: Game + Heuristic>(
    samples: &[Sample],
    options: &G::Options,
) -> Result<TuneReport, TuneError> {
    tune_with::<G>(samples, options, &TuneConfig::default())
}

/// [`tune`] as `config` says.
pub fn tune_with<G: Game + Heuristic>(
    samples: &[Sample],
    options: &G::Options,
    config: &TuneConfig,
) -> Result<TuneReport, TuneError> {
    let count = G::TERMS.len();
    if count == 0 {
        return Err(TuneError::NoTerms(G::INFO.id));
    }
    let mut skipped = 0;
    let mut fit = Vec::new();
    let mut held = Vec::new();
    for (i, sample) in samples.iter().enumerate() {
        let points = points::<G>(sample, options, count, config);
        if points.is_empty() {
            skipped += 1;
        }
        let set = if held_out(i) { &mut held } else { &mut fit };
        set.extend(points);
    }
    // The current weights and the scale come from every position (a term that only occurs in
    // tactical positions keeps its weight: the descent below cannot move it); the fit and
    // its errors from the quiet ones.
    let before = least_squares(&fit, count, |p| p.evaluation);
    let mut v1 = least_squares(&fit, count, |p| p.v1);
    // A dropped term reads as 0 everywhere: its weight starts at 0 and no gradient moves it.
    let kept = |i: usize| i >= 64 || config.dropped & (1 << i) == 0;
    let mut start = before.clone();
    for i in (0..count).filter(|&i| !kept(i)) {
        for point in fit.iter_mut().chain(held.iter_mut()) {
            point.terms[i] = 0.0;
        }
        (start[i], v1[i]) = (0.0, 0.0);
    }
    let k = fit_scale(&fit);
    let noisy = fit.iter().chain(&held).filter(|p| !p.quiet).count();
    skipped += noisy;
    fit.retain(|p| p.quiet);
    held.retain(|p| p.quiet);
    if fit.len() < 20 {
        return Err(TuneError::TooFew(fit.len()));
    }
    let share = config.result_share.clamp(0.0, 1.0);
    for point in fit.iter_mut().chain(held.iter_mut()) {
        if let Some(score) = point.score {
            point.result = share * point.result + (1.0 - share) * sigmoid(k * score);
        }
    }
    let current = |p: &Point| p.evaluation;
    let error_before = (error(&fit, k, current), error(&held, k, current));
    let after = if config.ridge > 0.0 {
        descend(&fit, k, &v1, Some((&v1, config.ridge)))
    } else {
        descend(&fit, k, &start, None)
    };
    let tuned = |p: &Point| dot(&p.terms, &after);
    let error_after = (error(&fit, k, tuned), error(&held, k, tuned));
    Ok(TuneReport {
        terms: G::TERMS.to_vec(),
        before,
        after,
        k,
        fitted: fit.len(),
        held_out: held.len(),
        error_before,
        error_after,
        skipped,
    })
}

/// The sample's point from the side to move's view, and with [`TuneConfig::mirror`] from the
/// waiting side's; none if the position does not parse or is over.
fn points<G: Game + Heuristic>(
    sample: &Sample,
    options: &G::Options,
    count: usize,
    config: &TuneConfig,
) -> Vec<Point> {
    let Ok(state) = G::from_position(&sample.position, options) else {
        return Vec::new();
    };
    let Some(seat) = state.to_move() else {
        return Vec::new();
    };
    let quiet = !config.quiet_only || {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        !actions.iter().any(|&a| state.is_tactical(a))
    };
    let view = |seat: Seat, result: f64, score: Option<f64>| {
        let mut terms = vec![0.0; count];
        state.terms(seat, &mut terms);
        Point {
            terms,
            evaluation: f64::from(state.evaluate(seat)),
            v1: f64::from(state.evaluate_v1(seat)),
            quiet,
            result,
            score,
        }
    };
    let score = sample.score.map(f64::from);
    let mut points = vec![view(seat, sample.result, score)];
    if config.mirror && state.seat_count() == 2 {
        points.push(view(
            seat.opponent(),
            1.0 - sample.result,
            score.map(|s| -s),
        ));
    }
    points
}

/// Whether the `index`-th sample is held out: one in ten, spread by a hash of the index.
fn held_out(index: usize) -> bool {
    splitmix64(index as u64).1.is_multiple_of(10)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `score` over `points` at scale `k`.
fn error(points: &[Point], k: f64, score: impl Fn(&Point) -> f64) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|p| (p.result - sigmoid(k * score(p))).powi(2))
        .sum();
    sum / points.len().max(1) as f64
}

/// The scale that best fits the current evaluation (golden-section search on log k).
fn fit_scale(points: &[Point]) -> f64 {
    let at = |log_k: f64| error(points, log_k.exp(), |p| p.evaluation);
    let (mut low, mut high) = ((1e-6f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if at(a) < at(b) {
            high = b;
        } else {
            low = a;
        }
    }
    f64::midpoint(low, high).exp()
}

/// The weights that make `w·terms` closest to an evaluation, `value` (normal equations,
/// solved by Gaussian elimination; a term that never varies keeps weight 0).
// Matrix arithmetic reads most plainly with row and column indices.
#[allow(clippy::needless_range_loop)]
fn least_squares(points: &[Point], count: usize, value: impl Fn(&Point) -> f64) -> Vec<f64> {
    let mut matrix = vec![vec![0.0; count + 1]; count];
    for p in points {
        for i in 0..count {
            for j in 0..count {
                matrix[i][j] += p.terms[i] * p.terms[j];
            }
            matrix[i][count] += p.terms[i] * value(p);
        }
    }
    for col in 0..count {
        let pivot = (col..count)
            .max_by(|&a, &b| matrix[a][col].abs().total_cmp(&matrix[b][col].abs()))
            .unwrap_or(col);
        matrix.swap(col, pivot);
        if matrix[col][col].abs() < 1e-9 {
            continue;
        }
        for row in 0..count {
            if row != col {
                let factor = matrix[row][col] / matrix[col][col];
                for k in col..=count {
                    matrix[row][k] -= factor * matrix[col][k];
                }
            }
        }
    }
    (0..count)
        .map(|i| {
            if matrix[i][i].abs() < 1e-9 {
                0.0
            } else {
                matrix[i][count] / matrix[i][i]
            }
        })
        .collect()
}

/// Full-batch Adam on the squared error from `start`, plus `ridge.1` times the squared
/// distance to `ridge.0` (in logit units of each term's typical size) when given.
fn descend(points: &[Point], k: f64, start: &[f64], ridge: Option<(&[f64], f64)>) -> Vec<f64> {
    let count = start.len();
    let mut weights = start.to_vec();
    let (mut m, mut v) = (vec![0.0; count], vec![0.0; count]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let mut gradient = vec![0.0; count];
    // Each weight's step: a term of typical size moves the logit by LOGIT_STEP.
    let rms: Vec<f64> = (0..count)
        .map(|i| {
            let square: f64 = points.iter().map(|p| p.terms[i] * p.terms[i]).sum();
            (square / points.len().max(1) as f64).sqrt()
        })
        .collect();
    let scale: Vec<f64> = rms
        .iter()
        .map(|&r| if r > 0.0 { LOGIT_STEP / (k * r) } else { 0.0 })
        .collect();
    for step in 1..=STEPS {
        gradient.fill(0.0);
        for p in points {
            let predicted = sigmoid(k * dot(&p.terms, &weights));
            // d/dw (r - s)^2 = -2 (r - s) s (1 - s) k x
            let factor = -2.0 * (p.result - predicted) * predicted * (1.0 - predicted) * k;
            for (g, x) in gradient.iter_mut().zip(&p.terms) {
                *g += factor * x;
            }
        }
        let rate = 1.0 - 0.9 * step as f64 / STEPS as f64;
        for i in 0..count {
            let mut g = gradient[i] / points.len() as f64;
            if let Some((centre, strength)) = ridge {
                g += 2.0 * strength * (k * rms[i]).powi(2) * (weights[i] - centre[i]);
            }
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            weights[i] -= scale[i] * rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    weights
}

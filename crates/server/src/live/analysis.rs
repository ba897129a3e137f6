//! A search's evaluation as the page shows it: a text and a bar from one fixed point of view.
//!
//! Searches report the value for the seat that searched. With two seats the page shows it from
//! seat 1's side (so the bar does not flip sides every move); with three or four seats there is
//! no single opponent to flip to, so the value stays the searching seat's.

use ludus_ai::{AnyAnalysis, Evaluation};
use ludus_engine::Seat;
use serde::Serialize;

/// An evaluation for the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisView {
    /// The seat that searched (1-based).
    pub seat: usize,
    /// Who searched: the computer's spec, or `hint`.
    pub by: String,
    /// `+1.25`, `win in 3`, `loss in 2` or `62%`, from `bar_seat`'s view.
    pub score_text: Option<String>,
    /// -1 (lost) to 1 (won) from `bar_seat`'s view.
    pub bar: Option<f64>,
    /// Whose view `score_text` and `bar` take (1-based).
    pub bar_seat: usize,
    /// The expected line, from the searched decision on.
    pub pv: Vec<String>,
    /// How deep the search went.
    pub depth: u32,
}

/// `analysis`, searched for `seat` in a game of `seat_count` seats, for the page.
pub fn analysis_view(
    analysis: &AnyAnalysis,
    seat: Seat,
    seat_count: usize,
    by: &str,
) -> AnalysisView {
    let flip = seat_count == 2 && seat != Seat::FIRST;
    let evaluation = analysis
        .evaluation
        .map(|e| if flip { opposite(e) } else { e });
    AnalysisView {
        seat: seat.number(),
        by: by.to_string(),
        score_text: evaluation.map(|e| e.to_string()),
        bar: evaluation.map(Evaluation::bar),
        bar_seat: if seat_count == 2 { 1 } else { seat.number() },
        pv: analysis.pv.clone(),
        depth: analysis.depth,
    }
}

/// The same evaluation from the opponent's side.
fn opposite(evaluation: Evaluation) -> Evaluation {
    match evaluation {
        Evaluation::Score(score) => Evaluation::Score(score.saturating_neg()),
        Evaluation::Win(n) => Evaluation::Loss(n),
        Evaluation::Loss(n) => Evaluation::Win(n),
        Evaluation::Reward(reward) => Evaluation::Reward(1.0 - reward),
        Evaluation::Proved(proved) => Evaluation::Proved(proved.flipped()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(evaluation: Evaluation) -> AnyAnalysis {
        AnyAnalysis {
            notation: "a1".into(),
            evaluation: Some(evaluation),
            depth: 3,
            nodes: 10,
            pv: vec!["a1".into()],
        }
    }

    #[test]
    fn two_seat_values_are_shown_from_seat_one() {
        let second = analysis_view(&found(Evaluation::Score(125)), Seat::SECOND, 2, "ai:4");
        assert_eq!(second.score_text.as_deref(), Some("-1.25"));
        assert!(second.bar.unwrap() < 0.0);
        assert_eq!(second.bar_seat, 1);
        let win = analysis_view(&found(Evaluation::Win(3)), Seat::SECOND, 2, "ai:4");
        assert_eq!(win.score_text.as_deref(), Some("loss in 3"));
        let first = analysis_view(&found(Evaluation::Reward(0.75)), Seat::FIRST, 2, "ai:5");
        assert_eq!(first.score_text.as_deref(), Some("75%"));
    }

    #[test]
    fn more_seats_keep_the_searching_seat_view() {
        let third = analysis_view(&found(Evaluation::Score(50)), Seat::new(2), 4, "ai:4");
        assert_eq!(third.score_text.as_deref(), Some("+0.50"));
        assert_eq!(third.bar_seat, 3);
    }
}

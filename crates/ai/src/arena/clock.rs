//! The clocks of one arena game under `--tc BASE+INC`: each seat's remaining time, the share a
//! built-in player gets for a decision (the rule `ludus ugi` applies to `go wtime ...`), the
//! `go` an outside engine gets, and the loss on time of a seat that spends more than its clock
//! plus the margin.

use std::fmt::Write;
use std::time::Duration;

use super::ugi_client::Forfeit;
use crate::{clock_share, TimeControl};

/// Every seat's remaining time in one game.
#[derive(Clone, Debug)]
pub(crate) struct Clocks {
    tc: TimeControl,
    margin: Duration,
    left: Vec<Duration>,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Clocks {
    /// `seats` clocks of `tc.base`; a decision may overrun its clock by `margin`.
    pub(crate) fn new(tc: TimeControl, margin: Duration, seats: usize) -> Self {
        Clocks {
            tc,
            margin,
            left: vec![tc.base; seats],
        }
    }

    /// The time `seat` has left, in milliseconds.
    pub(crate) fn left_ms(&self, seat: usize) -> u64 {
        millis(self.left[seat])
    }

    /// The budget of `seat`'s next decision for a built-in player, in milliseconds.
    pub(crate) fn share_ms(&self, seat: usize) -> u64 {
        clock_share(self.left_ms(seat), millis(self.tc.increment), 0)
    }

    /// The longest `seat`'s next decision may take before it loses on time.
    pub(crate) fn limit(&self, seat: usize) -> Duration {
        self.left[seat] + self.margin
    }

    /// `go wtime W btime B winc I binc I` with two seats (as UCI drivers send and `ludus ugi`
    /// reads), `go p1time … pNtime p1inc … pNinc` with three or four (docs/UGI.md).
    pub(crate) fn go_command(&self) -> String {
        let inc = millis(self.tc.increment);
        let mut go = String::from("go");
        if let [white, black] = self.left[..] {
            let (w, b) = (millis(white), millis(black));
            let _ = write!(go, " wtime {w} btime {b} winc {inc} binc {inc}");
            return go;
        }
        for (i, &time) in self.left.iter().enumerate() {
            let _ = write!(go, " p{}time {}", i + 1, millis(time));
        }
        for i in 0..self.left.len() {
            let _ = write!(go, " p{}inc {inc}", i + 1);
        }
        go
    }

    /// Takes `used` off `seat`'s clock; a decision past the clock and the margin loses the
    /// game on time for `name`. A decision within the margin leaves the clock at zero.
    pub(crate) fn charge(
        &mut self,
        seat: usize,
        used: Duration,
        name: &str,
    ) -> Result<(), Forfeit> {
        if used > self.limit(seat) {
            return Err(Forfeit(format!(
                "{name} lost on time: {} ms used with {} ms on its clock (margin {} ms)",
                millis(used),
                self.left_ms(seat),
                millis(self.margin)
            )));
        }
        self.left[seat] = self.left[seat].saturating_sub(used);
        Ok(())
    }

    /// Adds the increment to `seat`'s clock at the end of its turn.
    pub(crate) fn end_turn(&mut self, seat: usize) {
        self.left[seat] += self.tc.increment;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks(seats: usize) -> Clocks {
        Clocks::new("1+0.1".parse().unwrap(), Duration::from_millis(50), seats)
    }

    #[test]
    fn two_seats_get_uci_clocks_and_more_get_one_per_seat() {
        let mut two = clocks(2);
        two.charge(1, Duration::from_millis(300), "b").unwrap();
        two.end_turn(1);
        assert_eq!(
            two.go_command(),
            "go wtime 1000 btime 800 winc 100 binc 100"
        );
        assert_eq!(
            clocks(3).go_command(),
            "go p1time 1000 p2time 1000 p3time 1000 p1inc 100 p2inc 100 p3inc 100"
        );
    }

    #[test]
    fn a_decision_past_the_clock_and_margin_loses_on_time() {
        let mut c = clocks(2);
        // 1000/20 + 100·3/4 = 125 ms.
        assert_eq!(c.share_ms(0), 125);
        // Within the margin: the clock stops at zero.
        c.charge(0, Duration::from_millis(1040), "a").unwrap();
        assert_eq!(c.left_ms(0), 0);
        let lost = c.charge(0, Duration::from_millis(51), "a").unwrap_err();
        assert_eq!(
            lost.0,
            "a lost on time: 51 ms used with 0 ms on its clock (margin 50 ms)"
        );
    }
}

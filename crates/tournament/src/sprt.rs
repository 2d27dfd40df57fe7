//! A sequential probability ratio test between two Elo bounds (fishtest's method): games between a
//! candidate and the version it would replace are added one at a time, and the test stops as soon as
//! the evidence favours "the candidate is at least `elo1` stronger" or "it is at most `elo0` stronger"
//! at the error rates asked for, or at a cap on the games.

use serde::{Deserialize, Serialize};

/// The hypotheses and error rates of a test: H0 "the candidate is `elo0` Elo stronger" against H1
/// "`elo1` stronger" (elo0 < elo1), accepting H1 wrongly at most `alpha` of the time and H0 wrongly
/// at most `beta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Default for Bounds {
    /// [0, 50] Elo at 5% each way: a clear improvement is promoted in tens of games, a change of a
    /// few Elo is not (it would take thousands of games to tell).
    fn default() -> Bounds {
        Bounds { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 }
    }
}

impl Bounds {
    /// The log-likelihood ratio below which H0 is accepted, and above which H1 is.
    pub fn limits(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Checks the bounds make a test: elo0 < elo1, error rates in (0, 0.5).
    pub fn check(&self) -> Result<(), String> {
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(format!("elo0 {} must be below elo1 {}", self.elo0, self.elo1));
        }
        if !(rate(self.alpha) && rate(self.beta)) {
            return Err(format!("alpha {} and beta {} must be between 0 and 0.5", self.alpha, self.beta));
        }
        Ok(())
    }
}

/// What the games so far say, from the candidate's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The limits it is judged against (H0 accepted at or below `lower`, H1 at or above `upper`).
    pub lower: f64,
    pub upper: f64,
}

/// Where a test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// H1: the candidate is stronger (by `elo1`, as far as the test can tell).
    Accepted,
    /// H0: it is not (by more than `elo0`).
    Rejected,
    /// Neither yet (or at the cap: the games did not tell).
    Undecided,
}

/// The expected score of a player `elo` Elo stronger than its opponent.
fn score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Evidence {
    /// The evidence of `wins`, `draws` and `losses` under `bounds`: the generalised SPRT's
    /// log-likelihood ratio of the trinomial (fishtest's approximation), each outcome counted half a
    /// game more so that a streak of one outcome has a variance.
    pub fn of(wins: u32, draws: u32, losses: u32, bounds: &Bounds) -> Evidence {
        let (lower, upper) = bounds.limits();
        let n = f64::from(wins + draws + losses);
        let llr = if n == 0.0 {
            0.0
        } else {
            let (w, d, l) = (f64::from(wins) + 0.5, f64::from(draws) + 0.5, f64::from(losses) + 0.5);
            let total = w + d + l;
            let s = (w + d / 2.0) / total;
            let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / total;
            let (s0, s1) = (score(bounds.elo0), score(bounds.elo1));
            n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
        };
        Evidence { wins, draws, losses, llr, lower, upper }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Where the test stands on this evidence.
    pub fn verdict(&self) -> Verdict {
        if self.llr >= self.upper {
            Verdict::Accepted
        } else if self.llr <= self.lower {
            Verdict::Rejected
        } else {
            Verdict::Undecided
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lopsided_record_decides_early_and_an_even_one_does_not() {
        let b = Bounds::default();
        let (lower, upper) = b.limits();
        assert!((upper - 2.944).abs() < 0.01 && (lower + 2.944).abs() < 0.01, "{lower} {upper}");
        assert_eq!(Evidence::of(0, 0, 0, &b).verdict(), Verdict::Undecided);
        assert_eq!(Evidence::of(30, 2, 3, &b).verdict(), Verdict::Accepted);
        assert_eq!(Evidence::of(3, 2, 30, &b).verdict(), Verdict::Rejected);
        // Even play is evidence for "not 50 Elo stronger": rejected, but not at once.
        assert_eq!(Evidence::of(5, 0, 5, &b).verdict(), Verdict::Undecided);
        assert_eq!(Evidence::of(150, 0, 150, &b).verdict(), Verdict::Rejected);
        // Between the bounds (about 25 Elo stronger): it takes many games either way.
        assert_eq!(Evidence::of(54, 0, 46, &b).verdict(), Verdict::Undecided);
        assert!(Bounds { elo0: 10.0, elo1: 5.0, ..b }.check().is_err());
        assert!(Bounds { alpha: 0.0, ..b }.check().is_err());
        assert!(b.check().is_ok());
    }
}

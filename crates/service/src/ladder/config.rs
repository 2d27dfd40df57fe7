//! A ladder's settings and the one rule both front ends check them by.

use std::time::Duration;

/// How a ladder runs.
#[derive(Debug, Clone)]
pub struct LadderConfig {
    /// Games in flight at once.
    pub parallel: usize,
    /// Stop after this many games in this run (the games in flight are finished); none: until stopped.
    pub games: Option<u64>,
    /// The share of opponents drawn uniformly instead of by rating.
    pub explore: f64,
    /// A version with this many faults in the ladder's games plays no more (until its next version).
    pub max_faults: u32,
    /// How often the store is asked for new versions.
    pub poll: Duration,
    /// A pair of versions that has played this many games together (in any seats) is settled and not
    /// drawn again: once every pair is, the ladder waits for a new version (a run of a set number of
    /// games stops). 0: never settled, played on for ever.
    pub settle: u32,
}

/// The most games a ladder keeps in flight at once.
pub const MAX_PARALLEL: usize = 64;
/// The most faults [`LadderConfig::max_faults`] may allow.
pub const MAX_FAULTS: u32 = 1000;

impl LadderConfig {
    /// The one rule for a ladder's settings, the command line's and the web's alike: the reason the
    /// first one out of range is refused, in the words both front ends show.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_PARALLEL).contains(&self.parallel) {
            return Err(format!("games at once must be 1 to {MAX_PARALLEL}, got {}", self.parallel));
        }
        if !(0.0..=1.0).contains(&self.explore) {
            return Err(format!("the share of random opponents must be from 0 to 1, got {}", self.explore));
        }
        if !(1..=MAX_FAULTS).contains(&self.max_faults) {
            return Err(format!("the faults that bench a version must be 1 to {MAX_FAULTS}, got {}", self.max_faults));
        }
        Ok(())
    }
}

/// A ladder's [`LadderConfig::settle`] unless told otherwise: enough games for a pair's result to be
/// known well (a share's standard error under 3.6 points), few enough that two identical bots stop
/// within a minute instead of playing thousands of games.
pub const SETTLE: u32 = 200;

/// A version whose calls met a failure of the game's rule checker in [`CHECKER_FAULTS`] of its latest
/// [`CHECKER_WINDOW`] games is benched.
pub const CHECKER_FAULTS: u32 = 3;
pub const CHECKER_WINDOW: usize = 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ladders_settings_have_one_rule_for_both_front_ends() {
        let ok = LadderConfig {
            parallel: 2,
            games: None,
            explore: 0.1,
            max_faults: 5,
            poll: Duration::from_secs(1),
            settle: SETTLE,
        };
        assert_eq!(ok.check(), Ok(()));
        let edges = [
            LadderConfig { parallel: MAX_PARALLEL, explore: 1.0, max_faults: MAX_FAULTS, ..ok.clone() },
            LadderConfig { parallel: 1, explore: 0.0, max_faults: 1, settle: 0, ..ok.clone() },
        ];
        for cfg in edges {
            assert_eq!(cfg.check(), Ok(()), "{cfg:?}");
        }
        let refused = [
            (LadderConfig { parallel: 0, ..ok.clone() }, "games at once must be 1 to 64, got 0"),
            (LadderConfig { parallel: 65, ..ok.clone() }, "games at once must be 1 to 64, got 65"),
            (LadderConfig { explore: f64::NAN, ..ok.clone() }, "the share of random opponents must be from 0 to 1"),
            (LadderConfig { explore: -0.5, ..ok.clone() }, "the share of random opponents must be from 0 to 1"),
            (LadderConfig { max_faults: 0, ..ok.clone() }, "the faults that bench a version must be 1 to 1000"),
        ];
        for (cfg, says) in refused {
            assert!(cfg.check().unwrap_err().starts_with(says), "{cfg:?}");
        }
    }
}

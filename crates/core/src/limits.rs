//! Per-player limits: fuel and time budgets per call (larger for a game's first call), the size of an
//! answer, and the caps on linear memory, tables and instances. Defaults deny generously but firmly.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The limits every player runs under. `Limits::default()` documents the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Fuel (about one unit per wasm instruction) for each call after the first of a game.
    pub fuel: u64,
    /// Fuel for the first call of a game, instantiation included.
    pub first_fuel: u64,
    /// Deadline for each call after the first, a backstop (fuel decides bans): CPU time while the call
    /// runs wasm, wall-clock time while it waits on the host.
    #[serde(rename = "timeout_ms", serialize_with = "millis", deserialize_with = "from_millis")]
    pub timeout: Duration,
    /// Deadline for the first call of a game, instantiation included.
    #[serde(rename = "first_timeout_ms", serialize_with = "millis", deserialize_with = "from_millis")]
    pub first_timeout: Duration,
    /// Linear memory per player, in bytes, summed over its memories.
    pub memory_bytes: u64,
    /// The largest answer a call may return, and the largest arguments a player may pass to a host
    /// function, in bytes as the host holds them once lifted.
    #[serde(default = "default_answer_bytes")]
    pub answer_bytes: u64,
    /// Elements per table.
    pub table_elements: usize,
    /// Core instances, memories and tables per player.
    pub instances: usize,
    /// The most a whole game may cost, its players' and its referee's calls together: CPU time (time on
    /// the clock for calls too short to sample). Past it the game ends as a game fault.
    #[serde(
        rename = "game_cpu_ms",
        default = "default_game_cpu",
        serialize_with = "millis",
        deserialize_with = "from_millis"
    )]
    pub game_cpu: Duration,
    /// The most a whole game may record, in bytes: the referee's events, views and drawings, its
    /// players' answers and output, as the game's record keeps them. Past it the game ends as a game
    /// fault, and what is kept is cut at the bound. Per-call bounds alone multiply (100,000 steps,
    /// 100,000 events of 2,000 characters): this one bounds the game as a whole.
    #[serde(default = "default_game_record_bytes")]
    pub game_record_bytes: u64,
}

fn default_game_record_bytes() -> u64 {
    Limits::default().game_record_bytes
}

fn default_game_cpu() -> Duration {
    Limits::default().game_cpu
}

fn default_answer_bytes() -> u64 {
    Limits::default().answer_bytes
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

fn from_millis<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    u64::deserialize(d).map(Duration::from_millis)
}

impl Default for Limits {
    /// 200 M fuel a call (the sample players' decisions take at most about 5 M in Yahtzee, 12 M in Fish
    /// and 40 M in Santorini, and interpreted players need more; a tight loop burns 200 M in about 0.1 s of CPU),
    /// 1 G for the first call; 1 s and 5 s deadlines (ten times what a loop takes to use its fuel);
    /// 64 MiB of memory; answers of 64 KiB; 300 s of CPU time for a whole game (the slowest sample
    /// game, Santorini between the Python players, takes a few seconds); 16 MiB recorded by a whole
    /// game (the longest sample games record well under 1 MiB).
    fn default() -> Self {
        Limits {
            fuel: 200_000_000,
            first_fuel: 1_000_000_000,
            timeout: Duration::from_millis(1_000),
            first_timeout: Duration::from_millis(5_000),
            memory_bytes: 64 << 20,
            answer_bytes: 64 << 10,
            table_elements: 100_000,
            instances: 100,
            game_cpu: Duration::from_secs(300),
            game_record_bytes: 16 << 20,
        }
    }
}

impl Limits {
    /// The (fuel, deadline) budget of a call.
    pub fn budget(&self, first: bool) -> (u64, Duration) {
        if first { (self.first_fuel, self.first_timeout) } else { (self.fuel, self.timeout) }
    }

    /// What a game package's referee runs under, derived from the players' limits: it is sandboxed as a
    /// player is, with more room (it holds the whole game and describes it to every seat): ten times
    /// the fuel, twice the deadlines and the memory, and sixteen times the size of what it may send.
    pub fn referee(&self) -> Limits {
        // Players' limits set low (a test of a tight budget, say) never starve the referee: it gets at
        // least what it gets under the default limits.
        let d = Limits::default();
        Limits {
            fuel: self.fuel.max(d.fuel).saturating_mul(10),
            first_fuel: self.first_fuel.max(d.first_fuel).saturating_mul(10),
            timeout: self.timeout.max(d.timeout) * 2,
            first_timeout: self.first_timeout.max(d.first_timeout) * 2,
            memory_bytes: self.memory_bytes.max(d.memory_bytes).saturating_mul(2),
            answer_bytes: self.answer_bytes.max(d.answer_bytes).saturating_mul(16),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_stored_before_the_answer_limit_existed_read_with_its_default() {
        let old = r#"{"fuel":1,"first_fuel":2,"timeout_ms":3,"first_timeout_ms":4,"memory_bytes":5,
                      "table_elements":6,"instances":7}"#;
        let l: Limits = serde_json::from_str(old).unwrap();
        assert_eq!((l.fuel, l.timeout, l.answer_bytes), (1, Duration::from_millis(3), 64 << 10));
        let round: Limits = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(round, l);
    }

    #[test]
    fn a_referee_gets_more_room_than_its_players_and_never_less() {
        let p = Limits::default();
        let r = p.referee();
        assert_eq!((r.fuel, r.timeout, r.memory_bytes), (p.fuel * 10, p.timeout * 2, p.memory_bytes * 2));
        assert!(r.answer_bytes > p.answer_bytes && r.first_fuel > p.first_fuel);
        let huge = Limits { fuel: u64::MAX, ..p }.referee();
        assert_eq!(huge.fuel, u64::MAX, "saturates");
    }
}

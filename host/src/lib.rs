//! Arena runs tournaments between game-playing bots submitted as WebAssembly components.
//!
//! Layers, each knowing only the one below it: `cli` → `tournament` (formats, results) → `games`
//! (a referee per game, seats) and `package` (the match host that drives a game package's referee
//! component, knowing no game) → `sandbox` (wasmtime, limits, faults). Game rules are pure crates
//! (`yahtzee-rules`) shared with Rust guest players.

pub mod cli;
pub mod fault;
pub mod games;
pub mod package;
pub mod ratings;
pub mod sandbox;
pub mod seed;
pub mod store;
pub mod tournament;

pub use fault::{Fault, FaultKind};
pub use games::{Entry, Game, GameOutcome, GameSetup, MatchSoFar};
pub use sandbox::{Limits, Sandbox};
pub use tournament::{Settings, TournamentResult};

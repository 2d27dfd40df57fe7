//! Arena runs tournaments between game-playing bots submitted as WebAssembly components.
//!
//! Layers, each knowing only the one below it: `cli` and `web` (the `arena serve` site) → `submit` (the
//! one validation of a submitted player) → `store`, `tournament` (formats, results) and `ladder` (rated
//! games without end), with `cluster` playing games on other machines →
//! `games` (what a game is to the tournaments) and `package` (the match host that drives a game
//! package's referee component, knowing no game) → `sandbox` (wasmtime, limits, faults). The host
//! knows no game: each is a package under `games/`, its rules a pure crate its referee component and
//! its Rust sample players share.

pub mod cli;
pub mod cluster;
pub mod fault;
pub mod games;
pub mod ladder;
pub mod package;
pub mod ratings;
pub mod registered;
pub mod sandbox;
pub mod seed;
pub mod store;
pub mod submit;
pub mod tournament;
pub mod web;

pub use fault::{Fault, FaultKind};
pub use games::{CallLine, Entry, Game, GameOutcome, GameSetup, MatchSoFar};
pub use sandbox::{Limits, Sandbox};
pub use tournament::{Settings, TournamentResult};

//! The service layer under both front ends (the command line and the web arena): what each of them
//! does with a package, a player or a stored tournament is done here once, and the front ends only
//! print or render what it answers. The front ends depend on this crate and `arena-core` alone: the
//! types of the layers below that they name are re-exported here (`store`, `engine`, and the
//! `packages`, `tournaments` and `venue` modules), and `tests/all/layers.rs` keeps it so.

pub mod archive;
pub mod backup;
pub mod candidate;
pub mod check_game;
pub mod compiled;
pub mod decider;
pub mod engine;
pub mod fork;
pub mod ladder;
pub mod packages;
pub mod players;
pub mod publish;
pub mod refusal;
pub mod sparring;
pub mod starter;
pub mod store;
pub mod submit;
pub mod tournaments;
pub mod venue;

//! The service layer under both front ends (the command line and the web arena): what each of them
//! does with a package, a player or a stored tournament is done here once, and the front ends only
//! print or render what it answers.

pub mod archive;
pub mod backup;
pub mod check_game;
pub mod compiled;
pub mod ladder;
pub mod packages;
pub mod players;
pub mod publish;
pub mod starter;
pub mod submit;
pub mod tournaments;
pub mod venue;

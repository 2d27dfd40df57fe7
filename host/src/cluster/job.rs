//! What travels on the queue: a game to play (everything named by content hash, so any worker plays
//! exactly the same game) and its outcome.

use crate::games::{GameOutcome, MatchSoFar};
use crate::sandbox::Limits;
use serde::{Deserialize, Serialize};

/// One game to play.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    /// Where the outcome goes (a subject of the result stream).
    pub reply: String,
    /// The game's id in its tournament.
    pub game: String,
    /// The package: its referee's sha256, and its files (paths inside it), each stored as
    /// `packages/<sha256>/<path>`.
    pub package: String,
    pub files: Vec<String>,
    /// The game's options, `NAME=VALUE`.
    pub options: Vec<String>,
    /// In seat order.
    pub players: Vec<JobPlayer>,
    pub seed: u64,
    pub limits: Limits,
    pub so_far: MatchSoFar,
}

/// A seat: a component stored as `components/<sha256>`, or one of the package's sample players.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobPlayer {
    pub name: String,
    pub component: Option<String>,
    pub builtin: Option<String>,
}

/// A played job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Done {
    pub game: String,
    /// The outcome, or why the job could not be played (a component missing from the store, one that
    /// does not compile): said of the component, not of the worker.
    pub outcome: Result<GameOutcome, String>,
    /// Which worker played it (for the log).
    pub worker: String,
}

pub fn component_key(hash: &str) -> String {
    format!("components/{hash}")
}

pub fn package_key(hash: &str, path: &str) -> String {
    format!("packages/{hash}/{path}")
}

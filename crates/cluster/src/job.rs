//! What travels on the queue: a game to play (everything named by content hash, so any worker plays
//! exactly the same game) and its outcome.

use arena_core::Limits;
use arena_core::{GameOutcome, MatchSoFar};
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

impl Job {
    /// What makes the game exactly this one (its id, seed and the components in each seat): an outcome
    /// is taken only for the game it was played for, never for another that reuses its id (a ladder
    /// numbering on after a stop, a player's new version).
    pub fn key(&self) -> String {
        let seats: Vec<&str> =
            self.players.iter().map(|p| p.component.as_deref().or(p.builtin.as_deref()).unwrap_or("")).collect();
        format!("{}|{}|{}", self.game, self.seed, seats.join(","))
    }
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
    /// The job's [`Job::key`].
    #[serde(default)]
    pub key: String,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn job(seed: u64, component: &str) -> Job {
        Job {
            reply: "arena.results.x".into(),
            game: "R1-M7-G1".into(),
            package: "p".into(),
            files: vec![],
            options: vec![],
            players: vec![
                JobPlayer { name: "a".into(), component: Some(component.into()), builtin: None },
                JobPlayer { name: "b".into(), component: None, builtin: Some("nim-optimal".into()) },
            ],
            seed,
            limits: Limits::default(),
            so_far: MatchSoFar::default(),
        }
    }

    #[test]
    fn an_outcome_belongs_to_one_game_only() {
        assert_eq!(job(1, "c1").key(), job(1, "c1").key());
        // The same id with another seed, or another component in a seat, is another game.
        assert_ne!(job(1, "c1").key(), job(2, "c1").key());
        assert_ne!(job(1, "c1").key(), job(1, "c2").key());
    }
}

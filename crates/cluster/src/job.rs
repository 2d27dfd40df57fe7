//! What travels on the queue: a game to play (everything named by content hash, so any worker plays
//! exactly the same game) and its outcome; several of either may travel as one message (a batch), so
//! that short games do not pay the server's round trips one by one.

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

/// The most games a coordinator packs into one job message (the jobs waiting to be published, up to
/// this many). Enough to spread the server's per-message work over many games (no-op games through
/// JetStream, one run each: about 13,000 a second in batches of 8, 19,000–20,000 in batches of 16,
/// 22,000–24,000 in batches of 32), few enough that slow games still spread over the workers (Yahtzee
/// on 2 workers: 67% of in-process in batches of 16, 55–61% in batches of 32) and that a remote
/// tournament's games in flight (`RemoteGame::games_in_flight`: 256) go to every worker.
pub const BATCH_GAMES: usize = 16;

/// The most jobs a worker takes from one message (a batch from elsewhere is bounded too).
pub const MAX_BATCH: usize = 64;

/// The jobs in a message of the job stream: one job (an object), or a batch (a list of 1 to
/// [`MAX_BATCH`] jobs, played one after the other, each with its own outcome). `None`: not jobs.
pub fn jobs_in(payload: &[u8]) -> Option<Vec<Job>> {
    if is_list(payload) {
        let jobs: Vec<Job> = serde_json::from_slice(payload).ok()?;
        (1..=MAX_BATCH).contains(&jobs.len()).then_some(jobs)
    } else {
        serde_json::from_slice(payload).ok().map(|j| vec![j])
    }
}

/// The outcomes in a message of the result stream: one (an object), or a batch's (a list).
pub fn dones_in(payload: &[u8]) -> Result<Vec<Done>, serde_json::Error> {
    if is_list(payload) { serde_json::from_slice(payload) } else { serde_json::from_slice(payload).map(|d| vec![d]) }
}

/// A JSON list, by its first character.
fn is_list(payload: &[u8]) -> bool {
    payload.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
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
    fn a_message_holds_one_job_or_a_bounded_batch_of_them() {
        let one = serde_json::to_vec(&job(1, "c1")).unwrap();
        assert_eq!(jobs_in(&one).unwrap().len(), 1);
        let three = serde_json::to_vec(&[job(1, "c1"), job(2, "c1"), job(3, "c2")]).unwrap();
        let jobs = jobs_in(&three).unwrap();
        assert_eq!(jobs.iter().map(|j| j.seed).collect::<Vec<_>>(), [1, 2, 3]);
        // Not jobs: nothing, a list of nothing, too many, something else, a list with one bad job.
        assert!(jobs_in(b"[]").is_none() && jobs_in(b"not json").is_none() && jobs_in(b"{}").is_none());
        let many = serde_json::to_vec(&vec![job(1, "c1"); MAX_BATCH + 1]).unwrap();
        assert!(jobs_in(&many).is_none());
        let mut bad = serde_json::to_value([job(1, "c1"), job(2, "c1")]).unwrap();
        bad[1]["seed"] = "two".into();
        assert!(jobs_in(&serde_json::to_vec(&bad).unwrap()).is_none());
        // Outcomes likewise.
        let done = |g: &str| Done { game: g.into(), key: g.into(), outcome: Err("x".into()), worker: "w".into() };
        let dones = dones_in(&serde_json::to_vec(&[done("a"), done("b")]).unwrap()).unwrap();
        assert_eq!(dones.iter().map(|d| d.game.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(dones_in(b" {\"game\":\"a\",\"outcome\":{\"Err\":\"x\"},\"worker\":\"w\"}").unwrap().len(), 1);
        assert!(dones_in(b"[1]").is_err());
    }

    #[test]
    fn an_outcome_belongs_to_one_game_only() {
        assert_eq!(job(1, "c1").key(), job(1, "c1").key());
        // The same id with another seed, or another component in a seat, is another game.
        assert_ne!(job(1, "c1").key(), job(2, "c1").key());
        assert_ne!(job(1, "c1").key(), job(1, "c2").key());
    }
}

//! Where the outcomes read from the result stream wait for the games that asked for them.

use super::Outcome;
use crate::job::Done;
use std::collections::HashMap;
use tokio::sync::oneshot;

/// Outcomes by game (`Job::key`): those awaited (a sender) and those that came before anyone asked
/// (an interrupted run's, read back by the run that resumes it).
#[derive(Default)]
pub(super) struct Mailbox {
    pub(super) waiting: HashMap<String, oneshot::Sender<Outcome>>,
    pub(super) early: HashMap<String, Outcome>,
    /// Messages on the result subject that are no outcome this Arena can read.
    pub(super) unreadable: u64,
    /// Outcomes handed to their games.
    pub(super) placed: u64,
}

impl Mailbox {
    /// Places an outcome read from the result stream: to the game waiting for it, else kept for when
    /// it is asked for. One it cannot place now is logged with its key and what was expected.
    pub(super) fn place(&mut self, headers: Option<&async_nats::HeaderMap>, payload: &[u8]) {
        // An outcome of another protocol version is not read as one: the games it names fail, saying
        // why (a worker of another Arena version took them).
        let version = crate::protocol_of(headers);
        if !crate::speaks_ours(&version) {
            let why = crate::protocol_mismatch("A worker's outcome on the result stream", version);
            tracing::error!("{why}");
            match crate::dones_in(payload) {
                Ok(dones) => {
                    for done in dones {
                        let worker = arena_core::quote_at(&done.worker, 80);
                        self.place_one(Done { outcome: Err(format!("worker {worker}: {why}")), ..done });
                    }
                }
                Err(_) => self.unreadable += 1,
            }
            return;
        }
        let dones = match crate::dones_in(payload) {
            Ok(dones) => dones,
            Err(e) => {
                self.unreadable += 1;
                let head: String = String::from_utf8_lossy(&payload[..payload.len().min(200)]).into_owned();
                tracing::warn!("an outcome on the result stream is unreadable ({e}), dropped: {head}");
                return;
            }
        };
        for done in dones {
            self.place_one(done);
        }
    }

    pub(super) fn place_one(&mut self, done: Done) {
        tracing::debug!("game {} played by {}", done.game, done.worker);
        // A game played twice (a worker died after publishing) is taken once.
        match self.waiting.remove(&done.key) {
            Some(tx) => {
                self.placed += 1;
                let _ = tx.send(done.outcome);
            }
            None => {
                let prefix = format!("{}|", done.game);
                match self.waiting.keys().find(|k| k.starts_with(&prefix)) {
                    Some(expected) => tracing::warn!(
                        "an outcome of game {} (key {}) is not the one awaited (key {expected}): kept aside",
                        done.game,
                        done.key
                    ),
                    None => tracing::debug!(
                        "an outcome of game {} (key {}) came before it was asked for",
                        done.game,
                        done.key
                    ),
                }
                self.early.insert(done.key, done.outcome);
            }
        }
    }
}

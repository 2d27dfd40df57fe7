//! Publishing jobs: together in one message while the workers have enough to do, at once while few are
//! out, each told whether the stream has it.

use super::Outgoing;
use crate::job::BATCH_GAMES;
use crate::{JOBS_SUBJECT, Nats};
use std::sync::Arc;

/// Jobs published and not yet answered, and news of each answer: while enough are out to keep the
/// workers busy, the publishing task fills a batch before it sends it.
#[derive(Default)]
pub(super) struct Flow {
    pub(super) out: std::sync::atomic::AtomicUsize,
    pub(super) answered: tokio::sync::Notify,
}

impl Flow {
    /// Counted as out before they are published: a worker may answer before the server's ack is back.
    pub(super) fn sent(&self, n: usize) {
        self.out.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// Jobs the stream did not take after all.
    pub(super) fn unsent(&self, n: usize) {
        self.take(n);
    }

    pub(super) fn answered(&self) {
        self.take(1);
        self.answered.notify_one();
    }

    pub(super) fn take(&self, n: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let _ = self.out.try_update(Relaxed, Relaxed, |out| Some(out.saturating_sub(n)));
    }

    /// Few enough jobs out that a worker may be waiting for one.
    pub(super) fn low(&self) -> bool {
        self.out.load(std::sync::atomic::Ordering::Relaxed) < 2 * BATCH_GAMES
    }
}

/// The longest a job waits for others to fill its batch while workers have enough to do.
const LINGER: std::time::Duration = std::time::Duration::from_millis(20);

/// Publishes the jobs sent to `jobs` until the sender is dropped, one message at a time (while it
/// waits for the server, more jobs gather for the next), in batches of up to [`BATCH_GAMES`]: every
/// job waiting, at once while few are out (see [`Flow`]), else once the batch is full, an answer
/// leaves few out, or [`LINGER`] has passed; one by one when together they would not fit in a
/// message. `nonce` is this process's own, in every message's deduplication id (a resumed run
/// publishes again). (Four publishes under way at once measured no faster.)
pub(super) async fn publishing(
    nats: Nats,
    nonce: String,
    mut jobs: tokio::sync::mpsc::UnboundedReceiver<Outgoing>,
    flow: Arc<Flow>,
) {
    let fits = (nats.client.server_info().max_payload / 2).max(1024);
    while let Some(first) = jobs.recv().await {
        // Games woken by the same news (a batch of outcomes placed at once) make their jobs now: let
        // them, so that they go together rather than the first alone.
        tokio::task::yield_now().await;
        let mut batch = vec![first];
        let until = tokio::time::Instant::now() + LINGER;
        loop {
            while batch.len() < BATCH_GAMES {
                match jobs.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
            if batch.len() >= BATCH_GAMES || flow.low() {
                break;
            }
            tokio::select! {
                next = jobs.recv() => match next {
                    Some(next) => batch.push(next),
                    None => break,
                },
                _ = flow.answered.notified() => {}
                _ = tokio::time::sleep_until(until) => break,
            }
        }
        publish_batch(&nats, &nonce, batch, fits, &flow).await;
    }
}

/// Publishes `batch` as one message (when it fits in `fits` bytes) or job by job, and tells each job's
/// sender whether the stream has it.
pub(super) async fn publish_batch(nats: &Nats, nonce: &str, batch: Vec<Outgoing>, fits: usize, flow: &Flow) {
    let together = (batch.len() > 1)
        .then(|| crate::jobs_message(&batch.iter().map(|(j, _)| j).collect::<Vec<_>>()).ok())
        .flatten()
        .filter(|payload| payload.len() <= fits);
    match together {
        Some(payload) => {
            // Deduplicated by run, first game, size and this process.
            let (first, n) = (&batch[0].0, batch.len());
            let id = format!("{}/{}/{n}/{nonce}", first.reply, first.game);
            flow.sent(n);
            let r = nats.publish_stored(JOBS_SUBJECT, &id, payload.into()).await;
            let r = r.map_err(|e| format!("the game's job: {e}"));
            if r.is_err() {
                flow.unsent(n);
            }
            for (_, tx) in batch {
                let _ = tx.send(r.clone());
            }
        }
        None => {
            for (job, tx) in batch {
                let payload = match crate::jobs_message(&[&job]) {
                    Ok(payload) => payload,
                    Err(e) => {
                        let _ = tx.send(Err(format!("the game's job: {e}")));
                        continue;
                    }
                };
                let id = format!("{}/{}/{nonce}", job.reply, job.game);
                flow.sent(1);
                let r = nats.publish_stored(JOBS_SUBJECT, &id, payload.into()).await;
                if r.is_err() {
                    flow.unsent(1);
                }
                let _ = tx.send(r.map_err(|e| format!("the game's job: {e}")));
            }
        }
    }
}

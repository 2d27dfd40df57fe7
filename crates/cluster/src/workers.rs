//! Who works for the cluster: a worker says on [`BUSY_SUBJECT`] (core NATS, `NAME\tJOB`) that it took
//! a job or is still playing it; a watcher keeps each worker's last word and job, for the workers of
//! the last minute (at most [`MAX_WORKERS`] names: a flood of made-up names cannot grow it).

use super::{BUSY_SUBJECT, ClusterError, JOBS, Nats};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most workers remembered at once.
pub const MAX_WORKERS: usize = 1000;
/// How long a worker is remembered after its last word.
pub const SEEN_FOR: Duration = Duration::from_secs(60);

/// A worker's news: its name and the job it is on.
pub fn busy_payload(name: &str, job: &str) -> String {
    format!("{name}\t{job}")
}

/// (name, job) of a worker's news, each cut to 200 bytes' worth of characters.
pub fn parse_busy(payload: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(&payload[..payload.len().min(400)]).into_owned();
    let (name, job) = text.split_once('\t').unwrap_or((&text, ""));
    (name.chars().take(200).collect(), job.chars().take(200).collect())
}

/// One worker as last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub name: String,
    pub job: String,
    pub ago: Duration,
}

/// The workers seen in the last minute.
#[derive(Clone, Default)]
pub struct Workers(Arc<Mutex<HashMap<String, (Instant, String)>>>);

impl Workers {
    /// Takes in one piece of news.
    pub fn record(&self, payload: &[u8]) {
        let (name, job) = parse_busy(payload);
        let mut seen = self.0.lock().unwrap_or_else(|e| e.into_inner());
        seen.retain(|_, (t, _)| t.elapsed() < SEEN_FOR);
        if seen.len() < MAX_WORKERS || seen.contains_key(&name) {
            seen.insert(name, (Instant::now(), job));
        }
    }

    /// The workers seen in the last minute, by name.
    pub fn recent(&self) -> Vec<Seen> {
        let seen = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<Seen> = seen
            .iter()
            .filter(|(_, (t, _))| t.elapsed() < SEEN_FOR)
            .map(|(name, (t, job))| Seen { name: name.clone(), job: job.clone(), ago: t.elapsed() })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
}

impl Nats {
    /// Watches the workers' news for as long as the connection lasts.
    pub async fn watch_workers(&self) -> Result<Workers, ClusterError> {
        let mut news = self.client.subscribe(BUSY_SUBJECT).await.map_err(|e| self.err("the workers' news", e))?;
        let workers = Workers::default();
        let w = workers.clone();
        tokio::spawn(async move {
            while let Some(m) = news.next().await {
                w.record(&m.payload);
            }
        });
        Ok(workers)
    }

    /// Jobs waiting in the job stream (taken but not yet finished ones included).
    pub async fn jobs_queued(&self) -> Result<u64, ClusterError> {
        let mut stream = self.js.get_stream(JOBS).await.map_err(|e| self.err("the job stream", e))?;
        let info = stream.info().await.map_err(|e| self.err("the job stream", e))?;
        Ok(info.state.messages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_is_parsed_and_bounded() {
        assert_eq!(parse_busy(b"w1\tR1-M2-G1"), ("w1".into(), "R1-M2-G1".into()));
        assert_eq!(parse_busy(b"old-worker"), ("old-worker".into(), String::new()));
        let w = Workers::default();
        for i in 0..(MAX_WORKERS + 50) {
            w.record(busy_payload(&format!("w{i}"), "job").as_bytes());
        }
        assert_eq!(w.recent().len(), MAX_WORKERS);
        w.record(b"w1\tanother");
        assert_eq!(w.recent().iter().find(|s| s.name == "w1").unwrap().job, "another");
    }
}

//! Beyond one machine: games played by workers over NATS JetStream. A game is a job on a work-queue
//! stream (the package and the players' components named by sha256, seats, seed, limits, options, the
//! match so far); packages and components travel once through a JetStream object store; a worker
//! plays the job with exactly the sandbox and limits of a local game and publishes the outcome on a
//! results stream the coordinator reads. Games are deterministic, so a game played again after a
//! worker died gives the same outcome.

mod job;
mod remote;
mod worker;
mod workers;

pub use job::{
    BATCH_GAMES, Done, Job, JobPlayer, MAX_BATCH, MAX_JSON, dones_in, dones_message, jobs_in, jobs_message, pack,
};
pub use remote::RemoteGame;
use std::time::Duration;
pub use worker::{WorkerConfig, work};
pub use workers::{Seen, Workers, busy_payload, parse_busy};

/// The work queue of game jobs.
pub const JOBS: &str = "ARENA_JOBS";
pub const JOBS_SUBJECT: &str = "arena.jobs";
/// Outcomes, one subject per run (a stored tournament's survives its coordinator).
pub const RESULTS: &str = "ARENA_RESULTS";
pub const RESULTS_SUBJECTS: &str = "arena.results.>";
/// The durable consumer every worker pulls from.
pub const WORKERS: &str = "arena-workers";
/// Where a worker says (core NATS, its name as payload) that it took a job or is still playing one.
pub const BUSY_SUBJECT: &str = "arena.workers.busy";
/// Packages' files and components, by sha256.
pub const FILES: &str = "ARENA_FILES";

/// The version of the messages coordinators and workers exchange (jobs and outcomes), carried in the
/// header [`PROTOCOL_HEADER`] of each: a worker and a coordinator of different versions refuse each
/// other's messages, naming both versions, instead of misreading them. Messages of an Arena from before
/// versions were carried have none (version 1).
pub const PROTOCOL: u32 = 2;
pub const PROTOCOL_HEADER: &str = "Arena-Protocol";

/// The protocol version a message's headers name: `None` when they name none (an earlier Arena), or
/// the text of one that is no number.
pub fn protocol_of(headers: Option<&async_nats::HeaderMap>) -> Option<Result<u32, String>> {
    let v = headers?.get(PROTOCOL_HEADER)?.as_str();
    Some(v.parse().map_err(|_| arena_core::quote_at(v, 40)))
}

/// Whether a message's version (as [`protocol_of`] reads it) is this Arena's.
pub fn speaks_ours(version: &Option<Result<u32, String>>) -> bool {
    matches!(version, Some(Ok(v)) if *v == PROTOCOL)
}

/// Headers naming this Arena's protocol version, for a message published without [`Nats::publish_stored`].
pub fn protocol_headers() -> async_nats::HeaderMap {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(PROTOCOL_HEADER, PROTOCOL.to_string().as_str());
    headers
}

/// Why a message of another protocol version is refused: both versions, and what to do.
pub fn protocol_mismatch(what: &str, theirs: Option<Result<u32, String>>) -> String {
    let theirs = match theirs {
        None => "none (an Arena from before cluster protocol versions)".to_string(),
        Some(Ok(v)) => v.to_string(),
        Some(Err(text)) => format!("`{text}`, which is no version"),
    };
    format!(
        "{what} speaks cluster protocol {theirs}, and this Arena ({}) speaks protocol {PROTOCOL}: run the \
         coordinator and its workers from the same Arena version",
        env!("CARGO_PKG_VERSION")
    )
}

/// Everything that can go wrong with the cluster; each says what and where.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("{url}: NATS is unreachable: {error} (start one with `nats-server -js`)")]
    Unreachable { url: String, error: String },
    #[error("NATS at {url}: {what}: {error}")]
    Nats { url: String, what: String, error: String },
    #[error("{0}")]
    Other(String),
}

/// A connection and its JetStream context.
#[derive(Clone)]
pub struct Nats {
    pub url: String,
    pub client: async_nats::Client,
    pub js: async_nats::jetstream::Context,
}

impl Nats {
    /// Connects (failing at once, with a clear error, when nothing answers) and makes sure the job and
    /// result streams and the file store exist with the settings this Arena needs.
    pub async fn connect(url: &str) -> Result<Nats, ClusterError> {
        let unreachable = |e: String| ClusterError::Unreachable { url: url.to_string(), error: e };
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(Duration::from_secs(5))
            .retry_on_initial_connect()
            .max_reconnects(None)
            .name("arena");
        // A first connection that does not come within the timeout is an error, not a wait.
        let client =
            tokio::time::timeout(Duration::from_secs(5), async { async_nats::connect_with_options(url, client).await })
                .await
                .map_err(|_| unreachable("no answer within 5 s".into()))?
                .map_err(|e| unreachable(e.to_string()))?;
        tokio::time::timeout(Duration::from_secs(5), client.flush())
            .await
            .map_err(|_| unreachable("no answer within 5 s".into()))?
            .map_err(|e| unreachable(e.to_string()))?;
        let js = async_nats::jetstream::new(client.clone());
        let nats = Nats { url: url.to_string(), client, js };
        nats.streams().await?;
        Ok(nats)
    }

    fn err(&self, what: &str, e: impl std::fmt::Display) -> ClusterError {
        ClusterError::Nats { url: self.url.clone(), what: what.to_string(), error: e.to_string() }
    }

    async fn streams(&self) -> Result<(), ClusterError> {
        use async_nats::jetstream::stream::{Config, RetentionPolicy, StorageType};
        let jobs = Config {
            name: JOBS.into(),
            subjects: vec![JOBS_SUBJECT.into()],
            retention: RetentionPolicy::WorkQueue,
            storage: StorageType::File,
            duplicate_window: Duration::from_secs(120),
            ..Default::default()
        };
        self.work_queue(jobs, "the job stream").await?;
        // Outcomes leave the stream once their coordinator has them; what is left after a coordinator
        // died is what the run that resumes it reads back.
        let results = Config {
            name: RESULTS.into(),
            subjects: vec![RESULTS_SUBJECTS.into()],
            retention: RetentionPolicy::WorkQueue,
            storage: StorageType::File,
            max_age: Duration::from_secs(7 * 24 * 3600),
            ..Default::default()
        };
        self.work_queue(results, "the result stream").await
    }

    /// Creates the work-queue stream `config`, or checks the one there has its retention and subjects.
    async fn work_queue(&self, config: async_nats::jetstream::stream::Config, what: &str) -> Result<(), ClusterError> {
        let (name, subjects) = (config.name.clone(), config.subjects.clone());
        let s = match self.js.get_or_create_stream(config).await {
            Ok(s) => s,
            // Another client made it between this one's look and its create (a coordinator and workers
            // starting at once; the server then answers that the subjects overlap): take that one.
            Err(e) => self.js.get_stream(&name).await.map_err(|_| self.err(what, e))?,
        };
        let info = s.cached_info();
        if info.config.retention != async_nats::jetstream::stream::RetentionPolicy::WorkQueue
            || info.config.subjects != subjects
        {
            return Err(self.err(
                what,
                format!(
                    "stream {name} exists with other settings (retention {:?}, subjects {:?}); Arena needs a \
                     work queue on {}: delete it (`nats stream rm {name}`) or use another server",
                    info.config.retention,
                    info.config.subjects,
                    subjects.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// Publishes `payload` on `subject` until JetStream has stored it (waiting out a lost connection
    /// or a restarting server, backing off from 0.1 to 5 s), deduplicated by `id` within the stream's
    /// window: a job from the coordinator, an outcome from a worker. A message the server can never
    /// take (over its max payload) is an error at once, never retried.
    pub async fn publish_stored(&self, subject: &str, id: &str, payload: bytes::Bytes) -> Result<(), String> {
        use async_nats::jetstream::context::PublishErrorKind;
        let mut headers = protocol_headers();
        headers.insert("Nats-Msg-Id", id);
        let mut wait = Duration::from_millis(100);
        loop {
            let stored = match self.js.publish_with_headers(subject.to_string(), headers.clone(), payload.clone()).await
            {
                Ok(ack) => ack.await.is_ok(),
                Err(e) if e.kind() == PublishErrorKind::MaxPayloadExceeded => {
                    return Err(format!(
                        "{} bytes are more than the NATS server takes in one message: {e}",
                        payload.len()
                    ));
                }
                Err(_) => false,
            };
            if stored {
                return Ok(());
            }
            tracing::warn!("{subject} ({id}): NATS did not store it; retrying");
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(5));
        }
    }

    /// The chunk files are stored in: the object store's usual 128 KiB, or less when the server takes
    /// smaller messages.
    pub fn chunk(&self) -> usize {
        (128 << 10).min(self.client.server_info().max_payload / 2).max(1024)
    }

    /// The object store of packages' files and components.
    pub async fn files(&self) -> Result<async_nats::jetstream::object_store::ObjectStore, ClusterError> {
        match self.js.get_object_store(FILES).await {
            Ok(s) => Ok(s),
            Err(_) => {
                let config = async_nats::jetstream::object_store::Config {
                    bucket: FILES.into(),
                    storage: async_nats::jetstream::stream::StorageType::File,
                    ..Default::default()
                };
                match self.js.create_object_store(config).await {
                    Ok(s) => Ok(s),
                    // Another process created it meanwhile.
                    Err(e) => self.js.get_object_store(FILES).await.map_err(|_| self.err("the file store", e)),
                }
            }
        }
    }
}

/// Puts `bytes` under `name` unless the store has it already.
pub async fn put_once(
    store: &async_nats::jetstream::object_store::ObjectStore,
    name: &str,
    bytes: &[u8],
    chunk: usize,
) -> Result<(), String> {
    if store.info(name).await.is_ok() {
        return Ok(());
    }
    let meta = async_nats::jetstream::object_store::ObjectMetadata {
        name: name.to_string(),
        chunk_size: Some(chunk),
        ..Default::default()
    };
    let mut reader = bytes;
    store.put(meta, &mut reader).await.map(|_| ()).map_err(|e| format!("{name}: cannot upload: {e}"))
}

/// Why a file could not be had from the object store.
#[derive(Debug)]
pub enum Fetch {
    /// It is not there (or not what it is named by): the job cannot be played, anywhere.
    Missing(String),
    /// The server did not answer in time, or the connection dropped: worth trying again.
    Transient(String),
}

impl std::fmt::Display for Fetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fetch::Missing(why) | Fetch::Transient(why) => f.write_str(why),
        }
    }
}

/// The bytes stored under `name`.
pub async fn get(store: &async_nats::jetstream::object_store::ObjectStore, name: &str) -> Result<Vec<u8>, Fetch> {
    use async_nats::jetstream::object_store::GetErrorKind;
    use tokio::io::AsyncReadExt;
    let mut object = store.get(name).await.map_err(|e| match e.kind() {
        GetErrorKind::NotFound | GetErrorKind::InvalidName => {
            Fetch::Missing(format!("{name}: not in the object store ({e})"))
        }
        _ => Fetch::Transient(format!("{name}: cannot download: {e}")),
    })?;
    let mut bytes = Vec::new();
    object.read_to_end(&mut bytes).await.map_err(|e| Fetch::Transient(format!("{name}: cannot download: {e}")))?;
    Ok(bytes)
}

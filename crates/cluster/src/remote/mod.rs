//! The coordinator's side: a package as a `Game` whose games are played by workers. Everything else
//! stays here and unchanged — the tournament logic, the store, the lifecycle calls (players are
//! loaded and checked here too, through the compile cache) — only `play` becomes a job on the queue
//! and an outcome read back from the result stream, matched by game id. Jobs waiting to be published
//! go together in one message (up to `BATCH_GAMES`; see `publishing`): a busy tournament's games share
//! the server's round trips, a lone game waits for nothing.

use super::job::{Job, JobPlayer, component_key, package_key};
use super::{BUSY_SUBJECT, ClusterError, Nats, RESULTS};
use arena_core::Limits;
use arena_core::{Entry, Game, GameOutcome, GameSetup, TournamentInfo};
use arena_core::{Fault, FaultKind};
use arena_play::{LoadPlayers, PackageGame, PackagePlayer};
use arena_sandbox::{LoadError, Loaded, WorldSpec};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

mod mailbox;
mod publishing;
use mailbox::Mailbox;
use publishing::{Flow, publishing};

type Outcome = Result<GameOutcome, String>;

/// A job to publish, and where to say whether the stream has it.
type Outgoing = (Job, oneshot::Sender<Result<(), String>>);

/// Where a loaded component's bytes are, to upload for the workers: its file, or the bytes an upload
/// was loaded from.
#[derive(Clone)]
enum Source {
    File(PathBuf),
    Bytes(Arc<[u8]>),
}

/// A package whose games are played by workers over NATS.
pub struct RemoteGame {
    local: Arc<PackageGame>,
    nats: Nats,
    files: async_nats::jetstream::object_store::ObjectStore,
    /// The package's directory and its files (paths inside it).
    dir: PathBuf,
    package_files: Vec<String>,
    options: Vec<String>,
    limits: Limits,
    /// The run's name, in its result subject (`arena.results.<run>`) and its consumer's: a stored
    /// tournament's is the same every time it is resumed; otherwise a random one.
    run: Mutex<String>,
    /// Reading outcomes starts with the first game.
    reading: tokio::sync::OnceCell<()>,
    /// Where each loaded component came from, by sha256 (uploaded when a game first needs it).
    paths: Mutex<HashMap<String, Source>>,
    uploaded: tokio::sync::Mutex<std::collections::HashSet<String>>,
    /// The package's files are all in the object store (a game's job then checks its seats only).
    package_uploaded: std::sync::atomic::AtomicBool,
    mailbox: Arc<Mutex<Mailbox>>,
    /// When each worker last said it took or was playing a job.
    busy: Arc<Mutex<HashMap<String, std::time::Instant>>>,
    /// Jobs to publish, taken by the publishing task (see [`publishing`]).
    outbox: tokio::sync::mpsc::UnboundedSender<Outgoing>,
    flow: Arc<Flow>,
}

/// A name fit for a subject token and a consumer name.
fn token(text: &str) -> String {
    arena_core::sha256_hex(text.as_bytes())[..24].to_string()
}

impl RemoteGame {
    /// `local` (loaded from `dir` with `options`) played by the workers of `nats`.
    pub async fn new(
        nats: Nats,
        local: Arc<PackageGame>,
        dir: &Path,
        options: &[String],
        limits: Limits,
    ) -> Result<RemoteGame, ClusterError> {
        let files = nats.files().await?;
        let package_files: Vec<String> = arena_play::files_under(dir)
            .map_err(|e| ClusterError::Other(format!("{}: cannot list the package: {e}", dir.display())))?
            .iter()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .collect();
        let nonce = arena_core::secret("").map_err(|e| ClusterError::Other(e.to_string()))?;
        let (outbox, jobs) = tokio::sync::mpsc::unbounded_channel();
        let flow = Arc::new(Flow::default());
        tokio::spawn(publishing(nats.clone(), nonce[..16].to_string(), jobs, flow.clone()));
        Ok(RemoteGame {
            local,
            nats,
            files,
            dir: dir.to_path_buf(),
            package_files,
            options: options.to_vec(),
            limits,
            run: Mutex::new(token(&nonce)),
            reading: tokio::sync::OnceCell::new(),
            paths: Mutex::default(),
            uploaded: tokio::sync::Mutex::default(),
            package_uploaded: Default::default(),
            mailbox: Arc::default(),
            busy: Arc::default(),
            outbox,
            flow,
        })
    }

    fn run(&self) -> String {
        self.run.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Starts reading this run's outcomes from the result stream: everything still there, an
    /// interrupted run's included. The stream is a work queue: an outcome is gone once acked, so what
    /// a resumed run finds is only what its predecessor never took.
    async fn read_outcomes(&self) -> Result<(), ClusterError> {
        let nats = &self.nats;
        let run = self.run();
        let name = format!("results-{run}");
        let stream = nats.js.get_stream(RESULTS).await.map_err(|e| nats.err("the result stream", e))?;
        // The consumer of a run that died is replaced (a work queue allows one per subject).
        let _ = stream.delete_consumer(&name).await;
        let consumer = stream
            .create_consumer(async_nats::jetstream::consumer::pull::Config {
                durable_name: Some(name),
                filter_subject: format!("arena.results.{run}"),
                ack_policy: async_nats::jetstream::consumer::AckPolicy::Explicit,
                inactive_threshold: Duration::from_secs(3600),
                ..Default::default()
            })
            .await
            .map_err(|e| nats.err("a result consumer", e))?;
        let mut messages = consumer.messages().await.map_err(|e| nats.err("the results", e))?;
        let mut busy = nats.client.subscribe(BUSY_SUBJECT).await.map_err(|e| nats.err("the workers' news", e))?;
        let seen = self.busy.clone();
        tokio::spawn(async move {
            while let Some(m) = busy.next().await {
                let (name, _) = super::parse_busy(&m.payload);
                let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
                seen.insert(name, std::time::Instant::now());
                // Bounded by the workers of the last minute.
                seen.retain(|_, t| t.elapsed() < Duration::from_secs(60));
            }
        });
        let mailbox = self.mailbox.clone();
        tokio::spawn(async move {
            loop {
                while let Some(m) = messages.next().await {
                    // Errors (a heartbeat missed while the server restarts) pass; the stream goes on.
                    let Ok(m) = m else { continue };
                    mailbox.lock().unwrap_or_else(|e| e.into_inner()).place(m.headers.as_ref(), &m.payload);
                    let _ = m.ack().await;
                }
                // The stream ended: pull again (the durable consumer keeps its place).
                tokio::time::sleep(Duration::from_millis(500)).await;
                match consumer.messages().await {
                    Ok(m) => messages = m,
                    Err(e) => tracing::warn!("reading results again: {e}"),
                }
            }
        });
        Ok(())
    }

    /// Uploads `key` (from `source`) unless this run did already.
    async fn upload(&self, key: String, source: &Source) -> Result<(), String> {
        let mut done = self.uploaded.lock().await;
        if done.contains(&key) {
            return Ok(());
        }
        let bytes: Arc<[u8]> = match source {
            Source::File(path) => {
                tokio::fs::read(path).await.map_err(|e| format!("{}: cannot read: {e}", path.display()))?.into()
            }
            Source::Bytes(b) => b.clone(),
        };
        // The server may be away for a while (a restart): tried again for up to two minutes.
        let (mut wait, until) = (Duration::from_millis(100), tokio::time::Instant::now() + Duration::from_secs(120));
        loop {
            match super::put_once(&self.files, &key, &bytes, self.nats.chunk()).await {
                Ok(()) => break,
                Err(why) if tokio::time::Instant::now() >= until => return Err(why),
                Err(why) => tracing::warn!("{why}; trying again"),
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(5));
        }
        done.insert(key);
        Ok(())
    }

    async fn job(&self, setup: &GameSetup<Arc<PackagePlayer>>) -> Result<Job, String> {
        let hash = self.local.referee_hash().unwrap_or_default();
        if !self.package_uploaded.load(std::sync::atomic::Ordering::Acquire) {
            for f in &self.package_files {
                self.upload(package_key(&hash, f), &Source::File(self.dir.join(f))).await?;
            }
            self.package_uploaded.store(true, std::sync::atomic::Ordering::Release);
        }
        let mut players = vec![];
        for e in &setup.players {
            let builtin = e.source.strip_prefix("builtin:").map(str::to_string);
            let component = if builtin.is_some() { None } else { e.hash.clone() };
            if let Some(h) = &component {
                let source = self.paths.lock().unwrap_or_else(|e| e.into_inner()).get(h).cloned();
                let source = source.ok_or_else(|| format!("{}: its component was not loaded here", e.name))?;
                self.upload(component_key(h), &source).await?;
            }
            players.push(JobPlayer { name: e.name.clone(), component, builtin });
        }
        Ok(Job {
            reply: format!("arena.results.{}", self.run()),
            game: setup.id.clone(),
            package: hash,
            files: self.package_files.clone(),
            options: self.options.clone(),
            players,
            seed: setup.seed,
            limits: self.limits,
            so_far: setup.so_far.clone(),
            finals: setup.finals,
        })
    }

    /// Publishes a job until the stream has it (in a batch with the jobs that wait with it).
    async fn publish(&self, job: Job) -> Result<(), String> {
        let stopped = || "the game's job: the publishing task has stopped".to_string();
        let (tx, rx) = oneshot::channel();
        self.outbox.send((job, tx)).map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())?
    }
}

/// A game the workers could not play: no result, nobody banned, and why.
fn unplayed(n: usize, why: String) -> GameOutcome {
    GameOutcome {
        scores: vec![0; n],
        fuel: vec![0; n],
        logs: vec![String::new(); n],
        game_fault: Some(Fault::new(FaultKind::Crash, "worker", why)),
        ..Default::default()
    }
}

impl LoadPlayers for RemoteGame {
    fn spec(&self) -> &WorldSpec {
        self.local.spec()
    }
    fn load(&self, path: &Path) -> Result<(Loaded, Self::Player), LoadError> {
        let (loaded, player) = self.local.load(path)?;
        self.paths
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(loaded.hash.clone(), Source::File(path.to_path_buf()));
        Ok((loaded, player))
    }
    fn load_bytes(&self, path: &Path, bytes: &[u8]) -> Result<(Loaded, Self::Player), LoadError> {
        let (loaded, player) = self.local.load_bytes(path, bytes)?;
        self.paths.lock().unwrap_or_else(|e| e.into_inner()).insert(loaded.hash.clone(), Source::Bytes(bytes.into()));
        Ok((loaded, player))
    }

    fn forget(&self, hash: &str) {
        self.paths.lock().unwrap_or_else(|e| e.into_inner()).remove(hash);
        self.local.forget(hash);
    }
}

impl Game for RemoteGame {
    type Player = Arc<PackagePlayer>;

    fn name(&self) -> &str {
        self.local.name()
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.local.seats()
    }
    fn builtin(&self, name: &str) -> Option<Self::Player> {
        self.local.builtin(name)
    }
    fn builtin_names(&self) -> &[String] {
        self.local.builtin_names()
    }
    fn options(&self) -> serde_json::Value {
        self.local.options()
    }
    fn draws_svg(&self) -> bool {
        self.local.draws_svg()
    }
    fn referee_hash(&self) -> Option<String> {
        self.local.referee_hash()
    }
    /// A game played by a worker holds only its job and a waiting task here: four times the local
    /// limit, so that batches of [`BATCH_GAMES`] keep every worker of a few busy.
    fn games_in_flight(&self) -> usize {
        4 * arena_core::GAMES_IN_FLIGHT
    }

    async fn tournament_start(&self, p: &Entry<Self::Player>, info: &TournamentInfo, seed: u64) -> Option<Fault> {
        self.local.tournament_start(p, info, seed).await
    }

    fn status(&self) -> Option<String> {
        self.reading.get()?;
        let workers = self
            .busy
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|t| t.elapsed() <= Duration::from_secs(10))
            .count();
        let (waiting, aside, placed) = {
            let b = self.mailbox.lock().unwrap_or_else(|e| e.into_inner());
            (b.waiting.len(), b.early.len() as u64 + b.unreadable, b.placed)
        };
        let mut line = if workers == 0 && waiting > 0 {
            format!(
                "no worker has taken a job in the last 10 s ({waiting} game(s) waiting): start one with `arena worker --nats {}`",
                self.nats.url
            )
        } else {
            format!("{workers} worker(s) busy in the last 10 s, {waiting} game(s) waiting")
        };
        line.push_str(&format!(", {placed} played by workers"));
        if aside > 0 {
            line.push_str(&format!(", {aside} outcome(s) not placed (see the log)"));
        }
        Some(line)
    }

    fn bind(&self, run: &str) {
        *self.run.lock().unwrap_or_else(|e| e.into_inner()) = token(run);
    }

    async fn play(&self, setup: GameSetup<Self::Player>) -> GameOutcome {
        let n = setup.players.len();
        if let Err(e) = self.reading.get_or_try_init(|| self.read_outcomes()).await {
            return unplayed(n, e.to_string());
        }
        let job = match self.job(&setup).await {
            Ok(job) => job,
            Err(why) => return unplayed(n, why),
        };
        let key = job.key();
        let rx = {
            let mut b = self.mailbox.lock().unwrap_or_else(|e| e.into_inner());
            // Played for the run this one resumes, after its store was last written.
            if let Some(outcome) = b.early.remove(&key) {
                b.placed += 1;
                return outcome.unwrap_or_else(|why| unplayed(n, why));
            }
            let (tx, rx) = oneshot::channel();
            b.waiting.insert(key.clone(), tx);
            rx
        };
        if let Err(why) = self.publish(job).await {
            self.mailbox.lock().unwrap_or_else(|e| e.into_inner()).waiting.remove(&key);
            return unplayed(n, why);
        }
        let answer = rx.await;
        self.flow.answered();
        match answer {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(why)) => unplayed(n, why),
            Err(_) => unplayed(n, "the result stream closed".into()),
        }
    }

    async fn tournament_end(&self, p: &Entry<Self::Player>, won: bool, seed: u64) -> Option<Fault> {
        self.local.tournament_end(p, won, seed).await
    }
}

//! The coordinator's side: a package as a `Game` whose games are played by workers. Everything else
//! stays here and unchanged — the tournament logic, the store, the lifecycle calls (players are
//! loaded and checked here too, through the compile cache) — only `play` becomes a job on the queue
//! and an outcome read back from the result stream, matched by game id.

use super::job::{Done, Job, JobPlayer, component_key, package_key};
use super::{ClusterError, Engine, JOBS_SUBJECT, RESULTS};
use crate::fault::{Fault, FaultKind};
use crate::games::{Entry, Game, GameOutcome, GameSetup, TournamentInfo};
use crate::package::{PackageGame, PackagePlayer};
use crate::sandbox::{Limits, LoadError, Loaded, WorldSpec};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

type Waiting = Arc<Mutex<HashMap<String, oneshot::Sender<Result<GameOutcome, String>>>>>;

/// A package whose games are played by workers over NATS.
pub struct RemoteGame {
    local: PackageGame,
    engine: Engine,
    files: async_nats::jetstream::object_store::ObjectStore,
    /// The package's directory and its files (paths inside it).
    dir: PathBuf,
    package_files: Vec<String>,
    options: Vec<String>,
    limits: Limits,
    /// This run's result subject.
    reply: String,
    /// Where each loaded component came from, by sha256 (uploaded when a game first needs it).
    paths: Mutex<HashMap<String, PathBuf>>,
    uploaded: tokio::sync::Mutex<std::collections::HashSet<String>>,
    waiting: Waiting,
}

impl RemoteGame {
    /// `local` (loaded from `dir` with `options`) played by the workers of `engine`.
    pub async fn new(
        engine: Engine,
        local: PackageGame,
        dir: &Path,
        options: &[String],
        limits: Limits,
    ) -> Result<RemoteGame, ClusterError> {
        let files = engine.files().await?;
        let package_files: Vec<String> = crate::package::files_under(dir)
            .map_err(|e| ClusterError::Other(format!("{}: cannot list the package: {e}", dir.display())))?
            .iter()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .collect();
        let id = crate::store::secret("").map_err(|e| ClusterError::Other(e.to_string()))?;
        let reply = format!("arena.results.{}", &id[..16]);
        let waiting: Waiting = Arc::default();
        // The outcomes of this run's jobs, from the result stream (kept there, so none is lost while
        // the connection is down).
        let stream = engine.js.get_stream(RESULTS).await.map_err(|e| engine.err("the result stream", e))?;
        let consumer = stream
            .create_consumer(async_nats::jetstream::consumer::pull::Config {
                filter_subject: reply.clone(),
                ack_policy: async_nats::jetstream::consumer::AckPolicy::Explicit,
                inactive_threshold: Duration::from_secs(3600),
                ..Default::default()
            })
            .await
            .map_err(|e| engine.err("a result consumer", e))?;
        let mut messages = consumer.messages().await.map_err(|e| engine.err("the results", e))?;
        let w = waiting.clone();
        tokio::spawn(async move {
            while let Some(m) = messages.next().await {
                let Ok(m) = m else { continue };
                if let Ok(done) = serde_json::from_slice::<Done>(&m.payload) {
                    // A game played twice (a worker died after publishing) is taken once.
                    if let Some(tx) = w.lock().unwrap_or_else(|e| e.into_inner()).remove(&done.game) {
                        tracing::debug!("game {} played by {}", done.game, done.worker);
                        let _ = tx.send(done.outcome);
                    }
                }
                let _ = m.ack().await;
            }
        });
        Ok(RemoteGame {
            local,
            engine,
            files,
            dir: dir.to_path_buf(),
            package_files,
            options: options.to_vec(),
            limits,
            reply,
            paths: Mutex::default(),
            uploaded: tokio::sync::Mutex::default(),
            waiting,
        })
    }

    /// Uploads `key` (from `path`) unless this run did already.
    async fn upload(&self, key: String, path: &Path) -> Result<(), String> {
        let mut done = self.uploaded.lock().await;
        if done.contains(&key) {
            return Ok(());
        }
        let bytes = tokio::fs::read(path).await.map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        super::put_once(&self.files, &key, &bytes).await?;
        done.insert(key);
        Ok(())
    }

    async fn job(&self, setup: &GameSetup<Arc<PackagePlayer>>) -> Result<Job, String> {
        let hash = self.local.referee_hash().unwrap_or_default();
        for f in &self.package_files {
            self.upload(package_key(&hash, f), &self.dir.join(f)).await?;
        }
        let mut players = vec![];
        for e in &setup.players {
            let builtin = e.source.strip_prefix("builtin:").map(str::to_string);
            let component = if builtin.is_some() { None } else { e.hash.clone() };
            if let Some(h) = &component {
                let path = self.paths.lock().unwrap_or_else(|e| e.into_inner()).get(h).cloned();
                let path = path.ok_or_else(|| format!("{}: its component was not loaded here", e.name))?;
                self.upload(component_key(h), &path).await?;
            }
            players.push(JobPlayer { name: e.name.clone(), component, builtin });
        }
        Ok(Job {
            reply: self.reply.clone(),
            game: setup.id.clone(),
            package: hash,
            files: self.package_files.clone(),
            options: self.options.clone(),
            players,
            seed: setup.seed,
            limits: self.limits,
            so_far: setup.so_far.clone(),
        })
    }

    /// Publishes a job until the stream has it (waiting out a lost connection), deduplicated by id.
    async fn publish(&self, job: &Job) {
        let payload: bytes::Bytes = serde_json::to_vec(job).unwrap_or_default().into();
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Nats-Msg-Id", format!("{}/{}", job.reply, job.game).as_str());
        let mut wait = Duration::from_millis(100);
        loop {
            let sent = self.engine.js.publish_with_headers(JOBS_SUBJECT, headers.clone(), payload.clone()).await;
            let stored = match sent {
                Ok(ack) => ack.await.is_ok(),
                Err(_) => false,
            };
            if stored {
                return;
            }
            tracing::warn!("game {}: NATS did not take the job; retrying", job.game);
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(5));
        }
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

impl Game for RemoteGame {
    type Player = Arc<PackagePlayer>;

    fn name(&self) -> &'static str {
        self.local.name()
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.local.seats()
    }
    fn spec(&self) -> &'static WorldSpec {
        self.local.spec()
    }
    fn load(&self, path: &Path) -> Result<(Loaded, Self::Player), LoadError> {
        let (loaded, player) = self.local.load(path)?;
        self.paths.lock().unwrap_or_else(|e| e.into_inner()).insert(loaded.hash.clone(), path.to_path_buf());
        Ok((loaded, player))
    }
    fn builtin(&self, name: &str) -> Option<Self::Player> {
        self.local.builtin(name)
    }
    fn builtin_names(&self) -> &'static [&'static str] {
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

    async fn tournament_start(&self, p: &Entry<Self::Player>, info: &TournamentInfo, seed: u64) -> Option<Fault> {
        self.local.tournament_start(p, info, seed).await
    }

    async fn play(&self, setup: GameSetup<Self::Player>) -> GameOutcome {
        let n = setup.players.len();
        let job = match self.job(&setup).await {
            Ok(job) => job,
            Err(why) => return unplayed(n, why),
        };
        let (tx, rx) = oneshot::channel();
        self.waiting.lock().unwrap_or_else(|e| e.into_inner()).insert(job.game.clone(), tx);
        self.publish(&job).await;
        match rx.await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(why)) => unplayed(n, why),
            Err(_) => unplayed(n, "the result stream closed".into()),
        }
    }

    async fn tournament_end(&self, p: &Entry<Self::Player>, won: bool, seed: u64) -> Option<Fault> {
        self.local.tournament_end(p, won, seed).await
    }
}

//! `arena worker`: stateless; pulls game jobs from the queue, fetches what it lacks (packages and
//! components by sha256 from the object store, compiled through its own compile cache), plays each
//! with exactly the sandbox and limits of a local game, publishes the outcome and acks. While a game
//! plays it tells the queue it is still at it, so a worker that dies has its job redelivered to
//! another within the ack wait.

use super::job::{Done, Job, component_key, package_key};
use super::{BUSY_SUBJECT, ClusterError, Fetch, JOBS, Nats, WORKERS};
use arena_core::{DataDir, Entry, Finals, Game, GameSetup};
use arena_play::{LoadPlayers, Package, PackageGame, PackagePlayer};
use arena_sandbox::{CompileLimits, Sandbox};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How a worker runs.
pub struct WorkerConfig {
    pub url: String,
    /// Games played at once.
    pub jobs: usize,
    /// Where fetched packages and components and the compile cache are kept.
    pub dir: PathBuf,
    /// How long the queue waits for a job's ack (or a sign of progress) before giving it to another
    /// worker.
    pub ack_wait: Duration,
    /// Runs compiles in a child process of this executable.
    pub exe: PathBuf,
    pub compile: CompileLimits,
}

/// Deliveries of one job at most (a job whose workers keep dying is given up after this many).
const MAX_DELIVER: i64 = 5;

/// Packages loaded so far: by referee hash and options, with their limits.
type Games = Mutex<HashMap<(String, Vec<String>, String), Arc<Ready>>>;

/// A loaded package and the components loaded for it, by sha256 (a component is fetched, hashed and
/// compiled, or found in the compile cache, once per worker, not once per game).
struct Ready {
    game: Arc<PackageGame>,
    players: Mutex<HashMap<String, Arc<PackagePlayer>>>,
}

/// Components kept loaded per package at most (each holds its compiled code); past it, the kept ones
/// are dropped and loaded again as games need them.
const KEPT_PLAYERS: usize = 64;

/// Works until the process is stopped.
pub async fn work(cfg: WorkerConfig) -> Result<(), ClusterError> {
    let nats = Nats::connect(&cfg.url).await?;
    let files = nats.files().await?;
    let stream = nats.js.get_stream(JOBS).await.map_err(|e| nats.err("the job stream", e))?;
    // Made, or brought to this worker's settings (its ack wait) when an earlier worker made it otherwise:
    // the queue then gives a silent worker's jobs to another after this worker's ack wait.
    let consumer: async_nats::jetstream::consumer::PullConsumer = stream
        .create_consumer(async_nats::jetstream::consumer::pull::Config {
            durable_name: Some(WORKERS.into()),
            ack_policy: async_nats::jetstream::consumer::AckPolicy::Explicit,
            ack_wait: cfg.ack_wait,
            max_deliver: MAX_DELIVER,
            max_ack_pending: 10_000,
            ..Default::default()
        })
        .await
        .map_err(|e| nats.err("the workers' consumer", e))?;
    for d in DataDir::new(&cfg.dir).worker_dirs() {
        std::fs::create_dir_all(&d).map_err(|e| ClusterError::Other(format!("{}: cannot create: {e}", d.display())))?;
    }
    let name = format!("{}:{}", hostname(), std::process::id());
    eprintln!("Worker {name} takes games from {} ({} at once)", cfg.url, cfg.jobs);
    let games: Arc<Games> = Arc::default();
    let permits = Arc::new(tokio::sync::Semaphore::new(cfg.jobs.max(1)));
    let cfg = Arc::new(cfg);
    loop {
        let mut batch =
            match consumer.fetch().max_messages(cfg.jobs.max(1) + 1).expires(Duration::from_secs(2)).messages().await {
                Ok(b) => b,
                Err(e) => {
                    tracing::warn!("fetching jobs: {e}; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
        while let Some(m) = batch.next().await {
            let Ok(m) = m else { continue };
            // A job of another protocol version is not taken: handed back at once for a worker of its
            // version, and this worker stops, saying why (it would misread every such job).
            let version = super::protocol_of(m.headers.as_ref());
            if !super::speaks_ours(&version) && (version.is_some() || super::jobs_in(&m.payload).is_some()) {
                let _ = m.ack_with(async_nats::jetstream::AckKind::Nak(None)).await;
                let why = super::protocol_mismatch("A coordinator's job on the queue", version);
                return Err(ClusterError::Other(format!("worker {name}: refused: {why}")));
            }
            let Some(jobs) = super::jobs_in(&m.payload) else {
                // Not a job nor a batch of them: nobody can play it.
                let _ = m.ack_with(async_nats::jetstream::AckKind::Term).await;
                continue;
            };
            // Still at it, from the moment the message is here (it may wait for a free slot): the queue
            // hears so a few times per ack wait, and the coordinators (who show how many workers are
            // busy) when the job is taken and every few seconds after.
            let beat = heartbeat(&nats, &m, &jobs, &name, cfg.ack_wait);
            let permit = permits.clone().acquire_owned().await.map_err(|e| ClusterError::Other(e.to_string()))?;
            let (nats, files, games, cfg, name) =
                (nats.clone(), files.clone(), games.clone(), cfg.clone(), name.clone());
            tokio::spawn(async move {
                let delivered = m.info().map(|i| i.delivered).unwrap_or(1);
                // A batch's games one after the other (the permit is the message's), each its own outcome.
                let mut dones = Vec::with_capacity(jobs.len());
                for job in &jobs {
                    let outcome = match play(&cfg, &files, &games, job).await {
                        Ok(o) => Ok(o),
                        // Tried again later (by any worker), the whole message, while deliveries remain;
                        // the last one reports it.
                        Err(Fetch::Transient(why)) if delivered < MAX_DELIVER => {
                            tracing::warn!("game {}: {why}; handing it back", job.game);
                            beat.abort();
                            let _ = m.ack_with(async_nats::jetstream::AckKind::Nak(Some(Duration::from_secs(1)))).await;
                            return;
                        }
                        Err(f) => Err(f.to_string()),
                    };
                    dones.push(Done { game: job.game.clone(), key: job.key(), outcome, worker: name.clone() });
                    // Between games, the heartbeat and the connection get their turn on this thread.
                    tokio::task::yield_now().await;
                }
                // The next message's games may start while these outcomes travel (the heartbeat goes
                // on until the message is acked).
                drop(permit);
                // Deduplicated per published message: a redelivered message's outcomes are stored once,
                // a job published again (by a coordinator resuming) gets its own.
                let sequence = m.info().map(|i| i.stream_sequence).unwrap_or_default();
                // Published (and stored) before the message is acked: a worker dying in between has the
                // games played again, and the coordinator takes the first outcome of each.
                publish_outcomes(&nats, &jobs, dones, sequence).await;
                let _ = m.double_ack().await;
                beat.abort();
            });
        }
    }
}

/// Tells the queue every quarter of the ack wait (at most every 4 s) that `m`'s games are still being
/// played, and the coordinators that this worker is busy, until aborted. A worker killed stops telling,
/// and its games go to another one ack wait later.
fn heartbeat(
    nats: &Nats,
    m: &async_nats::jetstream::Message,
    jobs: &[Job],
    name: &str,
    ack_wait: Duration,
) -> tokio::task::JoinHandle<()> {
    let (m, client) = (m.clone(), nats.client.clone());
    let run = jobs[0].reply.trim_start_matches("arena.results.");
    let news = super::busy_payload(name, &format!("{run}/{}", jobs[0].game));
    let every = (ack_wait / 4).min(Duration::from_secs(4));
    tokio::spawn(async move {
        loop {
            let _ = client.publish(BUSY_SUBJECT, news.clone().into()).await;
            tokio::time::sleep(every).await;
            let _ = m.ack_with(async_nats::jetstream::AckKind::Progress).await;
        }
    })
}

/// Publishes a message's outcomes on their reply subjects: a batch's in one message where they fit,
/// else each on its own; an outcome too large for the server goes back as that game's failure, which
/// always fits.
async fn publish_outcomes(nats: &Nats, jobs: &[Job], dones: Vec<Done>, sequence: u64) {
    // By reply subject, in the batch's order (a coordinator's batch has one).
    let mut by_reply: Vec<(&str, Vec<Done>)> = vec![];
    for (job, done) in jobs.iter().zip(dones) {
        match by_reply.iter_mut().find(|(r, _)| *r == job.reply) {
            Some((_, group)) => group.push(done),
            None => by_reply.push((&job.reply, vec![done])),
        }
    }
    for (reply, group) in by_reply {
        if group.len() > 1 {
            let id = format!("{reply}/{}/{sequence}/{}", group[0].game, group.len());
            if let Ok(payload) = super::dones_message(&group)
                && nats.publish_stored(reply, &id, payload.into()).await.is_ok()
            {
                continue;
            }
        }
        for mut done in group {
            let id = format!("{reply}/{}/{sequence}", done.game);
            let sent = match super::dones_message(std::slice::from_ref(&done)) {
                Ok(payload) => nats.publish_stored(reply, &id, payload.into()).await,
                Err(why) => Err(why),
            };
            if let Err(why) = sent {
                done.outcome = Err(format!("its outcome could not be sent back: {why}"));
                let payload = super::dones_message(std::slice::from_ref(&done)).unwrap_or_default();
                let _ = nats.publish_stored(reply, &id, payload.into()).await;
            }
        }
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname").map(|s| s.trim().to_string()).unwrap_or_else(|_| "worker".into())
}

/// Plays a job: the outcome, or why it cannot be played (for good, or for now).
async fn play(
    cfg: &WorkerConfig,
    files: &async_nats::jetstream::object_store::ObjectStore,
    games: &Games,
    job: &Job,
) -> Result<arena_core::GameOutcome, Fetch> {
    let ready = package(cfg, files, games, job).await?;
    let game = &ready.game;
    let mut entries = vec![];
    for p in &job.players {
        let player = match (&p.builtin, &p.component) {
            (Some(b), _) => {
                game.builtin(b).ok_or_else(|| Fetch::Missing(format!("{}: no sample player `{b}`", game.name())))?
            }
            (None, Some(hash)) => {
                let kept = ready.players.lock().unwrap_or_else(|e| e.into_inner()).get(hash).cloned();
                match kept {
                    Some(player) => player,
                    None => {
                        let path =
                            fetch(files, &component_key(hash), &DataDir::new(&cfg.dir).component(hash), hash).await?;
                        let g = game.clone();
                        let player = tokio::task::spawn_blocking(move || g.load(&path).map(|(_, p)| p))
                            .await
                            .map_err(|e| Fetch::Transient(e.to_string()))?
                            .map_err(|e| Fetch::Missing(format!("component {hash} ({}): {e}", p.name)))?;
                        let mut kept = ready.players.lock().unwrap_or_else(|e| e.into_inner());
                        if kept.len() >= KEPT_PLAYERS {
                            kept.clear();
                        }
                        kept.insert(hash.clone(), player.clone());
                        player
                    }
                }
            }
            (None, None) => return Err(Fetch::Missing(format!("{}: the job names no component", p.name))),
        };
        entries.push(Arc::new(Entry {
            name: p.name.clone(),
            source: String::new(),
            hash: p.component.clone(),
            player,
        }));
    }
    let setup = GameSetup {
        id: job.game.clone(),
        seed: job.seed,
        players: entries,
        so_far: job.so_far.clone(),
        // Never the drawings and seats' views: nobody is shown a remote game's end as it is played.
        finals: if job.finals == Finals::Result { Finals::Result } else { Finals::Board },
    };
    Ok(game.play(setup).await)
}

/// A file from the object store, kept at `to` (checked against its sha256 when `hash` is one).
async fn fetch(
    files: &async_nats::jetstream::object_store::ObjectStore,
    key: &str,
    to: &Path,
    hash: &str,
) -> Result<PathBuf, Fetch> {
    if to.is_file() {
        return Ok(to.to_path_buf());
    }
    let bytes = super::get(files, key).await?;
    if hash.len() == 64 && arena_core::sha256_hex(&bytes) != hash {
        return Err(Fetch::Missing(format!("{key}: the stored bytes do not have the sha256 they are named by")));
    }
    // This worker's own disk: another worker may do better.
    let local = |e: std::io::Error, p: &Path| Fetch::Transient(format!("{}: {e}", p.display()));
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| local(e, parent))?;
    }
    arena_core::write_atomically(to, &bytes).map_err(|e| local(e, to))?;
    Ok(to.to_path_buf())
}

/// The job's package, fetched and loaded once per worker (per options and limits).
async fn package(
    cfg: &WorkerConfig,
    files: &async_nats::jetstream::object_store::ObjectStore,
    games: &Games,
    job: &Job,
) -> Result<Arc<Ready>, Fetch> {
    let gone = Fetch::Missing;
    let limits = serde_json::to_string(&job.limits).unwrap_or_default();
    let key = (job.package.clone(), job.options.clone(), limits);
    if let Some(g) = games.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(g.clone());
    }
    if job.package.len() != 64 || !job.package.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(gone(format!("`{}` is not a package's sha256", job.package)));
    }
    let dir = DataDir::new(&cfg.dir).package(&job.package);
    for f in &job.files {
        let rel = Path::new(f);
        if rel.is_absolute() || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(gone(format!("package {}: `{f}` is not a path inside a package", job.package)));
        }
        fetch(files, &package_key(&job.package, f), &dir.join(rel), "").await?;
    }
    let sandbox = Sandbox::new(job.limits)
        .map_err(|e| Fetch::Transient(e.to_string()))?
        .with_compiler(arena_sandbox::Compiler::Child(cfg.exe.clone()), cfg.compile)
        .with_cache_dir(DataDir::new(&cfg.dir).compiled());
    let (d, options) = (dir.clone(), job.options.clone());
    let game = tokio::task::spawn_blocking(move || -> Result<PackageGame, String> {
        let mut pkg = Package::load(Arc::new(sandbox), &d).map_err(|e| e.to_string())?;
        pkg.set_options(&options).map_err(|e| e.to_string())?;
        PackageGame::new(pkg).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| Fetch::Transient(e.to_string()))?
    .map_err(gone)?;
    if game.referee_hash().as_deref() != Some(job.package.as_str()) {
        return Err(gone(format!("package {}: its referee has another sha256", job.package)));
    }
    let ready = Arc::new(Ready { game: Arc::new(game), players: Mutex::default() });
    games.lock().unwrap_or_else(|e| e.into_inner()).insert(key, ready.clone());
    Ok(ready)
}

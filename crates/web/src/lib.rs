//! `arena serve`: the web arena. One process serves pages rendered on the server (askama, escaped by
//! default), a JSON API under `/api/`, server-sent events for live tournaments, and its scripts and
//! styles embedded in the binary (no front-end build, no CDN). It reads and writes the same results
//! store as the command line; uploads go through the same validation as `arena submit`, in a bounded
//! pool.

mod account;
mod api;
mod api_types;
mod auth;
mod caches;
mod candidates;
mod catalogue;
mod competitions;
mod error;
mod forks;
mod forms;
mod games;
mod ladders;
mod layout;
mod live;
mod metrics;
mod players;
mod publish;
mod replays;
mod routes;
mod scrimmages;
mod sparring;
mod tournaments;
mod uploads;
mod view;

use arena_net::{conn, fair};
pub(crate) use caches::*;
pub use catalogue::SUSPEND_AFTER;
pub use replays::{ReplayData, standalone_html};
pub use routes::router;

use arena_core::Limits;
use arena_service::engine::Sandbox;
use arena_service::packages::PackageGame;
use arena_service::store::Store;
use error::WebError;
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How `arena serve` runs.
#[derive(Debug, Clone)]
pub struct Config {
    pub data: PathBuf,
    pub listen: SocketAddr,
    /// The limits every game played here runs under (validation games, tournaments, scrimmages).
    pub limits: Limits,
    /// Largest upload accepted, in bytes.
    pub max_upload: usize,
    /// Uploads one account may make in an hour.
    pub uploads_per_hour: usize,
    /// Uploads validated at once (compiles run in child processes; games on the runtime).
    pub upload_workers: usize,
    /// Behind a reverse proxy: a client's address is the last one in `X-Forwarded-For` (for the
    /// per-client caps), and connections are not capped per address (they all come from the proxy).
    pub trust_proxy: bool,
    /// Who may publish games here.
    pub publishers: Publishers,
    /// Game versions one account may publish in a day.
    pub publishes_per_day: u32,
    /// The arena's address as its visitors reach it (invitation links).
    pub public_url: Option<String>,
    /// Cookies are sent over TLS only.
    pub secure_cookies: bool,
    /// How candidate uploads are judged: the test's Elo bounds and the most games one plays.
    pub candidates: arena_service::candidate::stored::Judging,
    /// Components compiled once the server listens, for uploads to share their code (`--warm`).
    pub warm: Vec<PathBuf>,
}

/// Who may publish a game to the arena (`arena serve --publishers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Publishers {
    /// Admins only.
    Admins,
    /// Every signed-in account.
    #[default]
    Everyone,
}

/// The most packages a server keeps open (each holds its compiled referee).
const MAX_GAMES: usize = 32;
/// The most packed packages and templates kept for download, and their bytes in all.
const MAX_PACKED: usize = 32;
const MAX_PACKED_BYTES: u64 = 64 << 20;

/// What every request shares.
pub struct App {
    pub cfg: Config,
    sandbox: Arc<Sandbox>,
    /// Packages loaded lately, by directory ([`MAX_GAMES`] of them: every published version is a
    /// directory of its own, and an old one is opened again when a replay needs it).
    games: Mutex<caches::Lru<PathBuf, Arc<PackageGame>>>,
    /// The bounded validation pool.
    uploads: tokio::sync::Semaphore,
    /// The optimised compile of a version validated as quick code, running in the background: one at a
    /// time; past that an accepted version's first game compiles it.
    play_compiles: Arc<tokio::sync::Semaphore>,
    /// Recent uploads per account, for the rate limit.
    recent: Mutex<HashMap<i64, VecDeque<Instant>>>,
    /// The candidates being judged here (each by one task).
    judging: Mutex<std::collections::HashSet<i64>>,
    /// Replays re-run through a referee at once (each is a referee instance and some CPU).
    replays: tokio::sync::Semaphore,
    /// Live streams open, per client and in all (each polls the store a few times a second).
    live: conn::PerClient,
    /// Open read connections to the store, reused (opening one costs more than most pages).
    readers: Arc<Mutex<Vec<Store>>>,
    /// Each client's turns at the store, and the slow lane for clients past their share (see [`fair`]).
    turns: fair::Turns,
    slow: fair::SlowLane,
    /// Leaderboards by game, with the store generation they were computed at.
    boards: Arc<Boards>,
    /// Each game's ratings and records as of the last leaderboard, brought up to date game by game.
    ratings: Arc<Ratings>,
    /// Tournament pages' parts by tournament, with the progress they show.
    pub(crate) views: Mutex<HashMap<i64, Cached<view::Key, view::Rendered>>>,
    /// Pages as every visitor who is not signed in sees them, rendered once and served as the same
    /// bytes for [`PAGE_FRESH`] (see [`App::anonymous`]).
    pages: Mutex<HashMap<String, (Instant, bytes::Bytes)>>,
    /// Where its tournaments, scrimmages and ladders are played: here, or by workers (`--nats`).
    venue: arena_service::venue::Venue,
    /// The games offered: shipped and published.
    pub(crate) catalogue: Arc<catalogue::Catalogue>,
    /// Packages and templates packed for download, by package directory and what was packed (a
    /// package directory never changes: a new version is a new directory), the latest asked for
    /// kept up to [`MAX_PACKED`] of them and [`MAX_PACKED_BYTES`].
    packed: Mutex<caches::Lru<(PathBuf, String), bytes::Bytes>>,
    /// The languages each package has starters in, found once per package (the latest
    /// [`caches::MAX_CACHED`] packages asked for).
    starters: Mutex<caches::Lru<PathBuf, Vec<String>>>,
    /// What `/metrics` shows.
    pub(crate) metrics: metrics::Metrics,
    /// The ladders running in this server, by game.
    ladders: ladders::Ladders,
    /// The workers seen lately (with `--nats`), watched once the server runs.
    workers: std::sync::OnceLock<arena_service::venue::Workers>,
}

impl arena_net::Proxied for App {
    fn trust_proxy(&self) -> bool {
        self.cfg.trust_proxy
    }
}

impl App {
    /// The web arena's shared state; its tournaments are played at `venue` (by workers with `--nats`).
    pub fn new(cfg: Config, sandbox: Arc<Sandbox>, venue: arena_service::venue::Venue) -> Arc<App> {
        let workers = cfg.upload_workers.max(1);
        let catalogue = Arc::new(catalogue::Catalogue::load(&cfg.data));
        Arc::new(App {
            cfg,
            sandbox,
            games: Mutex::new(caches::Lru::new(MAX_GAMES)),
            uploads: tokio::sync::Semaphore::new(workers),
            play_compiles: Arc::new(tokio::sync::Semaphore::new(1)),
            recent: Mutex::default(),
            judging: Mutex::default(),
            replays: tokio::sync::Semaphore::new(4),
            live: conn::PerClient::new(LIVE_STREAMS),
            readers: Arc::default(),
            turns: fair::Turns::for_this_machine(),
            slow: fair::SlowLane::new(std::thread::available_parallelism().map_or(1, |n| n.get())),
            boards: Arc::default(),
            ratings: Arc::default(),
            views: Mutex::default(),
            pages: Mutex::default(),
            venue,
            catalogue,
            packed: Mutex::new(caches::Lru::weighed(MAX_PACKED, MAX_PACKED_BYTES, |b| b.len() as u64)),
            starters: Mutex::new(caches::Lru::new(caches::MAX_CACHED)),
            metrics: metrics::Metrics::new(),
            ladders: Mutex::default(),
            workers: std::sync::OnceLock::new(),
        })
    }

    fn data(&self) -> &Path {
        &self.cfg.data
    }

    /// The page at `path` as a visitor who is not signed in sees it (the same for all of them): the
    /// bytes rendered at most [`PAGE_FRESH`] ago, or `None` for a signed-in viewer or a page not
    /// rendered lately (render it, and keep it with [`App::keep_anonymous`]). Under many visitors a
    /// page is rendered a few times a second, not once a request.
    pub(crate) fn anonymous(&self, viewer: &auth::Viewer, path: &str) -> Option<axum::response::Response> {
        if viewer.0.is_some() {
            return None;
        }
        let pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        let (at, bytes) = pages.get(path)?;
        (at.elapsed() < PAGE_FRESH)
            .then(|| axum::response::IntoResponse::into_response(axum::response::Html(bytes.clone())))
    }

    /// Serves `page`, rendered for `viewer`, and keeps it for the next visitors not signed in when
    /// `viewer` is one of them.
    pub(crate) fn keep_anonymous(&self, viewer: &auth::Viewer, path: String, page: String) -> axum::response::Response {
        let bytes = bytes::Bytes::from(page);
        if viewer.0.is_none() {
            let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
            // Kept only while fresh: the map holds the pages visited in the last moments, not every
            // page ever visited.
            if pages.len() >= MAX_PAGES {
                pages.retain(|_, (at, _)| at.elapsed() < PAGE_FRESH);
            }
            if pages.len() < MAX_PAGES {
                pages.insert(path, (Instant::now(), bytes.clone()));
            }
        }
        axum::response::IntoResponse::into_response(axum::response::Html(bytes))
    }

    /// Reads the store on the blocking pool (or in the slow lane, for a client past its share), with a
    /// pooled connection, in the asking client's turn (held until the read ends, even if the request is
    /// dropped before).
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> arena_service::store::Result<T> + Send + 'static,
    ) -> Result<T, WebError> {
        let dir = self.cfg.data.clone();
        let pool = self.readers.clone();
        let turn = self.turns.wait().await;
        let slow = turn.as_ref().is_some_and(|t| t.slow);
        let job = move || {
            let _turn = turn;
            let taken = pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let store = match taken {
                Some(s) => s,
                None => Store::open_to_read(&dir)?,
            };
            let r = f(&store);
            let mut pool = pool.lock().unwrap_or_else(|e| e.into_inner());
            if pool.len() < 16 {
                pool.push(store);
            }
            r
        };
        let done = if slow {
            self.slow.run(job).await.map_err(WebError::internal)?
        } else {
            tokio::task::spawn_blocking(job).await.map_err(|e| WebError::internal(e.to_string()))?
        };
        done.map_err(WebError::from)
    }

    /// A game's leaderboard, computed again only when the store has changed since, from the ratings kept
    /// up to date game by game (only the games recorded since are read).
    async fn leaderboard(&self, game: &str) -> Result<Arc<Vec<arena_service::store::Leader>>, WebError> {
        let (cache, g, system) = (self.boards.clone(), game.to_string(), self.catalogue.system(game));
        // A board at most FRESH old is served as it is, without asking the store what changed.
        if let Some(rows) = fresh(&cache, &g) {
            return Ok(rows);
        }
        let ratings = self.ratings.clone();
        self.read(move |s| {
            let generation = s.generation()?;
            if let Some(rows) = cached(&cache, &g, &generation) {
                return Ok(rows);
            }
            let rows = Arc::new(with_board(&ratings, &g, system, |b| s.leaders(&g, b, true))?);
            put(&cache, g, generation, rows.clone());
            Ok(rows)
        })
        .await
    }

    /// Rates every stored game of each listed game into its kept board (a million games take seconds:
    /// done when the server starts rather than by the first visitor).
    async fn warm_boards(&self) {
        for game in self.catalogue.listed() {
            let (g, system, ratings) =
                (game.manifest.name.clone(), self.catalogue.system(&game.manifest.name), self.ratings.clone());
            if let Err(e) =
                self.read(move |s| with_board(&ratings, &g, system, |b| s.leaders(&g, b, true)).map(drop)).await
            {
                tracing::warn!("the ratings of {}: {}", game.manifest.name, e.message);
            }
        }
    }

    /// Writes the store on the blocking pool, in the asking client's turn.
    async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> arena_service::store::Result<T> + Send + 'static,
    ) -> Result<T, WebError> {
        let dir = self.cfg.data.clone();
        let turn = self.turns.wait().await;
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            f(&mut Store::open(&dir)?)
        })
        .await
        .map_err(|e| WebError::internal(e.to_string()))?
        .map_err(WebError::from)
    }

    /// The store's copy of the package in `dir` (`packages/<referee sha256>/`, made if missing, on the
    /// blocking pool): what a tournament recorded here plays, and resumes and replays with.
    async fn kept(&self, dir: &Path) -> Result<PathBuf, WebError> {
        let (data, from) = (self.data().to_path_buf(), dir.to_path_buf());
        tokio::task::spawn_blocking(move || arena_service::packages::keep(&data, &from))
            .await
            .map_err(|e| WebError::internal(e.to_string()))?
            .map_err(|e| WebError::internal(format!("{e:#}")))
    }

    /// The package in `dir`, loaded once (with its default options).
    async fn game_in(&self, dir: PathBuf) -> Result<Arc<PackageGame>, WebError> {
        if let Some(g) = self.games.lock().unwrap_or_else(|e| e.into_inner()).get(&dir) {
            return Ok(g);
        }
        let game = arena_service::packages::open(self.sandbox.clone(), &dir, &[])
            .await
            .map_err(|e| WebError::internal(format!("{e:#}")))?;
        let game = Arc::new(game);
        Ok(self.games.lock().unwrap_or_else(|e| e.into_inner()).insert(dir, game))
    }

    /// A package (`what` = "package") or its templates for a language (`templates/LANG`), packed once
    /// per process.
    async fn packed(&self, dir: &Path, what: &str) -> Result<bytes::Bytes, WebError> {
        let key = (dir.to_path_buf(), what.to_string());
        if let Some(b) = self.packed.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(b);
        }
        let (d, w) = key.clone();
        let bytes = tokio::task::spawn_blocking(move || match w.strip_prefix("templates/") {
            None => arena_service::archive::pack(&d),
            Some(lang) => arena_service::archive::pack_templates(&d, lang),
        })
        .await
        .map_err(|e| WebError::internal(e.to_string()))?
        .map_err(WebError::internal)?;
        let bytes = bytes::Bytes::from(bytes);
        Ok(self.packed.lock().unwrap_or_else(|e| e.into_inner()).insert(key, bytes))
    }

    /// The languages a package has starters in (its author's templates, and those generated from its
    /// WIT), found once per process: the WIT is read once, not for every view of the game's page.
    async fn starter_languages(&self, dir: &Path) -> Result<Vec<String>, WebError> {
        if let Some(langs) = self.starters.lock().unwrap_or_else(|e| e.into_inner()).get(dir) {
            return Ok(langs);
        }
        let d = dir.to_path_buf();
        let langs = tokio::task::spawn_blocking(move || arena_service::starter::languages(&d))
            .await
            .map_err(|e| WebError::internal(e.to_string()))?;
        Ok(self.starters.lock().unwrap_or_else(|e| e.into_inner()).insert(dir.to_path_buf(), langs))
    }

    /// Takes one of the account's uploads this hour, or says when the next one is allowed.
    fn take_upload(&self, user: i64) -> Result<(), WebError> {
        self.take_slots(user, 1).map_err(|wait| {
            WebError::too_many(format!(
                "at most {} uploads an hour per account (candidates' games count too); the next one in {} s",
                self.cfg.uploads_per_hour,
                wait.as_secs() + 1
            ))
        })
    }

    /// Takes `n` of `user`'s uploads for the hour (an upload, scrimmage or fork is one; a candidate's
    /// game is one), or says how long until there is room for them.
    fn take_slots(&self, user: i64, n: usize) -> Result<(), Duration> {
        let hour = Duration::from_secs(3600);
        let now = Instant::now();
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let q = recent.entry(user).or_default();
        while q.front().is_some_and(|t| now.duration_since(*t) >= hour) {
            q.pop_front();
        }
        if q.len() + n > self.cfg.uploads_per_hour {
            // Room for `n` once the oldest ones that stand in the way are an hour old.
            let blocking = (q.len() + n).saturating_sub(self.cfg.uploads_per_hour).max(1);
            let wait = q.get(blocking - 1).map(|t| hour.saturating_sub(now.duration_since(*t))).unwrap_or(hour);
            return Err(wait);
        }
        q.extend(std::iter::repeat_n(now, n));
        Ok(())
    }
}

/// Live streams served at once, from one client and in all; past that a page is told to retry later
/// (it still loads, not live).
const LIVE_STREAMS: conn::Caps = conn::Caps { per_address: 8, total: 256 };

/// Serves until Ctrl-C.
pub async fn serve(app: Arc<App>) -> anyhow::Result<()> {
    use anyhow::Context;
    let listen = app.cfg.listen;
    let listener =
        tokio::net::TcpListener::bind(listen).await.with_context(|| format!("--listen {listen}: cannot listen"))?;
    let local = listener.local_addr().context("listening")?;
    let mut caps = conn::Caps::under(conn::raise_descriptor_limit());
    let per_address = !app.cfg.trust_proxy;
    if !per_address {
        caps.per_address = caps.total;
    }
    eprintln!("Arena serves {} on http://{local}/ (Ctrl-C stops it)", app.cfg.data.display());
    tracing::info!("at most {} connections, {} from one address", caps.total, caps.per_address);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let arena_service::venue::Venue::Workers(nats) = &app.venue {
        let _ = app.workers.set(nats.watch_workers().await.context("watching the workers")?);
    }
    // Competitions' deadlines: each final started once, an interrupted one resumed.
    tokio::spawn(competitions::scheduler(app.clone()));
    // Candidates under test when the server last stopped: judged on from where they stopped.
    tokio::spawn(candidates::resume(app.clone()));
    let warm = app.clone();
    tokio::spawn(async move { warm.warm_boards().await });
    arena_service::compiled::warm_in_background(app.sandbox.clone(), &app.cfg.data, &app.cfg.warm);
    conn::serve(listener, router(app), caps, per_address, shutdown).await.context("serving")
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_service::tournaments::ratings::System;

    #[test]
    fn each_game_has_a_board_of_its_own_behind_its_own_lock() {
        let ratings = Ratings::default();
        let nim = board_of(&ratings, "nim", System::Glicko2);
        let held = lock_board(&nim, System::Glicko2);
        // Another game's board is not behind the held one's lock.
        let fish = board_of(&ratings, "fish", System::Glicko2);
        assert!(fish.try_lock().is_ok(), "a game's board waits on another game's");
        assert!(Arc::ptr_eq(&nim, &board_of(&ratings, "nim", System::Glicko2)), "one board a game");
        drop(held);
        // A board kept under another rating system starts again under the one asked for.
        assert_eq!(lock_board(&nim, System::WengLin).system(), System::WengLin);
    }
}

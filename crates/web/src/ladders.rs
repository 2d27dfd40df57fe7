//! Ladders from the web: an admin starts a game's ladder on the server (its games played here, or by
//! the workers with `--nats`), pauses it and resumes it; it goes on with what it was started with (its
//! package's copy, limits and options), as `arena ladder` does. A running ladder has a thread and a
//! runtime of its own (the ladder holds its store across its games).

use super::App;
use super::auth::SignedIn;
use super::error::WebError;
use arena_core::Game;
use arena_service::ladder::{self, Begin, LadderConfig};
use arena_service::packages;
use arena_service::store::Store;
use arena_service::tournaments::seed_or_clock;
use axum::extract::{Form, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A ladder running in this server.
pub struct Running {
    pub id: i64,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Arc<AtomicBool>,
}

/// The ladders running here, by game.
pub type Ladders = Mutex<HashMap<String, Running>>;

/// Games a ladder plays at once here by default, and its runtime's threads.
const PARALLEL: usize = 2;

/// A running ladder of a published game asks whether to suspend it every so many games.
const JUDGE_EVERY: u64 = 20;

#[derive(serde::Deserialize)]
pub struct LadderForm {
    csrf: String,
    game: String,
    /// `start` (or resume) or `pause`.
    action: String,
    /// Its settings for this run (`arena ladder`'s): games at once, the share of opponents drawn at
    /// random, the faults that bench a version, the games that settle a pair. Empty: the defaults.
    #[serde(default)]
    parallel: String,
    #[serde(default)]
    explore: String,
    #[serde(default)]
    max_faults: String,
    #[serde(default)]
    settle: String,
}

/// A ladder's settings when none are given: `PARALLEL` games at once, a tenth of the opponents drawn at
/// random, five faults bench a version, new versions looked for every second, a pair of versions
/// settled after `SETTLE` games together.
pub(crate) fn default_config() -> LadderConfig {
    LadderConfig {
        parallel: PARALLEL,
        games: None,
        explore: 0.1,
        max_faults: 5,
        poll: std::time::Duration::from_secs(1),
        settle: arena_service::ladder::SETTLE,
    }
}

impl LadderForm {
    /// The run's settings, each checked against its range.
    fn config(&self) -> Result<LadderConfig, WebError> {
        fn field<T: std::str::FromStr>(v: &str, default: T, what: &str) -> Result<T, WebError> {
            match v.trim() {
                "" => Ok(default),
                s => s.parse::<T>().map_err(|_| WebError::bad(format!("{what}: a number"))),
            }
        }
        let d = default_config();
        let cfg = LadderConfig {
            parallel: field(&self.parallel, d.parallel, "games at once")?,
            explore: field(&self.explore, d.explore, "the share of random opponents")?,
            max_faults: field(&self.max_faults, d.max_faults, "faults that bench a version")?,
            settle: field(&self.settle, d.settle, "games that settle a pair")?,
            ..d
        };
        cfg.check().map_err(WebError::bad)?;
        Ok(cfg)
    }
}

/// `POST /ladders` (admins): start, resume or pause a game's ladder.
pub async fn control(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Form(f): Form<LadderForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    if !session.user.admin {
        return Err(WebError::forbidden("only an admin starts or pauses a ladder"));
    }
    let id = match f.action.as_str() {
        "start" => start(&app, &f.game, &session.user, f.config()?).await?,
        "pause" => pause(&app, &f.game)?,
        other => {
            return Err(WebError::bad(format!("`{}`: start or pause", other.chars().take(40).collect::<String>())));
        }
    };
    Ok(Redirect::to(&format!("/tournaments/{id}")).into_response())
}

/// The ladder of `game` running here, if one is.
pub fn running(app: &App, game: &str) -> Option<i64> {
    let mut ladders = app.ladders.lock().unwrap_or_else(|e| e.into_inner());
    ladders.retain(|_, r| !r.done.load(Ordering::SeqCst));
    ladders.get(game).map(|r| r.id)
}

pub(crate) fn pause(app: &App, game: &str) -> Result<i64, WebError> {
    let mut ladders = app.ladders.lock().unwrap_or_else(|e| e.into_inner());
    let mut r = ladders.remove(game).ok_or_else(|| WebError::bad(format!("no ladder of {game} runs here")))?;
    if let Some(stop) = r.stop.take() {
        let _ = stop.send(());
    }
    Ok(r.id)
}

pub(crate) async fn start(
    app: &App,
    game: &str,
    by: &arena_service::store::User,
    cfg: LadderConfig,
) -> Result<i64, WebError> {
    if let Some(id) = running(app, game) {
        return Err(WebError::new(
            StatusCode::CONFLICT,
            format!("the ladder of {game} runs already (tournament {id})"),
        ));
    }
    let entry = app.catalogue.open(game)?;
    let data = app.data().to_path_buf();
    // A ladder goes on with its package's copy, limits and options; a new one starts from the game's,
    // under the arena's limits, as `arena ladder` does.
    let (d, g, limits) = (data.clone(), game.to_string(), app.cfg.limits);
    let begin = tokio::task::spawn_blocking(move || ladder::begin(&Store::open(&d)?, &d, &g, &entry.dir, limits, &[]))
        .await
        .map_err(|e| WebError::internal(e.to_string()))?
        .map_err(|e| WebError::internal(format!("{e:#}")))?;
    let Begin { dir, options, limits, row } = begin;
    let package =
        packages::open(app.sandbox.clone(), &dir, &options).await.map_err(|e| WebError::internal(format!("{e:#}")))?;
    let package = Arc::new(package);
    let id = match row {
        Some(row) => row.id,
        None => {
            let (p, by) = (package.clone(), by.clone());
            let (id, lock) = app.write(move |s| ladder::create(s, &p, seed_or_clock(None), limits, Some(&by))).await?;
            drop(lock);
            id
        }
    };
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let done = Arc::new(AtomicBool::new(false));
    let (d2, venue, finished) = (data.clone(), app.venue.clone(), done.clone());
    let name = package.name().to_string();
    let catalogue = app.catalogue.clone();
    std::thread::Builder::new()
        .name(format!("ladder-{name}"))
        .spawn(move || {
            let outcome = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(PARALLEL)
                .enable_all()
                .build()
                .map_err(anyhow::Error::from)
                .and_then(|rt| {
                    rt.block_on(async move {
                        let store = Store::open(&d2)?;
                        // Held while it plays: the ladder shows as running, and nobody else runs it.
                        let _lock = store.lock(id)?;
                        // Paused by an admin, or stopped because its game was suspended: every
                        // JUDGE_EVERY games, a published game whose referee keeps failing is.
                        let halt = Arc::new(tokio::sync::Notify::new());
                        let stop = {
                            let halt = halt.clone();
                            async move {
                                tokio::select! {
                                    _ = rx => {}
                                    _ = halt.notified() => {}
                                }
                            }
                        };
                        let played = std::sync::atomic::AtomicU64::new(0);
                        let observe = |e: arena_service::ladder::Event<'_>| {
                            if !matches!(e, arena_service::ladder::Event::Game(_)) {
                                return;
                            }
                            if !(played.fetch_add(1, Ordering::SeqCst) + 1).is_multiple_of(JUDGE_EVERY) {
                                return;
                            }
                            if let Ok(mut s) = Store::open(&d2) {
                                catalogue.judge(&mut s, &name);
                            }
                            if catalogue.find(&name).is_ok_and(|e| e.closed().is_some()) {
                                halt.notify_one();
                            }
                        };
                        ladder::run_at(&venue, (package, &dir, limits), &store, id, &cfg, observe, stop).await?;
                        if let Ok(mut s) = Store::open(&d2) {
                            catalogue.judge(&mut s, &name);
                        }
                        anyhow::Ok(())
                    })
                });
            if let Err(e) = outcome {
                tracing::error!("ladder {id}: {e:#}");
                eprintln!("ladder {id} stopped: {e:#}");
            }
            finished.store(true, Ordering::SeqCst);
        })
        .map_err(|e| WebError::internal(format!("starting the ladder: {e}")))?;
    app.ladders
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(game.to_string(), Running { id, stop: Some(tx), done });
    Ok(id)
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    axum::Router::new().route("/ladders", form_post(control))
}

//! What the site runs: uploads validated as `arena submit` validates them (in the bounded pool, under
//! a per-account rate limit), tournaments of the registered players started by admins, and
//! scrimmages (an unrated game of one's own player against another) started by any signed-in user.
//! Tournaments run on the server's runtime, every game recorded as it finishes.

use super::App;
use super::auth::Viewer;
use super::error::WebError;
use super::pages::{UploadFields, find_game};
use arena_core::Game;
use arena_match::{LoadPlayers, PackageGame};
use arena_service::submit::{Accepted, Refused, Submission};
use arena_service::tournaments::{check_settings, run_stored, seed_or_clock};
use arena_store::{StoredSettings, User, Version};
use arena_tournament::{Format, Settings};
use axum::extract::{Form, State};
use axum::response::{IntoResponse, Redirect, Response};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Validates and stores an upload by `user`.
pub async fn upload(app: &App, user: &User, f: UploadFields) -> Result<Accepted, WebError> {
    let (_, dir) = find_game(&f.game).map_err(|e| WebError::bad(e.message))?;
    let bytes = f.file.ok_or_else(|| WebError::bad("the upload has no `file`"))?;
    if f.name.is_empty() {
        return Err(WebError::bad("the upload has no `name`"));
    }
    arena_store::check_name(&f.name).map_err(|e| WebError::bad(format!("{e}; nothing was stored")))?;
    app.take_upload(user.id)?;
    let game = app.game_in(dir).await?;
    let permit = tokio::time::timeout(Duration::from_secs(120), app.uploads.acquire())
        .await
        .map_err(|_| {
            WebError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "the arena is busy validating other uploads; retry in a minute",
            )
        })?
        .map_err(|e| WebError::internal(e.to_string()))?;
    let s = Submission { name: &f.name, bytes: &bytes, label: &f.file_name, seed: 1 };
    let r = arena_service::submit::submit(game, app.data(), s, Some(user)).await;
    drop(permit);
    r.map_err(|e| match e {
        Refused::Store(arena_store::StoreError::NotOwner { .. }) => WebError::forbidden(e.to_string()),
        Refused::Store(_) | Refused::Game(_) => WebError::internal(e.to_string()),
        _ => WebError::new(axum::http::StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
    })
}

/// Plays a recorded tournament in the background (on the workers with `--nats`); its page follows it
/// live.
fn run_recorded(
    app: &App,
    (game, dir): (Arc<PackageGame>, PathBuf),
    (id, lock): (i64, arena_store::TournamentLock),
    versions: Vec<Version>,
    settings: Settings,
) {
    let data = app.data().to_path_buf();
    let limits = app.cfg.limits;
    let nats = app.nats.clone();
    tokio::spawn(async move {
        let run = async {
            match nats {
                Some(nats) => {
                    let options = arena_match::stored_options(&game.options())?;
                    let remote = arena_cluster::RemoteGame::new(nats, game, &dir, &options, limits).await?;
                    play_recorded(Arc::new(remote), &data, id, &versions, (limits, settings)).await
                }
                None => play_recorded(game, &data, id, &versions, (limits, settings)).await,
            }
        };
        if let Err(e) = run.await {
            tracing::error!("tournament {id}: {e:#}");
            eprintln!("tournament {id} stopped: {e:#} (`arena resume {id}` finishes it)");
        }
        drop(lock);
    });
}

async fn play_recorded<G: LoadPlayers>(
    game: Arc<G>,
    data: &Path,
    id: i64,
    versions: &[Version],
    (limits, settings): (arena_core::Limits, Settings),
) -> anyhow::Result<()> {
    let mut store = arena_store::Store::open(data)?;
    let entries = arena_service::versions::load_versions(&game, &store.components_dir(), versions).await?;
    let entrants = (entries, versions);
    // The server is not interrupted: a tournament it stops with is resumed by `arena resume`.
    run_stored(game, &mut store, id, entrants, limits, settings, std::future::pending()).await?;
    Ok(())
}

/// Records a tournament of `versions` and starts it.
async fn start(
    app: &App,
    game_name: &str,
    versions: Vec<Version>,
    (format, games_per_match, seed): (Format, u32, u64),
    (rated, by): (bool, User),
) -> Result<i64, WebError> {
    let (_, dir) = find_game(game_name)?;
    let data = app.data().to_path_buf();
    let kept = tokio::task::spawn_blocking(move || arena_match::keep(&data, &dir))
        .await
        .map_err(|e| WebError::internal(e.to_string()))?
        .map_err(|e| WebError::internal(format!("{e:#}")))?;
    let game = app.game_in(kept.clone()).await?;
    let stored = StoredSettings { limits: app.cfg.limits, options: game.options(), referee: game.referee_hash() };
    let name = game.name().to_string();
    let vs = versions.clone();
    let (id, lock) = app
        .write(move |s| {
            let id =
                s.create_tournament_as(&name, (format, games_per_match, seed), &stored, &vs, (rated, Some(&by)))?;
            Ok((id, s.lock(id)?))
        })
        .await?;
    run_recorded(app, (game, kept), (id, lock), versions, Settings::new(format, games_per_match, seed));
    Ok(id)
}

#[derive(serde::Deserialize)]
pub struct StartForm {
    csrf: String,
    game: String,
    format: String,
    games_per_match: Option<String>,
    seed: Option<String>,
}

/// `POST /tournaments` (admins): a tournament of every registered player of a game.
pub async fn start_tournament(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Form(f): Form<StartForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    if !session.user.admin {
        return Err(WebError::forbidden("only an admin can start a tournament"));
    }
    let (m, _) = find_game(&f.game)?;
    let format: Format = serde_json::from_value(serde_json::Value::String(f.format.clone()))
        .ok()
        .ok_or(())
        .map_err(|_| WebError::bad(format!("`{}` is not a format (knockout, round-robin, rounds)", f.format)))?;
    let k: u32 = match f.games_per_match.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => 1,
        Some(s) => s
            .parse()
            .ok()
            .filter(|k| (1..=99).contains(k))
            .ok_or_else(|| WebError::bad("games per match must be 1 to 99"))?,
    };
    let seed = match f.seed.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => seed_or_clock(None),
        Some(s) => s.parse().map_err(|_| WebError::bad(format!("`{s}` is not a seed (a whole number)")))?,
    };
    let g = m.name.clone();
    let versions: Vec<Version> =
        app.read(move |s| Ok(s.players(Some(&g))?.into_iter().map(|p| p.latest).collect())).await?;
    check_settings(&m.name, m.seats(), (format, k), versions.len()).map_err(WebError::bad)?;
    let id = start(&app, &m.name, versions, (format, k, seed), (true, session.user.clone())).await?;
    Ok(Redirect::to(&format!("/tournaments/{id}")).into_response())
}

#[derive(serde::Deserialize)]
pub struct ScrimmageForm {
    csrf: String,
    game: String,
    player: String,
    opponent: String,
}

/// `POST /scrimmages`: one unrated game of the user's player against another registered player.
pub async fn scrimmage(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Form(f): Form<ScrimmageForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    let id = scrimmage_of(&app, &session.user, &f.game, &f.player, &f.opponent).await?;
    Ok(Redirect::to(&format!("/tournaments/{id}")).into_response())
}

pub async fn scrimmage_of(app: &App, user: &User, game: &str, player: &str, opponent: &str) -> Result<i64, WebError> {
    let (m, _) = find_game(game)?;
    if !m.seats().contains(&2) {
        return Err(WebError::bad(format!("{} is not played by two: no scrimmages", m.name)));
    }
    if player == opponent {
        return Err(WebError::bad("a scrimmage needs two different players"));
    }
    let (g, p, o, u) = (m.name.clone(), player.to_string(), opponent.to_string(), user.clone());
    let versions = app
        .read(move |s| {
            if s.owner_of(&p)? != arena_store::Owner::Account(u) {
                return Ok(Err(WebError::forbidden(format!(
                    "`{p}` is not yours: a scrimmage plays one of your own players"
                ))));
            }
            let mine = s.latest_version(&g, &p)?;
            let theirs = s.latest_version(&g, &o)?;
            Ok(match (mine, theirs) {
                (Some(a), Some(b)) => Ok(vec![a, b]),
                _ => Err(WebError::not_found(format!("both players must be registered for {g}"))),
            })
        })
        .await??;
    app.take_upload(user.id)?;
    start(app, &m.name, versions, (Format::RoundRobin, 1, seed_or_clock(None)), (false, user.clone())).await
}

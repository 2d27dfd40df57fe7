//! Tournaments: the list, a tournament's page (standings, rounds, games; followed live), and starting
//! one (admins), as HTML and as JSON (`/api/tournaments`, `/api/tournaments/{id}`, `…/games`); every
//! tournament the site starts is recorded and run here (or on the workers) until it ends.

use super::api_types::*;
use super::auth::Viewer;
use super::error::ApiResult;
use super::error::WebError;
use super::layout::{Nav, html};
use super::players::games_page;
use super::{App, view};
use arena_core::Game;
use arena_service::packages::PackageGame;
use arena_service::store::{TournamentRow, User, Version};
use arena_service::tournaments::{Format, Settings};
use arena_service::tournaments::{NewTournament, create, play_stored_at, seed_or_clock};
use askama::Template;
use axum::Json;
use axum::extract::{Form, Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "tournaments.html")]
struct Tournaments {
    nav: Nav,
    live: String,
    rows: Vec<TournamentRow>,
    admin_csrf: Option<String>,
    games: Vec<String>,
    /// The games that settle a pair in a ladder, unless the admin says otherwise.
    settle: u32,
}

pub async fn tournaments_page(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    let mut rows = app.read(|s| s.tournaments()).await?;
    rows.reverse();
    let admin_csrf = viewer.0.as_ref().filter(|s| s.user.admin).map(|s| s.csrf.clone());
    let games = app.catalogue.listed().iter().map(|e| e.manifest.name.clone()).collect();
    let settle = arena_service::ladder::SETTLE;
    html(&Tournaments { nav: Nav::of(&viewer), live: String::new(), rows, admin_csrf, games, settle })
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct TournamentPage<'a> {
    nav: Nav,
    live: String,
    t: &'a TournamentRow,
    parts: &'a view::Rendered,
    /// An admin looking at a ladder: the form's token, and whether it runs in this server.
    ladder_control: Option<(String, bool)>,
    /// What a fork forks, whether it has been played and where it first differs.
    fork: Option<(arena_service::store::ForkOf, bool, Option<u32>)>,
}

#[derive(Template)]
#[template(path = "parts_standings.html")]
struct StandingsPart<'a> {
    view: &'a view::TournamentView,
}

#[derive(Template)]
#[template(path = "parts_rounds.html")]
struct RoundsPart<'a> {
    id: i64,
    view: &'a view::TournamentView,
}

#[derive(Template)]
#[template(path = "parts_winner.html")]
struct WinnerPart<'a> {
    winner: &'a Option<String>,
}

#[derive(Template)]
#[template(path = "parts_games.html")]
struct GamesPart<'a> {
    id: i64,
    view: &'a view::TournamentView,
}

/// A tournament as recorded so far, its parts rendered; computed again only when it has moved on.
pub async fn tournament_view(app: &App, id: i64) -> Result<Arc<view::Rendered>, WebError> {
    let (row, progress) = app.read(move |s| Ok((s.tournament(id)?, s.progress(id).ok()))).await?;
    let row = row.ok_or_else(|| WebError::not_found(format!("there is no tournament {id}")))?;
    let key: view::Key = (progress.unwrap_or_default(), row.status.as_str());
    if let Some(parts) = super::cached(&app.views, &id, &key) {
        return Ok(parts);
    }
    let ladder = row.kind == arena_service::store::Kind::Ladder;
    let (names, games, matches, records, bans) = app
        .read(move |s| {
            let names: Vec<String> = s.entrants(id)?.into_iter().map(|v| v.name).collect();
            // A ladder has no end: its latest games, and records counted by the database.
            if ladder {
                return Ok((names, s.latest_games(id, 200)?, vec![], Some(s.records_in(id)?), vec![]));
            }
            Ok((names, s.tournament_games(id)?, s.tournament_matches(id)?, None, s.lifecycle_bans(id)?))
        })
        .await?;
    let mut v = view::tournament(&row, &names, &games, &matches, &bans);
    if let Some(r) = records {
        v.standings = view::ladder_standings(r);
    }
    let parts = Arc::new(view::Rendered {
        standings: StandingsPart { view: &v }.render()?,
        rounds: RoundsPart { id, view: &v }.render()?,
        games: GamesPart { id, view: &v }.render()?,
        winner: WinnerPart { winner: &row.winner }.render()?,
        row,
        view: v,
    });
    super::put(&app.views, id, key, parts.clone());
    Ok(parts)
}

pub async fn tournament_page(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Response, WebError> {
    let path = format!("/tournaments/{id}");
    if let Some(page) = app.anonymous(&viewer, &path) {
        return Ok(page);
    }
    let parts = tournament_view(&app, id).await?;
    let t = &parts.row;
    let live = if t.status == arena_service::store::Status::Running {
        format!("/tournaments/{id}/live")
    } else {
        String::new()
    };
    let ladder_control = viewer
        .0
        .as_ref()
        .filter(|s| s.user.admin && t.kind == arena_service::store::Kind::Ladder)
        .map(|s| (s.csrf.clone(), super::ladders::running(&app, &t.game) == Some(t.id)));
    let fork = match &t.settings.fork {
        Some(of) => {
            let r = t.clone();
            let (played, at) = app.read(move |s| arena_service::fork::stored::diverged(s, &r)).await?;
            Some((of.clone(), played, at))
        }
        None => None,
    };
    let page = TournamentPage { nav: Nav::of(&viewer), live, t, parts: &parts, ladder_control, fork }.render()?;
    Ok(app.keep_anonymous(&viewer, path, page))
}

fn tournament_out(t: &arena_service::store::TournamentRow) -> TournamentOut {
    TournamentOut {
        id: t.id,
        game: t.game.clone(),
        format: t.kind.as_str().to_string(),
        games_per_match: t.games_per_match,
        seed: t.seed.to_string(),
        status: t.status.as_str().to_string(),
        started_at: t.started_at.clone(),
        finished_at: t.finished_at.clone(),
        winner: t.winner.clone(),
        players: t.players,
        games: t.games,
        rated: t.rated,
        started_by: t.started_by.clone(),
        fork: t.settings.fork.as_ref().map(|f| ForkOut {
            tournament: f.tournament,
            game: f.game.clone(),
            step: f.step,
            seat: f.seat,
            original: format!("/tournaments/{}/games/{}#step={}", f.tournament, f.game, f.step),
            played: false,
            diverged_at: None,
        }),
    }
}

/// Tournaments, ladders and scrimmages, newest first.
#[utoipa::path(get, path = "/api/tournaments", tag = "tournaments", params(Paging),
    responses((status = 200, body = TournamentsPage), (status = 400, body = ErrorBody)))]
pub async fn tournaments(State(app): State<Arc<App>>, Query(p): Query<Paging>) -> ApiResult<TournamentsPage> {
    let (limit, after) = p.checked()?;
    let rows = app.read(move |s| s.tournaments_page(after, limit)).await?;
    let next = next_page("/api/tournaments", limit, rows.len(), rows.last().map(|t| t.id));
    Ok(Json(TournamentsPage { tournaments: rows.iter().map(tournament_out).collect(), next }))
}

/// A tournament: its row, standings so far, bans and game faults (its games: `games`).
#[utoipa::path(get, path = "/api/tournaments/{id}", tag = "tournaments",
    params(("id" = i64, Path, description = "a tournament's id")),
    responses((status = 200, body = TournamentDetail), (status = 404, body = ErrorBody)))]
pub async fn tournament(State(app): State<Arc<App>>, Path(id): Path<i64>) -> ApiResult<TournamentDetail> {
    let parts = tournament_view(&app, id).await?;
    let result = app.read(move |s| s.result(id)).await?;
    let (row, view) = (&parts.row, &parts.view);
    let banned = result
        .as_ref()
        .map(|r| {
            r.banned
                .iter()
                .map(|b| BanOut {
                    player: b.player.clone(),
                    kind: b.kind.as_str().into(),
                    call: b.call.clone(),
                    reason: b.reason.clone(),
                    game: b.game.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut tournament = tournament_out(row);
    if let Some(f) = &mut tournament.fork {
        let r = row.clone();
        (f.played, f.diverged_at) = app.read(move |s| arena_service::fork::stored::diverged(s, &r)).await?;
    }
    Ok(Json(TournamentDetail {
        tournament,
        standings: view.standings.clone(),
        ranking: result.map(|r| r.ranking),
        banned,
        game_faults: view
            .game_faults
            .iter()
            .map(|f| GameFaultRowOut { game: f.game.clone(), call: f.call.clone(), reason: f.reason.clone() })
            .collect(),
        games: format!("/api/tournaments/{id}/games"),
    }))
}

/// A tournament's games, as played.
#[utoipa::path(get, path = "/api/tournaments/{id}/games", tag = "tournaments",
    params(("id" = i64, Path, description = "a tournament's id"), Paging),
    responses((status = 200, body = GamesPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn tournament_games(
    State(app): State<Arc<App>>,
    Path(id): Path<i64>,
    Query(p): Query<Paging>,
) -> ApiResult<GamesPage> {
    let (limit, after) = p.checked()?;
    let (known, rows) =
        app.read(move |s| Ok((s.tournament_exists(id)?, s.tournament_games_page(id, after, limit)?))).await?;
    if !known {
        return Err(WebError::not_found(format!("there is no tournament {id}")).into());
    }
    Ok(Json(games_page(&format!("/api/tournaments/{id}/games"), limit, rows)))
}

/// Records competition `competition`'s final of `versions` (once: nothing if it was recorded before)
/// and plays it.
pub(crate) async fn start_final(
    app: &App,
    competition: i64,
    dir: &std::path::Path,
    versions: Vec<Version>,
    settings: Settings,
) -> Result<(), WebError> {
    let kept = app.kept(dir).await?;
    let game = app.game_in(kept.clone()).await?;
    let (g, vs, limits) = (game.clone(), versions.clone(), app.cfg.limits);
    let made = app
        .write(move |s| {
            let stored = arena_service::store::StoredSettings {
                limits,
                options: g.options(),
                referee: g.referee_hash(),
                fork: None,
            };
            let Some(id) = s.create_final(competition, &stored, &vs)? else { return Ok(None) };
            Ok(Some((id, s.lock(id)?)))
        })
        .await?;
    if let Some((id, lock)) = made {
        run_recorded(app, (game, kept), (id, lock), versions, settings);
    }
    Ok(())
}

/// Plays on a stored tournament nobody is running (a restart interrupted it), from where it stopped:
/// as `arena resume` does, with the package it was played with.
pub(crate) async fn resume(app: &App, id: i64) -> Result<(), WebError> {
    let Ok(lock) = app.read(move |s| s.lock(id)).await else { return Ok(()) };
    let data = app.data().to_path_buf();
    let r = tokio::task::spawn_blocking(move || {
        arena_service::tournaments::to_resume(&arena_service::store::Store::open(&data)?, &data, id)
    })
    .await
    .map_err(|e| WebError::internal(e.to_string()))?
    .map_err(|e| WebError::internal(format!("{e:#}")))?;
    let game = arena_service::packages::open(app.sandbox.clone(), &r.package.dir, &r.package.options)
        .await
        .map_err(|e| WebError::internal(format!("{e:#}")))?;
    arena_service::tournaments::same_referee(&r.row, &game).map_err(|e| WebError::internal(format!("{e:#}")))?;
    let versions = app.read(move |s| s.entrants(id)).await?;
    run_recorded(app, (Arc::new(game), r.package.dir), (id, lock), versions, r.settings);
    Ok(())
}

/// Plays a recorded tournament in the background (where the arena's venue says: on the workers with
/// `--nats`); its page follows it live.
fn run_recorded(
    app: &App,
    (game, dir): (Arc<PackageGame>, PathBuf),
    (id, lock): (i64, arena_service::store::TournamentLock),
    versions: Vec<Version>,
    settings: Settings,
) {
    let data = app.data().to_path_buf();
    let limits = app.cfg.limits;
    let venue = app.venue.clone();
    let catalogue = app.catalogue.clone();
    let name = game.package().manifest.name.clone();
    tokio::spawn(async move {
        let run = async {
            let mut store = arena_service::store::Store::open(&data)?;
            // The server is not interrupted: a tournament it stops with is resumed when it starts again.
            let never = std::future::pending();
            play_stored_at(&venue, (game, &dir, limits), &mut store, id, &versions, settings, never).await
        };
        if let Err(e) = run.await {
            tracing::error!("tournament {id}: {e:#}");
            eprintln!("tournament {id} stopped: {e:#} (`arena resume {id}` finishes it)");
        }
        drop(lock);
        // A published game whose referee keeps failing is suspended.
        let judged = tokio::task::spawn_blocking(move || {
            arena_service::store::Store::open(&data).map(|mut s| catalogue.judge(&mut s, &name))
        });
        if let Ok(Err(e)) = judged.await {
            tracing::error!("tournament {id}: {e}");
        }
    });
}

/// Records a tournament of `versions` and starts it.
pub async fn start(
    app: &App,
    game_name: &str,
    versions: Vec<Version>,
    (format, games_per_match, seed): (Format, u32, u64),
    (rated, by): (bool, User),
) -> Result<i64, WebError> {
    let kept = app.kept(&app.catalogue.open(game_name)?.dir).await?;
    let game = app.game_in(kept.clone()).await?;
    let (g, vs, limits) = (game.clone(), versions.clone(), app.cfg.limits);
    let (id, lock) = app
        .write(move |s| {
            let kind = format.into();
            let t = NewTournament { kind, games_per_match, seed, versions: &vs, limits, rated, by: Some(&by) };
            create(s, &*g, t)
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
    super::auth::SignedIn(viewer): super::auth::SignedIn,
    Form(f): Form<StartForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    if !session.user.admin {
        return Err(WebError::forbidden("only an admin can start a tournament"));
    }
    let m = app.catalogue.open(&f.game)?.manifest;
    let format: Format = f.format.parse().map_err(WebError::bad)?;
    let k = match f.games_per_match.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => 1,
        Some(typed) => arena_core::parse_games_per_match(typed).map_err(WebError::bad)?,
    };
    let seed = match f.seed.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => seed_or_clock(None),
        Some(typed) => arena_core::parse_seed(typed).map_err(WebError::bad)?,
    };
    let (g, seats) = (m.name.clone(), m.seats());
    let versions = app
        .read(move |s| arena_service::tournaments::registered_entrants(s, (&g, seats), (format, k), None))
        .await?
        .map_err(WebError::bad)?;
    let id = start(&app, &m.name, versions, (format, k, seed), (true, session.user.clone())).await?;
    Ok(Redirect::to(&format!("/tournaments/{id}")).into_response())
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    use axum::routing::get;
    axum::Router::new()
        .route("/tournaments", get(tournaments_page).merge(form_post(start_tournament)))
        .route("/tournaments/{id}", get(tournament_page))
}

/// This resource's API routes, each with its OpenAPI operation.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    let r = r.routes(utoipa_axum::routes!(tournaments));
    let r = r.routes(utoipa_axum::routes!(tournament));
    r.routes(utoipa_axum::routes!(tournament_games))
}

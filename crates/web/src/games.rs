//! Games: the arena's front page (the games it offers) and a game's leaderboard, as HTML and as JSON
//! (`/api/games`, `/api/games/{game}/leaderboard`, `/api/games/{game}/game-faults`).

use super::App;
use super::api_types::*;
use super::auth::Viewer;
use super::catalogue::Entry;
use super::error::ApiResult;
use super::error::WebError;
use super::layout::{Nav, html};
use arena_service::store::Leader;
use askama::Template;
use axum::Json;
use axum::extract::{Path, State};
use axum::response::Response;
use std::sync::Arc;

pub struct GameRow {
    name: String,
    seats: String,
    registered: usize,
    description: String,
}

#[derive(Template)]
#[template(path = "index.html")]
struct Index {
    nav: Nav,
    live: String,
    games: Vec<GameRow>,
}

pub async fn index(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    let registered = app.read(|s| s.players_per_game()).await?;
    let games = app
        .catalogue
        .listed()
        .into_iter()
        .map(|e| e.manifest)
        .map(|m| GameRow {
            registered: registered.get(&m.name).copied().unwrap_or(0),
            seats: if m.min_seats == m.max_seats {
                format!("{}", m.min_seats)
            } else {
                format!("{} to {}", m.min_seats, m.max_seats)
            },
            description: m.description.clone(),
            name: m.name,
        })
        .collect();
    html(&Index { nav: Nav::of(&viewer), live: String::new(), games })
}

pub struct LeaderRow {
    /// The places its rating's interval allows: `3`, or `3–5`.
    rank: String,
    /// Its rating's interval at 95%.
    interval: String,
    name: String,
    version: u32,
    rating: String,
    deviation: String,
    games: u32,
    won: u32,
    lost: u32,
    tied: u32,
    faults: u32,
    submitted: String,
}

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct Leaderboard {
    nav: Nav,
    live: String,
    game: String,
    description: String,
    system: &'static str,
    rows: Vec<LeaderRow>,
    /// Games that ended in a game fault: how many, and the latest.
    game_faults: (i64, Vec<arena_service::store::GameFaultAt>),
    seats: String,
    /// The options: name, default, range, description.
    options: Vec<(String, i64, String, String)>,
    /// The sample players: the built-in opponents.
    samples: Vec<String>,
    /// The languages it has starter templates for.
    templates: Vec<String>,
    referee: String,
    /// Published here: its owner, its versions (the latest first), why it is not played now.
    owner: Option<String>,
    versions: Vec<arena_service::store::GameVersion>,
    closed: Option<String>,
    /// The operator hid it from the lists.
    hidden: bool,
}

pub async fn leaderboard_page(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Response, WebError> {
    let path = format!("/games/{game}");
    if let Some(page) = app.anonymous(&viewer, &path) {
        return Ok(page);
    }
    let entry = app.catalogue.find(&game)?;
    let m = entry.manifest.clone();
    let sys = app.catalogue.system(&game);
    let leaders: Arc<Vec<Leader>> = app.leaderboard(&game).await?;
    let rows = leaders
        .iter()
        .cloned()
        .map(|l| LeaderRow {
            rank: arena_service::tournaments::ratings::rank_text(l.rank_range),
            interval: {
                let (lo, hi) = l.rating.interval();
                format!("{lo:.0}–{hi:.0}")
            },
            rating: format!("{:.1}", l.rating.rating),
            deviation: format!("{:.1}", l.rating.deviation),
            games: l.games.won + l.games.lost + l.games.tied,
            won: l.games.won,
            lost: l.games.lost,
            tied: l.games.tied,
            faults: l.faults,
            submitted: l.submitted_at,
            version: l.version,
            name: l.name,
        })
        .collect();
    let g = game.clone();
    let game_faults = app.read(move |s| s.game_faults(&g, 10)).await?;
    let page = Leaderboard {
        nav: Nav::of(&viewer),
        live: String::new(),
        game,
        description: m.description.clone(),
        system: sys.name(),
        rows,
        game_faults,
        seats: seats(&m),
        options: m
            .options
            .iter()
            .map(|(k, o)| (k.clone(), o.default, format!("{} to {}", o.min, o.max), o.description.clone()))
            .collect(),
        samples: entry.samples(),
        templates: app.starter_languages(&entry.dir).await?,
        referee: entry.referee.clone(),
        owner: entry.published.as_ref().map(|p| p.owner.clone()),
        versions: entry.published.as_ref().map(|p| p.versions.iter().rev().cloned().collect()).unwrap_or_default(),
        closed: entry.closed(),
        hidden: entry.published.as_ref().is_some_and(|p| p.listing == arena_service::store::Listing::Hidden),
    }
    .render()?;
    Ok(app.keep_anonymous(&viewer, path, page))
}

fn seats(m: &arena_service::packages::Manifest) -> String {
    if m.min_seats == m.max_seats { format!("{}", m.min_seats) } else { format!("{} to {}", m.min_seats, m.max_seats) }
}

/// A game as the API shows it.
pub fn info(e: &Entry) -> GameInfo {
    let m = &e.manifest;
    let p = e.published.as_ref();
    GameInfo {
        name: m.name.clone(),
        description: m.description.clone(),
        min_seats: m.min_seats,
        max_seats: m.max_seats,
        options: m
            .options
            .iter()
            .map(|(k, o)| {
                let o = OptionInfo { default: o.default, min: o.min, max: o.max, description: o.description.clone() };
                (k.clone(), o)
            })
            .collect(),
        players: m.players.iter().map(|p| p.display().to_string()).collect(),
        referee: e.referee.clone(),
        owner: p.map(|p| p.owner.clone()),
        versions: p
            .map(|p| {
                p.versions
                    .iter()
                    .map(|v| GameVersionOut {
                        version: v.version,
                        referee: v.referee.clone(),
                        size: v.size,
                        published_by: v.published_by.clone(),
                        published_at: v.published_at.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        listing: p.map_or("listed", |p| p.listing.as_str()).to_string(),
        suspended: p.and_then(|p| p.suspended.clone()),
        package: format!("/api/games/{}/package", m.name),
    }
}

/// The games this arena offers: its own and those published to it (a hidden one is left out).
#[utoipa::path(get, path = "/api/games", tag = "games", responses((status = 200, body = [GameInfo])))]
pub async fn games(State(app): State<Arc<App>>) -> ApiResult<Vec<GameInfo>> {
    Ok(Json(app.catalogue.listed().iter().map(info).collect()))
}

/// One game, hidden or not: as in the list, with its published versions.
#[utoipa::path(get, path = "/api/games/{game}", tag = "games",
    params(("game" = String, Path, description = "a game's name")),
    responses((status = 200, body = GameInfo), (status = 404, body = ErrorBody)))]
pub async fn game(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult<GameInfo> {
    Ok(Json(info(&app.catalogue.find(&game)?)))
}

/// A game's leaderboard, as `arena leaderboard --json` prints it.
#[utoipa::path(get, path = "/api/games/{game}/leaderboard", tag = "games",
    params(("game" = String, Path, description = "a game's name")),
    responses((status = 200, body = [LeaderOut]), (status = 404, body = ErrorBody)))]
pub async fn leaderboard(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult<Vec<LeaderOut>> {
    app.catalogue.find(&game)?;
    let rows = app.leaderboard(&game).await?;
    Ok(Json(
        rows.iter()
            .map(|l| LeaderOut {
                name: l.name.clone(),
                version: l.version,
                rating: RatingOut { rating: l.rating.rating, deviation: l.rating.deviation },
                games: Tally { won: l.games.won, lost: l.games.lost, tied: l.games.tied },
                faults: l.faults,
                submitted_at: l.submitted_at.clone(),
                rank_range: [l.rank_range.0, l.rank_range.1],
            })
            .collect(),
    ))
}

/// The games of a game that ended in a game fault (its package's referee failed): how many, and the
/// latest 50.
#[utoipa::path(get, path = "/api/games/{game}/game-faults", tag = "games",
    params(("game" = String, Path, description = "a game's name")),
    responses((status = 200, body = GameFaultsOut), (status = 404, body = ErrorBody)))]
pub async fn game_faults(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult<GameFaultsOut> {
    app.catalogue.find(&game)?;
    let g = game.clone();
    let (count, latest) = app.read(move |s| s.game_faults(&g, 50)).await?;
    let latest = latest
        .into_iter()
        .map(|f| GameFaultAtOut { tournament: f.tournament, game: f.game, call: f.call, reason: f.reason })
        .collect();
    Ok(Json(GameFaultsOut { game, count, latest }))
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new().route("/", get(index)).route("/games/{game}", get(leaderboard_page))
}

/// This resource's API routes, each with its OpenAPI operation.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    let r = r.routes(utoipa_axum::routes!(games));
    let r = r.routes(utoipa_axum::routes!(game));
    let r = r.routes(utoipa_axum::routes!(leaderboard));
    r.routes(utoipa_axum::routes!(game_faults))
}

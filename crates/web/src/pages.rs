//! The site's HTML pages, rendered on the server by askama (everything a person typed or a player
//! printed is escaped), and the embedded scripts and styles.

use super::App;
use super::auth::Viewer;
use super::error::WebError;
use super::view;
use arena_match::Manifest;
use arena_store::{FailureRow, Leader, PlayerStats, TournamentRow, Version};
use arena_tournament::ratings::System;
use askama::Template;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

pub const CSS: &str = include_str!("../assets/arena.css");
pub const ARENA_JS: &str = include_str!("../assets/arena.js");
pub const REPLAY_JS: &str = include_str!("../assets/replay.js");

/// The navigation bar: who is signed in, and the token its sign-out form carries.
pub struct Nav {
    pub user: Option<String>,
    pub admin: bool,
    pub csrf: String,
}

impl Nav {
    pub fn of(viewer: &Viewer) -> Nav {
        match &viewer.0 {
            Some(s) => Nav { user: Some(s.user.name.clone()), admin: s.user.admin, csrf: s.csrf.clone() },
            None => Nav { user: None, admin: false, csrf: String::new() },
        }
    }
}

#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage<'a> {
    pub title: &'a str,
    pub message: &'a str,
}

fn html(t: &impl Template) -> Result<Response, WebError> {
    Ok(Html(t.render()?).into_response())
}

/// `/assets/{file}`: the embedded scripts and styles.
pub async fn asset(Path(file): Path<String>) -> Result<Response, WebError> {
    let (body, kind) = match file.as_str() {
        "arena.css" => (CSS, "text/css; charset=utf-8"),
        "arena.js" => (ARENA_JS, "text/javascript; charset=utf-8"),
        "replay.js" => (REPLAY_JS, "text/javascript; charset=utf-8"),
        _ => return Err(WebError::not_found(format!("no asset `{file}`"))),
    };
    Ok(([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=300")], body).into_response())
}

/// The packages this arena offers, found once, when the server starts (a new package needs a restart).
pub fn shipped() -> &'static [(Manifest, std::path::PathBuf)] {
    static FOUND: std::sync::OnceLock<Vec<(Manifest, std::path::PathBuf)>> = std::sync::OnceLock::new();
    FOUND.get_or_init(arena_match::shipped)
}

/// A package by name; a web request names a game only among these (never a path).
pub fn find_game(name: &str) -> Result<(Manifest, std::path::PathBuf), WebError> {
    shipped()
        .iter()
        .find(|(m, _)| m.name == name)
        .cloned()
        .ok_or_else(|| WebError::not_found(format!("there is no game `{name}` here")))
}

pub fn system(game: &str) -> System {
    let seats = shipped().iter().find(|(m, _)| m.name == game).map(|(m, _)| m.seats());
    System::for_seats(seats.unwrap_or(2..=2))
}

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
    let players = app.read(|s| s.players(None)).await?;
    let games = shipped()
        .iter()
        .cloned()
        .map(|(m, _)| GameRow {
            registered: players.iter().filter(|p| p.latest.game == m.name).count(),
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
    rank: usize,
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
    game_faults: (i64, Vec<arena_store::GameFaultAt>),
}

pub async fn leaderboard(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Response, WebError> {
    let (m, _) = find_game(&game)?;
    let sys = system(&game);
    let leaders: Arc<Vec<Leader>> = app.leaderboard(&game).await?;
    let rows = leaders
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, l)| LeaderRow {
            rank: i + 1,
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
    html(&Leaderboard {
        nav: Nav::of(&viewer),
        live: String::new(),
        game,
        description: m.description,
        system: sys.name(),
        rows,
        game_faults,
    })
}

pub struct ScrimmageForm {
    csrf: String,
    opponents: Vec<String>,
}

pub struct PlayerSection {
    stats: PlayerStats,
    rating: String,
    fuel: String,
    chart: String,
    versions: Vec<Version>,
    latest: u32,
    since_latest: bool,
    failures: Vec<FailureRow>,
    scrimmage: Option<ScrimmageForm>,
}

#[derive(Template)]
#[template(path = "player.html")]
struct PlayerPage {
    nav: Nav,
    live: String,
    name: String,
    owner: String,
    sections: Vec<PlayerSection>,
}

#[derive(serde::Deserialize)]
pub struct PlayerQuery {
    failures: Option<String>,
}

pub async fn player(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(q): Query<PlayerQuery>,
) -> Result<Response, WebError> {
    let since_latest = q.failures.as_deref() == Some("latest");
    let n = name.clone();
    let user = viewer.user().cloned();
    let (owner, sections) = app
        .read(move |s| {
            let owner = s.owner_of(&n)?;
            let mine = matches!((&owner, &user), (arena_store::Owner::Account(o), Some(u)) if o.id == u.id);
            let mut sections = vec![];
            for g in s.games_of(&n)? {
                let Some(stats) = s.stats(&g, &n, system(&g))? else { continue };
                let versions = s.versions_of(&g, &n)?;
                let latest = versions.first().map(|v| v.version).unwrap_or(0);
                let mut failures = s.failures_of(&g, &n)?;
                if since_latest {
                    failures.retain(|f| f.version >= latest);
                }
                let points: Vec<(f64, f64)> =
                    stats.rating_history.iter().map(|p| (p.rating.rating, p.rating.deviation)).collect();
                let scrimmage = if mine {
                    let opponents: Vec<String> =
                        s.players(Some(&g))?.into_iter().map(|p| p.latest.name).filter(|o| *o != n).collect();
                    Some(opponents)
                } else {
                    None
                };
                sections.push((stats, points, versions, latest, failures, scrimmage));
            }
            Ok((owner, sections))
        })
        .await?;
    if sections.is_empty() {
        return Err(WebError::not_found(format!("no player `{name}` is registered")));
    }
    let csrf = viewer.0.as_ref().map(|s| s.csrf.clone()).unwrap_or_default();
    let sections = sections
        .into_iter()
        .map(|(stats, points, versions, latest, failures, scrimmage)| PlayerSection {
            rating: format!("{:.1} ± {:.1}", stats.rating.rating, stats.rating.deviation),
            fuel: arena_tournament::report::thousands(stats.fuel.per_decision),
            chart: view::rating_chart(&points),
            stats,
            versions,
            latest,
            since_latest,
            failures,
            scrimmage: scrimmage
                .filter(|o| !o.is_empty())
                .map(|opponents| ScrimmageForm { csrf: csrf.clone(), opponents }),
        })
        .collect();
    let owner = match owner {
        arena_store::Owner::Account(u) => u.name,
        _ => "the organiser".into(),
    };
    html(&PlayerPage { nav: Nav::of(&viewer), live: String::new(), name, owner, sections })
}

/// A game in the list of a player's games.
pub struct PlayerGameRow {
    id: String,
    tournament: i64,
    game: String,
    replay: String,
    players: String,
    scores: String,
    result: String,
    finished_at: String,
    faulted: bool,
}

#[derive(Template)]
#[template(path = "player_games.html")]
struct PlayerGames {
    nav: Nav,
    live: String,
    name: String,
    rows: Vec<PlayerGameRow>,
    after: Option<String>,
    next: Option<String>,
}

/// `/players/{name}/games`: every game the player played, newest first, 100 a page by cursor.
pub async fn player_games(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(p): Query<super::api_types::Paging>,
) -> Result<Response, WebError> {
    let (rows, limit) = super::api::player_games_page(&app, &name, &p).await?;
    let base = format!("/players/{name}/games");
    let next = super::api_types::next_page(&base, limit, rows.len(), rows.last().map(|g| g.cursor));
    let rows = rows
        .into_iter()
        .map(|g| {
            let line = view::game_line(&g.record);
            PlayerGameRow {
                replay: format!("/tournaments/{}/games/{}", g.tournament, g.record.id),
                id: g.record.id.clone(),
                tournament: g.tournament,
                game: g.game,
                players: line.players,
                scores: line.scores,
                result: line.result,
                finished_at: g.finished_at,
                faulted: g.record.faults.iter().any(|f| f.player == name) || g.record.game_fault.is_some(),
            }
        })
        .collect();
    html(&PlayerGames { nav: Nav::of(&viewer), live: String::new(), name, rows, after: p.after, next })
}

#[derive(Template)]
#[template(path = "tournaments.html")]
struct Tournaments {
    nav: Nav,
    live: String,
    rows: Vec<TournamentRow>,
    admin_csrf: Option<String>,
    games: Vec<String>,
}

pub async fn tournaments(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    let mut rows = app.read(|s| s.tournaments()).await?;
    rows.reverse();
    let admin_csrf = viewer.0.as_ref().filter(|s| s.user.admin).map(|s| s.csrf.clone());
    let games = shipped().iter().map(|(m, _)| m.name.clone()).collect();
    html(&Tournaments { nav: Nav::of(&viewer), live: String::new(), rows, admin_csrf, games })
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct TournamentPage<'a> {
    nav: Nav,
    live: String,
    t: &'a TournamentRow,
    parts: &'a view::Rendered,
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
    let ladder = row.format == arena_store::Kind::Ladder;
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

pub async fn tournament(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Response, WebError> {
    let parts = tournament_view(&app, id).await?;
    let t = &parts.row;
    let live = if t.status == arena_store::Status::Running { format!("/tournaments/{id}/live") } else { String::new() };
    html(&TournamentPage { nav: Nav::of(&viewer), live, t, parts: &parts })
}

/// What an upload came to, as the upload page shows it.
pub struct UploadResult {
    /// The answer's status: the API's for the same upload (201 accepted, 413, 422, 429, …).
    pub status: axum::http::StatusCode,
    pub outcome: &'static str,
    pub message: String,
    pub details: Vec<String>,
}

#[derive(Template)]
#[template(path = "upload.html")]
struct UploadPage {
    nav: Nav,
    live: String,
    csrf: Option<String>,
    games: Vec<String>,
    max_mb: usize,
    mine: Vec<(String, String)>,
    result: Option<UploadResult>,
}

async fn upload_page(app: &App, viewer: &Viewer, result: Option<UploadResult>) -> Result<Response, WebError> {
    let mine = match viewer.user().cloned() {
        Some(u) => app.read(move |s| s.owned_by(&u)).await?,
        None => vec![],
    };
    let status = result.as_ref().map_or(axum::http::StatusCode::OK, |r| r.status);
    let page = UploadPage {
        nav: Nav::of(viewer),
        live: String::new(),
        csrf: viewer.0.as_ref().map(|s| s.csrf.clone()),
        games: shipped().iter().map(|(m, _)| m.name.clone()).collect(),
        max_mb: app.cfg.max_upload >> 20,
        mine,
        result,
    };
    Ok((status, Html(page.render()?)).into_response())
}

pub async fn upload_form(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    upload_page(&app, &viewer, None).await
}

/// An upload's fields.
#[derive(Default)]
pub struct UploadFields {
    pub csrf: String,
    pub game: String,
    pub name: String,
    pub file_name: String,
    pub file: Option<Vec<u8>>,
}

/// Reads a multipart upload, refusing a file over the cap as it streams in.
pub async fn read_upload(mut m: Multipart, max: usize) -> Result<UploadFields, WebError> {
    let mut f = UploadFields::default();
    // A body past the server's limit can surface as any read error; its text says so.
    let bad = |e: axum::extract::multipart::MultipartError| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE || e.body_text().contains("too large") {
            let m = format!("the upload is over the size cap of {} MiB; nothing was stored", max >> 20);
            WebError::new(axum::http::StatusCode::PAYLOAD_TOO_LARGE, m)
        } else {
            WebError::bad(format!("unreadable upload: {}", e.body_text()))
        }
    };
    while let Some(mut field) = m.next_field().await.map_err(bad)? {
        let name = field.name().unwrap_or("").to_string();
        if name == "file" {
            f.file_name = field.file_name().unwrap_or("upload.wasm").chars().take(200).collect();
            let mut bytes = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(bad)? {
                if bytes.len() + chunk.len() > max {
                    return Err(WebError::new(
                        axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                        format!("{}: over the size cap of {} MiB; nothing was stored", f.file_name, max >> 20),
                    ));
                }
                bytes.extend_from_slice(&chunk);
            }
            f.file = Some(bytes);
        } else {
            let text = field.text().await.map_err(bad)?;
            let text: String = text.chars().take(200).collect();
            match name.as_str() {
                "csrf" => f.csrf = text,
                "game" => f.game = text,
                "name" => f.name = text.trim().to_string(),
                _ => {}
            }
        }
    }
    Ok(f)
}

pub async fn upload(State(app): State<Arc<App>>, viewer: Viewer, m: Multipart) -> Result<Response, WebError> {
    // Who is asking is checked before the first byte of the body is read: an anonymous post costs the
    // server nothing but its headers.
    viewer.require()?;
    let fields = match read_upload(m, app.cfg.max_upload).await {
        Ok(f) => f,
        Err(e) if viewer.0.is_some() => {
            let r = UploadResult { status: e.status, outcome: "refused", message: e.message, details: vec![] };
            return upload_page(&app, &viewer, Some(r)).await;
        }
        Err(e) => return Err(e),
    };
    let session = viewer.checked(&fields.csrf)?;
    let result = match super::play::upload(&app, &session.user, fields).await {
        Ok(a) => {
            let v = &a.version;
            let message = if a.unchanged {
                format!("identical to {} version {} of {}: nothing new was stored", v.name, v.version, v.game)
            } else {
                format!(
                    "{} version {} of {} is registered{}",
                    v.name,
                    v.version,
                    v.game,
                    if a.new_player { " (a new player, now yours)" } else { "" }
                )
            };
            let o = &a.validation;
            let details = vec![
                format!("{} bytes, sha256 {}", v.size, v.hash),
                format!("imports: {}", if a.imports.is_empty() { "nothing".to_string() } else { a.imports.join(", ") }),
                format!(
                    "validation game against {} (seed {}): {} to {}; {} fuel over {} calls, at most {} in one call",
                    o.opponent,
                    o.seed,
                    o.scores.first().copied().unwrap_or(0),
                    o.scores.get(1).copied().unwrap_or(0),
                    arena_tournament::report::thousands(o.fuel),
                    o.calls,
                    arena_tournament::report::thousands(o.max_call_fuel)
                ),
            ];
            UploadResult { status: axum::http::StatusCode::CREATED, outcome: "accepted", message, details }
        }
        Err(e) => UploadResult { status: e.status, outcome: "refused", message: e.message, details: vec![] },
    };
    upload_page(&app, &viewer, Some(result)).await
}

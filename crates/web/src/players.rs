//! Players: a player's page (its versions, ratings, stats and a scrimmage form for its owner) and every
//! game it played, paged by cursor, as HTML and as JSON (`/api/players/{name}`, `…/games`).

use super::api_types::*;
use super::auth::Viewer;
use super::error::ApiResult;
use super::error::WebError;
use super::layout::{Nav, html};
use super::{App, view};
use arena_core::PlayerFault;
use arena_service::store::{FailureRow, PlayerStats, Version};
use askama::Template;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use std::sync::Arc;

pub struct ScrimmageChoices {
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
    scrimmage: Option<ScrimmageChoices>,
    /// Why its latest version is benched from the game's ladder, shown to its owner and the admins.
    benched: Option<String>,
    /// The versions offered as sparring partners, newest first.
    sparring: Vec<Version>,
    /// The owner's form token, for the sparring form.
    sparring_form: Option<String>,
    /// Its latest candidates, each as the cells of its row (`arena.js` writes the same cells from the
    /// API while one is under test).
    candidates: Vec<Vec<String>>,
    testing: bool,
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

pub async fn player_page(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(q): Query<PlayerQuery>,
) -> Result<Response, WebError> {
    let since_latest = q.failures.as_deref() == Some("latest");
    let n = name.clone();
    let user = viewer.user().cloned();
    let (catalogue, ratings) = (app.catalogue.clone(), app.ratings.clone());
    let (owner, sections) = app
        .read(move |s| {
            let owner = s.owner_of(&n)?;
            let mine = matches!((&owner, &user), (arena_service::store::Owner::Account(o), Some(u)) if o.id == u.id);
            let told = mine || user.as_ref().is_some_and(|u| u.admin);
            let mut sections = vec![];
            for g in s.games_of(&n)? {
                let Some(stats) = crate::player_stats(s, &ratings, &g, &n, catalogue.system(&g))? else {
                    continue;
                };
                let versions = s.versions_of(&g, &n)?;
                let latest = versions.first().map(|v| v.version).unwrap_or(0);
                let mut failures = s.failures_of(&g, &n)?;
                if since_latest {
                    failures.retain(|f| f.version >= latest);
                }
                // What the player printed is its owner's alone.
                if !mine {
                    failures.iter_mut().for_each(|f| f.last_words.clear());
                }
                let points: Vec<(f64, f64)> =
                    stats.rating_history.iter().map(|p| (p.rating.rating, p.rating.deviation)).collect();
                let scrimmage = if mine {
                    // The game's built-in opponents first, then the other registered players.
                    let builtins = catalogue.find(&g).map(|e| e.samples()).unwrap_or_default();
                    let others = s.players(Some(&g))?.into_iter().map(|p| p.latest.name).filter(|o| *o != n);
                    let opponents: Vec<String> = builtins.into_iter().chain(others).collect();
                    Some(opponents)
                } else {
                    None
                };
                // The ladder's bench for a version whose calls keep meeting a failure of the game's
                // rule checker (see `arena_service::ladder`): its owner and the admins are told why.
                let benched = match (told, versions.first(), s.ladder_of(&g)?) {
                    (true, Some(v), Some(ladder)) => {
                        let window = arena_service::ladder::CHECKER_WINDOW;
                        let hits = s.checker_faults_of(ladder.id, (v.player_id, v.id), window)?;
                        (hits >= arena_service::ladder::CHECKER_FAULTS).then(|| {
                            format!(
                                "Version {} is benched from the ladder: the game's rule checker failed during its own \
                                 calls in {hits} of its latest {window} ladder games (each a game fault, a result for \
                                 nobody). It plays again with its next version.",
                                v.version
                            )
                        })
                    }
                    _ => None,
                };
                let sparring =
                    (s.sparring_versions(&g, &n)?, s.candidates_of(&g, &n, super::candidates::LISTED)?, mine);
                sections.push((stats, points, versions, latest, failures, scrimmage, benched, sparring));
            }
            Ok((owner, sections))
        })
        .await?;
    if sections.is_empty() {
        return Err(WebError::not_found(format!("no player `{}` is registered", super::error::quoted(&name))));
    }
    let csrf = viewer.0.as_ref().map(|s| s.csrf.clone()).unwrap_or_default();
    let sections = sections
        .into_iter()
        .map(|(stats, points, versions, latest, failures, scrimmage, benched, (sparring, candidates, mine))| {
            PlayerSection {
                rating: format!("{:.1} ± {:.1}", stats.rating.rating, stats.rating.deviation),
                fuel: arena_service::tournaments::report::thousands(stats.fuel.per_decision),
                chart: view::rating_chart(&points),
                stats,
                versions,
                latest,
                since_latest,
                failures,
                scrimmage: scrimmage
                    .filter(|o| !o.is_empty())
                    .map(|opponents| ScrimmageChoices { csrf: csrf.clone(), opponents }),
                benched,
                sparring,
                sparring_form: mine.then(|| csrf.clone()),
                testing: candidates.iter().any(|c| c.status == "testing"),
                candidates: candidates
                    .iter()
                    .map(|c| super::candidates::cells(&super::candidates::out(c, None)))
                    .collect(),
            }
        })
        .collect();
    let owner = match owner {
        arena_service::store::Owner::Account(u) => u.name,
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
pub async fn player_games_html(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(p): Query<super::api_types::Paging>,
) -> Result<Response, WebError> {
    let (rows, limit) = player_games_page(&app, &name, &p).await?;
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

/// A page of the games player `name` played (404 for a name nobody registered), and its size.
pub async fn player_games_page(
    app: &App,
    name: &str,
    p: &Paging,
) -> Result<(Vec<arena_service::store::GameAt>, usize), WebError> {
    let (limit, after) = p.checked()?;
    let n = name.to_string();
    let (known, rows) =
        app.read(move |s| Ok((!s.games_of(&n)?.is_empty(), s.player_games_page(&n, after, limit)?))).await?;
    if !known {
        return Err(WebError::not_found(format!("no player `{}` is registered", super::error::quoted(name))));
    }
    Ok((rows, limit))
}

/// A player: its owner and its statistics in each game it is registered for.
#[utoipa::path(get, path = "/api/players/{name}", tag = "players",
    params(("name" = String, Path, description = "a player's name")),
    responses((status = 200, body = PlayerOut), (status = 404, body = ErrorBody)))]
pub async fn player(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult<PlayerOut> {
    let n = name.clone();
    let (catalogue, ratings) = (app.catalogue.clone(), app.ratings.clone());
    let (found, owner) = app
        .read(move |s| {
            let mut found = vec![];
            for g in s.games_of(&n)? {
                if let Some(st) = crate::player_stats(s, &ratings, &g, &n, catalogue.system(&g))? {
                    found.push(st);
                }
            }
            Ok((found, s.owner_of(&n)?))
        })
        .await?;
    if found.is_empty() {
        return Err(WebError::not_found(format!("no player `{}` is registered", super::error::quoted(&name))).into());
    }
    let owner = match owner {
        arena_service::store::Owner::Account(u) => Some(u.name),
        _ => None,
    };
    let games = found.into_iter().map(stats_out).collect();
    let games_played = format!("/api/players/{name}/games");
    Ok(Json(PlayerOut { name, owner, games, games_played }))
}

fn stats_out(s: arena_service::store::PlayerStats) -> StatsOut {
    let tally = |r: arena_service::store::Record| Tally { won: r.won, lost: r.lost, tied: r.tied };
    StatsOut {
        game: s.game,
        versions: s.versions,
        registered_at: s.registered_at,
        tournaments: TournamentTally { played: s.tournaments.played, won: s.tournaments.won },
        matches: tally(s.matches),
        games: tally(s.games),
        faults: s.faults,
        fuel: FuelOut {
            total: s.fuel.total.to_string(),
            decisions: s.fuel.decisions.to_string(),
            per_decision: s.fuel.per_decision.to_string(),
        },
        rating_system: s.rating_system.to_string(),
        rating: RatingOut { rating: s.rating.rating, deviation: s.rating.deviation },
        rating_history: s
            .rating_history
            .into_iter()
            .map(|p| RatingPointOut {
                tournament: p.tournament,
                game: p.game,
                rating: p.rating.rating,
                deviation: p.rating.deviation,
            })
            .collect(),
        head_to_head: s
            .head_to_head
            .into_iter()
            .map(|h| HeadToHeadOut { opponent: h.opponent, won: h.games.won, lost: h.games.lost, tied: h.games.tied })
            .collect(),
    }
}

/// The games a player played, newest first, in every game it is registered for.
#[utoipa::path(get, path = "/api/players/{name}/games", tag = "players",
    params(("name" = String, Path, description = "a player's name"), Paging),
    responses((status = 200, body = GamesPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn player_games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    Query(p): Query<Paging>,
) -> ApiResult<GamesPage> {
    let (rows, limit) = player_games_page(&app, &name, &p).await?;
    Ok(Json(games_page(&format!("/api/players/{name}/games"), limit, rows)))
}

/// A page of games, with the link to the next.
pub fn games_page(base: &str, limit: usize, rows: Vec<arena_service::store::GameAt>) -> GamesPage {
    let next = next_page(base, limit, rows.len(), rows.last().map(|g| g.cursor));
    GamesPage { games: rows.into_iter().map(game_out).collect(), next }
}

pub fn game_out(g: arena_service::store::GameAt) -> GameOut {
    let r = g.record;
    let players = r
        .players
        .iter()
        .zip(g.seats)
        .map(|(name, (version, owner))| PlayerRef { name: name.clone(), version, owner })
        .collect();
    GameOut {
        replay: format!("/tournaments/{}/games/{}", g.tournament, r.id),
        tournament: g.tournament,
        game: g.game,
        round: r.round,
        match_no: r.match_no,
        number: r.number,
        seed: r.seed.to_string(),
        finished_at: g.finished_at,
        players,
        scores: r.scores,
        winners: r.winners,
        faults: r
            .faults
            .into_iter()
            .map(|PlayerFault { player, fault: f }| FaultOut {
                player,
                kind: f.kind.as_str().into(),
                call: f.call,
                reason: f.reason,
            })
            .collect(),
        game_fault: r.game_fault.map(|f| GameFaultOut { kind: f.kind.as_str().into(), call: f.call, reason: f.reason }),
        fuel: r.fuel.iter().map(u64::to_string).collect(),
        id: r.id,
    }
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new()
        .route("/players/{name}", get(player_page))
        .route("/players/{name}/games", get(player_games_html))
}

/// This resource's API routes, each with its OpenAPI operation.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    let r = r.routes(utoipa_axum::routes!(player));
    r.routes(utoipa_axum::routes!(player_games))
}

//! The JSON API under `/api/`: games, a game's leaderboard and game faults, players and their games,
//! tournaments and their games (paged by cursor), a game's logs for its owners, and uploads (`POST
//! /api/players`, multipart `game`, `name`, `file`, with `Authorization: Bearer TOKEN`). Every route
//! is registered through [`routes`], which also builds the OpenAPI document served at
//! `/api/openapi.json`: a route cannot be missing from it.

use super::App;
use super::api_types::*;
use super::auth::ApiUser;
use super::error::{ApiError, WebError};
use super::pages::{find_game, read_upload, shipped, system, tournament_view};
use arena_core::PlayerFault;
use axum::Json;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

type ApiResult<T> = Result<Json<T>, ApiError>;

/// The API's routes and its OpenAPI document, made together.
pub fn routes() -> (axum::Router<Arc<App>>, utoipa::openapi::OpenApi) {
    #[derive(utoipa::OpenApi)]
    #[openapi(
        info(title = "Arena", description = "The web arena's JSON API. Errors are always \
            `{\"error\": {\"code\", \"message\"}}`; 64-bit integers are strings; lists that grow without \
            end are paged by cursor (`limit`, `after`, and a `next` link)."),
        modifiers(&BearerToken)
    )]
    struct Doc;
    OpenApiRouter::with_openapi(<Doc as utoipa::OpenApi>::openapi())
        .routes(routes!(games))
        .routes(routes!(leaderboard))
        .routes(routes!(game_faults))
        .routes(routes!(upload))
        .routes(routes!(player))
        .routes(routes!(player_games))
        .routes(routes!(tournaments))
        .routes(routes!(tournament))
        .routes(routes!(tournament_games))
        .routes(routes!(super::replay::logs))
        .split_for_parts()
}

/// Adds the bearer-token scheme the upload and logs routes name.
struct BearerToken;

impl utoipa::Modify for BearerToken {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = api.components.get_or_insert_with(Default::default);
        let scheme =
            HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("a token from `arena user add`"));
        components.add_security_scheme("token", SecurityScheme::Http(scheme.build()));
    }
}

/// A page of the games player `name` played (404 for a name nobody registered), and its size.
pub async fn player_games_page(
    app: &App,
    name: &str,
    p: &Paging,
) -> Result<(Vec<arena_store::GameAt>, usize), WebError> {
    let (limit, after) = p.checked()?;
    let n = name.to_string();
    let (known, rows) =
        app.read(move |s| Ok((!s.games_of(&n)?.is_empty(), s.player_games_page(&n, after, limit)?))).await?;
    if !known {
        return Err(WebError::not_found(format!("no player `{name}` is registered")));
    }
    Ok((rows, limit))
}

/// The game packages this arena offers.
#[utoipa::path(get, path = "/api/games", tag = "games", responses((status = 200, body = [GameInfo])))]
pub async fn games() -> ApiResult<Vec<GameInfo>> {
    let list = shipped()
        .iter()
        .map(|(m, dir)| GameInfo {
            name: m.name.clone(),
            description: m.description.clone(),
            min_seats: m.min_seats,
            max_seats: m.max_seats,
            options: m
                .options
                .iter()
                .map(|(k, o)| {
                    let o =
                        OptionInfo { default: o.default, min: o.min, max: o.max, description: o.description.clone() };
                    (k.clone(), o)
                })
                .collect(),
            players: m.players.iter().map(|p| p.display().to_string()).collect(),
            referee: std::fs::read(dir.join(&m.referee)).map(|b| arena_core::sha256_hex(&b)).unwrap_or_default(),
        })
        .collect();
    Ok(Json(list))
}

/// A game's leaderboard, as `arena leaderboard --json` prints it.
#[utoipa::path(get, path = "/api/games/{game}/leaderboard", tag = "games",
    params(("game" = String, Path, description = "a game's name")),
    responses((status = 200, body = [LeaderOut]), (status = 404, body = ErrorBody)))]
pub async fn leaderboard(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult<Vec<LeaderOut>> {
    find_game(&game)?;
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
    find_game(&game)?;
    let g = game.clone();
    let (count, latest) = app.read(move |s| s.game_faults(&g, 50)).await?;
    let latest = latest
        .into_iter()
        .map(|f| GameFaultAtOut { tournament: f.tournament, game: f.game, call: f.call, reason: f.reason })
        .collect();
    Ok(Json(GameFaultsOut { game, count, latest }))
}

/// A player: its owner and its statistics in each game it is registered for.
#[utoipa::path(get, path = "/api/players/{name}", tag = "players",
    params(("name" = String, Path, description = "a player's name")),
    responses((status = 200, body = PlayerOut), (status = 404, body = ErrorBody)))]
pub async fn player(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult<PlayerOut> {
    let n = name.clone();
    let (found, owner) = app
        .read(move |s| {
            let mut found = vec![];
            for g in s.games_of(&n)? {
                if let Some(st) = s.stats(&g, &n, system(&g))? {
                    found.push(st);
                }
            }
            Ok((found, s.owner_of(&n)?))
        })
        .await?;
    if found.is_empty() {
        return Err(WebError::not_found(format!("no player `{name}` is registered")).into());
    }
    let owner = match owner {
        arena_store::Owner::Account(u) => Some(u.name),
        _ => None,
    };
    let games = found.into_iter().map(stats_out).collect();
    let games_played = format!("/api/players/{name}/games");
    Ok(Json(PlayerOut { name, owner, games, games_played }))
}

fn stats_out(s: arena_store::PlayerStats) -> StatsOut {
    let tally = |r: arena_store::Record| Tally { won: r.won, lost: r.lost, tied: r.tied };
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
pub fn games_page(base: &str, limit: usize, rows: Vec<arena_store::GameAt>) -> GamesPage {
    let next = next_page(base, limit, rows.len(), rows.last().map(|g| g.cursor));
    GamesPage { games: rows.into_iter().map(game_out).collect(), next }
}

pub fn game_out(g: arena_store::GameAt) -> GameOut {
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

fn tournament_out(t: &arena_store::TournamentRow) -> TournamentOut {
    TournamentOut {
        id: t.id,
        game: t.game.clone(),
        format: t.format.as_str().to_string(),
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
    Ok(Json(TournamentDetail {
        tournament: tournament_out(row),
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

/// An upload, validated as `arena submit` validates: 201 with the version and its validation game.
#[utoipa::path(post, path = "/api/players", tag = "players",
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    security(("token" = [])),
    responses((status = 201, body = UploadOut), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "another account's name"), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "refused by validation"), (status = 429, body = ErrorBody)))]
pub async fn upload(State(app): State<Arc<App>>, ApiUser(user): ApiUser, m: Multipart) -> Result<Response, ApiError> {
    let fields = read_upload(m, app.cfg.max_upload).await?;
    let a = super::play::upload(&app, &user, fields).await?;
    let v = a.version;
    let out = UploadOut {
        game: v.game,
        name: v.name,
        version: v.version,
        hash: v.hash,
        size: v.size,
        submitted_at: v.submitted_at,
        new_player: a.new_player,
        unchanged: a.unchanged,
        imports: a.imports,
        validation: ValidationOut {
            opponent: a.validation.opponent,
            seed: a.validation.seed.to_string(),
            scores: a.validation.scores,
            fuel: a.validation.fuel.to_string(),
            calls: a.validation.calls,
            max_call_fuel: a.validation.max_call_fuel.to_string(),
        },
    };
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

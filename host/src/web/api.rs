//! The JSON API under `/api/`, with the fields of the command line's `--json`: games, a game's
//! leaderboard, a player's statistics, tournaments; and uploads (`POST /api/players`, multipart
//! `game`, `name`, `file`, with `Authorization: Bearer TOKEN`).

use super::App;
use super::auth::api_user;
use super::error::{ApiError, WebError};
use super::pages::{find_game, read_upload, shipped, system, tournament_view};
use axum::Json;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

type ApiResult = Result<Response, ApiError>;

/// `arena games --json`, without the directories.
pub async fn games() -> ApiResult {
    let list: Vec<Value> = shipped()
        .iter()
        .map(|(m, dir)| {
            let referee =
                std::fs::read(dir.join(&m.referee)).map(|b| crate::sandbox::sha256_hex(&b)).unwrap_or_default();
            m.describe(&referee)
        })
        .collect();
    Ok(Json(list).into_response())
}

/// `arena leaderboard --json`.
pub async fn leaderboard(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult {
    find_game(&game)?;
    Ok(Json(&*app.leaderboard(&game).await?).into_response())
}

/// The games of a game that ended in a game fault (its package's referee failed): how many, and the
/// latest 50 with tournament, game, the referee's call and the reason.
pub async fn game_faults(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult {
    find_game(&game)?;
    let g = game.clone();
    let (count, latest) = app.read(move |s| s.game_faults(&g, 50)).await?;
    Ok(Json(json!({"game": game, "count": count, "latest": latest})).into_response())
}

/// `arena stats NAME --json`: one object for a player of one game, a list for several.
pub async fn player(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult {
    let n = name.clone();
    let found = app
        .read(move |s| {
            let mut found = vec![];
            for g in s.games_of(&n)? {
                if let Some(st) = s.stats(&g, &n, system(&g))? {
                    found.push(st);
                }
            }
            Ok(found)
        })
        .await?;
    match found.len() {
        0 => Err(WebError::not_found(format!("no player `{name}` is registered")).into()),
        1 => Ok(Json(&found[0]).into_response()),
        _ => Ok(Json(found).into_response()),
    }
}

/// `arena tournaments --json`.
pub async fn tournaments(State(app): State<Arc<App>>) -> ApiResult {
    Ok(Json(app.read(|s| s.tournaments()).await?).into_response())
}

/// A tournament: its row, its standings and games so far, and its result (as `arena tournament
/// --json` prints it) once finished.
pub async fn tournament(State(app): State<Arc<App>>, Path(id): Path<i64>) -> ApiResult {
    let parts = tournament_view(&app, id).await?;
    let result = app.read(move |s| s.result(id)).await?;
    let (row, view) = (&parts.row, &parts.view);
    Ok(Json(json!({"tournament": row, "standings": view.standings, "games": view.games,
        "game_faults": view.game_faults, "result": result}))
    .into_response())
}

/// `POST /api/players`: an upload, validated as `arena submit` validates; 201 with the version and
/// its validation game, 401 without a valid token, 403 for another account's name, 422 refused.
pub async fn upload(State(app): State<Arc<App>>, headers: HeaderMap, m: Multipart) -> ApiResult {
    let user = api_user(&app, &headers).await?;
    let fields = read_upload(m, app.cfg.max_upload).await?;
    let accepted = super::play::upload(&app, &user, fields).await?;
    Ok((StatusCode::CREATED, Json(accepted)).into_response())
}

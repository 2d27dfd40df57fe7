//! Forks: a stored game played again from a step by the owner of a seat, that seat by another version
//! of its player, recorded and shown like a scrimmage (a tournament of one game, never rated) with a
//! link to the original at that step.

use super::App;
use super::api_types::{ErrorBody, ForkBody, ForkCreated};
use super::auth::{ApiUser, SignedIn};
use super::error::{ApiError, WebError};
use arena_service::fork::stored::{self, Prepared};
use arena_service::store::{ForkOf, User};
use axum::Json;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;

/// Records `user`'s fork of game `key` of tournament `t` and starts it: the new tournament's id. It
/// counts against the account's uploads this hour (a fork costs the server a game).
pub async fn fork_of(app: &App, user: &User, (t, key): (i64, &str), body: ForkBody) -> Result<i64, WebError> {
    let data = app.data().to_path_buf();
    let of = ForkOf { tournament: t, game: key.to_string(), step: body.step, seat: body.seat };
    let (u, player, version) = (user.clone(), body.player, body.version);
    let prepared = app
        .read(move |s| Ok(stored::prepare(s, &data, &u, of, (player.as_deref(), version))))
        .await?
        .map_err(WebError::from)?;
    app.take_upload(user.id)?;
    let options = arena_service::packages::stored_options(&prepared.settings.options)
        .map_err(|e| WebError::internal(format!("{e:#}")))?;
    let game = arena_service::packages::open(app.sandbox.clone(), &prepared.package, &options)
        .await
        .map_err(|e| WebError::internal(format!("{e:#}")))?;
    let p = Arc::new(prepared);
    let (q, u) = (p.clone(), user.clone());
    let (id, lock) = app.write(move |s| stored::create(s, &q, &u)).await?;
    run(app, Arc::new(game), (id, lock), p);
    Ok(id)
}

/// Plays fork `id` in the background; its page follows it live.
pub(crate) fn run(
    app: &App,
    game: Arc<arena_service::packages::PackageGame>,
    (id, lock): (i64, arena_service::store::TournamentLock),
    p: Arc<Prepared>,
) {
    let data = app.data().to_path_buf();
    tokio::spawn(async move {
        let played = async {
            let mut store = arena_service::store::Store::open(&data)?;
            stored::run(game, &mut store, id, &p.versions, (p.record.clone(), &p.of)).await
        };
        if let Err(e) = played.await {
            tracing::error!("fork {id}: {e:#}");
        }
        drop(lock);
    });
}

#[derive(serde::Deserialize)]
pub struct ForkForm {
    csrf: String,
    seat: usize,
    step: u32,
    version: Option<String>,
}

/// `POST /tournaments/{id}/games/{key}/forks`: the viewer's fork button.
pub async fn fork_form(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Path((t, key)): Path<(i64, String)>,
    Form(f): Form<ForkForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    let version = match f.version.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => None,
        Some(v) => Some(
            v.trim_start_matches('v')
                .parse()
                .map_err(|_| WebError::bad(format!("`{}` is not a version number", super::error::quoted(v))))?,
        ),
    };
    let body = ForkBody { seat: f.seat, step: f.step, player: None, version };
    let id = fork_of(&app, &session.user, (t, &key), body).await?;
    Ok(Redirect::to(&format!("/tournaments/{id}")).into_response())
}

/// Forks a stored game: from `step` on, `seat` (one of yours) is played by `version` of its player
/// (the latest if absent), every other seat by the version that played. 201 with the fork's
/// tournament, which plays in the background: never rated, its page links to the original.
#[utoipa::path(post, path = "/api/tournaments/{id}/games/{key}/forks", tag = "tournaments",
    params(("id" = i64, Path, description = "a tournament's id"), ("key" = String, Path, description = "a game's key")),
    request_body = ForkBody,
    security(("token" = [])),
    responses((status = 201, body = ForkCreated), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "the seat is not yours"), (status = 404, body = ErrorBody),
        (status = 410, body = ErrorBody, description = "the referee it was played with is no longer kept"),
        (status = 429, body = ErrorBody)))]
pub async fn fork(
    State(app): State<Arc<App>>,
    ApiUser(user): ApiUser,
    Path((t, key)): Path<(i64, String)>,
    Json(body): Json<ForkBody>,
) -> Result<Response, ApiError> {
    let id = fork_of(&app, &user, (t, &key), body).await?;
    let out = ForkCreated { tournament: id, url: format!("/tournaments/{id}"), api: format!("/api/tournaments/{id}") };
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    axum::Router::new().route("/tournaments/{id}/games/{key}/forks", form_post(fork_form))
}

/// This resource's API routes.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    r.routes(utoipa_axum::routes!(fork))
}

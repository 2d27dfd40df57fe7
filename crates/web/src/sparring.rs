//! Sparring partners on the web: an owner offers a version (off by default), anyone downloads an
//! offered version's component to practise against (`arena fetch-player`); the player page says which.

use super::App;
use super::api_types::{ErrorBody, SparringOut, SparringVersion, SparringWanted};
use super::auth::{ApiUser, SignedIn};
use super::error::{ApiError, WebError};
use arena_service::sparring;
use arena_service::store::Version;
use axum::Json;
use axum::extract::{Form, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;

fn out(game: &str, name: &str, versions: Vec<Version>) -> SparringOut {
    let versions = versions
        .into_iter()
        .map(|v| SparringVersion {
            component: format!("/api/games/{game}/players/{name}/versions/{}/component", v.version),
            version: v.version,
            hash: v.hash,
            size: v.size,
            submitted_at: v.submitted_at,
        })
        .collect();
    SparringOut { game: game.to_string(), name: name.to_string(), versions }
}

/// The versions of a player its owner offers as sparring partners, newest first (none unless offered).
#[utoipa::path(get, path = "/api/games/{game}/players/{name}/sparring", tag = "players",
    params(("game" = String, Path, description = "a game's name"), ("name" = String, Path, description = "a player's name")),
    responses((status = 200, body = SparringOut)))]
pub async fn offered(
    State(app): State<Arc<App>>,
    Path((game, name)): Path<(String, String)>,
) -> Result<Json<SparringOut>, ApiError> {
    let (g, n) = (game.clone(), name.clone());
    let versions = app.read(move |s| s.sparring_versions(&g, &n)).await?;
    Ok(Json(out(&game, &name, versions)))
}

/// Offers one of your versions as a sparring partner (`offered: true`: anyone may download its
/// component), or withdraws it. Answers the versions offered now.
#[utoipa::path(put, path = "/api/games/{game}/players/{name}/versions/{version}/sparring", tag = "players",
    params(("game" = String, Path, description = "a game's name"), ("name" = String, Path, description = "a player's name"),
        ("version" = u32, Path, description = "a version number")),
    request_body = SparringWanted,
    security(("token" = [])),
    responses((status = 200, body = SparringOut), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "not your player"), (status = 404, body = ErrorBody)))]
pub async fn offer(
    State(app): State<Arc<App>>,
    ApiUser(user): ApiUser,
    Path((game, name, version)): Path<(String, String, u32)>,
    Json(w): Json<SparringWanted>,
) -> Result<Json<SparringOut>, ApiError> {
    let (g, n) = (game.clone(), name.clone());
    let versions = app
        .write(move |s| Ok(sparring::offer(s, &user, (&g, &n, version), w.offered)))
        .await?
        .map_err(WebError::from)?;
    Ok(Json(out(&game, &name, versions)))
}

/// An offered version's component (`application/wasm`, its sha256 in `X-Arena-Sha256`); 403 for a
/// version its owner does not offer.
#[utoipa::path(get, path = "/api/games/{game}/players/{name}/versions/{version}/component", tag = "players",
    params(("game" = String, Path, description = "a game's name"), ("name" = String, Path, description = "a player's name"),
        ("version" = u32, Path, description = "a version number")),
    responses((status = 200, content_type = "application/wasm", body = Vec<u8>),
        (status = 403, body = ErrorBody, description = "not offered for sparring"), (status = 404, body = ErrorBody)))]
pub async fn component(
    State(app): State<Arc<App>>,
    Path((game, name, version)): Path<(String, String, u32)>,
) -> Result<Response, ApiError> {
    let (g, n) = (game.clone(), name.clone());
    let (v, path) =
        app.read(move |s| Ok(sparring::component(s, (&g, &n, Some(version))))).await?.map_err(WebError::from)?;
    let bytes = tokio::fs::read(&path).await.map_err(|e| WebError::internal(format!("{}: {e}", path.display())))?;
    let disposition = format!("attachment; filename=\"{name}-v{}.wasm\"", v.version);
    Ok((
        [
            (header::CONTENT_TYPE, "application/wasm".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::HeaderName::from_static("x-arena-sha256"), v.hash),
        ],
        bytes,
    )
        .into_response())
}

#[derive(serde::Deserialize)]
pub struct SparringForm {
    csrf: String,
    game: String,
    version: u32,
    offered: Option<String>,
}

/// `POST /players/{name}/sparring`: the player page's form.
pub async fn offer_form(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Path(name): Path<String>,
    Form(f): Form<SparringForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    let (user, n, offered) = (session.user.clone(), name.clone(), f.offered.is_some());
    app.write(move |s| Ok(sparring::offer(s, &user, (&f.game, &n, f.version), offered)))
        .await?
        .map_err(WebError::from)?;
    Ok(Redirect::to(&format!("/players/{name}")).into_response())
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    axum::Router::new().route("/players/{name}/sparring", form_post(offer_form))
}

/// This resource's API routes.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    let r = r.routes(utoipa_axum::routes!(offered));
    let r = r.routes(utoipa_axum::routes!(offer));
    r.routes(utoipa_axum::routes!(component))
}

//! Publishing games to the arena: a package uploaded as a `.tar.gz` from the publish page or the API
//! (`POST /api/games`), judged as `arena check-game` judges it (in the bounded upload pool, under a
//! per-account daily limit, by whoever `--publishers` allows), and live at once; a game's package and
//! WIT to download; the operator's listing of a published game.

use super::App;
use super::Publishers;
use super::api_types::*;
use super::auth::{ApiUser, Viewer};
use super::error::{ApiError, WebError};
use super::forms::read_upload;
use super::layout::Nav;
use arena_service::publish::{Published, Refused, Rules};
use arena_service::store::{Listing, StoreError, User};
use askama::Template;
use axum::Json;
use axum::extract::{Multipart, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;

#[derive(Template)]
#[template(path = "publish.html")]
struct PublishPage {
    nav: Nav,
    live: String,
    csrf: Option<String>,
    max_mb: usize,
    allowed: bool,
    result: Option<super::uploads::UploadResult>,
}

async fn render(
    app: &App,
    viewer: &Viewer,
    result: Option<super::uploads::UploadResult>,
) -> Result<Response, WebError> {
    let status = result.as_ref().map_or(StatusCode::OK, |r| r.status);
    let page = PublishPage {
        nav: Nav::of(viewer),
        live: String::new(),
        csrf: viewer.0.as_ref().map(|s| s.csrf.clone()),
        max_mb: app.cfg.max_upload >> 20,
        allowed: viewer.user().is_some_and(|u| may_publish(app, u).is_ok()),
        result,
    };
    Ok((status, Html(page.render()?)).into_response())
}

pub async fn publish_form(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    render(&app, &viewer, None).await
}

/// `POST /publish`: the page's form (multipart `csrf`, `package`).
pub async fn publish_submit(State(app): State<Arc<App>>, viewer: Viewer, m: Multipart) -> Result<Response, WebError> {
    // Who is asking is checked before the body is read.
    let session = viewer.require()?.clone();
    let refused = |e: WebError| super::uploads::UploadResult {
        status: e.status,
        outcome: "refused",
        message: e.message,
        details: vec![],
        link: None,
    };
    if let Err(e) = may_publish(&app, &session.user) {
        return render(&app, &viewer, Some(refused(e))).await;
    }
    let fields = match read_upload(m, app.cfg.max_upload).await {
        Ok(f) => f,
        Err(e) => return render(&app, &viewer, Some(refused(e))).await,
    };
    viewer.checked(&fields.csrf)?;
    let file = fields.file.unwrap_or_default();
    let result = match publish_as(&app, &session.user, file).await {
        Ok(p) => super::uploads::UploadResult {
            status: StatusCode::CREATED,
            outcome: "accepted",
            message: format!("{} version {} is published", p.game, p.version.version),
            details: vec![
                format!("referee sha256 {}", p.version.referee),
                format!("arena check-game played {} games: every one conforms", p.games_checked),
                format!("registered players still loading against it: {}", p.players_kept),
            ],
            link: Some((format!("/games/{}", p.game), format!("{}'s page, with its players and ladder", p.game))),
        },
        Err(e) => refused(e),
    };
    render(&app, &viewer, Some(result)).await
}

/// A game package published: 201 with its version and page, or the first reason it was refused.
#[utoipa::path(post, path = "/api/games", tag = "games",
    request_body(content = PublishForm, content_type = "multipart/form-data"),
    security(("token" = [])),
    responses((status = 201, body = PublishOut), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "another account's game, one of the arena's own, or not a publisher"),
        (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "refused: the archive, the package, or `arena check-game`'s first failure"),
        (status = 429, body = ErrorBody)))]
pub async fn publish(State(app): State<Arc<App>>, ApiUser(user): ApiUser, m: Multipart) -> Result<Response, ApiError> {
    may_publish(&app, &user)?;
    let fields = read_upload(m, app.cfg.max_upload).await?;
    let file = fields.file.ok_or_else(|| WebError::bad("the upload has no `package` (the package as a .tar.gz)"))?;
    let p = publish_as(&app, &user, file).await?;
    let out = PublishOut {
        url: format!("/games/{}", p.game),
        game: p.game,
        version: p.version.version,
        referee: p.version.referee,
        games_checked: p.games_checked,
        players_kept: p.players_kept,
    };
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

/// Whether `user` may publish here at all (`--publishers`).
fn may_publish(app: &App, user: &User) -> Result<(), WebError> {
    if app.cfg.publishers == Publishers::Admins && !user.admin {
        return Err(WebError::forbidden("only admins publish games on this arena"));
    }
    Ok(())
}

/// Publishes `bytes` as `user`: the daily limit, the bounded pool, then the service's judgement.
async fn publish_as(app: &App, user: &User, bytes: Vec<u8>) -> Result<Published, WebError> {
    if bytes.is_empty() {
        return Err(WebError::bad("the upload's package is empty; nothing was kept"));
    }
    let (u, day) = (user.clone(), 24 * 3600);
    let since = arena_core::unix_now() - day;
    let done = app.read(move |s| s.published_since(&u, since)).await?;
    if done >= app.cfg.publishes_per_day {
        return Err(WebError::too_many(format!(
            "at most {} game versions a day per account; try again tomorrow",
            app.cfg.publishes_per_day
        )));
    }
    // Every attempt counts against the account's hourly uploads: a refused package costs a check too.
    app.take_upload(user.id)?;
    let permit = tokio::time::timeout(Duration::from_secs(120), app.uploads.acquire())
        .await
        .map_err(|_| {
            WebError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the arena is busy validating other uploads; retry in a minute",
            )
        })?
        .map_err(|e| WebError::internal(e.to_string()))?;
    let rules = Rules::new(app.catalogue.reserved());
    let r = arena_service::publish::publish(app.sandbox.clone(), app.data(), bytes.into(), user, &rules).await;
    drop(permit);
    app.metrics.upload("game", r.is_ok());
    let published = r.map_err(|e| {
        let status = match &e {
            Refused::Reserved(_) | Refused::Store(StoreError::NotGameOwner { .. }) => StatusCode::FORBIDDEN,
            Refused::Store(StoreError::AlreadyPublished { .. }) => StatusCode::CONFLICT,
            Refused::Store(_) | Refused::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        WebError::new(status, e.to_string())
    })?;
    let catalogue = app.catalogue.clone();
    app.read(move |s| {
        catalogue.refresh(s);
        Ok(())
    })
    .await?;
    Ok(published)
}

/// A game's package as a `.tar.gz`: exactly what the arena plays (its referee's sha256 in the
/// `X-Arena-Referee` header).
#[utoipa::path(get, path = "/api/games/{game}/package", tag = "games",
    params(("game" = String, Path, description = "a game's name")),
    responses((status = 200, content_type = "application/gzip", body = Vec<u8>), (status = 404, body = ErrorBody)))]
pub async fn package(State(app): State<Arc<App>>, Path(game): Path<String>) -> Result<Response, ApiError> {
    Ok(package_download(State(app), Path(game)).await?)
}

pub async fn package_download(State(app): State<Arc<App>>, Path(game): Path<String>) -> Result<Response, WebError> {
    let e = app.catalogue.find(&game)?;
    let bytes = app.packed(&e.dir, "package").await?;
    let disposition = format!("attachment; filename=\"{}.tar.gz\"", e.name());
    Ok((
        [
            (header::CONTENT_TYPE, "application/gzip".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::HeaderName::from_static("x-arena-referee"), e.referee.clone()),
        ],
        bytes,
    )
        .into_response())
}

/// The package the arena keeps by its referee's sha256: what its stored games were played with (a
/// game's replay file names it in its header), as a `.tar.gz`. `arena replay --server` plays a game
/// again with it.
#[utoipa::path(get, path = "/api/packages/{referee}", tag = "games",
    params(("referee" = String, Path, description = "a referee's sha256, 64 hex digits")),
    responses((status = 200, content_type = "application/gzip", body = Vec<u8>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no package with that referee is kept")))]
pub async fn kept_package(State(app): State<Arc<App>>, Path(referee): Path<String>) -> Result<Response, ApiError> {
    if referee.len() != 64 || !referee.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(WebError::bad(format!(
            "`{}` is not a sha256 (64 lower-case hex digits)",
            super::error::quoted(&referee)
        ))
        .into());
    }
    let find = arena_service::packages::Find::Kept;
    let dir = arena_service::packages::by_referee(app.data(), "the game", Some(&referee), find)
        .map_err(|_| WebError::not_found(format!("no package whose referee has sha256 {referee} is kept here")))?;
    let bytes = app.packed(&dir, "package").await?;
    let disposition = format!("attachment; filename=\"{referee}.tar.gz\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/gzip".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::HeaderName::from_static("x-arena-referee"), referee),
        ],
        bytes,
    )
        .into_response())
}

/// A game's starter templates for one language (`/games/{game}/templates/{lang}.tar.gz`): the files
/// `arena new` fills in with a player's name.
pub async fn templates_download(
    State(app): State<Arc<App>>,
    Path((game, file)): Path<(String, String)>,
) -> Result<Response, WebError> {
    let e = app.catalogue.find(&game)?;
    let lang = file.strip_suffix(".tar.gz").unwrap_or(&file).to_string();
    if !app.starter_languages(&e.dir).await?.contains(&lang) {
        return Err(WebError::not_found(format!("{game} has no {lang} templates")));
    }
    let bytes = app.packed(&e.dir, &format!("templates/{lang}")).await?;
    let disposition = format!("attachment; filename=\"{game}-{lang}.tar.gz\"");
    Ok(([(header::CONTENT_TYPE, "application/gzip".to_string()), (header::CONTENT_DISPOSITION, disposition)], bytes)
        .into_response())
}

/// The WIT a player of the game is built from: the text of the package's own `.wit` files (its
/// `deps/` come with the package).
pub async fn wit_download(State(app): State<Arc<App>>, Path(game): Path<String>) -> Result<Response, WebError> {
    let e = app.catalogue.find(&game)?;
    let wit = e.dir.join("wit");
    let text = tokio::task::spawn_blocking(move || -> std::io::Result<String> {
        let mut files: Vec<_> = std::fs::read_dir(&wit)?
            .filter_map(|f| f.ok().map(|f| f.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "wit"))
            .collect();
        files.sort();
        let mut text = String::new();
        for f in files {
            text.push_str(&std::fs::read_to_string(f)?);
        }
        Ok(text)
    })
    .await
    .map_err(|e| WebError::internal(e.to_string()))?
    .map_err(|e| WebError::internal(format!("{game}: its WIT: {e}")))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// Lists, hides or removes a published game (admins): a hidden game is on no list but plays on; a
/// removed one takes no new players or tournaments; the stored tournaments of both stay readable.
#[utoipa::path(post, path = "/api/games/{game}/listing", tag = "games",
    params(("game" = String, Path, description = "a published game's name")),
    request_body = ListingIn,
    security(("token" = [])),
    responses((status = 200, body = GameInfo), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn listing(
    State(app): State<Arc<App>>,
    ApiUser(user): ApiUser,
    Path(game): Path<String>,
    Json(l): Json<ListingIn>,
) -> Result<Json<GameInfo>, ApiError> {
    if !user.admin {
        return Err(WebError::forbidden("only an admin lists, hides or removes a game").into());
    }
    let listing = Listing::parse(&l.listing).ok_or_else(|| {
        WebError::bad(format!("`{}` is not a listing (listed, hidden, removed)", super::error::quoted(&l.listing)))
    })?;
    let e = app.catalogue.find(&game)?;
    if e.published.is_none() {
        return Err(
            WebError::bad(format!("{game} is one of the arena's own games: only published games are listed")).into()
        );
    }
    let catalogue = app.catalogue.clone();
    app.write(move |s| {
        s.set_listing(&game, listing)?;
        catalogue.refresh(s);
        Ok(())
    })
    .await?;
    Ok(Json(super::games::info(&app.catalogue.find(e.name())?)))
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new()
        .route("/publish", get(publish_form).post(publish_submit))
        .route("/games/{game}/package.tar.gz", get(package_download))
        .route("/games/{game}/wit", get(wit_download))
        .route("/games/{game}/templates/{file}", get(templates_download))
}

/// This resource's API routes, each with its OpenAPI operation.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    let r = r.routes(utoipa_axum::routes!(publish));
    let r = r.routes(utoipa_axum::routes!(package));
    let r = r.routes(utoipa_axum::routes!(kept_package));
    r.routes(utoipa_axum::routes!(listing))
}

//! Uploads: a player uploaded from the upload page or the API (`POST /api/players`), validated as
//! `arena submit` validates it (in the bounded pool, under a per-account rate limit) and stored.

use super::App;
use super::api_types::*;
use super::auth::{ApiUser, Viewer};
use super::error::{ApiError, WebError};
use super::forms::{UploadFields, read_upload};
use super::layout::Nav;
use arena_service::store::Candidate;
use arena_service::store::User;
use arena_service::submit::{Accepted, Refused, Submission, Validation};
use askama::Template;
use axum::Json;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;

/// What an upload came to, as the upload page shows it.
pub struct UploadResult {
    /// The answer's status: the API's for the same upload (201 accepted, 413, 422, 429, …).
    pub status: axum::http::StatusCode,
    pub outcome: &'static str,
    pub message: String,
    pub details: Vec<String>,
    /// A page to go on to (its address, its text).
    pub link: Option<(String, String)>,
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
    /// The game chosen last (the form keeps it after an upload); none at first, so that nobody uploads
    /// to the first game listed by default.
    chosen: String,
}

async fn render_upload_page(
    app: &App,
    viewer: &Viewer,
    result: Option<UploadResult>,
    chosen: &str,
) -> Result<Response, WebError> {
    let mine = match viewer.user().cloned() {
        Some(u) => app.read(move |s| s.owned_by(&u)).await?,
        None => vec![],
    };
    let status = result.as_ref().map_or(axum::http::StatusCode::OK, |r| r.status);
    let page = UploadPage {
        nav: Nav::of(viewer),
        live: String::new(),
        csrf: viewer.0.as_ref().map(|s| s.csrf.clone()),
        games: app.catalogue.listed().iter().map(|e| e.manifest.name.clone()).collect(),
        max_mb: app.cfg.max_upload >> 20,
        mine,
        result,
        chosen: chosen.to_string(),
    };
    Ok((status, Html(page.render()?)).into_response())
}

pub async fn upload_form(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    render_upload_page(&app, &viewer, None, "").await
}

pub async fn upload_submit(State(app): State<Arc<App>>, viewer: Viewer, m: Multipart) -> Result<Response, WebError> {
    // Who is asking is checked before the first byte of the body is read: an anonymous post costs the
    // server nothing but its headers.
    viewer.require()?;
    let fields = match read_upload(m, app.cfg.max_upload).await {
        Ok(f) => f,
        Err(e) if viewer.0.is_some() => {
            let r =
                UploadResult { status: e.status, outcome: "refused", message: e.message, details: vec![], link: None };
            return render_upload_page(&app, &viewer, Some(r), "").await;
        }
        Err(e) => return Err(e),
    };
    let session = viewer.checked(&fields.csrf)?;
    let chosen = fields.game.clone();
    let result = match store_upload(&app, &session.user, fields).await {
        Ok(Stored::Version(a)) => accepted(&a),
        Ok(Stored::Candidate(c, o)) => {
            let message = format!(
                "candidate {} of {} is under test against version {}: mirrored pairs of games until the evidence \
                 decides (at most {} games); accepted, it becomes {}'s next version",
                c.id, c.name, c.against, c.cap, c.name
            );
            let details = vec![
                format!("{} bytes, sha256 {}", c.size, c.hash),
                format!("validation game against {} (seed {}): {}", o.opponent, o.seed, scores(&o)),
            ];
            let link = Some((format!("/players/{}#candidates-{}", c.name, c.game), "its evidence, as it comes".into()));
            UploadResult { status: StatusCode::ACCEPTED, outcome: "accepted", message, details, link }
        }
        Err(e) => {
            UploadResult { status: e.status, outcome: "refused", message: e.message, details: vec![], link: None }
        }
    };
    render_upload_page(&app, &viewer, Some(result), &chosen).await
}

/// What the upload page says of a stored version.
fn accepted(a: &Accepted) -> UploadResult {
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
        format!("validation game against {} (seed {}): {}", o.opponent, o.seed, scores(o)),
        format!("{}; its validation game took {:.1} s", compiled(o), o.game_ms as f64 / 1000.0),
    ];
    let link = Some((format!("/players/{}", v.name), format!("{}'s page: its games, ratings and scrimmages", v.name)));
    UploadResult { status: StatusCode::CREATED, outcome: "accepted", message, details, link }
}

/// How long its compile took, in words.
fn compiled(o: &Validation) -> String {
    match o.compile_ms {
        0 => "compiled already".to_string(),
        ms if o.quick => format!(
            "compiled as quick code for its validation game in {:.1} s (the same fuel; its code for games is \
             being compiled now)",
            ms as f64 / 1000.0
        ),
        ms => format!("compiled in {:.1} s", ms as f64 / 1000.0),
    }
}

/// How a validation game went, in words.
fn scores(o: &Validation) -> String {
    format!(
        "{} to {}; {} fuel over {} calls, at most {} in one call",
        o.scores.first().copied().unwrap_or(0),
        o.scores.get(1).copied().unwrap_or(0),
        arena_service::tournaments::report::thousands(o.fuel),
        o.calls,
        arena_service::tournaments::report::thousands(o.max_call_fuel)
    )
}

fn validation_out(o: Validation) -> ValidationOut {
    ValidationOut {
        opponent: o.opponent,
        seed: o.seed.to_string(),
        scores: o.scores,
        fuel: o.fuel.to_string(),
        calls: o.calls,
        max_call_fuel: o.max_call_fuel.to_string(),
        compile_ms: o.compile_ms,
        game_ms: o.game_ms,
        quick: o.quick,
    }
}

/// An upload, validated as `arena submit` validates: 201 with the version and its validation game; or,
/// with `candidate=true`, 202 with the candidate, judged in the background.
#[utoipa::path(post, path = "/api/players", tag = "players",
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    security(("token" = [])),
    responses((status = 201, body = UploadOut), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "another account's name"), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "refused by validation"), (status = 429, body = ErrorBody)))]
pub async fn upload(State(app): State<Arc<App>>, ApiUser(user): ApiUser, m: Multipart) -> Result<Response, ApiError> {
    let fields = read_upload(m, app.cfg.max_upload).await?;
    let a = match store_upload(&app, &user, fields).await? {
        Stored::Version(a) => a,
        Stored::Candidate(c, o) => {
            let out = super::candidates::out(&c, Some(validation_out(o)));
            return Ok((StatusCode::ACCEPTED, Json(out)).into_response());
        }
    };
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
        validation: validation_out(a.validation),
    };
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

/// What an upload was stored as.
pub enum Stored {
    Version(Accepted),
    /// A candidate under test (judged in the background), with its validation game.
    Candidate(Candidate, Validation),
}

/// Validates and stores an upload by `user`: a version, or a candidate whose test starts at once.
pub async fn store_upload(app: &Arc<App>, user: &User, f: UploadFields) -> Result<Stored, WebError> {
    let dir = match app.catalogue.open(&f.game) {
        Ok(e) => e.dir,
        Err(e) if e.status == StatusCode::NOT_FOUND => return Err(WebError::bad(e.message)),
        Err(e) => return Err(e),
    };
    let bytes = f.file.ok_or_else(|| WebError::bad("the upload has no `file`"))?;
    if f.name.is_empty() {
        return Err(WebError::bad("the upload has no `name`"));
    }
    arena_service::store::check_name(&f.name).map_err(|e| WebError::bad(format!("{e}; nothing was stored")))?;
    super::competitions::check_open(app, &f.game).await?;
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
    let s = Submission { name: &f.name, bytes: bytes.into(), label: &f.file_name, seed: 1 };
    let r = if f.candidate {
        let seed = arena_service::tournaments::seed_or_clock(None);
        let judging = app.cfg.candidates;
        arena_service::candidate::stored::submit(game.clone(), app.data(), s, user, (seed, judging))
            .await
            .map(|(c, o)| Stored::Candidate(c, o))
    } else {
        arena_service::submit::submit(game.clone(), app.data(), s, Some(user)).await.map(Stored::Version)
    };
    drop(permit);
    app.metrics.upload("player", r.is_ok());
    match &r {
        Ok(Stored::Candidate(c, _)) => super::candidates::judge(app, game, c),
        // Validated as quick code: its code for play is compiled now, for its first game not to wait.
        Ok(Stored::Version(a)) if a.validation.quick => {
            if let Ok(permit) = app.play_compiles.clone().try_acquire_owned() {
                let path = arena_core::DataDir::new(app.data()).component(&a.version.hash);
                arena_service::compiled::compile_for_play(game, app.sandbox.clone(), path, permit);
            }
        }
        _ => {}
    }
    r.map_err(|e| match e {
        Refused::Store(arena_service::store::StoreError::NotOwner { .. }) => WebError::forbidden(e.to_string()),
        Refused::Store(arena_service::store::StoreError::Conflict(_)) => {
            WebError::new(StatusCode::CONFLICT, e.to_string())
        }
        Refused::Store(arena_service::store::StoreError::Invalid(_)) => WebError::bad(e.to_string()),
        Refused::Store(_) | Refused::Game(_) => WebError::internal(e.to_string()),
        _ => WebError::new(axum::http::StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
    })
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new().route("/upload", get(upload_form).post(upload_submit))
}

/// This resource's API routes, each with its OpenAPI operation.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    r.routes(utoipa_axum::routes!(upload))
}

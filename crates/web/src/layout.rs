//! The page layout every HTML page shares: the navigation bar, the error page, and the embedded
//! scripts and styles (served at `/assets/`).

use super::auth::Viewer;
use super::error::WebError;
use askama::Template;
use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

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

pub fn html(t: &impl Template) -> Result<Response, WebError> {
    Ok(Html(t.render()?).into_response())
}

/// `/assets/{file}`: the embedded scripts and styles.
pub async fn asset(Path(file): Path<String>) -> Result<Response, WebError> {
    let (body, kind) = match file.as_str() {
        "arena.css" => (CSS, "text/css; charset=utf-8"),
        "arena.js" => (ARENA_JS, "text/javascript; charset=utf-8"),
        "replay.js" => (REPLAY_JS, "text/javascript; charset=utf-8"),
        _ => return Err(WebError::not_found(format!("no asset `{}`", super::error::quoted(&file)))),
    };
    Ok(([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=300")], body).into_response())
}

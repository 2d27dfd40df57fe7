//! Signing in and who is asking: a token (from `arena user add`) opens a session kept in an HttpOnly,
//! SameSite=Strict cookie; every form posted carries the session's CSRF token (the sign-in form, a
//! pre-session one from its own cookie); the API takes `Authorization: Bearer TOKEN` instead. Also
//! the headers every answer carries (a content security policy that allows no inline script).

use super::App;
use super::error::WebError;
use arena_service::store::{Session, User};
use axum::extract::{Form, FromRequestParts, State};
use axum::http::{HeaderMap, HeaderValue, header, request::Parts};
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;

const SESSION_COOKIE: &str = "arena_session";
pub(crate) const SIGNIN_COOKIE: &str = "arena_signin";
/// A session lasts a week.
pub(crate) const SESSION_SECS: i64 = 7 * 24 * 3600;

/// Who is looking at a page: a signed-in session, or a spectator.
pub struct Viewer(pub Option<Session>);

impl Viewer {
    pub fn user(&self) -> Option<&User> {
        self.0.as_ref().map(|s| &s.user)
    }

    /// The signed-in session, or 401 with a pointer to the sign-in page.
    pub fn require(&self) -> Result<&Session, WebError> {
        self.0.as_ref().ok_or_else(|| WebError::unauthorized("sign in first (/signin)"))
    }

    /// The session, if the form carries its CSRF token.
    pub fn checked(&self, csrf: &str) -> Result<&Session, WebError> {
        let s = self.require()?;
        if !constant_eq(s.csrf.as_bytes(), csrf.as_bytes()) {
            return Err(WebError::forbidden("the form's CSRF token is missing or stale: reload the page and retry"));
        }
        Ok(s)
    }
}

/// A form made before any session (signing in or up) carries the token its page set in `cookie_name`;
/// else 403.
pub(crate) fn pre_session_checked(
    headers: &HeaderMap,
    cookie_name: &str,
    csrf: &str,
    what: &str,
) -> Result<(), WebError> {
    let expected = cookie(headers, cookie_name).unwrap_or("");
    if expected.is_empty() || !constant_eq(expected.as_bytes(), csrf.as_bytes()) {
        return Err(WebError::forbidden(format!("the {what} form is stale or was not sent from this site: reload it")));
    }
    Ok(())
}

pub(crate) fn constant_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A cookie's value from the request headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, Self::Rejection> {
        let Some(id) = cookie(&parts.headers, SESSION_COOKIE).map(str::to_string) else { return Ok(Viewer(None)) };
        Ok(Viewer(app.read(move |s| s.session(&id)).await?))
    }
}

/// A signed-in viewer, checked before anything of the request's body is read: a form that only a
/// signed-in account may post answers 401 to anyone else at once, whatever its body (an anonymous
/// 30 MB post costs the server its headers only).
pub struct SignedIn(pub Viewer);

impl FromRequestParts<Arc<App>> for SignedIn {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, Self::Rejection> {
        let viewer = Viewer::from_request_parts(parts, app).await?;
        viewer.require()?;
        Ok(SignedIn(viewer))
    }
}

/// The account of an API request's bearer token, checked before anything else of the request is read
/// (its body included): 401 without a valid one.
pub struct ApiUser(pub User);

impl FromRequestParts<Arc<App>> for ApiUser {
    type Rejection = super::error::ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, Self::Rejection> {
        Ok(ApiUser(api_user(app, &parts.headers).await?))
    }
}

/// The account of an API request's bearer token: 401 without a valid one.
pub async fn api_user(app: &App, headers: &HeaderMap) -> Result<User, WebError> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .ok_or_else(|| WebError::unauthorized("an `Authorization: Bearer TOKEN` header is required"))?;
    app.read(move |s| s.user_by_token(&token))
        .await?
        .ok_or_else(|| WebError::unauthorized("the token is not valid (tokens come from `arena user add`)"))
}

#[derive(serde::Deserialize)]
pub struct CsrfOnly {
    /// Missing: refused as stale (403), like a wrong one.
    #[serde(default)]
    csrf: String,
}

pub async fn signout(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    SignedIn(viewer): SignedIn,
    Form(f): Form<CsrfOnly>,
) -> Result<Response, WebError> {
    viewer.checked(&f.csrf)?;
    if let Some(id) = cookie(&headers, SESSION_COOKIE).map(str::to_string) {
        app.write(move |s| s.close_session(&id)).await?;
    }
    Ok(([(header::SET_COOKIE, app.session_cookie(""))], Redirect::to("/")).into_response())
}

impl App {
    /// `; Secure` when cookies are sent over TLS only (`--secure-cookies`).
    pub(crate) fn cookie_flags(&self) -> &'static str {
        if self.cfg.secure_cookies { "; Secure" } else { "" }
    }

    /// The session cookie for session `id` (empty: the cookie cleared).
    pub(crate) fn session_cookie(&self, id: &str) -> String {
        let age = if id.is_empty() { 0 } else { SESSION_SECS };
        format!("{SESSION_COOKIE}={id}; HttpOnly; SameSite=Strict; Path=/; Max-Age={age}{}", self.cookie_flags())
    }
}

/// Headers on every answer: no inline script may run (a player's text can never become code), no
/// framing, no sniffing.
pub async fn security_headers(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut res = next.run(req).await;
    // Only an embeddable replay may be framed, by any site.
    let embeddable = res.extensions().get::<Embeddable>().is_some();
    let h = res.headers_mut();
    // One policy; only who may frame the answer differs.
    macro_rules! csp {
        ($frame:literal) => {
            HeaderValue::from_static(concat!(
                "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; object-src 'none'; ",
                "base-uri 'none'; frame-ancestors ",
                $frame,
                "; form-action 'self'"
            ))
        };
    }
    h.insert(header::CONTENT_SECURITY_POLICY, if embeddable { csp!("*") } else { csp!("'none'") });
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if embeddable {
        h.remove(header::X_FRAME_OPTIONS);
    } else {
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    res
}

/// Marks an answer that other sites may frame (the security headers allow it for this one only).
#[derive(Debug, Clone, Copy)]
pub struct Embeddable;

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    axum::Router::new().route("/signout", form_post(signout))
}

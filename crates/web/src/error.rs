//! Errors of the web arena: a status and a message that says what was wrong, as an HTML page for
//! people or as `{"error": {"code", "message"}}` for the API (every `/api/` answer that is an error
//! has that shape, the router's own refusals included). Nothing a request sends makes the server panic.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct WebError {
    pub status: StatusCode,
    pub message: String,
}

/// The most characters an error message keeps: whatever a request sent that a message quotes, it never
/// comes back whole (the sites that quote a request's value cut it to [`QUOTED`] first).
pub const MESSAGE_CHARS: usize = 2_000;
/// The most characters of a request's own value (a path, a cursor, a name) an error message quotes.
pub const QUOTED: usize = 120;

/// A request's value as an error message quotes it: cut to [`QUOTED`] characters.
pub fn quoted(s: &str) -> String {
    arena_core::quote_at(s, QUOTED)
}

impl WebError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> WebError {
        let message = message.into();
        let message =
            if message.len() > MESSAGE_CHARS { arena_core::quote_at(&message, MESSAGE_CHARS) } else { message };
        WebError { status, message }
    }
    pub fn not_found(m: impl Into<String>) -> WebError {
        WebError::new(StatusCode::NOT_FOUND, m)
    }
    pub fn bad(m: impl Into<String>) -> WebError {
        WebError::new(StatusCode::BAD_REQUEST, m)
    }
    pub fn unauthorized(m: impl Into<String>) -> WebError {
        WebError::new(StatusCode::UNAUTHORIZED, m)
    }
    pub fn forbidden(m: impl Into<String>) -> WebError {
        WebError::new(StatusCode::FORBIDDEN, m)
    }
    pub fn too_many(m: impl Into<String>) -> WebError {
        WebError::new(StatusCode::TOO_MANY_REQUESTS, m)
    }
    pub fn internal(m: impl Into<String>) -> WebError {
        WebError::new(StatusCode::INTERNAL_SERVER_ERROR, m)
    }
}

/// A refusal of the service layer, by its kind.
impl From<arena_service::refusal::Refusal> for WebError {
    fn from(r: arena_service::refusal::Refusal) -> WebError {
        use arena_service::refusal::Refusal;
        match r {
            Refusal::NotFound(m) => WebError::not_found(m),
            Refusal::Forbidden(m) => WebError::forbidden(m),
            Refusal::Bad(m) => WebError::bad(m),
            Refusal::Gone(m) => WebError::new(StatusCode::GONE, m),
            Refusal::Store(e) => e.into(),
        }
    }
}

impl From<arena_service::store::StoreError> for WebError {
    fn from(e: arena_service::store::StoreError) -> WebError {
        match e {
            arena_service::store::StoreError::NotOwner { .. } => WebError::forbidden(e.to_string()),
            _ => WebError::internal(e.to_string()),
        }
    }
}

impl From<askama::Error> for WebError {
    fn from(e: askama::Error) -> WebError {
        WebError::internal(format!("rendering the page: {e}"))
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!("{}", self.message);
        }
        let page = ErrorPage { title: self.status.canonical_reason().unwrap_or("Error"), message: &self.message };
        let body = askama::Template::render(&page).unwrap_or_else(|_| "error".into());
        (self.status, axum::response::Html(body)).into_response()
    }
}

/// An error of the JSON API.
pub struct ApiError(pub WebError);

impl From<WebError> for ApiError {
    fn from(e: WebError) -> ApiError {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.0.status.is_server_error() {
            tracing::error!("{}", self.0.message);
        }
        api_error(self.0.status, self.0.message)
    }
}

fn api_error(status: StatusCode, message: String) -> Response {
    let message = if message.len() > MESSAGE_CHARS { arena_core::quote_at(&message, MESSAGE_CHARS) } else { message };
    let error = ErrorDetail { code: error_code(status).into(), message };
    (status, axum::Json(ErrorBody { error })).into_response()
}

/// Gives an `/api/` error that is not JSON yet (an extractor's or the router's refusal: a path that
/// is no number, a query that does not parse, a method not allowed) the API's error shape.
pub async fn api_errors(res: Response) -> Response {
    let status = res.status();
    let json = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return res;
    }
    let allow = res.headers().get(axum::http::header::ALLOW).cloned();
    let mut out = api_error(status, refusal_text(res).await);
    if let Some(a) = allow {
        out.headers_mut().insert(axum::http::header::ALLOW, a);
    }
    out
}

/// Gives a page's error that is not a page yet (an extractor's or the router's refusal: a form that
/// does not parse, a path that is no number) the site's error page, with its status.
pub async fn page_errors(res: Response) -> Response {
    let status = res.status();
    let typed = res.headers().get(axum::http::header::CONTENT_TYPE).is_some_and(|v| {
        let v = v.as_bytes();
        v.starts_with(b"text/html") || v.starts_with(b"application/json")
    });
    if !(status.is_client_error() || status.is_server_error()) || typed || res.headers().contains_key("location") {
        return res;
    }
    WebError::new(status, refusal_text(res).await).into_response()
}

/// What a refusal of the router or an extractor says (its plain-text body, bounded), or its status's
/// name when it says nothing.
async fn refusal_text(res: Response) -> String {
    let status = res.status();
    let text = axum::body::to_bytes(res.into_body(), 16 * 1024).await.unwrap_or_default();
    let message = String::from_utf8_lossy(&text).trim().to_string();
    if message.is_empty() { status.canonical_reason().unwrap_or("error").to_string() } else { message }
}

/// Any `/api/` path that is no route.
pub async fn api_not_found(uri: axum::http::Uri) -> Response {
    api_error(StatusCode::NOT_FOUND, format!("no API route `{}` (the routes: /api/openapi.json)", quoted(uri.path())))
}

/// Every error of the API.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// A stable word for the kind of error: `bad_request`, `unauthorized`, `forbidden`, `not_found`,
    /// `method_not_allowed`, `payload_too_large`, `unprocessable`, `too_many_requests`, `unavailable`,
    /// `internal`, …
    pub code: String,
    /// What was wrong, for people.
    pub message: String,
}

use arena_net::error_code;

/// The page of an error, for people.
#[derive(askama::Template)]
#[template(path = "error.html")]
pub struct ErrorPage<'a> {
    pub title: &'a str,
    pub message: &'a str,
}

pub type ApiResult<T> = Result<axum::Json<T>, ApiError>;

//! Errors of the web arena: a status and a message that says what was wrong, as an HTML page for
//! people or as `{"error": ...}` for the API. Nothing a request sends makes the server panic.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct WebError {
    pub status: StatusCode,
    pub message: String,
}

impl WebError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> WebError {
        WebError { status, message: message.into() }
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

impl From<crate::store::StoreError> for WebError {
    fn from(e: crate::store::StoreError) -> WebError {
        match e {
            crate::store::StoreError::NotOwner { .. } => WebError::forbidden(e.to_string()),
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
        let page = super::pages::ErrorPage {
            title: self.status.canonical_reason().unwrap_or("Error"),
            message: &self.message,
        };
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
        let body = serde_json::json!({"error": self.0.message, "status": self.0.status.as_u16()});
        (self.0.status, axum::Json(body)).into_response()
    }
}

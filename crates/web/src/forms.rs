//! Forms read from a request: the small forms of the site's pages (checked before they are read) and
//! an upload's multipart fields, each streamed against its cap.

use super::App;
use super::error::WebError;
use axum::extract::Multipart;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use std::sync::Arc;

/// The most a form of the site's pages may carry (uploads and publications are multipart, and bounded
/// by the upload cap): a larger one is refused before more of it is read.
pub const FORM_BYTES: usize = 64 * 1024;

/// Refuses at once (413) a form whose `Content-Length` announces more than [`FORM_BYTES`]: the cap counts
/// from the first byte, nothing of such a body is read (one that announces nothing is cut at the cap
/// as it is read).
pub async fn small_form(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > FORM_BYTES as u64) {
        let why = format!("a form may carry at most {} KiB; nothing of this one was read", FORM_BYTES >> 10);
        return WebError::new(axum::http::StatusCode::PAYLOAD_TOO_LARGE, why).into_response();
    }
    next.run(req).await
}

/// `POST` of a small form to `handler`: refused past [`FORM_BYTES`] before any of it is read.
pub fn form_post<H, T>(handler: H) -> MethodRouter<Arc<App>>
where
    H: axum::handler::Handler<T, Arc<App>>,
    T: 'static,
{
    axum::routing::post(handler)
        .layer(axum::extract::DefaultBodyLimit::max(FORM_BYTES))
        .layer(axum::middleware::from_fn(small_form))
}

/// An upload's fields.
#[derive(Default)]
pub struct UploadFields {
    pub csrf: String,
    pub game: String,
    pub name: String,
    pub file_name: String,
    pub file: Option<Vec<u8>>,
    /// A candidate: judged against the player's version in use before it becomes a version.
    pub candidate: bool,
}

/// Reads a multipart upload, refusing a file over the cap as it streams in.
pub async fn read_upload(mut m: Multipart, max: usize) -> Result<UploadFields, WebError> {
    let mut f = UploadFields::default();
    // A body past the server's limit can surface as any read error; its text says so.
    let bad = |e: axum::extract::multipart::MultipartError| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE || e.body_text().contains("too large") {
            let m = format!("the upload is over the size cap of {} MiB; nothing was stored", max >> 20);
            WebError::new(axum::http::StatusCode::PAYLOAD_TOO_LARGE, m)
        } else {
            WebError::bad(format!("unreadable upload: {}", e.body_text()))
        }
    };
    while let Some(mut field) = m.next_field().await.map_err(bad)? {
        let name = field.name().unwrap_or("").to_string();
        if name == "file" || name == "package" {
            f.file_name = field.file_name().unwrap_or("upload.wasm").chars().take(200).collect();
            let mut bytes = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(bad)? {
                if bytes.len() + chunk.len() > max {
                    return Err(WebError::new(
                        axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                        format!("{}: over the size cap of {} MiB; nothing was stored", f.file_name, max >> 20),
                    ));
                }
                bytes.extend_from_slice(&chunk);
            }
            f.file = Some(bytes);
        } else {
            let text = field.text().await.map_err(bad)?;
            let text: String = text.chars().take(200).collect();
            match name.as_str() {
                "csrf" => f.csrf = text,
                "game" => f.game = text,
                "name" => f.name = text.trim().to_string(),
                "candidate" => f.candidate = matches!(text.trim(), "true" | "on" | "1" | "yes"),
                _ => {}
            }
        }
    }
    Ok(f)
}

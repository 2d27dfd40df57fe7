//! Forms read from a request: an upload's multipart fields, each streamed against its cap.

use super::error::WebError;
use axum::extract::Multipart;

/// An upload's fields.
#[derive(Default)]
pub struct UploadFields {
    pub csrf: String,
    pub game: String,
    pub name: String,
    pub file_name: String,
    pub file: Option<Vec<u8>>,
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
                _ => {}
            }
        }
    }
    Ok(f)
}

//! Connection hardening for `arena serve`, apart from every page: connections bounded per client and
//! in total (`conn`), the bounds themselves (`limits`), floods shunned in the kernel (`shun`), each
//! client's fair share of the store (`fair`), and the HTTP layer's own refusals answered in the API's
//! error shape (`refusals`). Nothing here renders a page or knows the store: the web crate plugs its
//! application in through [`Proxied`].

pub mod conn;
pub mod fair;
pub mod limits;
mod refusals;
mod shun;

/// What the connection layer needs to know of the application it serves.
pub trait Proxied: Send + Sync + 'static {
    /// Whether the server runs behind a proxy whose `X-Forwarded-For` names the client
    /// (`--trust-proxy`).
    fn trust_proxy(&self) -> bool;
}

/// The code of an error answered with `status`.
pub fn error_code(status: axum::http::StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "request_timeout",
        413 => "payload_too_large",
        414 => "uri_too_long",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "too_many_requests",
        431 => "headers_too_large",
        503 => "unavailable",
        s if s >= 500 => "internal",
        _ => "error",
    }
}

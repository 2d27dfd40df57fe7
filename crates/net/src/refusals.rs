//! The HTTP layer's own refusals in the API's error shape: hyper answers a request it cannot parse
//! (400 malformed, 414 target too long, 431 headers too large) itself, with an empty body, before any
//! route is known. Each connection's writes pass through [`JsonRefusals`], which gives exactly such an
//! answer a JSON body `{"error": {"code", "message"}}` (the request's path is not known at that point,
//! so every one gets the API's shape; a browser never sends such requests). After such a refusal the
//! connection lingers a moment to read and drop what the client is still sending (at most [`LINGER`]
//! and [`LINGER_BYTES`]), so that the client reads the answer rather than a reset.

use std::future::Future;
use std::io::IoSlice;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// How long a refused connection reads and drops what still comes, after its answer.
pub const LINGER: std::time::Duration = std::time::Duration::from_secs(2);
/// How much it reads and drops at most.
pub const LINGER_BYTES: u64 = 1 << 20;

/// The most a refusal's head of hyper's takes (a status line, three short headers): a longer write is
/// never one.
const REFUSAL_HEAD_BYTES: usize = 256;

/// A connection whose writes are passed on unchanged, but for hyper's own bodiless refusals.
pub struct JsonRefusals<S> {
    inner: S,
    /// A refusal rewritten, still to be written whole (hyper was told its own head was written).
    pending: Vec<u8>,
    sent: usize,
    /// After a refusal: the end of the lingering and the bytes it may still drop, once the write
    /// half is shut.
    linger: Option<(Pin<Box<tokio::time::Sleep>>, u64)>,
}

impl<S> JsonRefusals<S> {
    pub fn new(inner: S) -> JsonRefusals<S> {
        JsonRefusals { inner, pending: Vec::new(), sent: 0, linger: None }
    }
}

/// What a refusal of hyper's says, by status.
fn message(status: u16) -> String {
    match status {
        400 => "the request is not well-formed HTTP/1.1".into(),
        414 => "the request's target (its path and query) is too long".into(),
        431 => format!(
            "the request's headers are too large ({} KiB at most) or too many (100 at most)",
            super::limits::READ_BUFFER / 1024
        ),
        _ => "the request was refused by the HTTP layer".into(),
    }
}

/// `buf` rewritten with a JSON body when it is one whole response head of hyper's own refusals: a
/// 4xx status line followed by exactly `connection: close`, `content-length: 0` and the date. The
/// application's answers never look like that (every error of theirs has a body and a content type).
fn rewrite(buf: &[u8]) -> Option<Vec<u8>> {
    // Most writes are the application's: told apart by their first bytes and size, never read whole.
    if buf.len() > REFUSAL_HEAD_BYTES || !buf.starts_with(b"HTTP/1.1 4") {
        return None;
    }
    let head = std::str::from_utf8(buf).ok()?;
    let rest = head.strip_prefix("HTTP/1.1 ")?;
    let (status_line, rest) = rest.split_once("\r\n")?;
    let status: u16 = status_line.get(..3)?.parse().ok()?;
    if !(400..500).contains(&status) {
        return None;
    }
    let headers = rest.strip_suffix("\r\n\r\n")?;
    let mut lines = headers.split("\r\n");
    if lines.next()? != "connection: close" || lines.next()? != "content-length: 0" {
        return None;
    }
    let date = match lines.next() {
        Some(d) if d.starts_with("date: ") => Some(d),
        Some(_) => return None,
        None => None,
    };
    if lines.next().is_some() {
        return None;
    }
    let code = axum::http::StatusCode::from_u16(status).ok()?;
    let body = serde_json::json!({
        "error": {"code": crate::error_code(code), "message": message(status)}
    })
    .to_string();
    let date = date.map(|d| format!("{d}\r\n")).unwrap_or_default();
    let out = format!(
        "HTTP/1.1 {status_line}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{date}\r\n{body}",
        body.len()
    );
    Some(out.into_bytes())
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes what is pending of a rewritten refusal; Ready once nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.sent < self.pending.len() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.sent += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` as a refusal to rewrite when it is one; how much of it counts as written then.
    fn take_refusal(&mut self, buf: &[u8]) -> Option<usize> {
        let out = rewrite(buf)?;
        self.pending = out;
        self.sent = 0;
        Some(buf.len())
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        if let Err(e) = std::task::ready!(this.drain(cx)) {
            return Poll::Ready(Err(e));
        }
        if let Some(n) = this.take_refusal(buf) {
            // Written now as far as it goes; the rest by the flush that follows.
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(n));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        if let Err(e) = std::task::ready!(this.drain(cx)) {
            return Poll::Ready(Err(e));
        }
        let mut filled = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(only), None) = (filled.next(), filled.next())
            && let Some(n) = this.take_refusal(only)
        {
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(n));
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        if let Err(e) = std::task::ready!(this.drain(cx)) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        if let Err(e) = std::task::ready!(this.drain(cx)) {
            return Poll::Ready(Err(e));
        }
        if this.pending.is_empty() {
            return Pin::new(&mut this.inner).poll_shutdown(cx);
        }
        if this.linger.is_none() {
            std::task::ready!(Pin::new(&mut this.inner).poll_shutdown(cx))?;
            this.linger = Some((Box::pin(tokio::time::sleep(LINGER)), LINGER_BYTES));
        }
        let Some((until, left)) = this.linger.as_mut() else { return Poll::Ready(Ok(())) };
        let mut scratch = [0u8; 8192];
        while *left > 0 {
            if until.as_mut().poll(cx).is_ready() {
                break;
            }
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut this.inner).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if !buf.filled().is_empty() => {
                    *left = left.saturating_sub(buf.filled().len() as u64)
                }
                // The client's end, or its failure: nothing more to wait for.
                Poll::Ready(_) => break,
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn only_hypers_bodiless_refusals_are_rewritten() {
        let hyper = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Fri, 27 Nov 2026 20:07:59 GMT\r\n\r\n";
        let out = String::from_utf8(rewrite(hyper).unwrap()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{head}");
        assert!(head.contains("\r\ncontent-type: application/json\r\n"), "{head}");
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())), "{head}");
        assert!(head.ends_with("date: Fri, 27 Nov 2026 20:07:59 GMT"), "{head}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "headers_too_large");
        // An answer with a body, another header, a success, or a head cut short is the application's.
        for other in [
            &b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 2\r\n\r\n{}"[..],
            b"HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\ncontent-type: text/plain\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n",
        ] {
            assert!(rewrite(other).is_none(), "{}", String::from_utf8_lossy(other));
        }
    }
}

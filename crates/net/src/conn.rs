//! The connections of `arena serve`, bounded so that no visitor can starve the server: a request's
//! headers must arrive within 10 s (an idle keep-alive connection waits for its next request's
//! headers under the same clock), a body must keep coming (no 10 s gap, and at least 8 KiB/s on
//! average once its first 10 s are past), and connections are capped per client address and in total,
//! below the process's descriptor limit (raised to its hard limit at start). Each request carries its
//! connection's peer address (`ConnectInfo`) for the caps the handlers keep per client.

use super::limits::{
    BODY_GRACE, BODY_MIN_RATE, BODY_STALL, Bucket, HEADER_TIMEOUT, NEW_BURST, NEW_PER_SECOND, READ_BUFFER, Rate,
    client_key,
};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How many connections one client address, and all of them, may hold at once.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    pub per_address: usize,
    pub total: usize,
}

impl Caps {
    /// Caps below a descriptor limit of `fds`: room is kept for the store, the compile children and
    /// the log; one address may hold an eighth of the rest (at most 256).
    pub fn under(fds: u64) -> Caps {
        let total = (fds.saturating_sub(128) as usize).clamp(16, 100_000);
        Caps { per_address: (total / 8).clamp(4, 256), total }
    }
}

/// Places held per client address and in total, under caps: connections, live streams.
#[derive(Clone)]
pub struct PerClient {
    held: Arc<Mutex<Held>>,
    pub caps: Caps,
}

#[derive(Default)]
struct Held {
    by: HashMap<IpAddr, usize>,
    total: usize,
}

/// A place taken, given back when dropped.
pub struct Slot {
    held: Arc<Mutex<Held>>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        h.total = h.total.saturating_sub(1);
        if let Some(n) = h.by.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                h.by.remove(&self.ip);
            }
        }
    }
}

impl PerClient {
    pub fn new(caps: Caps) -> PerClient {
        PerClient { held: Arc::default(), caps }
    }

    /// Whether `ip` holds as many places as one address may.
    pub fn full_for(&self, ip: IpAddr) -> bool {
        let h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        h.by.get(&ip).copied().unwrap_or(0) >= self.caps.per_address
    }

    /// A place for `ip`, unless it or everyone holds the most allowed.
    pub fn take(&self, ip: IpAddr) -> Option<Slot> {
        let mut h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let mine = h.by.get(&ip).copied().unwrap_or(0);
        if h.total >= self.caps.total || mine >= self.caps.per_address {
            return None;
        }
        h.total += 1;
        h.by.insert(ip, mine + 1);
        Some(Slot { held: self.held.clone(), ip })
    }
}

/// New connections per client address: a token bucket each, refilled at [`NEW_PER_SECOND`] up to
/// [`NEW_BURST`]. Full buckets are forgotten when there are many, so the map stays small.
#[derive(Default)]
struct Arrivals {
    by: HashMap<IpAddr, Bucket>,
}

const ARRIVALS: Rate = Rate { per_second: NEW_PER_SECOND, burst: NEW_BURST };

impl Arrivals {
    /// Whether `ip` may open another connection now.
    fn admit(&mut self, ip: IpAddr, now: std::time::Instant) -> bool {
        if self.by.len() > 10_000 {
            self.by.retain(|_, bucket| bucket.level(ARRIVALS, now) < NEW_BURST);
        }
        self.by.entry(ip).or_insert(Bucket::full(ARRIVALS, now)).take(ARRIVALS, now)
    }
}

/// Who a request comes from, as the caps count ([`client_key`]): its connection's peer, or with
/// `--trust-proxy` the last address in its `X-Forwarded-For` (the one the proxy in front of this
/// server added).
#[derive(Debug, Clone, Copy)]
pub struct Client(pub IpAddr);

impl<A: crate::Proxied> axum::extract::FromRequestParts<Arc<A>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<A>,
    ) -> Result<Client, Self::Rejection> {
        if app.trust_proxy()
            && let Some(ip) = forwarded(&parts.headers)
        {
            return Ok(Client(client_key(ip)));
        }
        let peer = parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
        Ok(Client(client_key(peer.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)))))
    }
}

/// The last address of the last `X-Forwarded-For` header, if it is one.
fn forwarded(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?.to_str().ok()?;
    last.rsplit(',').next()?.trim().parse().ok()
}

/// Raises the soft limit on open descriptors to the hard one; the limit now in force.
pub fn raise_descriptor_limit() -> u64 {
    let mut l = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `l` is a valid, writable rlimit; RLIMIT_NOFILE exists on every Linux.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) } != 0 {
        return 1024;
    }
    if l.rlim_cur < l.rlim_max {
        let raised = libc::rlimit { rlim_cur: l.rlim_max, rlim_max: l.rlim_max };
        // SAFETY: as above; raising the soft limit up to the hard one needs no privilege.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return raised.rlim_cur;
        }
    }
    l.rlim_cur
}

/// Serves `router` on `listener` until `shutdown` resolves, each connection with hyper under the
/// header timeout and the caps (a connection past a cap, or opened faster than its address may, is
/// closed at once, and an address that keeps coming back past them is shunned in the kernel: see
/// [`crate::shun`]). `per_address`: whether the caps and the rate apply per peer address (not behind
/// a proxy, where every connection comes from the proxy).
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    caps: Caps,
    per_address: bool,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let held = PerClient::new(caps);
    let mut arrivals = Arrivals::default();
    let mut shun = per_address.then(|| super::shun::Shun::new(std::os::fd::AsRawFd::as_raw_fd(&listener)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT).max_buf_size(READ_BUFFER);
    let router = router
        .layer(axum::middleware::from_fn(min_rate))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(BODY_STALL));
    tokio::pin!(shutdown);
    loop {
        let shun_ends = shun.as_ref().and_then(|s| s.next_end());
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of descriptors, say: wait a moment rather than spin.
                Err(e) => {
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = tokio::time::sleep_until(shun_ends.map_or_else(far, tokio::time::Instant::from_std)),
                if shun_ends.is_some() =>
            {
                if let Some(s) = &mut shun {
                    s.expire(std::time::Instant::now());
                }
                continue;
            }
            () = &mut shutdown => return Ok(()),
        };
        if let Some(s) = &shun {
            s.accepted(std::os::fd::AsRawFd::as_raw_fd(&stream));
        }
        let now = std::time::Instant::now();
        let client = client_key(addr.ip());
        if per_address && !arrivals.admit(client, now) {
            tracing::debug!("{addr}: opens connections too fast, closed");
            if let Some(s) = &mut shun {
                s.refused(client, now);
            }
            continue;
        }
        let Some(slot) = held.take(client) else {
            tracing::debug!("{addr}: over the connection caps, closed");
            if let Some(s) = &mut shun
                && held.full_for(client)
            {
                s.refused(client, now);
            }
            continue;
        };
        let service = tower::Layer::layer(&axum::Extension(axum::extract::ConnectInfo(addr)), router.clone());
        let service = hyper_util::service::TowerToHyperService::new(service);
        let conn = http
            .serve_connection(hyper_util::rt::TokioIo::new(super::refusals::JsonRefusals::new(stream)), service)
            .with_upgrades();
        tokio::spawn(async move {
            let _slot = slot;
            if let Err(e) = conn.await {
                tracing::debug!("{addr}: {e}");
            }
        });
    }
}

/// A moment far enough ahead to mean never.
fn far() -> tokio::time::Instant {
    tokio::time::Instant::now() + Duration::from_secs(86_400)
}

/// Cuts a request's body whose average rate falls below [`BODY_MIN_RATE`] after [`BODY_GRACE`]: the
/// handler reading it sees an error, and the connection closes with the request unanswered or refused.
async fn min_rate(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    use futures_util::StreamExt;
    if axum::body::HttpBody::size_hint(req.body()).exact() == Some(0) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let start = tokio::time::Instant::now();
    let mut got: u64 = 0;
    let data = body.into_data_stream().map(move |chunk| {
        let chunk = chunk?;
        got += chunk.len() as u64;
        let late = start.elapsed().saturating_sub(BODY_GRACE);
        if got < (BODY_MIN_RATE as f64 * late.as_secs_f64()) as u64 {
            let m = format!("the request's body came slower than {} KiB/s; it was cut", BODY_MIN_RATE / 1024);
            return Err(axum::Error::new(std::io::Error::new(std::io::ErrorKind::TimedOut, m)));
        }
        Ok(chunk)
    });
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from_stream(data))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_per_address_and_in_total_and_places_come_back() {
        let held = PerClient::new(Caps { per_address: 2, total: 3 });
        let (a, b, c): (IpAddr, IpAddr, IpAddr) =
            ("127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap(), "127.0.0.4".parse().unwrap());
        let a1 = held.take(a).unwrap();
        let _a2 = held.take(a).unwrap();
        assert!(held.take(a).is_none(), "two per address");
        let _b1 = held.take(b).unwrap();
        assert!(held.take(c).is_none(), "three in all");
        drop(a1);
        assert!(held.take(c).is_some(), "a closed connection gives its place back");
        let under = Caps::under(1024);
        assert!(under.total < 1024 && under.per_address < under.total, "{under:?}");
    }

    #[test]
    fn an_address_opens_a_burst_then_its_rate_and_others_are_not_slowed() {
        let mut a = Arrivals::default();
        let (x, y): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap());
        let t = std::time::Instant::now();
        let burst = (0..1000).filter(|_| a.admit(x, t)).count();
        assert_eq!(burst, NEW_BURST as usize);
        assert!(a.admit(y, t), "another address has its own bucket");
        let later = t + std::time::Duration::from_secs(1);
        let more = (0..1000).filter(|_| a.admit(x, later)).count();
        assert_eq!(more, NEW_PER_SECOND as usize, "a second later, a second's worth");
    }

    #[test]
    fn clients_are_counted_by_ipv4_address_and_by_ipv6_network() {
        let key = |s: &str| client_key(s.parse().unwrap()).to_string();
        assert_eq!(key("203.0.113.9"), "203.0.113.9");
        assert_eq!(key("::ffff:203.0.113.9"), "203.0.113.9", "an IPv4 address mapped into IPv6 is that address");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::7"), key("2001:db8:1:2:ffff::1"), "one /64, one client");
        assert_ne!(key("2001:db8:1:2::7"), key("2001:db8:1:3::7"), "another /64, another client");
    }

    #[test]
    fn the_forwarded_address_is_the_last_one_the_proxy_added() {
        let mut h = axum::http::HeaderMap::new();
        assert_eq!(forwarded(&h), None);
        h.append("x-forwarded-for", "203.0.113.9, 198.51.100.3".parse().unwrap());
        assert_eq!(forwarded(&h), Some("198.51.100.3".parse().unwrap()));
        h.append("x-forwarded-for", " 2001:db8::7 ".parse().unwrap());
        assert_eq!(forwarded(&h), Some("2001:db8::7".parse().unwrap()));
        h.append("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(forwarded(&h), None);
    }
}

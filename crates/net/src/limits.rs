//! The bounds every connection is held to, and the token buckets and client keys the caps count with.

use std::net::IpAddr;
use std::time::Duration;

/// How long a request's headers may take, counted from the connection's start or its last response.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// What a connection buffers of what it reads, a request's head included (a browser's head, cookies
/// and all, is a few KiB): past it the request is refused (431), so that no head costs more.
pub const READ_BUFFER: usize = 64 * 1024;
/// How long a request's body may go without sending anything.
pub const BODY_STALL: Duration = Duration::from_secs(10);
/// A body's average rate, in bytes a second, below which it is cut once [`BODY_GRACE`] is past (a
/// 32 MiB upload may take more than an hour at this rate; a trickle meant to hold a slot may not).
pub const BODY_MIN_RATE: u64 = 8 * 1024;
/// How long a body may take before its average rate is checked.
pub const BODY_GRACE: Duration = Duration::from_secs(10);

/// New connections one client address may open a second, on average, and at once: past that a
/// connection is closed as soon as it is accepted (a browser opens a handful; a flood of reconnects
/// costs the server an accept and a close each, not a request).
pub const NEW_PER_SECOND: f64 = 50.0;
pub const NEW_BURST: f64 = 200.0;

/// How a token bucket fills: `per_second` tokens a second, up to `burst`.
#[derive(Debug, Clone, Copy)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

/// A token bucket: its tokens as of `at` (below zero when more was spent than it held).
#[derive(Debug, Clone, Copy)]
pub struct Bucket {
    tokens: f64,
    at: std::time::Instant,
}

impl Bucket {
    /// A bucket full at `now`.
    pub fn full(rate: Rate, now: std::time::Instant) -> Bucket {
        Bucket { tokens: rate.burst, at: now }
    }

    /// Its tokens at `now`, refilled since last reckoned.
    pub fn level(&self, rate: Rate, now: std::time::Instant) -> f64 {
        (self.tokens + now.duration_since(self.at).as_secs_f64() * rate.per_second).min(rate.burst)
    }

    /// Spends `n` tokens at `now`, even more than it holds; the tokens left.
    pub fn spend(&mut self, n: f64, rate: Rate, now: std::time::Instant) -> f64 {
        *self = Bucket { tokens: self.level(rate, now) - n, at: now };
        self.tokens
    }

    /// Takes one token at `now`, if it holds one.
    pub fn take(&mut self, rate: Rate, now: std::time::Instant) -> bool {
        if self.spend(0.0, rate, now) < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

/// What the per-client caps count by: an IPv4 address as it is (also one mapped into IPv6), an IPv6
/// address by its /64 network, which is what one subscriber is given (so that hopping between the
/// addresses of its own network gains a client nothing).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(a) => IpAddr::V6((u128::from(a) & !(u64::MAX as u128)).into()),
        v4 => v4,
    }
}

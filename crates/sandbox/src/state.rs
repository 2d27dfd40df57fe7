//! What a player's store holds: a capability-free WASI context (no files, no network, no environment,
//! seeded randomness, virtual clocks), a bounded log of what it printed, the resource limiter that
//! enforces its memory, table and instance caps and remembers what it refused, the meter of what its
//! host calls cost, and the CPU clock of the call under way.

use super::cpu::CpuClock;
use super::meter::{Meter, WasiBytes};
use arena_core::{Event, Limits};
use bytes::Bytes;
use chacha20::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng, TryRng};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wasmtime::ResourceLimiter;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

/// Bytes of stdout+stderr kept per player per store; the rest is counted and dropped.
pub const LOG_CAPACITY: usize = 16 * 1024;

/// The end of what a player printed, kept past [`LOG_CAPACITY`] too: its last words, shown under its
/// fault (a traceback comes last, after whatever it printed before).
const TAIL_BYTES: usize = 2048;
/// The lines of its last words shown under a fault, and the characters of each.
pub const LAST_LINES: usize = 8;
const LAST_LINE_CHARS: usize = 200;

/// The most random bytes one WASI call may ask for (language runtimes ask for a few dozen).
const MAX_RANDOM_BYTES: u64 = 64 * 1024;

/// The most WASI resources (streams, pollables) a player may hold at once: language runtimes hold a
/// handful; a player that opens them without end gets an error instead of growing the host's table.
pub const MAX_RESOURCES: usize = 1_000;

/// The data of one player's `Store`.
pub struct PlayerState {
    /// Made on the guest's first WASI call ([`WasiView::ctx`]): many instances make none (a game's
    /// players that print nothing and draw no random numbers), and building one is about a twentieth
    /// of an instantiation. Its randomness comes from `seed` whenever it is made.
    wasi: Option<WasiCtx>,
    seed: u64,
    table: ResourceTable,
    pub(crate) limiter: Limiter,
    log: BoundedLog,
    pub(crate) meter: Meter,
    pub(crate) cpu: CpuClock,
    /// What a referee emitted (game packages), in order; bounded by the host function that adds them.
    pub events: Vec<Event>,
    /// What a host layer keeps with this player for the length of its store (a game package's
    /// instance serving the player's rule checks).
    pub extension: Option<Box<dyn std::any::Any + Send>>,
    /// A host layer's service failed during the player's call, through no fault of the player's (the
    /// game's rule checker): why. A call that fails with this set is the game's fault, not the player's.
    pub host_failed: Option<String>,
    /// Where its fuel goes, sampled, when it is profiled (see [`PlayerState::profile`]).
    pub(crate) profile: Option<Box<crate::Profile>>,
}

impl PlayerState {
    /// A fresh state: `seed` feeds the player's (virtual) randomness so a game is reproducible.
    pub fn new(limits: &Limits, seed: u64) -> PlayerState {
        let meter = Meter::default();
        // One write may carry no more than the store lets a host call lift.
        let chunk = usize::try_from(limits.answer_bytes).unwrap_or(usize::MAX).min(64 * 1024);
        let log = BoundedLog::new(LOG_CAPACITY, chunk, meter.wasi_bytes.clone());
        let mut table = ResourceTable::new();
        table.set_max_capacity(MAX_RESOURCES);
        PlayerState {
            wasi: None,
            seed,
            table,
            limiter: Limiter::new(limits),
            log,
            meter,
            cpu: CpuClock::new(),
            events: Vec::new(),
            extension: None,
            host_failed: None,
            profile: None,
        }
    }

    /// Samples where the player's fuel goes from now on (see [`crate::Profile`]).
    pub fn profile(&mut self) {
        self.profile.get_or_insert_default();
    }

    /// What the samples found so far, taken out (the player is no longer profiled).
    pub fn take_profile(&mut self) -> Option<crate::Profile> {
        self.profile.take().map(|p| *p)
    }

    /// What the player printed so far (bounded), as lossy UTF-8.
    pub fn log(&self) -> String {
        self.log.text()
    }

    /// The last lines the player printed (at most [`LAST_LINES`], each cut to a line's width), past
    /// the log's capacity too, control characters replaced: what it said last, shown under its fault to
    /// whoever owns it.
    pub fn last_words(&self) -> String {
        self.log.last_words()
    }

    /// What it printed from byte `from` of its kept log on, and where the kept log ends now (what it
    /// printed past the log's capacity is dropped, and not shown here).
    pub fn output_since(&self, from: usize) -> (String, usize) {
        self.log.since(from)
    }
}

impl WasiView for PlayerState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        let ctx = self.wasi.get_or_insert_with(|| wasi_ctx(self.seed, &self.log, &self.meter));
        WasiCtxView { ctx, table: &mut self.table }
    }
}

/// A player's WASI context: the log for stdout and stderr, randomness from `seed`, virtual clocks; the
/// builder's defaults already give no env, no args, no preopens, closed stdin and denied sockets.
fn wasi_ctx(seed: u64, log: &BoundedLog, meter: &Meter) -> WasiCtx {
    let random = |seed| MeteredRng { rng: ChaCha8Rng::seed_from_u64(seed), metered: meter.wasi_bytes.clone() };
    let mut b = WasiCtx::builder();
    b.stdout(log.clone())
        .stderr(log.clone())
        .secure_random(random(seed))
        .insecure_random(random(seed ^ 0x5eed_5eed_5eed_5eed))
        .insecure_random_seed(u128::from(seed))
        .max_random_size(MAX_RANDOM_BYTES)
        .wall_clock(VirtualClock::default())
        .monotonic_clock(VirtualClock::default())
        .allow_ip_name_lookup(false)
        .allow_tcp(false)
        .allow_udp(false);
    b.build()
}

/// Enforces the memory, table and instance caps, and remembers the first refusal so that the trap a
/// guest raises after a failed `memory.grow` is classified as `memory`, not as a crash.
pub(crate) struct Limiter {
    memory_cap: usize,
    table_cap: usize,
    instances: usize,
    /// Bytes of linear memory in use, summed over the player's memories.
    in_use: usize,
    pub(crate) refused: Option<String>,
}

impl Limiter {
    fn new(limits: &Limits) -> Limiter {
        Limiter {
            memory_cap: usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX),
            table_cap: limits.table_elements,
            instances: limits.instances,
            in_use: 0,
            refused: None,
        }
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(&mut self, current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        let after = self.in_use - current.min(self.in_use) + desired;
        if after > self.memory_cap {
            self.refused.get_or_insert_with(|| {
                format!(
                    "asked for {} MiB of linear memory; the cap is {} MiB",
                    after.div_ceil(1 << 20),
                    self.memory_cap >> 20
                )
            });
            return Ok(false);
        }
        self.in_use = after;
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.table_cap {
            self.refused.get_or_insert_with(|| {
                format!("asked for a table of {desired} elements; the cap is {}", self.table_cap)
            });
            return Ok(false);
        }
        Ok(true)
    }

    fn instances(&self) -> usize {
        self.instances
    }
    fn tables(&self) -> usize {
        self.instances
    }
    fn memories(&self) -> usize {
        self.instances
    }
}

/// A player's randomness: seeded, and every byte drawn is billed to the player by the meter.
struct MeteredRng {
    rng: ChaCha8Rng,
    metered: WasiBytes,
}

impl TryRng for MeteredRng {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.metered.add(4);
        Ok(self.rng.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.metered.add(8);
        Ok(self.rng.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.metered.add(dst.len());
        self.rng.fill_bytes(dst);
        Ok(())
    }
}

/// A clock that starts at 2000-01-01 and advances one millisecond each time it is read: guests that
/// need a clock get one, but it tells them nothing about the host and is the same on every run.
#[derive(Default)]
struct VirtualClock {
    reads: std::sync::atomic::AtomicU64,
}

impl VirtualClock {
    fn tick(&self) -> u64 {
        self.reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
    }
}

const Y2000: Duration = Duration::from_secs(946_684_800);

impl HostWallClock for VirtualClock {
    fn resolution(&self) -> Duration {
        Duration::from_millis(1)
    }
    fn now(&self) -> Duration {
        Y2000 + Duration::from_millis(self.tick())
    }
}

impl HostMonotonicClock for VirtualClock {
    fn resolution(&self) -> u64 {
        1_000_000
    }
    fn now(&self) -> u64 {
        self.tick() * 1_000_000
    }
}

/// stdout/stderr of a player: keeps the first `capacity` bytes, accepts and drops the rest, so a chatty
/// player never fails a write (which would make some languages' print panic).
#[derive(Clone)]
struct BoundedLog {
    inner: Arc<Mutex<LogBuf>>,
    /// The most one write may carry.
    chunk: usize,
    metered: WasiBytes,
}

struct LogBuf {
    kept: Vec<u8>,
    capacity: usize,
    dropped: usize,
    /// The last [`TAIL_BYTES`] of what was dropped (nothing while nothing is).
    tail: std::collections::VecDeque<u8>,
}

impl BoundedLog {
    fn new(capacity: usize, chunk: usize, metered: WasiBytes) -> BoundedLog {
        BoundedLog {
            inner: Arc::new(Mutex::new(LogBuf { kept: Vec::new(), capacity, dropped: 0, tail: Default::default() })),
            chunk,
            metered,
        }
    }

    fn push(&self, bytes: &[u8]) {
        let mut b = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let room = b.capacity - b.kept.len();
        let take = room.min(bytes.len());
        b.kept.extend_from_slice(&bytes[..take]);
        b.dropped += bytes.len() - take;
        let over = &bytes[take..];
        if !over.is_empty() {
            let over = &over[over.len().saturating_sub(TAIL_BYTES)..];
            b.tail.extend(over);
            let excess = b.tail.len().saturating_sub(TAIL_BYTES);
            b.tail.drain(..excess);
        }
        drop(b);
        self.metered.add(bytes.len());
    }

    fn since(&self, from: usize) -> (String, usize) {
        let b = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let new = b.kept.get(from..).unwrap_or_default();
        (String::from_utf8_lossy(new).into_owned(), b.kept.len())
    }

    fn last_words(&self) -> String {
        let b = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let from_kept = TAIL_BYTES.saturating_sub(b.tail.len()).min(b.kept.len());
        let mut end: Vec<u8> = b.kept[b.kept.len() - from_kept..].to_vec();
        end.extend(b.tail.iter());
        drop(b);
        last_lines(&String::from_utf8_lossy(&end), end.len() >= TAIL_BYTES)
    }

    fn text(&self) -> String {
        let b = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut s = String::from_utf8_lossy(&b.kept).into_owned();
        if b.dropped > 0 {
            s.push_str(&format!("\n[… {} more bytes dropped]", b.dropped));
        }
        s
    }
}

/// The last [`LAST_LINES`] non-blank lines of `text`, each cut to [`LAST_LINE_CHARS`]; `cut`: the
/// text starts mid-stream, so its first line may be a piece of one and is left out.
pub fn last_lines(text: &str, cut: bool) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if cut && lines.len() > 1 {
        lines.remove(0);
    }
    let kept: Vec<String> = lines
        .iter()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .take(LAST_LINES)
        .map(|l| {
            // Control characters (a terminal's escapes) are shown as such, never sent on.
            let mut out: String =
                l.trim_end().chars().map(|c| if c.is_control() && c != '\t' { '\u{fffd}' } else { c }).collect();
            if let Some((i, _)) = out.char_indices().nth(LAST_LINE_CHARS) {
                out.truncate(i);
                out.push('…');
            }
            out
        })
        .collect();
    kept.into_iter().rev().collect::<Vec<_>>().join("\n")
}

impl IsTerminal for BoundedLog {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for BoundedLog {
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
}

impl tokio::io::AsyncWrite for BoundedLog {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        self.push(buf);
        std::task::Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for BoundedLog {
    async fn ready(&mut self) {}
}

#[wasmtime_wasi::async_trait]
impl OutputStream for BoundedLog {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.push(&bytes);
        Ok(())
    }
    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }
    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(self.chunk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_words_are_the_end_of_what_was_printed_even_past_the_logs_capacity() {
        let log = BoundedLog::new(64, 1024, WasiBytes::default());
        log.push(b"hello\n");
        assert_eq!(log.last_words(), "hello");
        for i in 0..100 {
            log.push(format!("line {i}\n").as_bytes());
        }
        log.push(b"Traceback (most recent call last):\n  File \"/0/app.py\", line 17\nIndexError: list index out of range\n\n");
        let words = log.last_words();
        let lines: Vec<&str> = words.lines().collect();
        assert_eq!(lines.len(), LAST_LINES, "{words}");
        assert_eq!(lines[LAST_LINES - 1], "IndexError: list index out of range");
        assert_eq!(lines[LAST_LINES - 4], "line 99");
        assert!(log.text().len() < 200, "the kept log stays bounded");
    }

    #[test]
    fn last_lines_cut_long_lines_and_show_control_characters() {
        let long = "x".repeat(500);
        let words = last_lines(&format!("{long}\n\u{1b}[2Jcleared\n"), false);
        let lines: Vec<&str> = words.lines().collect();
        assert_eq!(lines[0].chars().count(), LAST_LINE_CHARS + 1);
        assert_eq!(lines[1], "\u{fffd}[2Jcleared");
        // Cut mid-stream: the first piece of a line is left out.
        assert_eq!(last_lines("ece of a line\nwhole\n", true), "whole");
    }
}

//! Deadlines in CPU time, so that fuel, not the machine's load, decides when running wasm is stopped.
//! While a call runs wasm, the epoch callback samples the CPU time of the thread running it every few
//! ticks and stops the call once it has used its deadline's worth; time the thread spends descheduled
//! (a loaded machine) does not count. A player blocked outside wasm (a host call that waits) uses no CPU
//! and is stopped by the wall-clock backstop in `call.rs` instead. Reading a thread's CPU clock is a
//! system call (0.4–0.7 µs here, many times a call's own cost), so a call is not timed from its start
//! but from its first sample, a few epoch ticks (10 ms) after it starts: a call that ends sooner reads
//! no clock at all, and a deadline is at most that much longer than set.

use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// Ticks of the epoch between two samples while wasm runs.
pub(crate) const SAMPLE_TICKS: u64 = 5;

/// The CPU time one call has used so far, against its budget.
#[derive(Debug)]
pub(crate) struct CpuClock {
    budget: Duration,
    used: Duration,
    /// The thread that ran the call when last sampled, and its CPU time then.
    last: Option<(ThreadId, Duration)>,
    /// When the call was first sampled.
    first: Option<Instant>,
}

impl CpuClock {
    pub(crate) fn new() -> CpuClock {
        CpuClock { budget: Duration::MAX, used: Duration::ZERO, last: None, first: None }
    }

    /// Starts a call with `budget` of CPU time, counted from its first sample.
    pub(crate) fn arm(&mut self, budget: Duration) {
        self.budget = budget;
        self.used = Duration::ZERO;
        self.last = None;
        self.first = None;
    }

    /// What the call that started at `started` has cost: the time on the clock until its first sample
    /// (all of it for a call too short to be sampled), then its CPU time. A long call on a loaded
    /// machine costs its CPU time, not its waits for a core; reading the clock costs nothing per call.
    /// Returns (its time on the clock, what it cost), from one reading of the clock.
    pub(crate) fn spent(&self, started: Instant) -> (Duration, Duration) {
        let wall = started.elapsed();
        match self.first {
            None => (wall, wall),
            Some(first) => (wall, first.saturating_duration_since(started) + self.used),
        }
    }

    /// Samples the running thread; `false` once the call has used more than its budget. A call that
    /// moved to another thread (after waiting on the host) counts from its first sample there.
    pub(crate) fn within_budget(&mut self) -> bool {
        let now = (std::thread::current().id(), thread_cpu_time());
        if self.first.is_none() {
            self.first = Some(Instant::now());
        }
        if let Some((thread, then)) = self.last
            && thread == now.0
        {
            self.used += now.1.saturating_sub(then);
        }
        self.last = Some(now);
        self.used <= self.budget
    }
}

/// The CPU time the calling thread has used.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on every Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_cpu_time_not_sleep() {
        let mut c = CpuClock::new();
        c.arm(Duration::from_millis(30));
        assert!(c.within_budget(), "the first sample starts the count");
        std::thread::sleep(Duration::from_millis(60));
        assert!(c.within_budget(), "sleeping uses no CPU time");
        let start = thread_cpu_time();
        let mut x = 0u64;
        while thread_cpu_time() - start < Duration::from_millis(40) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(!c.within_budget(), "40 ms of spinning is more than 30 ms of CPU time");
    }
}

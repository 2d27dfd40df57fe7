//! Compiles nobody waits for give way to those somebody does: a compile started in the background runs
//! at the lowest priority, and its worker is stopped outright (SIGSTOP) while any other compile worker
//! of this process runs, then resumed (SIGCONT). Niceness alone was not enough: a verdict's quick
//! compile beside an optimised compile at `nice` 19 took 1.3 times as long (on a 2-core machine, the
//! two still share caches, memory bandwidth and the host's cores).

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

std::thread_local! {
    static BACKGROUND: Cell<bool> = const { Cell::new(false) };
}

/// How many compile workers somebody waits for are running in this process.
static FOREGROUND: AtomicUsize = AtomicUsize::new(0);

/// Runs `f` with every compile it starts in the background: in a child process at the lowest
/// priority (`nice` 19), stopped while a compile somebody waits for runs. For a compile nobody waits
/// for (the optimised code of a version validated as quick code).
pub fn in_background<T>(f: impl FnOnce() -> T) -> T {
    /// Sets the thread's mark back however `f` ends.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            BACKGROUND.with(|b| b.set(false));
        }
    }
    BACKGROUND.with(|b| b.set(true));
    let _reset = Reset;
    f()
}

/// Whether compiles started on this thread now are in the background.
pub(crate) fn is_background() -> bool {
    BACKGROUND.with(Cell::get)
}

/// A running compile worker's part in who gives way: a foreground worker counts while it runs; a
/// background one is stopped while any foreground one runs. `poll` is called as the worker is waited
/// for, and says how long it has run unstopped, the time its wall-clock deadline counts.
pub(crate) struct Turn {
    pid: libc::pid_t,
    background: bool,
    stopped: bool,
    ran: Duration,
    since: Instant,
}

impl Turn {
    pub(crate) fn start(pid: u32) -> Turn {
        let background = is_background();
        if !background {
            FOREGROUND.fetch_add(1, Ordering::SeqCst);
        }
        let pid = libc::pid_t::try_from(pid).unwrap_or(0);
        Turn { pid, background, stopped: false, ran: Duration::ZERO, since: Instant::now() }
    }

    /// Stops or resumes a background worker as foreground ones start and end; returns how long the
    /// worker has run unstopped so far.
    pub(crate) fn poll(&mut self) -> Duration {
        let now = Instant::now();
        if !self.stopped {
            self.ran += now - self.since;
        }
        self.since = now;
        if self.background && self.pid > 0 {
            let hold = FOREGROUND.load(Ordering::SeqCst) > 0;
            if hold != self.stopped {
                // SAFETY: signals our own child, still unreaped (it is waited for after this).
                let sent = unsafe { libc::kill(self.pid, if hold { libc::SIGSTOP } else { libc::SIGCONT }) } == 0;
                self.stopped = hold && sent;
            }
        }
        self.ran
    }

    /// Whether the worker is stopped now.
    #[cfg(test)]
    fn stopped(&self) -> bool {
        self.stopped
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if !self.background {
            FOREGROUND.fetch_sub(1, Ordering::SeqCst);
        } else if self.stopped && self.pid > 0 {
            // SAFETY: as above; a worker left stopped would never end.
            unsafe { libc::kill(self.pid, libc::SIGCONT) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// The state letter of process `pid` (`T` when stopped), once it is `want` or after a second.
    fn state(pid: u32, want: char) -> char {
        let read = || {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
            stat.rsplit(')').next().unwrap().trim_start().chars().next().unwrap()
        };
        let start = Instant::now();
        while read() != want && start.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(5));
        }
        read()
    }

    #[test]
    fn a_background_worker_is_stopped_while_a_foreground_one_runs_and_not_counted_stopped() {
        let mut bg_child = Command::new("sleep").arg("30").spawn().unwrap();
        let mut bg = in_background(|| Turn::start(bg_child.id()));
        bg.poll();
        assert_eq!(state(bg_child.id(), 'S'), 'S', "runs while no foreground compile does");
        let mut fg_child = Command::new("sleep").arg("30").spawn().unwrap();
        let mut fg = Turn::start(fg_child.id());
        bg.poll();
        assert!(bg.stopped());
        assert_eq!(state(bg_child.id(), 'T'), 'T', "stopped while a foreground compile runs");
        let ran = bg.poll();
        std::thread::sleep(Duration::from_millis(200));
        assert!(bg.poll() - ran < Duration::from_millis(50), "time stopped is not counted as run");
        fg.poll();
        assert_eq!(state(fg_child.id(), 'S'), 'S', "a foreground worker is never stopped");
        drop(fg);
        bg.poll();
        assert!(!bg.stopped());
        assert_eq!(state(bg_child.id(), 'S'), 'S', "resumed once no foreground compile runs");
        // One left stopped is resumed when its turn ends.
        let fg = Turn::start(fg_child.id());
        bg.poll();
        assert_eq!(state(bg_child.id(), 'T'), 'T');
        drop(bg);
        assert_eq!(state(bg_child.id(), 'S'), 'S');
        drop(fg);
        for c in [&mut bg_child, &mut fg_child] {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

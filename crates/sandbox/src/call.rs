//! Guarded calls into a player: arm the store with a fuel budget and a CPU-time deadline, run the call
//! under a wall-clock timeout (the backstop for host calls that block), then classify what happened
//! (an answer too large to lift included: the store's hostcall fuel stops it before it is copied).

use super::cpu::SAMPLE_TICKS;
use super::{Limits, PlayerState, Sandbox};
use arena_core::bytes_text;
use arena_core::{Fault, FaultKind};
use std::borrow::Cow;
use std::task::Poll;
use std::time::Duration;
use wasmtime::component::ResourceTableError;
use wasmtime::{Store, Trap};

/// How wasmtime says it stopped lifting data over the store's hostcall fuel (its error type is
/// private; the version is pinned, and the hostile-answer tests would see a change).
const HOSTCALL_FUEL_EXHAUSTED: &str = "fuel allocated for hostcalls has been exhausted";

/// One call's budget and the means to judge its result. Use as:
/// `let g = Guard::arm(&sandbox, &mut store, first, "keep"); let r = g.run(fut).await; g.finish(&mut store, r)`.
/// It borrows the call's name (a fault copies it), so arming one allocates nothing.
pub struct Guard<'n> {
    call: Cow<'n, str>,
    /// A crash's reason quotes the last line the guest printed (a referee's, for its game's author;
    /// never a player's, whose output is its owner's alone).
    quote_output: bool,
    started: std::time::Instant,
    fuel: u64,
    deadline: Duration,
    answer_limit: u64,
}

/// What a successful call returns: its value and the fuel it used.
pub type Called<T> = Result<(T, u64), Fault>;

impl<'n> Guard<'n> {
    /// Sets the fuel and the CPU-time deadline for the next call (`first`: the first call of a game,
    /// which includes instantiation and gets the larger budget).
    pub fn arm(
        sandbox: &Sandbox,
        store: &mut Store<PlayerState>,
        first: bool,
        call: impl Into<Cow<'n, str>>,
    ) -> Guard<'n> {
        Guard::arm_with(sandbox.limits(), store, first, call)
    }

    /// [`Guard::arm`] under other limits than the sandbox's (a referee's, for one).
    pub fn arm_with(
        limits: &Limits,
        store: &mut Store<PlayerState>,
        first: bool,
        call: impl Into<Cow<'n, str>>,
    ) -> Guard<'n> {
        let (fuel, deadline) = limits.budget(first);
        // A store is created with fuel enabled, so setting it cannot fail.
        let _ = store.set_fuel(fuel);
        // The epoch callback samples the CPU clock every few ticks while wasm runs; the count starts at
        // the first sample. (Bills are never paid inside that callback: see `meter::on_call`.) A profiled
        // player is sampled from the next tick on.
        store.set_epoch_deadline(if store.data().profile.is_some() { 1 } else { SAMPLE_TICKS });
        let data = store.data_mut();
        data.meter.open();
        data.limiter.refused = None;
        data.cpu.arm(deadline);
        if let Some(p) = data.profile.as_mut() {
            p.arm(fuel);
        }
        Guard {
            call: call.into(),
            quote_output: false,
            started: std::time::Instant::now(),
            fuel,
            deadline,
            answer_limit: limits.answer_bytes,
        }
    }

    /// A crash's reason will quote the guest's last line of output (a referee's: never a player's).
    pub fn quoting_output(mut self) -> Guard<'n> {
        self.quote_output = true;
        self
    }

    /// The call's time on the clock so far, and what it has cost towards a game's total (see
    /// `CpuClock::spent`).
    pub fn spent(&self, store: &Store<PlayerState>) -> (Duration, Duration) {
        store.data().cpu.spent(self.started)
    }

    /// Runs the call's future under the wall-clock backstop. It can only fire while the call waits on
    /// the host (a running guest is polled to its end or to its CPU-time deadline), so it stops players
    /// blocked outside wasm and never decides a CPU-bound call on a loaded machine. It counts from the
    /// guard's arming, so it reads no clock of its own. Its timer is set only once the call has to wait
    /// (most calls end in their first poll: no timer to register, nor its runtime handle to clone).
    pub async fn run<T>(&self, fut: impl Future<Output = wasmtime::Result<T>>) -> Result<wasmtime::Result<T>, Elapsed> {
        let backstop = self.deadline + self.deadline / 2 + Duration::from_millis(50);
        let at = tokio::time::Instant::from_std(self.started) + backstop;
        let mut fut = std::pin::pin!(fut);
        let mut timer: Option<std::pin::Pin<Box<tokio::time::Sleep>>> = None;
        std::future::poll_fn(|cx| {
            if let Poll::Ready(out) = fut.as_mut().poll(cx) {
                return Poll::Ready(Ok(out));
            }
            let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(at)));
            timer.as_mut().poll(cx).map(|()| Err(Elapsed))
        })
        .await
    }

    /// Turns the outcome into the value and its fuel, or a `Fault` naming the call.
    pub fn finish<T>(
        &self,
        store: &mut Store<PlayerState>,
        outcome: Result<wasmtime::Result<T>, Elapsed>,
    ) -> Called<T> {
        // The fuel used: its wasm's, and the bill for its host calls (see `meter`).
        let owed = store.data_mut().meter.close();
        let used = self.fuel.saturating_sub(store.get_fuel().unwrap_or(0)).saturating_add(owed);
        if let Some(p) = store.data_mut().profile.as_mut() {
            p.end(self.fuel.saturating_sub(used));
        }
        let refused = store.data_mut().limiter.refused.take();
        match outcome {
            Ok(Ok(_)) if used > self.fuel => Err(self.out_of_fuel()),
            Ok(Ok(v)) => Ok((v, used)),
            Err(Elapsed) => Err(self.fault(
                FaultKind::Timeout,
                format!("no answer within {} ms, blocked outside wasm", self.deadline.as_millis()),
            )),
            Ok(Err(e)) => {
                if let Some(why) = refused {
                    return Err(self.fault(FaultKind::Memory, why));
                }
                let mut fault = self.classify(&e);
                if self.quote_output
                    && fault.kind == FaultKind::Crash
                    && let Some(last) = telling_line(&store.data().last_words())
                {
                    let last: String = last.chars().take(200).collect();
                    fault.reason = format!("{}; its last output: {last}", fault.reason);
                }
                Err(fault)
            }
        }
    }

    fn classify(&self, e: &wasmtime::Error) -> Fault {
        match e.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => self.out_of_fuel(),
            Some(Trap::Interrupt) => self
                .fault(FaultKind::Timeout, format!("still running after {} ms of CPU time", self.deadline.as_millis())),
            Some(Trap::StackOverflow) => self.fault(FaultKind::Crash, "stack overflow"),
            Some(Trap::UnreachableCodeReached) => {
                self.fault(FaultKind::Crash, "panicked or aborted (wasm `unreachable` executed)")
            }
            Some(trap) => self.fault(FaultKind::Crash, format!("trapped: {trap}")),
            None if matches!(e.downcast_ref::<ResourceTableError>(), Some(ResourceTableError::Full)) => self.fault(
                FaultKind::Memory,
                format!("holds more than {} WASI resources at once, the cap", super::MAX_RESOURCES),
            ),
            None if e.chain().any(|c| c.to_string().contains(HOSTCALL_FUEL_EXHAUSTED)) => self.fault(
                FaultKind::Illegal,
                format!("sent more than {} to the host in one answer or host call", bytes_text(self.answer_limit)),
            ),
            // A host function refused what the guest asked of it: the host's own words.
            None if let Some(r) = e.chain().find_map(|c| c.downcast_ref::<HostRefusal>()) => {
                self.fault(FaultKind::Illegal, r.0.clone())
            }
            // Errors that are not traps come from lifting the answer (a bad enum value, a list out of
            // bounds, invalid UTF-8) or from instantiation. A person reads the cause, never wasmtime's
            // backtrace (logged at debug level).
            None => {
                tracing::debug!(call = %self.call, "{e:?}");
                let cause = e.root_cause().to_string();
                if self.call == "instantiate" {
                    self.fault(FaultKind::Crash, format!("failed to instantiate: {cause}"))
                } else {
                    self.fault(FaultKind::Illegal, format!("malformed answer: {cause}"))
                }
            }
        }
    }

    /// Out of fuel: the wasm's own ran out, or its wasm and its host calls' bill passed the budget.
    fn out_of_fuel(&self) -> Fault {
        self.fault(FaultKind::Fuel, format!("used up its {} fuel", self.fuel))
    }

    fn fault(&self, kind: FaultKind, reason: impl Into<String>) -> Fault {
        Fault::new(kind, self.call.as_ref(), reason)
    }
}

/// A host function's refusal of what a guest asked of it (an event flood, a bad argument): the fault's
/// reason is its text alone.
#[derive(Debug)]
pub struct HostRefusal(pub String);

impl std::fmt::Display for HostRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HostRefusal {}

/// `Err` of a host function: refuses the guest's call with `why`.
pub fn refuse<T>(why: impl Into<String>) -> wasmtime::Result<T> {
    Err(wasmtime::Error::new(HostRefusal(why.into())))
}

/// The wall-clock backstop fired.
#[derive(Debug)]
pub struct Elapsed;

/// The line of a crashed component's output that says why: its last line that is not a language
/// runtime's own boilerplate (Rust's `thread '…' panicked at` and `note: run with RUST_BACKTRACE`,
/// componentize-py's `Python function threw an unexpected exception` after the traceback it printed).
pub(crate) fn telling_line(log: &str) -> Option<&str> {
    let boilerplate = |l: &str| {
        l.starts_with("note: ")
            || (l.starts_with("thread '") && l.contains("panicked at"))
            || l.trim() == "Python function threw an unexpected exception"
    };
    let mut lines = log.lines().rev().filter(|l| !l.trim().is_empty());
    lines.clone().find(|l| !boilerplate(l)).or_else(|| lines.next())
}

#[cfg(test)]
mod telling_tests {
    use super::telling_line;

    #[test]
    fn a_python_exception_and_a_rust_panic_are_told_by_their_own_message() {
        let python = "Traceback (most recent call last):\n  File \"/0/app.py\", line 17, in step\n\
                      IndexError: list index out of range\nthread '<unnamed>' panicked at src/lib.rs:9:5:\n\
                      Python function threw an unexpected exception\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(telling_line(python), Some("IndexError: list index out of range"));
        let rust = "thread '<unnamed>' (1) panicked at src/lib.rs:6:9:\nthe board is full\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(telling_line(rust), Some("the board is full"));
        assert_eq!(telling_line("note: only this\n"), Some("note: only this"));
        assert_eq!(telling_line("\n \n"), None);
    }
}

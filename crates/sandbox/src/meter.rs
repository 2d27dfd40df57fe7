//! Host calls cost fuel. Every call a player makes into the host (WASI, its game's rule checker, the
//! runtime's own libcalls) pays a fixed fee when it enters the host, and host functions add what their
//! work costs (per byte of arguments; a rule checker, the fuel its own instance burns). The bill runs
//! for the whole call: each time a host call returns to wasm the player is out of fuel once the bill is
//! more than the fuel its wasm has left, and when the call ends its fuel used is its wasm's and the bill
//! together (over its budget: out of fuel). A player that spams host calls runs out of fuel,
//! deterministically, instead of burning host time for free. (Arguments over the size limit never
//! reach a host function: the store's hostcall fuel stops their lifting.)
//!
//! wasmtime (since 50) lets a call hook read the store's fuel but not set it, so the bill is not taken
//! from the fuel as it runs: wasm between two host calls may run on into fuel the bill has spoken
//! for (at most the call's budget more) and is judged out of fuel at the next host return or at the
//! end of the call. The fuel a call uses, and whether it runs out, are what they were when bills were
//! paid as they came.

use super::PlayerState;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use wasmtime::{AsContext, CallHook, StoreHookState, Trap};

/// The prices below are set from `make bench`, which times each host function natively: wasm runs at
/// about 0.5 ns per fuel on this project's machine, and every host call is priced at three to ten times
/// its cost in host time at that rate, so spamming host calls costs a player more fuel, never less, than
/// burning the same host time in wasm.
///
/// Fuel every call into the host costs, whatever it does (crossing into the host and back takes about
/// 100 ns).
pub const HOST_CALL_FUEL: u64 = 500;
/// Fuel a rule-checker call a game package serves costs on top of the fee above and of the fuel the
/// check itself burns: crossing into the checker's store and back takes about 1.2 µs on this project's
/// machine (`make bench`), and this prices it at about twice that.
pub const CHECK_CALL_FUEL: u64 = 4_000;
/// Fuel per byte of arguments a host function lifts, per byte a player prints and per byte of
/// randomness it draws.
pub const BYTE_FUEL: u64 = 2;

/// What the player owes for host calls since its call started.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    owed: u64,
    /// Bytes WASI moved for the player (printed, or drawn as randomness) since they were last billed.
    pub(crate) wasi_bytes: WasiBytes,
    /// The host call in progress is the runtime's epoch check, which comes when the clock says, not
    /// when the player asks: it costs nothing, so fuel never depends on how busy the machine is.
    pub(crate) epoch: bool,
}

/// A count of bytes shared with the WASI streams and generators that move them.
#[derive(Debug, Clone, Default)]
pub(crate) struct WasiBytes(Arc<AtomicU64>);

impl WasiBytes {
    pub(crate) fn add(&self, n: usize) {
        self.0.fetch_add(n as u64, Ordering::Relaxed);
    }
    fn take(&self) -> u64 {
        self.0.swap(0, Ordering::Relaxed)
    }
}

impl PlayerState {
    /// Charges a host function's arguments and results, `bytes` as the host holds them.
    pub fn charge_args(&mut self, bytes: usize) {
        self.charge(bytes as u64 * BYTE_FUEL);
    }

    /// What the host calls since the last bill cost (their entry fee aside), and clears it: for
    /// measurements outside a store.
    pub fn take_owed(&mut self) -> u64 {
        std::mem::take(&mut self.meter.owed)
    }

    /// Inside a host function: the fuel the player had left when it called, `store_fuel` being the
    /// store's (the bill before this call taken from it).
    pub fn fuel_at_host_call(&self, store_fuel: u64) -> u64 {
        store_fuel.saturating_sub(self.meter.owed.saturating_sub(HOST_CALL_FUEL))
    }

    /// Adds `fuel` to what the current host call costs the player.
    pub fn charge(&mut self, fuel: u64) {
        self.meter.owed = self.meter.owed.saturating_add(fuel);
    }
}

/// The store's call hook: the fee noted on the way in, the bill checked against the fuel left on the
/// way out. wasmtime calls the hook for its own libcalls too, among them the epoch check that wall-clock
/// ticks trigger (`Meter::epoch`): that one is free, so a player's fuel never depends on when the clock
/// ticked (`tests/all/determinism.rs`).
pub(crate) fn on_call(mut ctx: StoreHookState<'_, PlayerState>, hook: CallHook) -> wasmtime::Result<()> {
    match hook {
        CallHook::CallingHost => {
            let state = ctx.data_mut();
            state.meter.owed = state.meter.owed.saturating_add(HOST_CALL_FUEL);
            Ok(())
        }
        CallHook::ReturningFromHost => {
            let state = ctx.data_mut();
            if std::mem::take(&mut state.meter.epoch) {
                state.meter.owed = state.meter.owed.saturating_sub(HOST_CALL_FUEL);
                return Ok(());
            }
            let owed = state.meter.bill();
            // The moment a bill paid as it came would have emptied the store.
            if owed > ctx.as_context().get_fuel()? { Err(Trap::OutOfFuel.into()) } else { Ok(()) }
        }
        CallHook::CallingWasm | CallHook::ReturningFromWasm => Ok(()),
    }
}

impl Meter {
    /// The bill so far, with the bytes WASI moved since it was last made up.
    fn bill(&mut self) -> u64 {
        let bytes = self.wasi_bytes.take().saturating_mul(BYTE_FUEL);
        self.owed = self.owed.saturating_add(bytes);
        self.owed
    }

    /// Starts a call's bill.
    pub(crate) fn open(&mut self) {
        self.owed = 0;
        self.wasi_bytes.take();
    }

    /// Ends a call's bill: what it came to.
    pub(crate) fn close(&mut self) -> u64 {
        let owed = self.bill();
        self.owed = 0;
        owed
    }
}

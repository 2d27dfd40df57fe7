//! Host calls cost fuel. Every call a player makes into the host (WASI, its game's rule checker, the
//! runtime's own libcalls) pays a fixed fee when it enters the host, and host functions add what their
//! work costs (per byte of arguments; a rule checker, the fuel its own instance burns); the bill is settled from the store's
//! fuel when the call returns to wasm. A player that spams host calls runs out of fuel, deterministically,
//! instead of burning host time for free. (Arguments over the size limit never reach a host function:
//! the store's hostcall fuel stops their lifting.)

use super::PlayerState;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use wasmtime::{CallHook, StoreContextMut, Trap};

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

/// What the player owes for host calls since it last paid.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    owed: u64,
    /// Bytes WASI moved for the player (printed, or drawn as randomness) since it last paid.
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

    /// Adds `fuel` to what the current host call costs the player.
    pub fn charge(&mut self, fuel: u64) {
        self.meter.owed = self.meter.owed.saturating_add(fuel);
    }
}

/// The store's call hook: the fee noted on the way in, the bill (fee included) paid on the way out.
/// wasmtime calls the hook for its own libcalls too, among them the epoch check that wall-clock ticks
/// trigger (`Meter::epoch`); fuel set during that check does not reliably reach the running code, so
/// paying there made a player's fuel depend on when the clock ticked — on a loaded machine a
/// Santorini player's rule-check bills went missing (421,610 fuel at rest, 212,693 under a storm of
/// ticks: `tests/all/determinism.rs`). Nothing is paid in an epoch check; the fee is taken on the way
/// out, so it can be waived there.
pub(crate) fn on_call(mut ctx: StoreContextMut<'_, PlayerState>, hook: CallHook) -> wasmtime::Result<()> {
    match hook {
        CallHook::CallingHost => {
            let state = ctx.data_mut();
            state.meter.owed = state.meter.owed.saturating_add(HOST_CALL_FUEL);
            Ok(())
        }
        CallHook::ReturningFromHost => {
            let state = ctx.data_mut();
            if std::mem::take(&mut state.meter.epoch) {
                // The epoch check is free, and fuel is not touched inside it: wasmtime does not take
                // fuel set there back into the running code, so a bill paid there would be lost (or
                // not) depending on when the clock ticked. What is owed waits for the next host call.
                state.meter.owed = state.meter.owed.saturating_sub(HOST_CALL_FUEL);
                return Ok(());
            }
            let owed = std::mem::take(&mut state.meter.owed) + state.meter.wasi_bytes.take() * BYTE_FUEL;
            pay(&mut ctx, owed)
        }
        CallHook::CallingWasm | CallHook::ReturningFromWasm => Ok(()),
    }
}

/// Takes `fuel` from the store, or traps as out of fuel (leaving none) when it has less.
fn pay(ctx: &mut StoreContextMut<'_, PlayerState>, fuel: u64) -> wasmtime::Result<()> {
    if fuel == 0 {
        return Ok(());
    }
    let left = ctx.get_fuel()?;
    if fuel > left {
        ctx.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    ctx.set_fuel(left - fuel)
}

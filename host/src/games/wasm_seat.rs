//! A player component seated for one game (or one lifecycle call), shared by every game: instantiated
//! from its pre-instantiated bindings on the first call, every export call guarded by the sandbox, and
//! never called again after a fault (a trapped instance is poisoned).

use crate::fault::{Fault, FaultKind};
use crate::sandbox::{Guard, PlayerState, Sandbox};
use std::future::Future;
use std::sync::Arc;
use wasmtime::Store;

/// A game's pre-instantiated bindings (the `…Pre` type `bindgen!` generates for its world).
pub trait Instantiate: Clone + Send + Sync + 'static {
    type Bindings: Send + 'static;
    fn instantiate(
        &self,
        store: &mut Store<PlayerState>,
    ) -> impl Future<Output = wasmtime::Result<Self::Bindings>> + Send;
}

/// Implements [`Instantiate`] for a `bindgen!`-generated `…Pre` type.
macro_rules! instantiate_pre {
    ($pre:ty, $bindings:ty) => {
        impl $crate::games::wasm_seat::Instantiate for $pre {
            type Bindings = $bindings;
            async fn instantiate(
                &self,
                store: &mut wasmtime::Store<$crate::sandbox::PlayerState>,
            ) -> wasmtime::Result<$bindings> {
                self.instantiate_async(store).await
            }
        }
    };
}
pub(crate) use instantiate_pre;

pub struct WasmSeat<P: Instantiate> {
    pub(crate) sandbox: Arc<Sandbox>,
    pre: P,
    seed: u64,
    pub(crate) live: Option<(Store<PlayerState>, P::Bindings)>,
    instantiated: bool,
}

impl<P: Instantiate> WasmSeat<P> {
    pub fn new(sandbox: Arc<Sandbox>, pre: P, seed: u64) -> WasmSeat<P> {
        WasmSeat { sandbox, pre, seed, live: None, instantiated: false }
    }

    /// What the player printed in this game so far.
    pub fn log(&self) -> String {
        self.live.as_ref().map(|(s, _)| s.data().log()).unwrap_or_default()
    }

    /// Instantiates on first use; returns the fuel instantiation used and whether this is the first call.
    pub(crate) async fn ready(&mut self) -> Result<(u64, bool), Fault> {
        if self.live.is_some() {
            return Ok((0, false));
        }
        if self.instantiated {
            return Err(Fault::new(FaultKind::Crash, "instantiate", "called again after a fault"));
        }
        self.instantiated = true;
        let mut store = self.sandbox.store(self.seed);
        let guard = Guard::arm(&self.sandbox, &mut store, true, "instantiate");
        let out = guard.run(self.pre.instantiate(&mut store)).await;
        let (bindings, fuel) = guard.finish(&mut store, out)?;
        self.live = Some((store, bindings));
        Ok((fuel, true))
    }
}

/// Runs one guarded export call on a wasm seat and returns `Result<(value, fuel), Fault>`; a fault
/// drops the instance.
macro_rules! guarded {
    ($seat:expr, $name:literal, |$player:ident, $store:ident| $call:expr) => {{
        let seat = $seat;
        let (setup_fuel, first) = seat.ready().await?;
        let (store, player) = seat.live.as_mut().expect("ready() left an instance");
        let guard = $crate::sandbox::Guard::arm(&seat.sandbox, store, first, $name);
        let out = {
            let $player = &*player;
            let $store = &mut *store;
            guard.run($call).await
        };
        match guard.finish(store, out) {
            Ok((v, fuel)) => Ok((v, fuel + setup_fuel)),
            Err(f) => {
                seat.live = None;
                Err(f)
            }
        }
    }};
}
pub(crate) use guarded;

/// A native bot's answer as a call's: no fuel.
pub fn native<T>(r: Result<T, Fault>) -> Result<(T, u64), Fault> {
    r.map(|v| (v, 0))
}

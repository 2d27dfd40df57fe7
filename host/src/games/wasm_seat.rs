//! A player component seated for one game (or one lifecycle call), shared by every game: instantiated
//! from its pre-instantiated bindings on the first call, every export call guarded by the sandbox, and
//! never called again after a fault (a trapped instance is poisoned).

use crate::fault::{Fault, FaultKind};
use crate::sandbox::{Guard, PlayerState, Sandbox};
use std::future::Future;
use std::sync::Arc;
use wasmtime::Store;

/// A pre-instantiated player component (a component's `InstancePre`).
pub trait Instantiate: Clone + Send + Sync + 'static {
    type Bindings: Send + 'static;
    fn instantiate(
        &self,
        store: &mut Store<PlayerState>,
    ) -> impl Future<Output = wasmtime::Result<Self::Bindings>> + Send;
}

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

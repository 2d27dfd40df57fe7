//! The referee of one game, in its own sandboxed store under its own limits, and the calls the host
//! makes of it (its requests, its view, its refusals as text).

use super::VIEW_CHARS;
use arena_core::{Fault, FaultKind};
use arena_core::{Limits, quote, quote_at};
use arena_sandbox::{Guard, PlayerState};
use wasmtime::Store;
use wasmtime::component::{Instance, Val};

/// The referee of one game, in its own store, under its own limits.
pub(crate) struct Referee {
    pub(crate) limits: Limits,
    pub(crate) store: Store<PlayerState>,
    pub(crate) instance: Instance,
    /// What its calls have cost so far, towards the game's total.
    pub(crate) spent: std::time::Duration,
    /// The fuel its calls have burnt, and the steps it has been driven through.
    pub(crate) fuel: u64,
    pub(crate) steps: u32,
}

impl Referee {
    /// Calls the referee's export `name`; a fault here is the game's.
    pub(crate) async fn call(&mut self, name: &'static str, params: &[Val], results: usize) -> Result<Vec<Val>, Fault> {
        let Some(func) = self.instance.get_func(&mut self.store, name) else {
            return Err(protocol(name, "the export is missing"));
        };
        let guard = Guard::arm_with(&self.limits, &mut self.store, false, name).quoting_output();
        let mut out = vec![Val::Bool(false); results];
        let r = guard.run(func.call_async(&mut self.store, params, &mut out)).await;
        self.spent += guard.spent(&self.store).1;
        let ((), fuel) = guard.finish(&mut self.store, r)?;
        self.fuel += fuel;
        Ok(out)
    }
}

/// The referee's current requests.
pub(crate) async fn requests(referee: &mut Referee) -> Result<Vec<Val>, Fault> {
    match referee.call("requests", &[], 1).await?.pop() {
        Some(Val::List(l)) => Ok(l),
        _ => Err(protocol("requests", "did not return a list")),
    }
}

/// The referee's view for `seat` (`None`: spectators), cut to [`VIEW_CHARS`]; empty if it is not text.
pub(crate) async fn view(referee: &mut Referee, seat: Option<u32>) -> Result<String, Fault> {
    let seat = Val::Option(seat.map(|s| Box::new(Val::U32(s))));
    Ok(match referee.call("view", &[seat], 1).await?.pop() {
        Some(Val::String(v)) => quote_at(&v, VIEW_CHARS),
        _ => String::new(),
    })
}

/// An option as the setup carries it: (name, value as text).
pub(crate) fn option(name: &str, value: i64) -> Val {
    Val::Tuple(vec![Val::String(name.to_string()), Val::String(value.to_string())])
}

pub(crate) fn protocol(call: &str, why: impl Into<String>) -> Fault {
    Fault::new(FaultKind::Illegal, call, why)
}

pub(crate) fn text(v: &Option<Box<Val>>) -> String {
    match v.as_deref() {
        Some(Val::String(s)) => quote(s),
        _ => String::new(),
    }
}

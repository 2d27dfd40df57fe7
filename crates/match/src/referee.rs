//! The referee of one game, in its own sandboxed store under its own limits, and the calls the host
//! makes of it: what comes next after each call that moves the game (the requests outstanding, the
//! events, bounded here), its view, its refusals as text.

use super::{EVENT_CHARS, MAX_EVENTS, VIEW_CHARS};
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
    /// The requests outstanding, as the last call that moved the game said.
    pub(crate) outstanding: Vec<Val>,
    /// Its exports, looked up by name once.
    pub(crate) funcs: Vec<(&'static str, wasmtime::component::Func)>,
}

impl Referee {
    /// Calls the referee's export `name`; a fault here is the game's.
    pub(crate) async fn call(&mut self, name: &'static str, params: &[Val], results: usize) -> Result<Vec<Val>, Fault> {
        let func = match self.funcs.iter().find(|(n, _)| *n == name) {
            Some((_, f)) => *f,
            None => {
                let Some(f) = self.instance.get_func(&mut self.store, name) else {
                    return Err(protocol(name, "the export is missing"));
                };
                self.funcs.push((name, f));
                f
            }
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

impl Referee {
    /// Takes what comes next after `call` (`start`, `apply`, `banned`): the requests outstanding and the
    /// events the call caused, each cut to [`EVENT_CHARS`]; more than [`MAX_EVENTS`] in a game, or a
    /// value that is not a `next` record, is the game's fault.
    pub(crate) fn take_next(&mut self, call: &str, next: Val) -> Result<(), Fault> {
        let Val::Record(fields) = next else { return Err(protocol(call, "did not answer with a `next` record")) };
        let (mut requests, mut events) = (None, None);
        for (name, v) in fields {
            match (name.as_str(), v) {
                ("requests", Val::List(l)) => requests = Some(l),
                ("events", Val::List(l)) => events = Some(l),
                _ => {}
            }
        }
        let (Some(requests), Some(events)) = (requests, events) else {
            return Err(protocol(call, "answered a record without `requests` and `events` lists"));
        };
        let recorded = &mut self.store.data_mut().events;
        if recorded.len() + events.len() > MAX_EVENTS {
            return Err(protocol(call, format!("emitted more than {MAX_EVENTS} events in one game")));
        }
        for e in events {
            recorded.push(event(call, e)?);
        }
        self.outstanding = requests;
        Ok(())
    }
}

/// An `event` record as the game's record keeps it, its text cut to a quote.
fn event(call: &str, e: Val) -> Result<arena_core::Event, Fault> {
    let bad = |why: &str| protocol(call, format!("an event {why}"));
    let Val::Record(mut fields) = e else { return Err(bad("is not a record")) };
    let (Some((_, Val::String(text))), Some((_, to))) = (fields.pop(), fields.pop()) else {
        return Err(bad("is not (to, text)"));
    };
    let to = match to {
        Val::Variant(case, None) if case == "all" => None,
        Val::Variant(case, Some(seat)) if case == "seat" => match *seat {
            Val::U32(s) => Some(vec![s]),
            _ => return Err(bad("names a seat that is not a u32")),
        },
        Val::Variant(case, Some(seats)) if case == "seats" => match *seats {
            Val::List(l) => {
                Some(l.into_iter().filter_map(|v| if let Val::U32(s) = v { Some(s) } else { None }).collect())
            }
            _ => return Err(bad("names seats that are not a list<u32>")),
        },
        _ => return Err(bad("has an unknown audience")),
    };
    Ok(arena_core::Event { to, text: quote_at(&text, EVENT_CHARS) })
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

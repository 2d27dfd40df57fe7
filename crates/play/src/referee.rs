//! The referee of one game, in its own sandboxed store under its own limits, and the calls the host
//! makes of it: what comes next after each call that moves the game (the requests outstanding, how
//! many answers a step took, a refusal), the events it kept (taken with a typed call, bounded here),
//! its view, its refusals as text.

use super::{EVENT_CHARS, MAX_EVENTS, VIEW_CHARS};
use arena_core::{Fault, FaultKind};
use arena_core::{Limits, quote, quote_at};
use arena_sandbox::{Guard, PlayerState};
use wasmtime::Store;
use wasmtime::component::{ComponentExportIndex, ComponentType, Instance, Lift, TypedFunc, Val};

/// `arena:game`'s `audience`, lifted without dynamic values.
#[derive(ComponentType, Lift, Debug)]
#[component(variant)]
pub(crate) enum Audience {
    #[component(name = "all")]
    All,
    #[component(name = "seat")]
    Seat(u32),
    #[component(name = "seats")]
    Seats(Vec<u32>),
}

/// `arena:game`'s `told`, lifted without dynamic values: the texts of some events one after another,
/// and each one's audience and length in bytes.
#[derive(ComponentType, Lift, Debug)]
#[component(record)]
pub(crate) struct Told {
    text: String,
    events: Vec<(Audience, u32)>,
}

/// `step` in flat form: the answers' bytes in, the `next`'s out.
pub(crate) type FlatStep = TypedFunc<(Vec<u8>,), (Vec<u8>,)>;

/// What `step` and `banned` answer besides the requests: how many answers the call took, and why it
/// refused the last one.
#[derive(Debug, Default)]
pub(crate) struct Took {
    pub(crate) taken: u32,
    pub(crate) refused: Option<String>,
}

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
    /// Its `step` calls.
    pub(crate) handed: u32,
    /// The requests outstanding, as the last call that moved the game said.
    pub(crate) outstanding: Vec<Val>,
    /// Its exports, looked up by name once.
    pub(crate) funcs: Vec<(&'static str, wasmtime::component::Func)>,
    /// The values of the answers last handed to `step`, refilled in place for the next.
    pub(crate) answers: Vec<Val>,
    /// Its `events` export, typed, once looked up.
    pub(crate) events: Option<TypedFunc<(), (Told,)>>,
    /// Its `step` in flat form (see [`crate::flat`]), once looked up: the export and the shape of the
    /// requests of a `next` (`list<tuple<u32, request>>`), and the typed function.
    pub(crate) flat: Option<(ComponentExportIndex, std::sync::Arc<crate::flat::Shape>)>,
    pub(crate) flat_step: Option<FlatStep>,
    /// The bytes of the last flat `next`, written over with the next step's answers.
    pub(crate) bytes: Vec<u8>,
    /// The values of the requests of the last step, refilled in place with the next `next`'s.
    pub(crate) spare: Vec<Val>,
    /// Values the requests' lists have lost, to fill the elements they gain (see [`crate::flat::Reader`]).
    pub(crate) shelf: Vec<Val>,
    /// The longest flat `next` so far, in bytes.
    pub(crate) longest_next: usize,
    /// The seats of the game: every event, request and view names one of them.
    pub(crate) seats: usize,
    /// What the game has recorded so far, in bytes, towards its bound (`Limits::game_record_bytes`).
    pub(crate) recorded: u64,
}

/// Shelves of the request values of finished games (a package's): a game's referee takes one to refill
/// its flat `next`s from, and gives its own back at the end, so that a package's games, one after
/// another, allocate the values of their requests once. What one holds is bounded: a game whose flat
/// `next`s were all within [`Shelves::NEXT_BYTES`] gives its values back, [`Shelves::KEPT`] at most
/// are kept, and a shelf holds at most [`crate::flat::SHELF`] values.
#[derive(Default)]
pub(crate) struct Shelves(std::sync::Mutex<Vec<Vec<Val>>>);

impl Shelves {
    /// The longest flat `next` of a game whose values are kept.
    const NEXT_BYTES: usize = 16 << 10;
    /// Shelves kept: about as many as games in flight on one package.
    const KEPT: usize = 4;

    /// A shelf for a new game's referee (empty when none is kept).
    pub(crate) fn take(&self) -> Vec<Val> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default()
    }

    /// Keeps what `referee` holds of its requests, for another game, when it is small and it stepped
    /// in flat form (its requests then hold no resource: every value has a flat form).
    pub(crate) fn give_back(&self, referee: &mut Referee) {
        if referee.flat.is_none() {
            return;
        }
        let held = [&mut referee.shelf, &mut referee.spare, &mut referee.outstanding];
        self.keep(referee.longest_next, held);
    }

    /// Keeps the values `held` as one shelf (at most [`crate::flat::SHELF`] of them), unless the
    /// game's longest flat `next` was `longest_next` bytes, more than [`Shelves::NEXT_BYTES`], or
    /// [`Shelves::KEPT`] shelves are kept already.
    fn keep(&self, longest_next: usize, held: [&mut Vec<Val>; 3]) {
        if longest_next > Self::NEXT_BYTES {
            return;
        }
        let mut shelf = Vec::new();
        for values in held {
            let room = crate::flat::SHELF.saturating_sub(shelf.len());
            shelf.extend(values.drain(..).take(room));
        }
        if shelf.is_empty() {
            return;
        }
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < Self::KEPT {
            kept.push(shelf);
        }
    }
}

/// What an event takes in a game's record besides its text, as the record bound counts.
pub(crate) const EVENT_BYTES: usize = 16;

impl Referee {
    /// Calls the referee's export `name` (every export of the protocol has one result); a fault here is
    /// the game's.
    pub(crate) async fn call(&mut self, name: &'static str, params: &[Val]) -> Result<Val, Fault> {
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
        let mut out = [Val::Bool(false)];
        self.guarded(name, async |store| func.call_async(store, params, &mut out).await).await?;
        let [value] = out;
        Ok(value)
    }

    /// Runs `call` on the referee's store under its limits, counting its time and fuel towards the
    /// game's; a fault here is the game's.
    async fn guarded<T>(
        &mut self,
        name: &'static str,
        call: impl AsyncFnOnce(&mut Store<PlayerState>) -> wasmtime::Result<T>,
    ) -> Result<T, Fault> {
        let guard = Guard::arm_with(&self.limits, &mut self.store, false, name).quoting_output();
        // Pinned in place: a call's future is large, and the guard's timeout would move it.
        let r = guard.run(std::pin::pin!(call(&mut self.store))).await;
        self.spent += guard.spent(&self.store).1;
        let (value, fuel) = guard.finish(&mut self.store, r)?;
        self.fuel += fuel;
        Ok(value)
    }
}

impl Referee {
    /// Counts `bytes` more towards what the game records; past the game's bound, the game's fault,
    /// named after `call` (what is kept stops there).
    pub(crate) fn record(&mut self, call: &str, bytes: usize) -> Result<(), Fault> {
        self.recorded = self.recorded.saturating_add(bytes as u64);
        if self.recorded > self.limits.game_record_bytes {
            return Err(Fault::new(
                FaultKind::Memory,
                call,
                format!(
                    "the game recorded more than {} (the referee's events, views and drawings and the players' \
                     answers and output together; --game-record-mb)",
                    arena_core::bytes_text(self.limits.game_record_bytes)
                ),
            ));
        }
        Ok(())
    }

    /// Calls `step` in flat form with the answers written in `self.bytes` (see [`crate::flat`]) and
    /// takes what comes next; a `next` that cannot be read or is followed by anything is the game's
    /// fault (like any answer, one longer than the referee's answer limit is stopped by the guard).
    pub(crate) async fn step_flat(&mut self) -> Result<Took, Fault> {
        let func = match (self.flat_step, &self.flat) {
            (Some(f), _) => f,
            (None, Some((index, _))) => {
                let f =
                    self.instance.get_typed_func::<(Vec<u8>,), (Vec<u8>,)>(&mut self.store, index).map_err(|e| {
                        protocol("step", format!("its flat `step` is not `func(list<u8>) -> list<u8>`: {e}"))
                    })?;
                self.flat_step = Some(f);
                f
            }
            (None, None) => return Err(protocol("step", "it has no flat `step`")),
        };
        let answers = std::mem::take(&mut self.bytes);
        let (next,) = self.guarded("step", async |store| func.call_async(store, (answers,)).await).await?;
        let took = self.read_flat_next(&next).map_err(|e| protocol("step", format!("its flat `next`: {e}")));
        self.bytes = next;
        took
    }

    /// Reads a flat `next` (requests, taken, refused) into the requests outstanding, refilling the
    /// values of the last step's requests in place.
    fn read_flat_next(&mut self, bytes: &[u8]) -> Result<Took, crate::flat::Error> {
        let Some((_, requests_shape)) = &self.flat else { return Err("no flat `step`".into()) };
        self.longest_next = self.longest_next.max(bytes.len());
        let mut r = crate::flat::Reader::shelved(bytes, std::mem::take(&mut self.shelf));
        let mut requests = Val::List(std::mem::take(&mut self.spare));
        r.value_into(requests_shape, &mut requests)?;
        let taken = r.u32()?;
        let refused = if r.tag()? { Some(quote(r.str()?)) } else { None };
        r.end()?;
        self.shelf = r.into_shelf();
        let Val::List(requests) = requests else { unreachable!("a list was read") };
        self.outstanding = requests;
        Ok(Took { taken, refused })
    }

    /// Takes what comes next after `call` (`start`, `step`, `banned`): the requests outstanding, and how
    /// many answers it took and its refusal; a value that is not a `next` record is the game's fault.
    pub(crate) fn take_next(&mut self, call: &str, next: Val) -> Result<Took, Fault> {
        let Val::Record(fields) = next else { return Err(protocol(call, "did not answer with a `next` record")) };
        let (mut requests, mut took) = (None, Took::default());
        for (name, v) in fields {
            match (name.as_str(), v) {
                ("requests", Val::List(l)) => requests = Some(l),
                ("taken", Val::U32(n)) => took.taken = n,
                ("refused", Val::Option(Some(why))) => took.refused = Some(text(&Some(why))),
                _ => {}
            }
        }
        let Some(requests) = requests else {
            return Err(protocol(call, "answered a record without a `requests` list"));
        };
        self.outstanding = requests;
        Ok(took)
    }

    /// Takes the events the referee kept, each cut to [`EVENT_CHARS`]; more than [`MAX_EVENTS`] in a
    /// game, lengths that do not fit the text they come with, or calls past the game's CPU budget, is
    /// the game's fault (and nothing of that call is kept).
    pub(crate) async fn take_events(&mut self) -> Result<(), Fault> {
        let func = match self.events {
            Some(f) => f,
            None => {
                let f = self
                    .instance
                    .get_typed_func::<(), (Told,)>(&mut self.store, "events")
                    .map_err(|e| protocol("events", format!("not `func() -> told`: {}", e.root_cause())))?;
                self.events = Some(f);
                f
            }
        };
        loop {
            let (got,) = self.guarded("events", async |store| func.call_async(store, ()).await).await?;
            if got.events.is_empty() && got.text.is_empty() {
                return Ok(());
            }
            // Each call is bounded by the referee's limits, and the calls by the game's budget: a
            // referee that hands its events over one by one, slowly, cannot hold the game for ever.
            if self.spent > self.limits.game_cpu {
                return Err(Fault::new(
                    FaultKind::Timeout,
                    "events",
                    format!(
                        "the referee used more than the game's {} s of CPU time (--game-cpu-s) handing over its events",
                        self.limits.game_cpu.as_secs_f64()
                    ),
                ));
            }
            let recorded = self.store.data().events.len();
            if recorded + got.events.len() > MAX_EVENTS {
                return Err(protocol("events", format!("emitted more than {MAX_EVENTS} events in one game")));
            }
            let mut told = split(got, self.seats)?;
            // Kept up to the game's record bound, and no further.
            let mut over = None;
            for (i, e) in told.iter().enumerate() {
                if let Err(f) = self.record("events", e.text.len() + EVENT_BYTES) {
                    over = Some((i, f));
                    break;
                }
            }
            if let Some((i, _)) = over {
                told.truncate(i);
            }
            self.store.data_mut().events.extend(told);
            if let Some((_, f)) = over {
                return Err(f);
            }
        }
    }
}

/// The events of one `told`, each text cut to [`EVENT_CHARS`]; lengths that do not add up to the text,
/// or that cut a character in two, and an event for a seat the game (of `seats` seats) does not have,
/// are the game's fault.
fn split(told: Told, seats: usize) -> Result<Vec<arena_core::Event>, Fault> {
    let Told { text, events } = told;
    let mut out = Vec::with_capacity(events.len());
    let mut at = 0usize;
    for (to, len) in events {
        let end = at.saturating_add(len as usize);
        let Some(t) = text.get(at..end) else {
            return Err(protocol(
                "events",
                if end > text.len() {
                    format!("its events' lengths add up to more than the {} bytes of their text", text.len())
                } else {
                    format!("an event's length cuts a character of their text in two (at byte {end})")
                },
            ));
        };
        let to = match to {
            Audience::All => None,
            Audience::Seat(s) => Some(arena_core::Seats::from_slice(&[s])),
            Audience::Seats(s) => Some(arena_core::Seats::from_vec(s)),
        };
        if let Some(s) = to.as_ref().and_then(|to| to.iter().find(|&&s| s as usize >= seats)) {
            return Err(protocol(
                "events",
                format!(
                    "addressed an event to seat {s}, which the game does not have (its seats are 0 to {})",
                    seats.saturating_sub(1)
                ),
            ));
        }
        out.push(arena_core::Event { to, text: cut(t) });
        at = end;
    }
    if at != text.len() {
        return Err(protocol(
            "events",
            format!("its events' lengths add up to {at} bytes, and their text has {}", text.len()),
        ));
    }
    Ok(out)
}

/// An event's text as the game's record keeps it: as it is, or cut to a quote when longer than
/// [`EVENT_CHARS`].
fn cut(text: &str) -> String {
    if text.len() <= EVENT_CHARS { text.to_string() } else { quote_at(text, EVENT_CHARS) }
}

/// The referee's view for `seat` (`None`: spectators), cut to [`VIEW_CHARS`]; empty if it is not text.
pub(crate) async fn view(referee: &mut Referee, seat: Option<u32>) -> Result<String, Fault> {
    let seat = Val::Option(seat.map(|s| Box::new(Val::U32(s))));
    let v = match referee.call("view", &[seat]).await? {
        Val::String(v) => quote_at(&v, VIEW_CHARS),
        _ => String::new(),
    };
    referee.record("view", v.len())?;
    Ok(v)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn values(n: usize) -> Vec<Val> {
        (0..n).map(|i| Val::String(format!("v{i}"))).collect()
    }

    #[test]
    fn a_package_keeps_few_shelves_of_bounded_values_and_none_from_a_game_of_large_nexts() {
        let shelves = Shelves::default();
        // A game whose `next`s were large gives nothing back.
        shelves.keep(Shelves::NEXT_BYTES + 1, [&mut values(3), &mut values(3), &mut vec![]]);
        assert!(shelves.take().is_empty());
        // A small game's values come back as one shelf, at most SHELF of them.
        let many = crate::flat::SHELF;
        shelves.keep(100, [&mut values(many), &mut values(2), &mut values(2)]);
        assert_eq!(shelves.take().len(), many);
        // At most KEPT shelves; a game with nothing to give keeps none.
        for _ in 0..Shelves::KEPT + 3 {
            shelves.keep(100, [&mut values(1), &mut vec![], &mut vec![]]);
        }
        shelves.keep(100, [&mut vec![], &mut vec![], &mut vec![]]);
        let taken = std::iter::from_fn(|| Some(shelves.take())).take_while(|s| !s.is_empty()).count();
        assert_eq!(taken, Shelves::KEPT);
    }
}

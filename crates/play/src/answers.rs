//! Where a step's answers come from (the seats themselves, or a game's record when it is replayed),
//! the rule that a seat answers only for itself, and a ban told to the referee.

use super::Case;
use super::referee::{Referee, protocol};
use super::seat::Seat;
use super::values;
use arena_core::CallLine;
use arena_core::Fault;
use arena_core::GameOutcome;
use futures_util::future::join_all;
use wasmtime::component::Val;

/// How a seat replied to its request.
pub(crate) enum Reply {
    /// The answer, with its fuel, its time on the clock in microseconds and what the seat printed.
    Answer(Option<Val>, u64, u64, String),
    /// The host found the call at fault (a trap, fuel, time, memory, a malformed answer); what the
    /// seat printed, and what it was asked (quoted).
    Fault(Fault, String, Option<serde_json::Value>),
    /// A record has no reply here: the live game dropped the answer.
    Missing,
    /// The call failed because the game's rule checker did (why): the game's fault, not the seat's.
    CheckerFailed(String),
}

/// A seat's reply to a request: (seat, the request's case, the reply; `None` when it is read from a
/// record only as the step reaches it).
pub(crate) type Answered<'r> = (usize, &'r Case, Option<Reply>);

/// A step's requests, or its replies, or its answers: one or two in most steps of most games, kept
/// without a heap allocation.
pub(crate) type PerStep<T> = smallvec::SmallVec<[T; 2]>;

/// A replay's record holds an answer the referee did not take, or lacks one it did.
pub(crate) fn unfollowed(seat: usize, case: &str) -> Fault {
    protocol("replay", format!("the record does not answer seat {seat}'s `{case}` as the game was played"))
}

/// One step's requests, for the rule that a seat answers only for itself: when a step asks several
/// seats at once and something changes the game before a seat's answer is applied (another seat's
/// ban, a refusal, or an applied answer that changed what the others are asked), that answer is applied
/// only if the referee still makes the very request it answers (same seat, same case, same payload), as
/// its latest `next` says. Otherwise it is dropped: never applied, never judged, not recorded, and the
/// seat is asked again if the game goes on. A fault the host finds stands whatever the others did.
pub(crate) struct Step<'r> {
    /// The step's requests as the referee made them.
    made: &'r [Val],
    /// What the referee asked at its last look after a change in this step (`None`: no change yet).
    outstanding: Option<Vec<Val>>,
    /// An answer was applied or a seat banned earlier in the step.
    pub(crate) changed: bool,
    /// The last look is older than the last change.
    stale: bool,
}

impl<'r> Step<'r> {
    pub(crate) fn new(made: &'r [Val]) -> Step<'r> {
        Step { made, outstanding: None, changed: false, stale: false }
    }

    /// Something changed the game: what the referee still asks is looked at again when it matters.
    pub(crate) fn change(&mut self) {
        self.changed = true;
        self.stale = self.made.len() > 1;
    }

    /// Whether the referee still makes the request the step made of `seat` (yes when nothing changed
    /// since, or when the step asked one seat).
    pub(crate) fn asks(&mut self, referee: &Referee, seat: usize) -> bool {
        if self.made.len() < 2 {
            return true;
        }
        if self.stale {
            self.outstanding = Some(referee.outstanding.clone());
            self.stale = false;
        }
        let made = self.made.iter().find(|r| matches!(r, Val::Tuple(t) if t.first() == Some(&Val::U32(seat as u32))));
        match (&self.outstanding, made) {
            (Some(now), Some(request)) => now.contains(request),
            _ => true,
        }
    }
}

/// One request of a step: the seat, the case (the export it names, the answer's type), its argument.
#[derive(Clone, Copy)]
pub(crate) struct Asked<'r> {
    pub(crate) seat: usize,
    pub(crate) case: &'r Case,
    pub(crate) arg: Option<&'r Val>,
}

/// An answer waiting to be handed to the referee's `step`: the seat, the case, the answer, its fuel,
/// its time on the clock and what the seat printed.
pub(crate) struct Handed<'r> {
    pub(crate) seat: usize,
    pub(crate) case: &'r Case,
    pub(crate) answer: Option<Val>,
    pub(crate) fuel: u64,
    pub(crate) micros: u64,
    pub(crate) output: String,
    /// Counted towards the game's record bound (an answer handed over again is not counted again).
    pub(crate) counted: bool,
}

/// Where a step's answers come from: the players themselves, the record of a game (a replay), or the
/// record up to a step and the players from there (a fork).
pub(crate) enum Answers<'s, 'l> {
    Live(&'s mut [Seat]),
    Recorded(Record<'l>),
    /// A fork: up to step `from` (excluded) the record's answers are handed to the referee, and the
    /// seats are still called with every request, so that each is in the state its own calls put it
    /// in when the game goes live (their answers are dropped, and a player is deterministic: the
    /// version that played answers as recorded). From step `from` on, the seats answer. A seat that
    /// faults on a request the record has answered makes that step the first live one: it is judged
    /// on its own call (a seat the record has faulting in that step is banned as recorded). `now` is
    /// the step being answered.
    Forked {
        log: Record<'l>,
        seats: &'s mut [Seat],
        from: u32,
        now: u32,
    },
    /// A reproduction: the record's answers throughout, and seat `seat` called with each of its
    /// requests; its first answer (or fault) that is not the record's stops the game, said in
    /// `diverged`.
    Checked {
        log: Record<'l>,
        seats: &'s mut [Seat],
        seat: usize,
        diverged: &'s mut Option<Divergence>,
    },
}

/// Where a reproduced seat first answered otherwise than its record: the step, the seat and the call,
/// what it was asked, what the record holds and what it answered now (a fault as `{"fault": …}`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Divergence {
    pub step: u32,
    pub seat: usize,
    pub call: String,
    pub request: serde_json::Value,
    pub recorded: serde_json::Value,
    pub answered: serde_json::Value,
}

/// A fault as a divergence shows it.
fn fault_json(f: &Fault) -> serde_json::Value {
    serde_json::json!({"fault": {"kind": f.kind.as_str(), "reason": f.reason}})
}

/// A game's record, read in order.
pub(crate) type Record<'l> = std::iter::Peekable<std::slice::Iter<'l, CallLine>>;

/// Seat `seat`'s line in step `step` of a record read up to that step (a seat answers once a step).
fn line_of<'l>(log: &Record<'l>, step: u32, seat: usize) -> Option<&'l CallLine> {
    log.clone().take_while(|c| c.turn == step).find(|c| c.seat == seat)
}

impl<'l> Answers<'_, 'l> {
    /// Every asked seat's answer (or fault) in step `step`, in the order the referee asked. Live seats
    /// are called concurrently.
    pub(crate) async fn answer<'r>(
        &mut self,
        asked: PerStep<Asked<'r>>,
        step: u32,
    ) -> Result<PerStep<Answered<'r>>, Fault> {
        match self {
            Answers::Live(seats) => live(seats, asked).await,
            // A record's replies are read as the step reaches each one: a dropped answer has none.
            Answers::Recorded(_) => Ok(asked.into_iter().map(|a| (a.seat, a.case, None)).collect()),
            Answers::Forked { log, seats, from, now } => {
                *now = step;
                let replies = live(seats, asked).await?;
                if step >= *from {
                    return Ok(replies);
                }
                // A seat failed where its record answered (the record's fault of the same seat in
                // the same step stands as recorded): judged on its own call, from this step on.
                let answered = |seat: usize| line_of(log, step, seat).is_some_and(|c| c.fault.is_none());
                let failed = |(i, _, r): &Answered<'_>| !matches!(r, Some(Reply::Answer(..))) && answered(*i);
                if replies.iter().any(failed) {
                    *from = step;
                    return Ok(replies);
                }
                Ok(replies.into_iter().map(|(i, case, _)| (i, case, None)).collect())
            }
            Answers::Checked { log, seats, seat, diverged } => {
                let mine: PerStep<Asked<'r>> = asked.iter().filter(|a| a.seat == *seat).copied().collect();
                if let Some(a) = mine.first().copied() {
                    let request = a.arg.map_or(serde_json::Value::Null, values::to_json);
                    let replies = live(seats, mine).await?;
                    let line = line_of(log, step, *seat);
                    let reply = replies.into_iter().next().and_then(|(_, _, r)| r);
                    // An answer the original game dropped is not in its record: nothing to compare.
                    let verdict = match (reply, line) {
                        (_, None) | (None, _) => None,
                        (Some(Reply::Answer(v, ..)), Some(l)) => {
                            let now = v.as_ref().map_or(serde_json::Value::Null, values::to_json);
                            match &l.fault {
                                None if now == l.answer => None,
                                None => Some((l.answer.clone(), now)),
                                Some(f) => Some((fault_json(f), now)),
                            }
                        }
                        (Some(Reply::Fault(f, ..)), Some(l)) => match &l.fault {
                            Some(then) if then.kind == f.kind => None,
                            Some(then) => Some((fault_json(then), fault_json(&f))),
                            None => Some((l.answer.clone(), fault_json(&f))),
                        },
                        (Some(Reply::CheckerFailed(why)), Some(l)) => {
                            Some((l.answer.clone(), serde_json::json!({"rules failed": why})))
                        }
                        (Some(Reply::Missing), Some(_)) => None,
                    };
                    if let Some((recorded, answered)) = verdict {
                        let (call, seat) = (a.case.name.clone(), *seat);
                        **diverged = Some(Divergence { step, seat, call, request, recorded, answered });
                        return Err(protocol("reproduce", format!("seat {seat} answered otherwise at step {step}")));
                    }
                }
                Ok(asked.into_iter().map(|a| (a.seat, a.case, None)).collect())
            }
        }
    }

    /// Whether this step's answers come from a record (a replay, or a fork before its first live step).
    pub(crate) fn replaying(&self) -> bool {
        match self {
            Answers::Live(_) => false,
            Answers::Recorded(_) => true,
            Answers::Forked { from, now, .. } => now < from,
            Answers::Checked { .. } => true,
        }
    }

    /// The record being replayed this step, if any.
    fn log(&mut self) -> Option<&mut Record<'l>> {
        let replaying = self.replaying();
        match self {
            Answers::Recorded(log) => Some(log),
            Answers::Forked { log, .. } if replaying => Some(log),
            Answers::Checked { log, .. } => Some(log),
            _ => None,
        }
    }

    /// Seat `seat`'s recorded reply to `case` in `step`: its answer (decoded as `ty`), its fault, or
    /// [`Reply::Missing`] when the record holds none there.
    pub(crate) fn recorded(
        &mut self,
        seat: usize,
        case: &str,
        step: u32,
        ty: Option<&wasmtime::component::types::Type>,
    ) -> Result<Reply, Fault> {
        let Some(log) = self.log() else { return Ok(Reply::Missing) };
        let reply = match log.peek() {
            Some(CallLine { seat: s, turn, call, answer, fuel, fault: None, micros, output, .. })
                if *s == seat && *turn == step && call == case =>
            {
                let value = match ty {
                    Some(ty) => Some(values::from_json(answer, ty).map_err(|e| protocol("replay", e))?),
                    None => None,
                };
                Reply::Answer(value, *fuel, *micros, output.clone())
            }
            Some(CallLine { seat: s, turn, fault: Some(fault), output, request, .. })
                if *s == seat && *turn == step =>
            {
                Reply::Fault(fault.clone(), output.clone(), request.clone())
            }
            _ => return Ok(Reply::Missing),
        };
        log.next();
        Ok(reply)
    }

    /// The referee refused seat `i`'s answer: a record holds that refusal next, as the seat's fault.
    pub(crate) fn refused(&mut self, i: usize) {
        if let Some(log) = self.log()
            && matches!(log.peek(), Some(CallLine { seat, fault: Some(_), .. }) if *seat == i)
        {
            log.next();
        }
    }

    /// What the live seats' calls have cost so far (`None` for a replay).
    pub(crate) fn spent(&self) -> Option<std::time::Duration> {
        match self {
            Answers::Live(seats) | Answers::Forked { seats, .. } | Answers::Checked { seats, .. } => {
                Some(seats.iter().map(|s| s.spent).sum())
            }
            Answers::Recorded(_) => None,
        }
    }

    /// Seat `i` is banned: a live seat's instance is dropped.
    pub(crate) fn drop_seat(&mut self, i: usize) {
        if let Answers::Live(seats) | Answers::Forked { seats, .. } | Answers::Checked { seats, .. } = self {
            seats[i].drop_instance();
        }
    }
}

/// Every asked seat's answer (or fault), called concurrently, in the order the referee asked.
async fn live<'r>(seats: &mut [Seat], asked: PerStep<Asked<'r>>) -> Result<PerStep<Answered<'r>>, Fault> {
    let call = async |i: usize, seat: &mut Seat, a: &Asked<'r>| {
        // Its time on the clock, instantiation included, as the guard read it.
        let before = seat.wall;
        let c = a.case;
        let r = seat.answer(&c.name, a.arg, c.spread(), c.result.as_ref()).await;
        let micros = (seat.wall - before).as_micros().max(1) as u64;
        let output = seat.take_output();
        let reply = match r {
            Ok((answer, fuel)) => Reply::Answer(answer, fuel, micros, output),
            Err(f) => match seat.host_failed.take() {
                Some(why) => Reply::CheckerFailed(why),
                None => {
                    let request = a.arg.map_or(serde_json::Value::Null, values::to_json);
                    Reply::Fault(f, output, Some(arena_core::quote_json(request)))
                }
            },
        };
        (i, a.case, Some(reply))
    };
    // One seat asked (most steps of most games): called directly.
    if let [a] = asked.as_slice() {
        let Some(seat) = seats.get_mut(a.seat) else {
            return Err(protocol("requests", format!("asked seat {}, which is not in the game", a.seat)));
        };
        return Ok(smallvec::smallvec![call(a.seat, seat, a).await]);
    }
    // Two seats asked (simultaneous moves of two players): joined without a heap slice for their
    // futures.
    if let [a, b] = asked.as_slice()
        && let Ok([sa, sb]) = seats.get_disjoint_mut([a.seat, b.seat])
    {
        let (x, y) = futures_util::future::join(call(a.seat, sa, a), call(b.seat, sb, b)).await;
        return Ok(smallvec::smallvec![x, y]);
    }
    let calls = seats.iter_mut().enumerate().filter_map(|(i, seat)| {
        let a = asked.iter().find(|a| a.seat == i)?;
        Some(call(i, seat, a))
    });
    let mut answered: Vec<Answered<'r>> = join_all(calls).await;
    answered.sort_by_key(|(i, ..)| asked.iter().position(|a| a.seat == *i));
    Ok(answered.into())
}

/// Bans seat `i` for `fault`, records it, and tells the referee.
pub(crate) async fn ban(
    referee: &mut Referee,
    answers: &mut Answers<'_, '_>,
    banned: &mut [bool],
    out: &mut GameOutcome,
    (i, step): (usize, u32),
    fault: Fault,
) -> Result<(), Fault> {
    banned[i] = true;
    answers.drop_seat(i);
    let record = Val::Record(vec![
        ("kind".into(), Val::Enum(fault.kind.as_str().into())),
        ("call".into(), Val::String(fault.call.clone())),
        ("reason".into(), Val::String(fault.reason.clone())),
    ]);
    out.log.push(CallLine::failed(i, step, fault.clone()));
    out.faults.push((i, fault));
    let next = referee.call("banned", &[Val::U32(i as u32), record]).await?;
    referee.take_next("banned", next).map(|_| ())
}

/// Sets `items[j]` to the step answer `(seat, case(answer))`, reusing the tuple, case name and box
/// already there (a step's answers are refilled in place, not allocated again); `items` grows by one
/// when `j` is its length.
pub(crate) fn refill_answer(items: &mut Vec<Val>, j: usize, seat: u32, case: &str, answer: Option<Val>) {
    if let Some(Val::Tuple(t)) = items.get_mut(j)
        && let [Val::U32(s), Val::Variant(name, payload)] = t.as_mut_slice()
    {
        *s = seat;
        if name != case {
            name.clear();
            name.push_str(case);
        }
        match (payload, answer) {
            (Some(held), Some(a)) => **held = a,
            (payload, a) => *payload = a.map(Box::new),
        }
        return;
    }
    let item = Val::Tuple(vec![Val::U32(seat), Val::Variant(case.to_string(), answer.map(Box::new))]);
    match items.get_mut(j) {
        Some(slot) => *slot = item,
        None => items.push(item),
    }
}

/// The answer a step answer `(seat, case(answer))` carries, moved out (its box stays for the next
/// [`refill_answer`]).
pub(crate) fn take_answer(item: &mut Val) -> Option<Val> {
    let Val::Tuple(t) = item else { return None };
    let Some(Val::Variant(_, Some(held))) = t.last_mut() else { return None };
    Some(std::mem::replace(&mut **held, Val::Bool(false)))
}

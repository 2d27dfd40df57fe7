//! What a referee component exports, read from its type: the request cases its players must answer,
//! the flat `step` when it has one, and its optional exports (lifecycle calls, drawings), each checked
//! against the protocol.

use super::{Case, flat, types};
use std::sync::Arc;
use wasmtime::component::Component;
use wasmtime::component::types::{ComponentFunc, ComponentItem, Type};

/// The referee's export `name`, if it has one: an error if it is not a function.
fn export_func(engine: &wasmtime::Engine, referee: &Component, name: &str) -> Result<Option<ComponentFunc>, String> {
    match referee.component_type().get_export(engine, name).map(|e| e.ty) {
        None => Ok(None),
        Some(ComponentItem::ComponentFunc(f)) => Ok(Some(f)),
        Some(_) => Err(format!("`{name}` is not a function")),
    }
}

/// The referee's requests, from its component type: `start` answers `result<next, string>`, `step`
/// takes `list<tuple<u32, answer>>` and `banned` (seat, fault), both answering `next`, where `next` is
/// a record of `requests: list<tuple<u32, request>>`, `taken: u32` and `refused: option<string>`, and
/// request and answer are variants with the same case names; `events` takes nothing and answers `told`. A
/// referee of an earlier protocol (which exported `apply`, or `requests`, or answered `events` with a
/// list) is named as such.
pub(crate) fn cases(engine: &wasmtime::Engine, referee: &Component) -> Result<(Vec<Case>, Type), String> {
    let func =
        |name: &str| export_func(engine, referee, name)?.ok_or_else(|| format!("it exports no function `{name}`"));
    for (old, what) in [("requests", "`requests`, `events.emit`"), ("apply", "`apply`, one call an answer")] {
        if export_func(engine, referee, old)?.is_some() {
            return Err(format!(
                "it speaks an earlier protocol ({what}): rebuild it against this Arena's wit/game, whose `step` \
                 takes a step's answers together and whose `events` hands over the events"
            ));
        }
    }
    if let Some(events) = export_func(engine, referee, "events")?
        && matches!(events.results().collect::<Vec<_>>().as_slice(), [Type::List(_)])
    {
        return Err("it speaks an earlier protocol (`events` answering list<event>, a string an event): rebuild it \
                    against this Arena's wit/game, whose `events` answers `told`, the texts in one string"
            .into());
    }
    for name in ["start", "step", "banned", "events", "outcome", "view"] {
        func(name)?;
    }
    let next_of = |t: Option<Type>| match t {
        Some(Type::Record(r)) => {
            let field = |name: &str| r.fields().find(|f| f.name == name).map(|f| f.ty);
            match (field("requests"), field("taken"), field("refused"), r.fields().len()) {
                (Some(requests), Some(Type::U32), Some(Type::Option(o)), 3) if matches!(o.ty(), Type::String) => {
                    by_seat(requests)
                }
                _ => None,
            }
        }
        _ => None,
    };
    const NEXT: &str = "`next` a record of `requests`, `taken` and `refused`";
    let start = func("start")?;
    let request = match start.results().collect::<Vec<_>>().as_slice() {
        [Type::Result(r)] if matches!(r.err(), Some(Type::String)) => next_of(r.ok()),
        _ => None,
    }
    .ok_or_else(|| format!("`start` must answer result<next, string>, {NEXT}"))?;
    let Type::Variant(request) = request else {
        return Err("the requests of `next` must be tuple<u32, request>, `request` a variant".into());
    };
    let step = func("step")?;
    if next_of(step.results().next()).is_none() {
        return Err(format!("`step` must answer `next`, {NEXT}"));
    }
    let banned = func("banned")?;
    if next_of(banned.results().next()).is_none() {
        return Err(format!("`banned` must take (seat: u32, fault) and answer `next`, {NEXT}"));
    }
    let answer = match step.params().collect::<Vec<_>>().as_slice() {
        [(_, answers)] => by_seat(answers.clone()),
        _ => None,
    };
    let Some(Type::Variant(answer)) = answer else {
        return Err("`step` must take list<tuple<u32, answer>> with `answer` a variant".into());
    };
    let events = func("events")?;
    match events.results().collect::<Vec<_>>().as_slice() {
        [Type::Record(r)]
            if events.params().len() == 0
                && r.fields().len() == 2
                && r.fields().any(|f| f.name == "text" && matches!(f.ty, Type::String))
                && r.fields().any(|f| f.name == "events" && matches!(f.ty, Type::List(_))) => {}
        _ => return Err("`events` must take nothing and answer `told` (see wit/game)".into()),
    }
    let mut out = Vec::new();
    for case in request.cases() {
        let Some((i, a)) = answer.cases().enumerate().find(|(_, a)| a.name == case.name) else {
            return Err(format!("the answer variant has no case `{}` for the request of that name", case.name));
        };
        let answer_shape = a.ty.as_ref().and_then(flat::Shape::of);
        out.push(Case {
            name: case.name.to_string(),
            param: case.ty,
            result: a.ty,
            answer_index: i as u32,
            answer_shape,
        });
    }
    if out.is_empty() {
        return Err("the request variant has no cases".into());
    }
    Ok((out, Type::Variant(request)))
}

/// The flat interface's name in a referee's exports.
const FLAT: &str = "arena:game/flat@0.1.0";

/// The referee's `step` in flat form, if it exports `arena:game/flat` (which must then be `step:
/// func(list<u8>) -> list<u8>`) and every request and answer of the game has a flat form (otherwise
/// the host calls the typed `step`).
pub(crate) fn flat_step(
    referee: &Component,
    cases: &[Case],
    request: Type,
) -> Result<Option<(wasmtime::component::ComponentExportIndex, Arc<flat::Shape>)>, String> {
    let Some(iface) = referee.get_export_index(None, FLAT) else { return Ok(None) };
    let bytes = |t: Option<Type>| matches!(t, Some(Type::List(l)) if matches!(l.ty(), Type::U8));
    let fits = match referee.get_export(Some(&iface), "step") {
        Some((ComponentItem::ComponentFunc(f), index)) => {
            let params: Vec<_> = f.params().map(|(_, t)| t).collect();
            (params.len() == 1
                && bytes(params.into_iter().next())
                && f.results().len() == 1
                && bytes(f.results().next()))
            .then_some(index)
        }
        _ => None,
    };
    let Some(index) = fits else {
        return Err(format!("its `{FLAT}` must export `step: func(answers: list<u8>) -> list<u8>`"));
    };
    let answers_flat = cases.iter().all(|c| c.result.is_none() || c.answer_shape.is_some());
    let by_seat = |request| flat::Shape::List(Box::new(flat::Shape::Tuple(vec![flat::Shape::U32, request])));
    Ok(flat::Shape::of(&request).filter(|_| answers_flat).map(|request| (index, Arc::new(by_seat(request)))))
}

/// `T` of a `list<tuple<u32, T>>` (requests or answers, by seat).
fn by_seat(t: Type) -> Option<Type> {
    match t {
        Type::List(l) => match l.ty() {
            Type::Tuple(t) if t.types().len() == 2 => t.types().nth(1),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the referee exports `tournament(event) -> option<request>`, with the request variant that
/// `requests` uses.
pub(crate) fn lifecycle(engine: &wasmtime::Engine, referee: &Component, cases: &[Case]) -> Result<bool, String> {
    let Some(f) = export_func(engine, referee, "tournament")? else { return Ok(false) };
    let fits = f.params().len() == 1
        && matches!(f.results().next(), Some(Type::Option(o)) if matches!(o.ty(), Type::Variant(v)
            if v.cases().len() == cases.len() && v.cases().zip(cases).all(|(a, b)| a.name == b.name)));
    if !fits {
        return Err("`tournament` must take a tournament-event and return option<request>".into());
    }
    Ok(true)
}

/// Whether the referee exports `svg: func(seat: option<u32>) -> option<string>`.
pub(crate) fn draws(engine: &wasmtime::Engine, referee: &Component) -> Result<bool, String> {
    let Some(f) = export_func(engine, referee, "svg")? else { return Ok(false) };
    let param_ok =
        matches!(f.params().collect::<Vec<_>>().as_slice(), [(_, Type::Option(o))] if matches!(o.ty(), Type::U32));
    let result_ok =
        matches!(f.results().collect::<Vec<_>>().as_slice(), [Type::Option(o)] if matches!(o.ty(), Type::String));
    if !(param_ok && result_ok) {
        return Err("`svg` must take option<u32> (a seat, or none for spectators) and return option<string>".into());
    }
    Ok(true)
}

/// A player export fits a request when it takes the request's payload (or nothing) and returns the
/// answer's payload (or nothing).
pub(crate) fn check_export(f: &ComponentFunc, case: &Case) -> Result<(), String> {
    let params: Vec<Type> = f.params().map(|(_, t)| t).collect();
    let results: Vec<Type> = f.results().collect();
    let fits = |have: &[Type], want: &Option<Type>| match (have, want) {
        ([], None) => true,
        ([t], Some(w)) => types::same(t, w),
        _ => false,
    };
    let spread_fits = match &case.param {
        Some(Type::Tuple(t)) => {
            t.types().len() == params.len() && t.types().zip(&params).all(|(w, h)| types::same(h, &w))
        }
        _ => false,
    };
    if !(if case.spread() { spread_fits } else { fits(&params, &case.param) }) {
        return Err(format!(
            "`{}` takes other arguments than the referee's `{}` request carries",
            case.name, case.name
        ));
    }
    if !fits(&results, &case.result) {
        return Err(format!("`{}` returns another type than the referee's `{}` answer carries", case.name, case.name));
    }
    Ok(())
}

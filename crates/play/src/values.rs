//! Component values as JSON and back, for the record of a packaged game: answers are written as JSON
//! (records as objects, variants and enums by case name, lists and tuples as arrays) and read back
//! against the type the referee expects, so a replay feeds the referee the very values it was given.

use serde_json::{Map, Value, json};
use wasmtime::component::Val;
use wasmtime::component::types::Type;

/// `v` as JSON.
pub fn to_json(v: &Val) -> Value {
    match v {
        Val::Bool(b) => json!(b),
        Val::S8(n) => json!(n),
        Val::U8(n) => json!(n),
        Val::S16(n) => json!(n),
        Val::U16(n) => json!(n),
        Val::S32(n) => json!(n),
        Val::U32(n) => json!(n),
        Val::S64(n) => json!(n),
        Val::U64(n) => json!(n),
        Val::Float32(n) => json!(n),
        Val::Float64(n) => json!(n),
        Val::Char(c) => json!(c.to_string()),
        Val::String(s) => json!(s),
        Val::List(l) | Val::Tuple(l) | Val::FixedLengthList(l) => Value::Array(l.iter().map(to_json).collect()),
        Val::Record(fields) => Value::Object(fields.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
        Val::Variant(case, payload) => match payload {
            Some(p) => json!({ case: to_json(p) }),
            None => json!(case),
        },
        Val::Enum(case) => json!(case),
        Val::Option(o) => o.as_deref().map_or(Value::Null, |v| json!({ "some": to_json(v) })),
        Val::Result(Ok(v)) => json!({ "ok": v.as_deref().map_or(Value::Null, to_json) }),
        Val::Result(Err(v)) => json!({ "err": v.as_deref().map_or(Value::Null, to_json) }),
        Val::Flags(names) => json!(names),
        // Not part of any game's calls (resources, maps, async values).
        _ => Value::Null,
    }
}

/// JSON written by [`to_json`] read back as a value of type `ty`.
pub fn from_json(v: &Value, ty: &Type) -> Result<Val, String> {
    let bad = || format!("{v} is not a {}", name(ty));
    let int = || v.as_i64().ok_or_else(bad);
    let uint = || v.as_u64().ok_or_else(bad);
    Ok(match ty {
        Type::Bool => Val::Bool(v.as_bool().ok_or_else(bad)?),
        Type::S8 => Val::S8(int()?.try_into().map_err(|_| bad())?),
        Type::U8 => Val::U8(uint()?.try_into().map_err(|_| bad())?),
        Type::S16 => Val::S16(int()?.try_into().map_err(|_| bad())?),
        Type::U16 => Val::U16(uint()?.try_into().map_err(|_| bad())?),
        Type::S32 => Val::S32(int()?.try_into().map_err(|_| bad())?),
        Type::U32 => Val::U32(uint()?.try_into().map_err(|_| bad())?),
        Type::S64 => Val::S64(int()?),
        Type::U64 => Val::U64(uint()?),
        Type::Float32 => Val::Float32(v.as_f64().ok_or_else(bad)? as f32),
        Type::Float64 => Val::Float64(v.as_f64().ok_or_else(bad)?),
        Type::Char => Val::Char(v.as_str().and_then(|s| s.chars().next()).ok_or_else(bad)?),
        Type::String => Val::String(v.as_str().ok_or_else(bad)?.to_string()),
        Type::List(l) => {
            let items = v.as_array().ok_or_else(bad)?;
            Val::List(items.iter().map(|i| from_json(i, &l.ty())).collect::<Result<_, _>>()?)
        }
        Type::Tuple(t) => {
            let items = v.as_array().filter(|a| a.len() == t.types().len()).ok_or_else(bad)?;
            Val::Tuple(items.iter().zip(t.types()).map(|(i, t)| from_json(i, &t)).collect::<Result<_, _>>()?)
        }
        Type::Record(r) => {
            let obj: &Map<String, Value> = v.as_object().ok_or_else(bad)?;
            let fields = r.fields().map(|f| {
                let field = obj.get(f.name).ok_or_else(|| format!("{v} has no field `{}`", f.name))?;
                Ok((f.name.to_string(), from_json(field, &f.ty)?))
            });
            Val::Record(fields.collect::<Result<_, String>>()?)
        }
        Type::Variant(t) => {
            let (case, payload) = match v {
                Value::String(s) => (s.as_str(), None),
                Value::Object(o) if o.len() == 1 => {
                    o.iter().next().map(|(k, p)| (k.as_str(), Some(p))).ok_or_else(bad)?
                }
                _ => return Err(bad()),
            };
            let c = t.cases().find(|c| c.name == case).ok_or_else(|| format!("no case `{case}` in {}", name(ty)))?;
            let payload = match (c.ty, payload) {
                (Some(ty), Some(p)) => Some(Box::new(from_json(p, &ty)?)),
                (None, None) => None,
                _ => return Err(bad()),
            };
            Val::Variant(case.to_string(), payload)
        }
        Type::Enum(e) => {
            let case = v.as_str().filter(|c| e.names().any(|n| n == *c)).ok_or_else(bad)?;
            Val::Enum(case.to_string())
        }
        Type::Option(o) => match v {
            Value::Null => Val::Option(None),
            _ => Val::Option(Some(Box::new(from_json(v.get("some").ok_or_else(bad)?, &o.ty())?))),
        },
        Type::Result(r) => {
            let side = |p: &Value, t: Option<Type>| match t {
                Some(t) => from_json(p, &t).map(|v| Some(Box::new(v))),
                None => Ok(None),
            };
            match (v.get("ok"), v.get("err")) {
                (Some(p), None) => Val::Result(Ok(side(p, r.ok())?)),
                (None, Some(p)) => Val::Result(Err(side(p, r.err())?)),
                _ => return Err(bad()),
            }
        }
        Type::Flags(f) => {
            let names = v.as_array().ok_or_else(bad)?;
            let names: Vec<String> = names.iter().filter_map(|n| n.as_str().map(str::to_string)).collect();
            if !names.iter().all(|n| f.names().any(|m| m == n)) {
                return Err(bad());
            }
            Val::Flags(names)
        }
        _ => return Err(format!("values of type {} are not recorded", name(ty))),
    })
}

fn name(ty: &Type) -> String {
    format!("{ty:?}").split(['(', ' ']).next().unwrap_or("value").to_lowercase()
}

/// The size of `v` as the host holds it: every value counted by what it carries (strings and lists by
/// their contents), never by formatting it. What crossing the host costs a player is charged by it.
pub fn size(v: &Val) -> usize {
    const WORD: usize = 8;
    match v {
        Val::String(s) => WORD + s.len(),
        Val::List(l) | Val::Tuple(l) | Val::FixedLengthList(l) => WORD + l.iter().map(size).sum::<usize>(),
        Val::Record(fields) => fields.iter().map(|(_, v)| size(v)).sum::<usize>(),
        Val::Variant(_, p) | Val::Option(p) => WORD + p.as_deref().map_or(0, size),
        Val::Result(r) => {
            WORD + r.as_ref().map_or_else(|e| e.as_deref().map_or(0, size), |o| o.as_deref().map_or(0, size))
        }
        _ => WORD,
    }
}

//! Writing a value in flat form, against its [`Shape`]: what the host hands the referee.

use super::{Error, Shape};
use wasmtime::component::Val;

/// Appends `v`, a value of shape `ty`, to `out` in flat form.
pub(crate) fn write(v: &Val, ty: &Shape, out: &mut Vec<u8>) -> Result<(), Error> {
    match (ty, v) {
        (Shape::Bool, Val::Bool(b)) => out.push(u8::from(*b)),
        (Shape::U8, Val::U8(n)) => out.push(*n),
        (Shape::S8, Val::S8(n)) => out.push(*n as u8),
        (Shape::U16, Val::U16(n)) => varint(out, u64::from(*n)),
        (Shape::U32, Val::U32(n)) => varint(out, u64::from(*n)),
        (Shape::U64, Val::U64(n)) => varint(out, *n),
        (Shape::S16, Val::S16(n)) => zigzag(out, i64::from(*n)),
        (Shape::S32, Val::S32(n)) => zigzag(out, i64::from(*n)),
        (Shape::S64, Val::S64(n)) => zigzag(out, *n),
        (Shape::F32, Val::Float32(x)) => out.extend_from_slice(&x.to_le_bytes()),
        (Shape::F64, Val::Float64(x)) => out.extend_from_slice(&x.to_le_bytes()),
        (Shape::Char, Val::Char(c)) => string(out, c.encode_utf8(&mut [0; 4])),
        (Shape::String, Val::String(s)) => string(out, s),
        (Shape::List(elem), Val::List(items)) => {
            varint(out, items.len() as u64);
            for item in items {
                write(item, elem, out)?;
            }
        }
        (Shape::Tuple(types), Val::Tuple(items)) if types.len() == items.len() => {
            for (item, ty) in items.iter().zip(types) {
                write(item, ty, out)?;
            }
        }
        (Shape::Record(fields), Val::Record(values)) if fields.len() == values.len() => {
            for ((name, v), (field, ty)) in values.iter().zip(fields) {
                if name != field {
                    return Err(format!("field `{name}` where the record has `{field}`"));
                }
                write(v, ty, out)?;
            }
        }
        (Shape::Variant(cases), Val::Variant(name, payload)) => {
            let (i, (_, ty)) = cases
                .iter()
                .enumerate()
                .find(|(_, (c, _))| c == name)
                .ok_or_else(|| format!("no case `{name}` in the variant"))?;
            varint(out, i as u64);
            match (ty, payload) {
                (None, None) => {}
                (Some(ty), Some(p)) => write(p, ty, out)?,
                _ => return Err(format!("case `{name}` with a payload that does not fit it")),
            }
        }
        (Shape::Enum(names), Val::Enum(name)) => {
            let i = names.iter().position(|n| n == name).ok_or_else(|| format!("no case `{name}` in the enum"))?;
            varint(out, i as u64);
        }
        (Shape::Option(_), Val::Option(None)) => out.push(0),
        (Shape::Option(ty), Val::Option(Some(p))) => {
            out.push(1);
            write(p, ty, out)?;
        }
        (Shape::Result(ok, err), Val::Result(v)) => {
            let (tag, ty, p) = match v {
                Ok(p) => (0, ok, p),
                Err(p) => (1, err, p),
            };
            out.push(tag);
            match (ty, p) {
                (None, None) => {}
                (Some(ty), Some(p)) => write(p, ty, out)?,
                _ => return Err("a result whose payload does not fit it".into()),
            }
        }
        (ty, _) => return Err(format!("a value that is not a {}", ty.name())),
    }
    Ok(())
}

pub(crate) fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(out: &mut Vec<u8>, v: i64) {
    varint(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn string(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

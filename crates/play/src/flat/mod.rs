//! A step in flat form (`arena:game/flat`, the referee kit's fast path): the answers handed to the
//! referee and the `next` it answers travel as bytes in postcard's wire format, written and read here
//! against the referee's own types, so no dynamic value is lifted from or lowered into the referee. What
//! is read is refilled into the values held from the last step in place (their names, boxes and buffers
//! kept; the elements a shorter list drops are shelved to fill a longer one later, in this game or,
//! through the package, in the next), and bytes a referee hands over are untrusted: every length is
//! checked against what is left, no value is read past the end, and nothing may follow the value.
//!
//! The wire format (postcard 1): `bool`, `u8` and `s8` one byte; other integers LEB128 varints (signed
//! ones zigzag-encoded first); floats little-endian; strings and `char`s a varint length and their
//! UTF-8; a list a varint count and its elements; records and tuples their fields in order; a variant
//! or enum its case's index (a varint) and its payload; `option` and `result` a tag byte (0 `none`/`ok`,
//! 1 `some`/`err`) and the payload. Flags, resources and async values have no flat form.
//!
//! Both directions walk a [`Shape`], the type as this form needs it, built once when a package loads
//! (walking wasmtime's `Type` makes and drops a type handle at every node: 5% of a Goofspiel game).

use wasmtime::component::Val;
use wasmtime::component::types::Type;

mod write;
pub(crate) use write::{varint, write};

/// Writes the number `$v` into `$slot` as a `Val::$kind`, in place when it holds one already: replacing
/// the whole `Val` ran its drop glue (a call) at every number of every request read, 2% of a Goofspiel
/// game.
macro_rules! set {
    ($slot:expr, $kind:ident, $v:expr) => {{
        let v = $v;
        match $slot {
            Val::$kind(held) => *held = v,
            slot => *slot = Val::$kind(v),
        }
    }};
}

/// A component type that has a flat form, as reading and writing one walks it: the names of record
/// fields and of cases are held, ready to compare and to copy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    Bool,
    U8,
    S8,
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
    F32,
    F64,
    Char,
    String,
    List(Box<Shape>),
    Tuple(Vec<Shape>),
    Record(Vec<(String, Shape)>),
    Variant(Vec<(String, Option<Shape>)>),
    Enum(Vec<String>),
    Option(Box<Shape>),
    Result(Option<Box<Shape>>, Option<Box<Shape>>),
}

impl Shape {
    /// Whether a value of this shape holds others or a buffer (worth keeping to refill).
    fn is_compound(&self) -> bool {
        !matches!(
            self,
            Shape::Bool
                | Shape::U8
                | Shape::S8
                | Shape::U16
                | Shape::S16
                | Shape::U32
                | Shape::S32
                | Shape::U64
                | Shape::S64
                | Shape::F32
                | Shape::F64
                | Shape::Char
                | Shape::Enum(_)
        )
    }

    /// The shape of `ty`, or `None` when some value of it has no flat form (flags, resources, async
    /// values).
    pub(crate) fn of(ty: &Type) -> Option<Shape> {
        let boxed = |t: Option<Type>| -> Option<Option<Box<Shape>>> {
            match t {
                None => Some(None),
                Some(t) => Some(Some(Box::new(Shape::of(&t)?))),
            }
        };
        Some(match ty {
            Type::Bool => Shape::Bool,
            Type::U8 => Shape::U8,
            Type::S8 => Shape::S8,
            Type::U16 => Shape::U16,
            Type::S16 => Shape::S16,
            Type::U32 => Shape::U32,
            Type::S32 => Shape::S32,
            Type::U64 => Shape::U64,
            Type::S64 => Shape::S64,
            Type::Float32 => Shape::F32,
            Type::Float64 => Shape::F64,
            Type::Char => Shape::Char,
            Type::String => Shape::String,
            Type::List(l) => Shape::List(Box::new(Shape::of(&l.ty())?)),
            Type::Tuple(t) => Shape::Tuple(t.types().map(|t| Shape::of(&t)).collect::<Option<_>>()?),
            Type::Record(r) => {
                Shape::Record(r.fields().map(|f| Some((f.name.to_string(), Shape::of(&f.ty)?))).collect::<Option<_>>()?)
            }
            Type::Variant(v) => Shape::Variant(
                v.cases()
                    .map(|c| {
                        let payload = match &c.ty {
                            None => None,
                            Some(t) => Some(Shape::of(t)?),
                        };
                        Some((c.name.to_string(), payload))
                    })
                    .collect::<Option<_>>()?,
            ),
            Type::Enum(e) => Shape::Enum(e.names().map(str::to_string).collect()),
            Type::Option(o) => Shape::Option(Box::new(Shape::of(&o.ty())?)),
            Type::Result(r) => Shape::Result(boxed(r.ok())?, boxed(r.err())?),
            _ => return None,
        })
    }

    fn name(&self) -> &'static str {
        match self {
            Shape::Bool => "bool",
            Shape::U8 => "u8",
            Shape::S8 => "s8",
            Shape::U16 => "u16",
            Shape::S16 => "s16",
            Shape::U32 => "u32",
            Shape::S32 => "s32",
            Shape::U64 => "u64",
            Shape::S64 => "s64",
            Shape::F32 => "f32",
            Shape::F64 => "f64",
            Shape::Char => "char",
            Shape::String => "string",
            Shape::List(_) => "list",
            Shape::Tuple(_) => "tuple",
            Shape::Record(_) => "record",
            Shape::Variant(_) => "variant",
            Shape::Enum(_) => "enum",
            Shape::Option(_) => "option",
            Shape::Result(..) => "result",
        }
    }
}

/// Why flat bytes could not be read or written.
pub(crate) type Error = String;

/// The most values a shelf keeps (see [`Reader::shelved`]).
pub(crate) const SHELF: usize = 4096;

/// A reader of one value's bytes.
pub(crate) struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
    /// Values a list no longer holds, to fill the elements a list gains: their buffers are reused.
    shelf: Vec<Val>,
}

impl<'b> Reader<'b> {
    /// A reader that fills the elements lists gain from `shelf` (values of earlier reads), and shelves
    /// there, up to [`SHELF`] of them, the compound elements that lists lose: a game whose lists shrink
    /// and grow again (a history at the start of the next game) allocates nothing new for them.
    pub(crate) fn shelved(bytes: &'b [u8], shelf: Vec<Val>) -> Reader<'b> {
        Reader { bytes, at: 0, shelf }
    }

    /// The shelf, for the next read.
    pub(crate) fn into_shelf(self) -> Vec<Val> {
        self.shelf
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Nothing may follow the value.
    pub(crate) fn end(&self) -> Result<(), Error> {
        match self.left() {
            0 => Ok(()),
            n => Err(format!("{n} bytes follow the value")),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'b [u8], Error> {
        if n > self.left() {
            return Err(format!("{n} bytes wanted at byte {}, {} left", self.at, self.left()));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    pub(crate) fn byte(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    /// A LEB128 varint of at most 64 bits.
    pub(crate) fn varint(&mut self) -> Result<u64, Error> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err("a varint overflows 64 bits".into());
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a varint runs past 10 bytes".into())
    }

    fn unsigned<T: TryFrom<u64>>(&mut self, what: &str) -> Result<T, Error> {
        let v = self.varint()?;
        T::try_from(v).map_err(|_| format!("{v} does not fit a {what}"))
    }

    fn signed<T: TryFrom<i64>>(&mut self, what: &str) -> Result<T, Error> {
        let z = self.varint()?;
        let v = ((z >> 1) as i64) ^ -((z & 1) as i64);
        T::try_from(v).map_err(|_| format!("{v} does not fit a {what}"))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        self.unsigned("u32")
    }

    /// A count or a length: never more than the bytes left (every value of the component model takes
    /// at least a byte: a tuple or a record has a field).
    fn count(&mut self) -> Result<usize, Error> {
        let n = self.varint()?;
        let left = self.left() as u64;
        if n > left {
            return Err(format!("a length of {n} at byte {}, with {left} bytes left", self.at));
        }
        Ok(n as usize)
    }

    pub(crate) fn str(&mut self) -> Result<&'b str, Error> {
        let n = self.count()?;
        let at = self.at;
        std::str::from_utf8(self.take(n)?).map_err(|_| format!("a string at byte {at} is not UTF-8"))
    }

    /// An `option`'s or a `result`'s tag.
    pub(crate) fn tag(&mut self) -> Result<bool, Error> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            t => Err(format!("a tag of {t} at byte {}", self.at - 1)),
        }
    }

    /// Reads a value of shape `ty` into `slot`, reusing what `slot` holds where it has the same shape.
    pub(crate) fn value_into(&mut self, ty: &Shape, slot: &mut Val) -> Result<(), Error> {
        match ty {
            Shape::Bool => set!(slot, Bool, self.tag().map_err(|_| "a bool that is neither 0 nor 1")?),
            Shape::U8 => set!(slot, U8, self.byte()?),
            Shape::S8 => set!(slot, S8, self.byte()? as i8),
            Shape::U16 => set!(slot, U16, self.unsigned("u16")?),
            Shape::U32 => set!(slot, U32, self.unsigned("u32")?),
            Shape::U64 => set!(slot, U64, self.varint()?),
            Shape::S16 => set!(slot, S16, self.signed("s16")?),
            Shape::S32 => set!(slot, S32, self.signed("s32")?),
            Shape::S64 => set!(slot, S64, self.signed("s64")?),
            Shape::F32 => set!(slot, Float32, f32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes"))),
            Shape::F64 => set!(slot, Float64, f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes"))),
            Shape::Char => {
                let s = self.str()?;
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => set!(slot, Char, c),
                    _ => return Err(format!("a char of {} bytes", s.len())),
                }
            }
            Shape::String => {
                let s = self.str()?;
                match slot {
                    Val::String(held) => {
                        held.clear();
                        held.push_str(s);
                    }
                    _ => *slot = Val::String(s.to_string()),
                }
            }
            Shape::List(elem) => {
                let n = self.count()?;
                let items = vec_of(slot, false);
                let compound = elem.is_compound();
                if items.len() > n {
                    if compound {
                        let room = SHELF.saturating_sub(self.shelf.len());
                        let keep = (items.len() - n).min(room);
                        self.shelf.extend(items.drain(n..n + keep));
                    }
                    items.truncate(n);
                }
                for i in 0..n {
                    if i == items.len() {
                        items.push(if compound { self.shelf.pop() } else { None }.unwrap_or(Val::Bool(false)));
                    }
                    self.value_into(elem, &mut items[i])?;
                }
            }
            Shape::Tuple(types) => {
                let items = vec_of(slot, true);
                items.truncate(types.len());
                for (i, ty) in types.iter().enumerate() {
                    if i == items.len() {
                        items.push(Val::Bool(false));
                    }
                    self.value_into(ty, &mut items[i])?;
                }
            }
            Shape::Record(fields) => {
                let same = matches!(slot, Val::Record(f) if f.len() == fields.len()
                    && f.iter().zip(fields).all(|((name, _), (field, _))| name == field));
                if !same {
                    *slot = Val::Record(fields.iter().map(|(name, _)| (name.clone(), Val::Bool(false))).collect());
                }
                let Val::Record(values) = slot else { unreachable!("a record was just made") };
                for ((_, v), (_, ty)) in values.iter_mut().zip(fields) {
                    self.value_into(ty, v)?;
                }
            }
            Shape::Variant(cases) => {
                let i = self.varint()?;
                let (case, ty) = usize::try_from(i)
                    .ok()
                    .and_then(|i| cases.get(i))
                    .ok_or_else(|| format!("case {i} of a variant of {} cases", cases.len()))?;
                if !matches!(slot, Val::Variant(..)) {
                    *slot = Val::Variant(String::new(), None);
                }
                let Val::Variant(name, payload) = slot else { unreachable!("a variant was just made") };
                if name != case {
                    name.clear();
                    name.push_str(case);
                }
                self.payload_into(ty.as_ref(), payload)?;
            }
            Shape::Enum(names) => {
                let i = self.varint()?;
                let case = usize::try_from(i)
                    .ok()
                    .and_then(|i| names.get(i))
                    .ok_or_else(|| format!("case {i} of an enum of {} cases", names.len()))?;
                match slot {
                    Val::Enum(held) if held == case => {}
                    _ => *slot = Val::Enum(case.clone()),
                }
            }
            Shape::Option(ty) => {
                let some = self.tag()?;
                if !matches!(slot, Val::Option(_)) {
                    *slot = Val::Option(None);
                }
                let Val::Option(held) = slot else { unreachable!("an option was just made") };
                if some {
                    self.payload_into(Some(ty), held)?;
                } else {
                    *held = None;
                }
            }
            Shape::Result(ok, err) => {
                let is_err = self.tag()?;
                let ty = if is_err { err } else { ok };
                let mut held = match std::mem::replace(slot, Val::Bool(false)) {
                    Val::Result(Ok(p)) if !is_err => p,
                    Val::Result(Err(p)) if is_err => p,
                    _ => None,
                };
                self.payload_into(ty.as_deref(), &mut held)?;
                *slot = Val::Result(if is_err { Err(held) } else { Ok(held) });
            }
        }
        Ok(())
    }

    /// A case's or an option's payload, into the box already there when there is one.
    fn payload_into(&mut self, ty: Option<&Shape>, held: &mut Option<Box<Val>>) -> Result<(), Error> {
        match (ty, held) {
            (None, held) => *held = None,
            (Some(ty), Some(b)) => self.value_into(ty, b)?,
            (Some(ty), held) => {
                let mut v = Val::Bool(false);
                self.value_into(ty, &mut v)?;
                *held = Some(Box::new(v));
            }
        }
        Ok(())
    }
}

/// The vector of a list (`tuple`: of a tuple) held in `slot`, made empty first when `slot` holds
/// something else.
fn vec_of(slot: &mut Val, tuple: bool) -> &mut Vec<Val> {
    if !matches!((&*slot, tuple), (Val::List(_), false) | (Val::Tuple(_), true)) {
        *slot = if tuple { Val::Tuple(Vec::new()) } else { Val::List(Vec::new()) };
    }
    match slot {
        Val::List(v) | Val::Tuple(v) => v,
        _ => unreachable!("a list or a tuple was just made"),
    }
}

#[cfg(test)]
mod tests;

//! Structural equality of component types, so a player's export can be checked against the referee's
//! request although the two come from different components (wasmtime's own type equality is per
//! component). Resources, futures and streams are not part of any game's calls: they never match.

use wasmtime::component::types::Type;

/// Whether `a` and `b` describe the same values, field and case names included.
pub fn same(a: &Type, b: &Type) -> bool {
    use Type as T;
    let opt = |a: Option<Type>, b: Option<Type>| match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same(&a, &b),
        _ => false,
    };
    match (a, b) {
        (T::Bool, T::Bool)
        | (T::S8, T::S8)
        | (T::U8, T::U8)
        | (T::S16, T::S16)
        | (T::U16, T::U16)
        | (T::S32, T::S32)
        | (T::U32, T::U32)
        | (T::S64, T::S64)
        | (T::U64, T::U64)
        | (T::Float32, T::Float32)
        | (T::Float64, T::Float64)
        | (T::Char, T::Char)
        | (T::String, T::String) => true,
        (T::List(a), T::List(b)) => same(&a.ty(), &b.ty()),
        (T::Record(a), T::Record(b)) => {
            a.fields().len() == b.fields().len()
                && a.fields().zip(b.fields()).all(|(x, y)| x.name == y.name && same(&x.ty, &y.ty))
        }
        (T::Tuple(a), T::Tuple(b)) => {
            a.types().len() == b.types().len() && a.types().zip(b.types()).all(|(x, y)| same(&x, &y))
        }
        (T::Variant(a), T::Variant(b)) => {
            a.cases().len() == b.cases().len()
                && a.cases().zip(b.cases()).all(|(x, y)| x.name == y.name && opt(x.ty, y.ty))
        }
        (T::Enum(a), T::Enum(b)) => a.names().eq(b.names()),
        (T::Flags(a), T::Flags(b)) => a.names().eq(b.names()),
        (T::Option(a), T::Option(b)) => same(&a.ty(), &b.ty()),
        (T::Result(a), T::Result(b)) => opt(a.ok(), b.ok()) && opt(a.err(), b.err()),
        _ => false,
    }
}

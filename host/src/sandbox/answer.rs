//! Player data, measured and quoted: what arguments a player passed to a host function cost the host
//! once lifted (charged to its fuel), and the cut every reason, replay line and JSON field applies when
//! it quotes a player. (Their size is bounded earlier, by the store's hostcall fuel.)

use std::mem::size_of;

/// The size of a value as the host holds it after lifting: the value itself plus everything it owns.
/// Computed by walking the value, never by formatting it.
pub trait Lifted {
    /// The size of every value of the type, for types that own nothing (so a list of them is measured
    /// without walking it).
    const FIXED: Option<usize> = None;
    fn lifted_bytes(&self) -> usize;
}

macro_rules! lifted_fixed {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::sandbox::Lifted for $t {
            const FIXED: Option<usize> = Some(std::mem::size_of::<$t>());
            fn lifted_bytes(&self) -> usize {
                std::mem::size_of::<$t>()
            }
        })*
    };
}
pub(crate) use lifted_fixed;

/// A record's lifted size: the sum of its fields' (`lifted_record!(wit::State { board, players })`).
macro_rules! lifted_record {
    ($t:ty { $($field:ident),* $(,)? }) => {
        impl $crate::sandbox::Lifted for $t {
            fn lifted_bytes(&self) -> usize {
                0 $(+ $crate::sandbox::Lifted::lifted_bytes(&self.$field))*
            }
        }
    };
}
pub(crate) use lifted_record;

lifted_fixed!((), bool, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, char);

impl<T: Lifted> Lifted for Vec<T> {
    fn lifted_bytes(&self) -> usize {
        size_of::<Vec<T>>()
            + match T::FIXED {
                Some(each) => self.len().saturating_mul(each),
                None => self.iter().map(Lifted::lifted_bytes).sum::<usize>(),
            }
    }
}

impl Lifted for String {
    fn lifted_bytes(&self) -> usize {
        size_of::<String>() + self.len()
    }
}

impl<T: Lifted> Lifted for Option<T> {
    fn lifted_bytes(&self) -> usize {
        size_of::<Option<()>>() + self.as_ref().map_or(0, Lifted::lifted_bytes)
    }
}

/// How many characters of player data a reason, a replay line or a JSON field quotes at most.
pub const QUOTE_CHARS: usize = 300;

/// `s` cut to [`QUOTE_CHARS`] characters, with "…" and the size of what was left out.
pub fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE_CHARS) {
        None => s.to_string(),
        Some((at, _)) => format!("{}… [{} more bytes]", &s[..at], s.len() - at),
    }
}

/// A JSON value that quotes a player's answer, cut to a small bound: values whose text is longer than
/// [`QUOTE_CHARS`] become a string of their cut text (so a replay line stays small, and the replay shows
/// what it can).
pub fn quote_json(v: serde_json::Value) -> serde_json::Value {
    if matches!(v, serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_)) {
        return v;
    }
    let text = v.to_string();
    if text.len() <= QUOTE_CHARS { v } else { serde_json::Value::String(quote(&text)) }
}

/// `64 KiB`, `3 MiB`, `512 bytes`.
pub fn bytes_text(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_count_what_is_owned() {
        assert_eq!(7u8.lifted_bytes(), 1);
        assert_eq!(vec![1u8; 1000].lifted_bytes(), 1000 + size_of::<Vec<u8>>());
        assert_eq!(String::from("abc").lifted_bytes(), 3 + size_of::<String>());
        let nested = vec![vec![0u16; 10]; 3];
        assert_eq!(nested.lifted_bytes(), size_of::<Vec<u8>>() * 4 + 60);
        assert_eq!(Some(5u32).lifted_bytes(), size_of::<Option<()>>() + 4);
    }

    #[test]
    fn quotes_are_cut_on_a_char_boundary_and_say_how_much_is_missing() {
        assert_eq!(quote("short"), "short");
        let long = "é".repeat(1000);
        let q = quote(&long);
        assert!(q.starts_with(&"é".repeat(QUOTE_CHARS)));
        assert!(q.ends_with(&format!("… [{} more bytes]", 2000 - 2 * QUOTE_CHARS)), "{q}");
        let big = serde_json::json!(vec![1; 10_000]);
        let cut = quote_json(big);
        assert!(cut.as_str().unwrap().len() < QUOTE_CHARS + 40);
        assert_eq!(quote_json(serde_json::json!([1, 2])), serde_json::json!([1, 2]));
        assert_eq!(bytes_text(64 << 10), "64 KiB");
        assert_eq!(bytes_text(100), "100 bytes");
    }
}

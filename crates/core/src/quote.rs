//! Player data, quoted: the cut every reason, replay line and JSON field applies when it quotes a
//! player. (Its size is bounded earlier, by the store's hostcall fuel.)

/// How many characters of player data a reason, a replay line or a JSON field quotes at most.
pub const QUOTE_CHARS: usize = 300;

/// `s` cut to [`QUOTE_CHARS`] characters, with "…" and the size of what was left out.
pub fn quote(s: &str) -> String {
    quote_at(s, QUOTE_CHARS)
}

/// `s` cut to `chars` characters, with "…" and the size of what was left out.
pub fn quote_at(s: &str, chars: usize) -> String {
    match s.char_indices().nth(chars) {
        None => s.to_string(),
        Some((at, _)) => format!("{}… [{} more bytes]", &s[..at], s.len() - at),
    }
}

/// A JSON value that quotes a player's answer, cut to a small bound: values whose text is longer than
/// [`QUOTE_CHARS`] become a string of their cut text (so a replay line stays small, and the replay shows
/// what it can).
pub fn quote_json(v: serde_json::Value) -> serde_json::Value {
    quote_json_measured(v).0
}

/// [`quote_json`], and about how many bytes the quoted value takes as JSON text (scalars count 8).
pub fn quote_json_measured(v: serde_json::Value) -> (serde_json::Value, usize) {
    if matches!(v, serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_)) {
        return (v, 8);
    }
    // Measured without being written out: most answers are short, and are kept as they are.
    let mut fits = Fits(QUOTE_CHARS);
    if serde_json::to_writer(&mut fits, &v).is_ok() {
        return (v, QUOTE_CHARS - fits.0);
    }
    let q = quote(&v.to_string());
    let len = q.len() + 2;
    (serde_json::Value::String(q), len)
}

/// A writer that takes at most its count of bytes, and fails past it.
struct Fits(usize);

impl std::io::Write for Fits {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.checked_sub(buf.len()).ok_or(std::io::ErrorKind::WriteZero)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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
        // A string whose JSON text is exactly the bound stays as it is; one byte more is cut.
        let at = serde_json::json!("a".repeat(QUOTE_CHARS - 2));
        assert_eq!(quote_json(at.clone()), at);
        let past = serde_json::json!("a".repeat(QUOTE_CHARS - 1));
        assert_eq!(quote_json(past.clone()), serde_json::Value::String(quote(&past.to_string())));
        assert_eq!(bytes_text(64 << 10), "64 KiB");
        assert_eq!(bytes_text(100), "100 bytes");
    }
}

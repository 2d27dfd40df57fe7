//! The wall clock as the store and the web arena write times (Unix seconds), and lengths of time as
//! people type them (`90s`, `30m`, `12h`, `7d`).

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// A number and a unit (`s`, `m`, `h`, `d`) as seconds; `None` if it is not one, or not above zero.
pub fn duration_secs(s: &str) -> Option<i64> {
    let t = s.trim();
    let (n, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit())?);
    let per = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86400,
        _ => return None,
    };
    n.parse::<i64>().ok()?.checked_mul(per).filter(|d| *d > 0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_as_typed() {
        use super::duration_secs as d;
        assert_eq!((d("90s"), d("30m"), d(" 12h "), d("7d")), (Some(90), Some(1800), Some(43200), Some(604800)));
        for bad in ["", "90", "s", "0s", "1w", "-1d", "1.5h", "99999999999999999999d", "9223372036854775807d"] {
            assert_eq!(d(bad), None, "{bad:?}");
        }
    }
}

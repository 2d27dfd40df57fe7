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

/// Seconds as people write them: `7 days`, `12 hours`, `90 minutes` (the largest unit that divides
/// it), `45 s`.
pub fn duration_text(secs: i64) -> String {
    let plural = |n: i64, unit: &str| if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") };
    match secs {
        s if s > 0 && s % 86400 == 0 => plural(s / 86400, "day"),
        s if s > 0 && s % 3600 == 0 => plural(s / 3600, "hour"),
        s if s > 0 && s % 60 == 0 => plural(s / 60, "minute"),
        s => format!("{s} s"),
    }
}

/// A number of seats as people say it: `2 players`, `2 to 4 players`.
pub fn seats_text(seats: &std::ops::RangeInclusive<usize>) -> String {
    if seats.start() == seats.end() {
        format!("{} players", seats.start())
    } else {
        format!("{} to {} players", seats.start(), seats.end())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_and_seats_as_people_write_them() {
        use super::{duration_text as t, seats_text};
        assert_eq!(
            [t(604800), t(86400), t(7200), t(5400), t(45)],
            ["7 days", "1 day", "2 hours", "90 minutes", "45 s"]
        );
        assert_eq!(
            (seats_text(&(2..=2)), seats_text(&(2..=4))),
            ("2 players".to_string(), "2 to 4 players".to_string())
        );
    }

    #[test]
    fn durations_as_typed() {
        use super::duration_secs as d;
        assert_eq!((d("90s"), d("30m"), d(" 12h "), d("7d")), (Some(90), Some(1800), Some(43200), Some(604800)));
        for bad in ["", "90", "s", "0s", "1w", "-1d", "1.5h", "99999999999999999999d", "9223372036854775807d"] {
            assert_eq!(d(bad), None, "{bad:?}");
        }
    }
}

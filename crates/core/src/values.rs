//! The rules of the values a user gives Arena, written once for both front ends (the command line and
//! the web), so that both refuse the same inputs with the same words: a player's name, a match's
//! length and a seed, as checked or as typed.

/// The longest a player's name may be, in characters.
pub const MAX_NAME: usize = 40;

/// The most games a match may have.
pub const MAX_GAMES_PER_MATCH: u32 = 99;

/// Player names: 1 to [`MAX_NAME`] characters, ASCII letters, digits, `-`, `_` and `.`, starting with a
/// letter or digit (they appear in tables, file names and shell commands). The same rule for a
/// registered player, an account, and a player named on the command line.
pub fn check_player_name(name: &str) -> Result<(), String> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.len() > MAX_NAME {
        let shown: String = name.chars().take(MAX_NAME).collect();
        let more = if shown.len() < name.len() { "…" } else { "" };
        return Err(format!("`{}{more}`: a player name must be 1 to {MAX_NAME} characters long", shown.escape_debug()));
    }
    if !name.chars().all(ok_char) || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "`{}`: a player name may only use ASCII letters, digits, `-`, `_` and `.`, and must start with a \
             letter or digit",
            name.escape_debug()
        ));
    }
    Ok(())
}

/// Games per match: 1 to [`MAX_GAMES_PER_MATCH`].
pub fn check_games_per_match(k: u32) -> Result<(), String> {
    if (1..=MAX_GAMES_PER_MATCH).contains(&k) {
        Ok(())
    } else {
        Err(format!("games per match must be 1 to {MAX_GAMES_PER_MATCH}, got {k}"))
    }
}

/// Games per match as typed (a flag's value, a form's field): a whole number, 1 to
/// [`MAX_GAMES_PER_MATCH`].
pub fn parse_games_per_match(typed: &str) -> Result<u32, String> {
    let k: u32 = typed.trim().parse().map_err(|_| {
        format!("games per match must be 1 to {MAX_GAMES_PER_MATCH}, got `{}`", crate::quote_at(typed, 40))
    })?;
    check_games_per_match(k)?;
    Ok(k)
}

/// A seed as typed: a whole number from 0 to 2^64 − 1.
pub fn parse_seed(typed: &str) -> Result<u64, String> {
    typed
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not a seed: a whole number from 0 to {}", crate::quote_at(typed, 40), u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_match_lengths_have_one_rule_each() {
        for ok in ["a", "yahtzee-greedy", "bot_2.1", &"x".repeat(MAX_NAME)] {
            assert_eq!(check_player_name(ok), Ok(()), "{ok}");
        }
        for bad in ["", "-lead", "my bot", "été", "a/b", "builtin:x", &"x".repeat(MAX_NAME + 1)] {
            assert!(check_player_name(bad).unwrap_err().contains("a player name"), "{bad}");
        }
        assert_eq!(check_games_per_match(1), Ok(()));
        assert_eq!(check_games_per_match(99), Ok(()));
        assert_eq!(check_games_per_match(0).unwrap_err(), "games per match must be 1 to 99, got 0");
        assert!(check_games_per_match(100).is_err());
    }

    #[test]
    fn typed_seeds_and_match_lengths_are_read_or_refused_with_one_set_of_words() {
        assert_eq!(parse_seed(" 42 "), Ok(42));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_seed("-1").unwrap_err(), "`-1` is not a seed: a whole number from 0 to 18446744073709551615");
        assert!(parse_seed("18446744073709551616").is_err() && parse_seed("").is_err());
        // A stranger's long input is cut in the answer.
        assert!(parse_seed(&"9x".repeat(10_000)).unwrap_err().len() < 200);
        assert_eq!(parse_games_per_match("3"), Ok(3));
        assert_eq!(parse_games_per_match("0").unwrap_err(), "games per match must be 1 to 99, got 0");
        assert_eq!(parse_games_per_match("three").unwrap_err(), "games per match must be 1 to 99, got `three`");
    }
}

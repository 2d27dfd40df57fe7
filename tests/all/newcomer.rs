//! A newcomer's first hour on the command line: a failing bot's own last words under its fault (in
//! `check`, `play`, `tournament`, `replay` and a refused `submit`), with the step and what it was asked;
//! a player of another game named as such at once.

use super::*;

const PANIC_WORDS: &str = "yahtzee-panic gives up on turn 5";

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn check_shows_the_step_the_request_and_the_bots_own_last_words() {
    let out = run(&["check", "--game", "yahtzee", "--seed", "4", &player("yahtzee-panic")]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    let fault = t.find("FAULT: crash in `choose`").unwrap_or_else(|| panic!("{t}"));
    let under = &t[fault..];
    assert!(under.contains("\n  at step "), "{t}");
    assert!(under.contains(", asked {\"dice\":["), "the request is shown: {t}");
    assert!(under.contains("its last output:\n  | thread"), "{t}");
    assert!(under.contains(&format!("  | {PANIC_WORDS}")), "{t}");
}

#[test]
fn play_and_tournament_show_a_banned_bots_last_words_under_its_ban() {
    let out = run(&["play", "--game", "yahtzee", "--seed", "4", &player("yahtzee-panic"), "builtin:greedy"]);
    let t = text(&out);
    let ban = t.find("Banned, in the order they failed").unwrap_or_else(|| panic!("{t}"));
    assert!(t[ban..].contains(&format!("    | {PANIC_WORDS}")), "{t}");
    // A player that prints nothing has no such lines.
    let out = run(&["play", "--game", "yahtzee", "--seed", "4", &player("yahtzee-cheat"), "builtin:greedy"]);
    assert!(!text(&out).contains("its last output"), "{}", text(&out));

    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("replays");
    let out = run(&[
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "round-robin",
        "--games-per-match",
        "1",
        "--seed",
        "3",
        "--replay-dir",
        replays.to_str().unwrap(),
        &player("yahtzee-greedy"),
        &player("yahtzee-panic"),
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains(&format!("    | {PANIC_WORDS}")), "{t}");
    // The replay shows the faulting step: what it was asked, the fault, its last words.
    let file = std::fs::read_dir(&replays).unwrap().next().unwrap().unwrap().path();
    let out = run(&["replay", file.to_str().unwrap()]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let asked = t.find("yahtzee-panic        asked choose").unwrap_or_else(|| panic!("{t}"));
    let fault = t.find("yahtzee-panic        FAULT crash in `choose`").unwrap_or_else(|| panic!("{t}"));
    assert!(asked < fault, "{t}");
    assert!(t[fault..].contains(&format!("    | {PANIC_WORDS}")), "{t}");
}

#[test]
fn a_refused_submission_says_where_what_it_was_asked_and_its_last_words() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let out = run(&[
        "submit",
        "--data",
        data.to_str().unwrap(),
        "--game",
        "yahtzee",
        "--name",
        "p",
        &player("yahtzee-panic"),
    ]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("nothing was stored\nat step "), "{t}");
    assert!(t.contains(&format!("| {PANIC_WORDS}")), "{t}");
    assert!(t.contains("`arena check --game yahtzee --seed 1 FILE` plays the same game"), "{t}");
}

#[test]
fn a_player_of_another_game_is_named_as_such_before_anything_is_compiled() {
    let dir = tempfile::tempdir().unwrap();
    for (game, file, theirs) in
        [("fish", "yahtzee-greedy", "yahtzee"), ("pennies", "nim-optimal", "nim"), ("nim", "pennies-heads", "pennies")]
    {
        // A fresh compile cache: nothing compiled, nothing kept.
        let cache = dir.path().join(format!("cache-{game}"));
        let out =
            arena().args(["check", "--game", game, "--cache-dir", cache.to_str().unwrap(), &player(file)]).bounded();
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(t.contains(&format!("this is a {theirs} player")), "{t}");
        assert!(t.contains(&format!("not a {game} one: choose {theirs}")), "{t}");
        let hash = arena_core::sha256_hex(&std::fs::read(player(file)).unwrap());
        let names: Vec<String> = std::fs::read_dir(&cache)
            .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().to_string()).collect())
            .unwrap_or_default();
        assert!(!names.iter().any(|n| n.starts_with(&hash)), "{game}: {file} was compiled: {names:?}");
    }
}

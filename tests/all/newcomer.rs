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

/// `arena --help` gives each command a one-line summary, and every command's help describes each of
/// its positional arguments and the limits' defaults.
#[test]
fn help_has_a_line_a_command_and_describes_every_argument() {
    let out = run(&["--help"]);
    let t = text(&out);
    let commands: Vec<&str> =
        t.lines().skip_while(|l| !l.starts_with("Commands:")).skip(1).take_while(|l| l.starts_with("  ")).collect();
    assert!(commands.len() > 15, "{t}");
    for line in &commands {
        assert!(line.chars().count() <= 90, "a summary longer than a line: {line}");
    }
    for c in commands.iter().filter_map(|l| l.split_whitespace().next()).filter(|c| *c != "help") {
        let out = run(&[c, "--help"]);
        let t = text(&out);
        let args: Vec<&str> = t
            .lines()
            .skip_while(|l| !l.starts_with("Arguments:"))
            .skip(1)
            .take_while(|l| !l.starts_with("Options:"))
            .collect();
        for (i, l) in args.iter().enumerate() {
            let name = l.trim_start();
            if l.starts_with("  <") && name.ends_with('>') || name.ends_with(">...") {
                let next = args.get(i + 1).map_or("", |n| n.trim());
                assert!(!next.is_empty() && !next.starts_with('<'), "`arena {c}`: {name} has no description:\n{t}");
            }
        }
    }
    let t = text(&run(&["check", "--help"]));
    for default in ["(default 200000000)", "(default 1000)", "(default 64)"] {
        assert!(t.contains(default), "{default} missing from `arena check --help`:\n{t}");
    }
}

#[test]
fn messages_say_seats_and_lengths_as_people_do() {
    let out = run(&["play", "--game", "yahtzee", &player("yahtzee-greedy")]);
    let t = text(&out);
    assert!(t.contains("yahtzee is played by 2 players, and 1 were given"), "{t}");
    assert!(!t.contains("..="), "{t}");
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["user", "invite", "--data", dir.path().to_str().unwrap(), "--expires", "7d"]);
    let t = text(&out);
    assert!(t.contains("for 7 days"), "{t}");
}

/// `arena pack` writes the archive the web's publish page takes: the package's own files, no build
/// folders; it never overwrites a file.
#[test]
fn pack_writes_the_archive_the_publish_page_takes() {
    let package = players_dir().with_file_name("packages").join("nim");
    let dir = tempfile::tempdir().unwrap();
    // A build folder in the package is left out.
    let copy = dir.path().join("nim");
    let out = Command::new("cp").args(["-r", package.to_str().unwrap(), copy.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success());
    std::fs::create_dir_all(copy.join("target/debug")).unwrap();
    std::fs::write(copy.join("target/debug/junk"), b"x").unwrap();
    let archive = dir.path().join("nim.tar.gz");
    let out = arena().current_dir(dir.path()).args(["pack", "nim"]).bounded();
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("wrote nim.tar.gz") && t.contains("/publish page"), "{t}");
    let listed = Command::new("tar").args(["tzf", archive.to_str().unwrap()]).output().unwrap();
    let names = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(names.lines().any(|l| l == "game.toml"), "{names}");
    assert!(names.lines().any(|l| l.ends_with(".wit")), "{names}");
    assert!(!names.contains("target/"), "{names}");
    let again = arena().current_dir(dir.path()).args(["pack", "nim"]).bounded();
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("exists already"), "{}", text(&again));
}

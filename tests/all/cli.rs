//! The `check`, `play` and `tournament` commands as a person uses them: text output, replays.

use super::*;

#[test]
fn check_accepts_a_good_player_and_shows_its_imports_and_fuel() {
    let out = run(&["check", "--game", "yahtzee", "--seed", "4", &player("yahtzee-greedy")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("a component implementing arena:yahtzee/player"), "{text}");
    assert!(text.contains("imports: "), "{text}");
    assert!(text.contains("exports: "), "{text}");
    assert!(text.contains("keep"), "{text}");
    assert!(text.contains("ok: no fault"), "{text}");
    let fuel_line = text.lines().find(|l| l.trim_start().starts_with("fuel:")).expect("a fuel line");
    let total: u64 = fuel_line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(total > 0, "{fuel_line}");
}

#[test]
fn check_fails_a_cheating_player_with_the_fault() {
    let out = run(&["check", "--game", "yahtzee", "--seed", "4", &player("yahtzee-cheat")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAULT: illegal in `choose`"), "{text}");
}

#[test]
fn play_shows_both_score_cards_and_the_winner() {
    let out = run(&["play", "--game", "yahtzee", "--seed", "8", &player("yahtzee-greedy"), "builtin:random"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for needle in ["yahtzee-greedy", "random", "full-house", "upper bonus", "total", "Winner: ", "No player was banned"]
    {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

#[test]
fn tournament_text_shows_the_bracket_winner_and_ban_table() {
    let out = run(&[
        "tournament",
        "--game",
        "yahtzee",
        "--seed",
        "2",
        &player("yahtzee-greedy"),
        &player("yahtzee-panic"),
        "builtin:random",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Round 1") && text.contains("Round 2"), "{text}");
    assert!(text.contains("(bye)"), "{text}");
    // Three players in four slots: seed 1 has the bye, the bracket is drawn with its lines.
    let drawn = &text[text.find("Bracket\n").unwrap_or_else(|| panic!("no bracket drawn: {text}"))..];
    let lines: Vec<&str> = drawn.lines().skip(1).take(7).collect();
    assert!(lines[0].contains("yahtzee-greedy") && lines[0].ends_with("─┐"), "{drawn}");
    assert!(lines[1].contains("├─ yahtzee-greedy"), "{drawn}");
    assert!(lines[2].contains("(bye)") && lines[2].contains("─┘"), "{drawn}");
    assert!(lines[3].contains('├'), "the final joins the two halves: {drawn}");
    assert!(text.contains("Winner: "), "{text}");
    assert!(text.contains("Banned, in the order they failed:"), "{text}");
    let table = &text[text.find("Banned, in the order they failed:").unwrap()..];
    let row = table.lines().find(|l| l.trim_start().starts_with("yahtzee-panic ")).expect("a ban row");
    assert!(row.contains("crash") && row.contains("choose"), "{row}");
}

#[test]
fn replays_have_a_header_every_call_and_a_footer() {
    let dir = tempfile::tempdir().unwrap();
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--seed",
        "3",
        "--json",
        "--replay-dir",
        dir.path().to_str().unwrap(),
        &player("yahtzee-greedy"),
        &player("yahtzee-cheat"),
    ]);
    let games = v["games"].as_array().unwrap();
    assert!(!games.is_empty());
    for g in games {
        let id = g["id"].as_str().unwrap();
        let text = std::fs::read_to_string(dir.path().join(format!("{id}.jsonl"))).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines[0]["type"], "header");
        assert_eq!(lines[0]["players"], g["players"]);
        assert_eq!(lines[0]["seed"], g["seed"]);
        assert!(lines[0]["limits"]["fuel"].as_u64().unwrap() > 0);
        let footer = lines.last().unwrap();
        assert_eq!(footer["type"], "footer");
        assert_eq!(footer["faults"], g["faults"]);
        let calls = &lines[1..lines.len() - 1];
        assert!(calls.iter().all(|c| c["type"] == "call"));
        // The fuel of the calls adds up to the game's fuel per player.
        for seat in 0..2 {
            let sum: u64 = calls.iter().filter(|c| c["seat"] == seat).map(|c| c["fuel"].as_u64().unwrap()).sum();
            assert_eq!(sum, g["fuel"][seat].as_u64().unwrap());
        }
    }
    // The cheat's game ends at its illegal answer, recorded in the footer.
    assert_eq!(v["banned"][0]["player"], "yahtzee-cheat");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly_instead_of_panicking() {
    // `arena … | head` once panicked with "failed printing to stdout: Broken pipe".
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = arena()
        .args(["check", "--game", "yahtzee", "--seed", "1", &player("yahtzee-random")])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}: {err}", out.status);
}

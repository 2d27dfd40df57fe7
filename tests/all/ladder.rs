//! `arena ladder`: rated games without end among the registered players. A few hundred games rank
//! players of known strength in the expected order (strong > random > one that faults in most games)
//! and every player plays; a version that keeps faulting is benched; Ctrl-C stops cleanly, a new
//! version submitted while the ladder runs takes its place, and the next run goes on numbering.

use super::{arena, player, run};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Registers `name` from sample player `p`, validating with the first seed its validation game
/// passes (a player that faults in most games passes for a few).
pub fn submit_somehow(data: &Path, game: &str, name: &str, p: &str) {
    let d = data.display().to_string();
    for seed in 1..200 {
        let s = seed.to_string();
        let out = run(&["submit", "--data", &d, "--game", game, "--name", name, "--seed", &s, &player(p)]);
        if out.status.success() {
            return;
        }
    }
    panic!("{p} never passed its validation game");
}

fn leaderboard(data: &Path) -> Vec<serde_json::Value> {
    let out = run(&["leaderboard", "--data", &data.display().to_string(), "--game", "yahtzee", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

fn rating(board: &[serde_json::Value], name: &str) -> f64 {
    let row = board.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{name} is not on {board:?}"));
    row["rating"]["rating"].as_f64().unwrap()
}

fn played(row: &serde_json::Value) -> u64 {
    ["won", "lost", "tied"].iter().map(|k| row["games"][k].as_u64().unwrap_or(0)).sum()
}

/// The store's tournaments.
fn tournaments(data: &Path) -> Vec<serde_json::Value> {
    let out = run(&["tournaments", "--data", &data.display().to_string(), "--json"]);
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap_or_default().as_array().cloned().unwrap_or_default()
}

#[test]
fn a_ladder_ranks_players_by_strength_and_benches_one_that_keeps_faulting() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    for (name, p) in [("greedy", "yahtzee-greedy"), ("random", "yahtzee-random"), ("random2", "yahtzee-random")] {
        submit_somehow(&data, "yahtzee", name, p);
    }
    submit_somehow(&data, "yahtzee", "flaky", "yahtzee-flaky");
    let d = data.display().to_string();
    // Faults are only counted here, never benched: the ratings must sort it out.
    let out =
        run(&["ladder", "--data", &d, "--game", "yahtzee", "--games", "300", "--seed", "3", "--max-faults", "999"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("yahtzee leaderboard"), "{text}");
    let board = leaderboard(&data);
    for row in &board {
        assert!(played(row) >= 20, "every player plays: {row}");
    }
    let total: u64 = board.iter().map(played).sum();
    assert_eq!(total, 600, "300 games of two seats");
    let (strong, weak, weaker, faulty) =
        (rating(&board, "greedy"), rating(&board, "random"), rating(&board, "random2"), rating(&board, "flaky"));
    assert!(strong > weak.max(weaker) && weak.min(weaker) > faulty, "{board:?}");
    assert_eq!(board[0]["name"], "greedy");
    assert_eq!(board[3]["name"], "flaky");
    assert!(board[3]["faults"].as_u64().unwrap() > 20, "{board:?}");
    let t = tournaments(&data);
    assert_eq!((t[0]["format"].as_str(), t[0]["games"].as_u64()), (Some("ladder"), Some(300)), "{t:?}");

    // Run again with the default bench: the ladder goes on (games numbered on, never twice), and the
    // faulting version plays no more once it has faulted five times in all.
    let out = run(&["ladder", "--data", &d, "--game", "yahtzee", "--games", "40"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("goes on") && err.contains("flaky version 1 stays benched"), "{err}");
    let after = leaderboard(&data);
    let flaky = |b: &[serde_json::Value]| played(b.iter().find(|r| r["name"] == "flaky").unwrap());
    assert_eq!(flaky(&after), flaky(&board), "a benched version plays no more");
    assert_eq!(tournaments(&data)[0]["games"].as_u64(), Some(340));
    // Resume is not how a ladder goes on, and says so.
    let out = run(&["resume", "--data", &d, "1"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("arena ladder --game yahtzee"));
}

#[test]
fn a_new_version_enters_a_running_ladder_and_ctrl_c_stops_it_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    for (name, p) in [("greedy", "yahtzee-greedy"), ("random", "yahtzee-random"), ("c", "yahtzee-c")] {
        submit_somehow(&data, "yahtzee", name, p);
    }
    submit_somehow(&data, "yahtzee", "flaky", "yahtzee-flaky");
    let d = data.display().to_string();
    let mut ladder = arena()
        .args(["ladder", "--data", &d, "--game", "yahtzee", "--poll-ms", "100", "--seed", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let games = || tournaments(&data).first().and_then(|t| t["games"].as_u64()).unwrap_or(0);
    let until = Instant::now() + Duration::from_secs(120);
    while games() < 20 {
        assert!(Instant::now() < until, "the ladder played no games");
        std::thread::sleep(Duration::from_millis(100));
    }
    // flaky's second version is the greedy player: it enters and plays, faultless (its first version
    // faults in nine games of ten, and is benched after five faults).
    submit_somehow(&data, "yahtzee", "flaky", "yahtzee-greedy");
    let clean = || {
        let b = leaderboard(&data);
        let f = b.iter().find(|r| r["name"] == "flaky").unwrap();
        played(f).saturating_sub(f["faults"].as_u64().unwrap_or(0))
    };
    let until = Instant::now() + Duration::from_secs(120);
    while tournaments(&data)[0]["players"].as_u64() != Some(5) || clean() < 10 {
        assert!(Instant::now() < until, "the new version never entered: {:?}", tournaments(&data));
        std::thread::sleep(Duration::from_millis(100));
    }
    let kill = std::process::Command::new("kill").args(["-INT", &ladder.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let until = Instant::now() + Duration::from_secs(60);
    while ladder.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "the ladder did not stop on Ctrl-C");
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = super::finish(ladder);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("interrupted") && err.contains("flaky version 2 enters the ladder"), "{err}");
    let stopped = games();

    // Going on: every game stored once, numbered on from the last.
    let out = run(&["ladder", "--data", &d, "--game", "yahtzee", "--games", "10"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(games(), stopped + 10);
    let board = leaderboard(&data);
    let total: u64 = board.iter().map(played).sum();
    assert_eq!(total, 2 * games(), "{board:?}");
}

#[test]
fn bad_ladder_settings_are_refused_and_start_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    submit_somehow(&data, "yahtzee", "greedy", "yahtzee-greedy");
    let d = data.display().to_string();
    for (flag, value, says) in [
        ("--explore", "1.5", "the share of random opponents must be from 0 to 1, got 1.5"),
        ("--explore", "NaN", "the share of random opponents must be from 0 to 1"),
        ("--max-faults", "0", "the faults that bench a version must be 1 to 1000, got 0"),
        ("--max-faults", "1001", "the faults that bench a version must be 1 to 1000"),
        ("--parallel", "65", "games at once must be 1 to 64"),
    ] {
        let out = run(&["ladder", "--data", &d, "--game", "yahtzee", "--games", "5", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert!(tournaments(&data).is_empty(), "a refused ladder was stored");
}

#[test]
fn a_ladder_stops_replaying_pairs_whose_results_are_settled_and_plays_a_new_version() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let d = data.display().to_string();
    // Two identical bots: nothing is learnt from their thousandth game.
    for name in ["heads", "twin"] {
        let out = run(&["submit", "--data", &d, "--game", "pennies", "--name", name, &player("pennies-heads")]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let ladder = |games: &str| {
        let out =
            run(&["ladder", "--data", &d, "--game", "pennies", "--games", games, "--settle", "30", "--seed", "1"]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    };
    let stored = || {
        let out = run(&["tournaments", "--data", &d, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v[0]["games"].as_u64().unwrap()
    };
    let err = ladder("500");
    assert!(err.contains("every pair of the players' latest versions has played 30 games together"), "{err}");
    assert!(err.contains("every pair of versions was settled"), "{err}");
    assert_eq!(stored(), 30, "the pair stops at its settling count, in-flight games included");
    // A new player makes two new pairs; the settled one stays settled, across runs too.
    let out = run(&["submit", "--data", &d, "--game", "pennies", "--name", "alt", &player("pennies-alternate")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    ladder("500");
    assert_eq!(stored(), 90);
    let out = run(&["leaderboard", "--data", &d, "--game", "pennies", "--json"]);
    let board: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for row in board.as_array().unwrap() {
        assert_eq!(played(row), 60, "30 games against each of the two others: {board}");
    }
}

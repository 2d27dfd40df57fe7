//! Santorini on the real binary: every misbehaving sample player is banned with its kind (the quitter
//! only at the end), the strong player wins, knockouts work for it, and results are reproducible.

use super::*;

fn santorini_players() -> Vec<String> {
    [
        "santorini-minimax",
        "santorini-random",
        "santorini-loop",
        "santorini-panic",
        "santorini-hog",
        "santorini-cheat",
        "santorini-quitter",
    ]
    .map(player)
    .to_vec()
}

#[test]
fn every_misbehaving_santorini_player_is_banned_with_its_kind() {
    let players = santorini_players();
    let mut args = vec![
        "tournament",
        "--game",
        "santorini",
        "--format",
        "round-robin",
        "--games-per-match",
        "2",
        "--seed",
        "5",
        "--json",
    ];
    args.extend(players.iter().map(String::as_str));
    let v = run_json(&args);
    let mut got = bans(&v);
    got.sort();
    let want = [
        ("santorini-cheat", "illegal", "take-turn"),
        ("santorini-hog", "memory", "take-turn"),
        ("santorini-loop", "fuel", "take-turn"),
        ("santorini-panic", "crash", "take-turn"),
        ("santorini-quitter", "crash", "tournament-end"),
    ]
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(got, want);
    // The quitter played well and failed only in a lifecycle call: no game names it.
    let quitter = v["banned"].as_array().unwrap().iter().find(|b| b["player"] == "santorini-quitter").unwrap();
    assert!(quitter["game"].is_null());
    assert_eq!(v["winner"], "santorini-minimax");
    let cheat = v["banned"].as_array().unwrap().iter().find(|b| b["player"] == "santorini-cheat").unwrap();
    assert!(cheat["reason"].as_str().unwrap().contains("not adjacent"), "{cheat}");
    // Banned players' later series are forfeits: every series accounts for its 2 games, unless both
    // of its players were banned before it (then nobody wins anything).
    let banned: Vec<String> = got.iter().map(|b| b.0.clone()).collect();
    for m in v["matches"].as_array().unwrap() {
        let total = m["wins"][0].as_u64().unwrap() + m["wins"][1].as_u64().unwrap() + m["ties"].as_u64().unwrap();
        let both_out = (0..2).all(|j| banned.iter().any(|b| m["players"][j] == b.as_str()));
        if total == 0 {
            assert!(both_out && m["games"].as_array().unwrap().is_empty() && m["winner"].is_null(), "{m}");
        } else {
            assert_eq!(total, 2, "{m}");
        }
    }
}

#[test]
fn a_santorini_knockout_is_reproducible_and_won_by_minimax() {
    let p = santorini_players();
    let args = ["tournament", "--game", "santorini", "--seed", "8", "--json", &p[1], &p[0], &p[5], &p[2]];
    let a = run(&args);
    let b = run(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(v["winner"], "santorini-minimax");
    assert_eq!(v["format"], "knockout");
}

#[test]
fn play_shows_the_final_board() {
    let out = run(&["play", "--game", "santorini", "--seed", "2", &player("santorini-minimax"), "builtin:random"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Winner: santorini-minimax"), "{text}");
    assert!(text.contains("A1") && text.contains("B1"), "the board shows the workers:\n{text}");
}

#[test]
fn a_yahtzee_player_is_refused_as_a_santorini_player() {
    let out = run(&["check", "--game", "santorini", &player("yahtzee-greedy")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("imports `arena:yahtzee/types@0.1.0`") || err.contains("does not implement"), "{err}");
}

#[test]
fn both_players_hear_that_a_match_starts_before_its_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let p = santorini_players();
    let v = run_json(&[
        "tournament",
        "--game",
        "santorini",
        "--format",
        "round-robin",
        "--games-per-match",
        "2",
        "--seed",
        "4",
        "--json",
        "--replay-dir",
        dir.path().to_str().unwrap(),
        &p[0],
        &p[1],
        "builtin:random",
    ]);
    let lines = |id: &str| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(dir.path().join(format!("{id}.jsonl"))).unwrap();
        text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).collect()
    };
    let calls = |id: &str| -> Vec<serde_json::Value> {
        lines(id).into_iter().filter(|l| l["call"] == "match-start" && l["fault"].is_null()).collect()
    };
    // The referee tells everyone which match starts: "match N of 3 starts: A against B".
    let announced = |id: &str| -> Vec<String> {
        let footer = lines(id).into_iter().find(|l| l["type"] == "footer").unwrap();
        let events = footer["events"].as_array().unwrap().iter().filter_map(|e| e["text"].as_str());
        events.filter(|t| t.starts_with("match ")).map(str::to_string).collect()
    };
    for m in v["matches"].as_array().unwrap() {
        let games: Vec<&str> = m["games"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
        let first = calls(games[0]);
        // Components and sample players alike: one match-start per seat, before a match's first game only.
        assert_eq!(first.iter().map(|c| c["seat"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 1], "{}", games[0]);
        assert!(calls(games[1]).is_empty(), "only before a match's first game");
        assert_eq!(announced(games[0]).len(), 1);
        assert!(announced(games[1]).is_empty());
    }
    let numbers: std::collections::BTreeSet<String> = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| announced(m["games"][0].as_str().unwrap())[0].split(" starts").next().unwrap().to_string())
        .collect();
    assert_eq!(numbers, ["match 1 of 3", "match 2 of 3", "match 3 of 3"].map(String::from).into_iter().collect());
}

#[test]
fn the_referee_draws_the_board_as_svg_for_play_and_for_each_step_of_a_replay() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("final.svg");
    let out = run(&[
        "play",
        "--game",
        "santorini",
        "--seed",
        "3",
        "--svg",
        svg.to_str().unwrap(),
        "builtin:minimax",
        "builtin:random",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.ends_with("</svg>"));
    // One square a cell, and the last move outlined (from, to and the build if it built).
    let marks = drawn.matches("class=\"last-move\"").count();
    assert!((2..=3).contains(&marks), "{drawn}");
    assert_eq!(drawn.matches("<rect").count(), 25 + marks, "one square a cell");
    assert_eq!(drawn.matches("<circle").count() - drawn.matches("#2a5bd7").count(), 4, "four workers");
    // Every step of a replay, drawn.
    let replays = dir.path().join("replays");
    let args =
        ["tournament", "--game", "santorini", "--format", "round-robin", "--games-per-match", "1", "--seed", "3"];
    let out =
        run(&[&args[..], &["--replay-dir", replays.to_str().unwrap(), "builtin:minimax", "builtin:random"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let file = std::fs::read_dir(&replays).unwrap().next().unwrap().unwrap().path();
    let frames = dir.path().join("frames");
    let out = run(&["replay", file.to_str().unwrap(), "--svg-dir", frames.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let steps = String::from_utf8_lossy(&out.stdout).matches("\nstep ").count();
    let mut names: Vec<String> =
        std::fs::read_dir(&frames).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names.len(), steps + 1, "the start and every step");
    assert_eq!(
        (names[0].as_str(), names[names.len() - 1].as_str()),
        ("start.svg", format!("step-{steps:04}.svg").as_str())
    );
    // A game that does not draw says so before playing.
    let out =
        run(&["play", "--game", "nim", "--svg", svg.to_str().unwrap(), "builtin:nim-optimal", "builtin:nim-optimal"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nim does not draw its positions"));
    // Yahtzee draws its dice and both score cards.
    let out = run(&["play", "--game", "yahtzee", "--svg", svg.to_str().unwrap(), "builtin:greedy", "builtin:random"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains("game over") && drawn.contains(">yahtzee bonus<"), "{drawn}");
    assert_eq!(drawn.matches("<g class=\"die").count(), 5, "{drawn}");
}

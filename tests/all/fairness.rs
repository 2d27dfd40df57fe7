//! Fair play: a seat answers only for itself. Every misbehaving Goofspiel and matching-pennies player
//! against every well-behaved one, in both seat orders, at two seats and at six, and in every format:
//! only the misbehaving player is banned, with its own kind, wherever it sits and whatever ends the game
//! mid-step; the same seed gives the same JSON.

use super::*;
use serde_json::Value;

/// The misbehaving players of a game, with the kind each must be banned for.
const GOOFSPIEL_BAD: [(&str, &str); 4] = [
    ("goofspiel-cheat", "illegal"),
    ("goofspiel-hog", "memory"),
    ("goofspiel-loop", "fuel"),
    ("goofspiel-panic", "crash"),
];
const GOOFSPIEL_GOOD: [&str; 2] = ["goofspiel-smart", "goofspiel-random"];
const PENNIES_BAD: [(&str, &str); 3] =
    [("pennies-wat-panic", "crash"), ("pennies-wat-loop", "fuel"), ("pennies-wat-hog", "memory")];
const PENNIES_GOOD: [&str; 2] = ["pennies-heads", "pennies-alternate"];

/// `NAME=PATH` for a sample player, named `as_name`.
fn seat(as_name: &str, file: &str) -> String {
    format!("{as_name}={}", player(file))
}

/// The faults of one game's JSON, as (player, kind).
fn faults(result: &Value) -> Vec<(String, String)> {
    result["faults"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|f| (f["player"].as_str().unwrap_or("").to_string(), f["kind"].as_str().unwrap_or("").to_string()))
        .collect()
}

/// Plays one game of `game` with `seats` (NAME=PATH, in seat order) and returns its `result`.
fn play(game: &str, seed: &str, seats: &[String]) -> Value {
    let mut args = vec!["play", "--game", game, "--seed", seed, "--json"];
    args.extend(seats.iter().map(String::as_str));
    let doc = run_json(&args);
    assert!(doc["game_fault"].is_null(), "{game} {seats:?}: the referee failed: {}", doc["game_fault"]);
    doc["result"].clone()
}

/// One misbehaving player against well-behaved ones, in every seat: banned alone, for its own kind.
fn only_the_culprit(game: &str, bad: &[(&str, &str)], good: &[&str], seats: usize) {
    for &(culprit, kind) in bad {
        for at in [0, seats - 1] {
            for seed in ["3", "11"] {
                let mut lineup: Vec<String> =
                    (0..seats - 1).map(|i| seat(&format!("good{i}"), good[i % good.len()])).collect();
                lineup.insert(at, seat("culprit", culprit));
                let result = play(game, seed, &lineup);
                assert_eq!(
                    faults(&result),
                    [("culprit".to_string(), kind.to_string())],
                    "{game}, {seats} seats, {culprit} in seat {at}, seed {seed}: only it is banned, as {kind}"
                );
            }
        }
    }
}

#[test]
fn two_seat_goofspiel_bans_only_the_culprit_in_either_seat() {
    only_the_culprit("goofspiel", &GOOFSPIEL_BAD, &GOOFSPIEL_GOOD, 2);
}

#[test]
fn six_seat_goofspiel_bans_only_the_culprit_in_the_first_or_last_seat() {
    only_the_culprit("goofspiel", &GOOFSPIEL_BAD, &GOOFSPIEL_GOOD, 6);
}

#[test]
fn matching_pennies_bans_only_the_culprit_in_either_seat() {
    only_the_culprit("pennies", &PENNIES_BAD, &PENNIES_GOOD, 2);
}

#[test]
fn two_culprits_in_one_step_are_both_banned_for_their_own_faults_in_either_order() {
    // Seat 0's fault ends a two-seat game mid-step: seat 1's own fault in that step still stands, as
    // its own kind (a panic is a crash whatever the other seat did).
    for (a, b) in [(("pennies-wat-panic", "crash"), ("pennies-wat-hog", "memory"))] {
        for (first, second) in [(a, b), (b, a)] {
            let result = play("pennies", "5", &[seat("first", first.0), seat("second", second.0)]);
            let mut got = faults(&result);
            got.sort();
            let mut want =
                vec![("first".to_string(), first.1.to_string()), ("second".to_string(), second.1.to_string())];
            want.sort();
            assert_eq!(got, want, "{first:?} then {second:?}");
        }
    }
}

/// Runs a tournament and returns its JSON (stdout, for comparing runs byte for byte) and the document.
fn tournament(game: &str, format: &str, players: &[String]) -> (Vec<u8>, Value) {
    let mut args = vec!["tournament", "--game", game, "--format", format, "--seed", "3", "--json"];
    if format == "round-robin" {
        args.extend(["--games-per-match", "2"]);
    }
    args.extend(players.iter().map(String::as_str));
    let out = run(&args);
    assert!(out.status.success(), "{format}: {}", String::from_utf8_lossy(&out.stderr));
    let doc = serde_json::from_slice(&out.stdout).expect("JSON");
    (out.stdout, doc)
}

/// Every format: exactly the misbehaving players are banned, each for its own kind, and the same seed
/// gives the same JSON.
fn every_format_bans_exactly_the_culprits(game: &str, bad: &[(&str, &str)], good: &[&str]) {
    let mut players: Vec<String> = good.iter().map(|g| seat(g, g)).collect();
    players.extend(bad.iter().map(|(b, _)| seat(b, b)));
    for format in ["round-robin", "knockout", "rounds"] {
        // Both orders of the lineup, so every pairing is met in the other seat order too.
        for order in [false, true] {
            let mut lineup = players.clone();
            if order {
                lineup.reverse();
            }
            let (json, doc) = tournament(game, format, &lineup);
            let mut banned: Vec<(String, String)> = doc["banned"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| (b["player"].as_str().unwrap().to_string(), b["kind"].as_str().unwrap().to_string()))
                .collect();
            banned.sort();
            let mut want: Vec<(String, String)> = bad.iter().map(|(b, k)| (b.to_string(), k.to_string())).collect();
            want.sort();
            // A knockout meets only some players: those it bans are culprits, with their own kinds.
            if format == "knockout" {
                assert!(banned.iter().all(|b| want.contains(b)), "{game} {format}: {banned:?}");
            } else {
                assert_eq!(banned, want, "{game} {format} (reversed: {order}): only the culprits, each its own kind");
            }
            assert!(doc["game_faults"].is_null(), "{game} {format}: no referee failed");
            let (again, _) = tournament(game, format, &lineup);
            assert!(json == again, "{game} {format}: the same seed gives the same JSON");
        }
    }
}

#[test]
fn goofspiel_tournaments_of_every_format_ban_exactly_the_culprits() {
    every_format_bans_exactly_the_culprits("goofspiel", &GOOFSPIEL_BAD, &GOOFSPIEL_GOOD);
}

#[test]
fn pennies_tournaments_of_every_format_ban_exactly_the_culprits() {
    every_format_bans_exactly_the_culprits("pennies", &PENNIES_BAD, &PENNIES_GOOD);
}

#[test]
fn a_game_with_a_dropped_answer_replays_as_it_was_played() {
    // Six seats, the panicking player first: its ban changes what the others are asked (one seat fewer
    // plays), so their answers of that step are dropped and asked again; the record replays exactly.
    let dir = tempfile::tempdir().unwrap();
    let mut lineup: Vec<String> = (0..5).map(|i| seat(&format!("good{i}"), GOOFSPIEL_GOOD[i % 2])).collect();
    lineup.insert(0, seat("culprit", "goofspiel-panic"));
    let mut args = vec!["tournament", "--game", "goofspiel", "--format", "rounds", "--seed", "3", "--json"];
    let replays = dir.path().join("replays");
    let replays_arg = replays.display().to_string();
    args.extend(["--replay-dir", &replays_arg]);
    args.extend(lineup.iter().map(String::as_str));
    let doc = run_json(&args);
    assert_eq!(doc["banned"].as_array().unwrap().len(), 1, "{}", doc["banned"]);
    let game = doc["games"][0]["id"].as_str().unwrap().to_string();
    let file = replays.join(format!("{game}.jsonl"));
    // Replayed through the referee: a record that does not follow it is refused (exit non-zero).
    let out = run(&["replay", &file.display().to_string()]);
    assert!(out.status.success(), "the record follows the referee: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("culprit"), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_game_past_its_total_cpu_time_ends_as_a_game_fault_and_nobody_is_banned() {
    // A thousand rounds of matching pennies, each call well within its limits: the game as a whole is
    // bounded by --game-cpu-s (stored with the limits), and a game past it is the game's fault.
    let players = [seat("heads", "pennies-heads"), seat("alternate", "pennies-alternate")];
    let long = ["--option", "rounds=1000"];
    let mut args = vec!["play", "--game", "pennies", "--seed", "1", "--json", "--game-cpu-s", "0.002"];
    args.extend(long);
    args.extend(players.iter().map(String::as_str));
    let doc = run_json(&args);
    let fault = &doc["game_fault"];
    assert_eq!((fault["call"].as_str(), fault["kind"].as_str()), (Some("game"), Some("timeout")), "{doc}");
    assert!(fault["reason"].as_str().unwrap().contains("--game-cpu-s"), "{fault}");
    assert!(faults(&doc["result"]).is_empty(), "nobody is banned for it");
    assert_eq!(doc["limits"]["game_cpu_ms"], 2, "stored with the limits: {}", doc["limits"]);
    // Under the default, the same game ends as it should.
    let mut args = vec!["play", "--game", "pennies", "--seed", "1", "--json"];
    args.extend(long);
    args.extend(players.iter().map(String::as_str));
    let doc = run_json(&args);
    assert!(doc["game_fault"].is_null(), "{}", doc["game_fault"]);
    assert_eq!(doc["limits"]["game_cpu_ms"], 300_000);
    // A bound that is no duration is refused before anything is played.
    for bad in ["0", "-1", "NaN", "inf"] {
        let flag = format!("--game-cpu-s={bad}");
        let out = run(&["play", "--game", "pennies", &flag, &players[0], &players[1]]);
        assert_eq!(out.status.code(), Some(2), "--game-cpu-s {bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--game-cpu-s"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_players_output_is_never_its_public_ban_reason_but_its_own_log_keeps_it() {
    // goofspiel-panic panics with "goofspiel-panic gives up" from round 5 on. The ban's reason, which
    // everyone sees (and the referee repeats in a public event), is the host's classification alone;
    // what the player printed stays in its seat's log (shown to its owner only).
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().display().to_string();
    let (good, culprit) = (seat("good", "goofspiel-smart"), seat("culprit", "goofspiel-panic"));
    let args = ["tournament", "--game", "goofspiel", "--format", "round-robin", "--games-per-match", "1"];
    let doc = run_json(&[&args[..], &["--seed", "3", "--json", "--replay-dir", &replays, &good, &culprit]].concat());
    let ban = &doc["banned"][0];
    assert_eq!(ban["player"], "culprit", "{doc}");
    assert_eq!(ban["reason"], "panicked or aborted (wasm `unreachable` executed)", "{doc}");
    let game = &doc["games"][0];
    let file = dir.path().join(format!("{}.jsonl", game["id"].as_str().unwrap()));
    let text = std::fs::read_to_string(&file).unwrap();
    let footer: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let public: Vec<&Value> = footer["events"].as_array().unwrap().iter().filter(|e| e["to"].is_null()).collect();
    assert!(!public.iter().any(|e| e.to_string().contains("gives up")), "public events: {public:?}");
    let seat = game["players"].as_array().unwrap().iter().position(|p| p == "culprit").unwrap();
    let logs = footer["logs"].as_array().unwrap();
    assert!(logs[seat].as_str().unwrap().contains("goofspiel-panic gives up"), "its log keeps it: {logs:?}");
    assert!(!logs[1 - seat].as_str().unwrap().contains("gives up"), "{logs:?}");
}

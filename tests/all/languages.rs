//! Players in other languages: Python (componentize-py), JavaScript (QuickJS) and C (clang, a
//! hand-written canonical ABI) Yahtzee players play a mixed tournament with Rust without a fault, their
//! looping variants are banned for fuel, and their large components are compiled once and then loaded
//! from the compile cache; C++ (libc++ over WASI), Zig and Go (wit-bindgen's Go bindings) players of
//! Yahtzee and Goofspiel beat random, and their looping and panicking twins are banned in either seat;
//! every language's Yahtzee sample (Rust, C, C++, Zig, Go, Python, JavaScript) plays one strategy and
//! makes the same decisions seed for seed.

use super::*;

#[test]
fn a_mixed_language_yahtzee_tournament_completes_without_a_fault() {
    let p = ["yahtzee-greedy", "yahtzee-py", "yahtzee-js", "yahtzee-c", "yahtzee-random"].map(player);
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "round-robin",
        "--games-per-match",
        "2",
        "--seed",
        "11",
        "--json",
        &p[0],
        &p[1],
        &p[2],
        &p[3],
        &p[4],
    ]);
    assert!(v["banned"].as_array().unwrap().is_empty(), "{}", v["banned"]);
    assert_eq!(v["games"].as_array().unwrap().len(), 20, "10 pairs, 2 games each");
    // Every component reports the fuel it burns.
    for g in v["games"].as_array().unwrap() {
        assert!(g["fuel"].as_array().unwrap().iter().all(|f| f.as_u64().unwrap() > 0), "{g}");
    }
    // The Python, JavaScript and C players are real strategies: they beat random.
    for m in v["matches"].as_array().unwrap() {
        let players: Vec<&str> = m["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
        if players.contains(&"yahtzee-random") && !players.contains(&"yahtzee-greedy") {
            assert_ne!(m["winner"], "yahtzee-random", "{m}");
        }
    }
}

#[test]
fn python_and_javascript_loops_are_banned_for_fuel() {
    for looper in ["yahtzee-py-loop", "yahtzee-js-loop"] {
        let v = run_json(&["play", "--game", "yahtzee", "--seed", "3", "--json", &player(looper), "builtin:greedy"]);
        let faults = v["result"]["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1, "{looper}: {faults:?}");
        assert_eq!((faults[0]["player"].as_str(), faults[0]["kind"].as_str()), (Some(looper), Some("fuel")));
        assert_eq!(faults[0]["call"], "keep");
    }
}

#[test]
fn the_python_component_is_compiled_once_then_loaded_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let check = || {
        let out = arena()
            .env("ARENA_CACHE_DIR", dir.path())
            .args(["check", "--game", "yahtzee", &player("yahtzee-py")])
            .bounded();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    // The long first compile is not a silent wait: stderr says what is under way, then how long it took.
    let (first, said) = check();
    assert!(first.contains("compiled in"), "{first}");
    assert!(said.contains("yahtzee-py.wasm … (the first compile of a Python"), "{said}");
    assert!(said.contains("yahtzee-py.wasm: done in "), "{said}");
    let (second, said) = check();
    assert!(second.contains("loaded from the compile cache"), "{second}");
    assert!(second.contains("ok: no fault"), "{second}");
    assert!(!said.contains("compiling"), "a quick load is not announced: {said}");
}

#[test]
fn python_and_javascript_players_play_fish_and_santorini_legally() {
    let fish = ["fish-py", "fish-js"].map(player);
    let v = run_json(&[
        "tournament",
        "--game",
        "fish",
        "--format",
        "rounds",
        "--seed",
        "3",
        "--json",
        &fish[0],
        &fish[1],
        "builtin:random",
        "r2=builtin:random",
    ]);
    assert!(v["banned"].as_array().unwrap().is_empty(), "{}", v["banned"]);
    assert_eq!(v["games"][0]["players"].as_array().unwrap().len(), 4, "one game of four");
    let santorini = ["santorini-py", "santorini-js"].map(player);
    let v = run_json(&[
        "tournament",
        "--game",
        "santorini",
        "--format",
        "round-robin",
        "--seed",
        "3",
        "--json",
        &santorini[0],
        &santorini[1],
        "builtin:random",
    ]);
    assert!(v["banned"].as_array().unwrap().is_empty(), "{}", v["banned"]);
    assert_ne!(v["winner"], "random", "the rule-checker players beat random");
}

#[test]
fn cpp_zig_and_go_samples_beat_random_and_their_looping_and_panicking_twins_are_banned_in_either_seat() {
    // What each language's panicking twin says last, under its ban.
    let last_words = |lang: &str, game: &str| match lang {
        "cpp" => "out_of_range was thrown in -fno-exceptions mode".to_string(),
        // Go's own panic report: the message, then the goroutine's stack down to the player's line.
        "go" => format!("panic: {game}-go-panic: gave up\n    | goroutine 1 [running]:"),
        _ => format!("panic: {game}-zig-panic: gave up"),
    };
    for (lang, game) in [
        ("cpp", "yahtzee"),
        ("cpp", "goofspiel"),
        ("zig", "yahtzee"),
        ("zig", "goofspiel"),
        ("go", "yahtzee"),
        ("go", "goofspiel"),
    ] {
        let (good, random) = (player(&format!("{game}-{lang}")), player(&format!("{game}-random")));
        let v = run_json(&[
            "tournament",
            "--game",
            game,
            "--format",
            "round-robin",
            "--games-per-match",
            "6",
            "--seed",
            "3",
            "--json",
            &good,
            &random,
        ]);
        assert!(v["banned"].as_array().unwrap().is_empty(), "{game}-{lang}: {}", v["banned"]);
        assert_eq!(v["winner"], format!("{game}-{lang}"), "{game}-{lang} beats random: {}", v["matches"]);
        // The misbehaving twins, in the first seat and in the second: banned with the kind their Rust
        // twins get, and the other seat never.
        for (twin, kind, reason) in
            [("loop", "fuel", "used up its"), ("panic", "crash", "panicked or aborted (wasm `unreachable` executed)")]
        {
            let name = format!("{game}-{lang}-{twin}");
            let bad = player(&name);
            for seats in [[&bad, &random], [&random, &bad]] {
                let v = run_json(&["play", "--game", game, "--seed", "2", "--json", seats[0], seats[1]]);
                let faults = v["result"]["faults"].as_array().unwrap();
                assert_eq!(faults.len(), 1, "{name}: {v}");
                assert_eq!(faults[0]["player"], name.as_str(), "{v}");
                assert_eq!(faults[0]["kind"], kind, "{name}: {v}");
                assert!(faults[0]["reason"].as_str().unwrap().contains(reason), "{name}: {v}");
            }
        }
        // The bot's own words reach the command line under its ban.
        let out = run(&["play", "--game", game, "--seed", "2", &player(&format!("{game}-{lang}-panic")), &random]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&last_words(lang, game)), "{game}-{lang}: {text}");
    }
}

#[test]
fn a_go_players_runtime_start_up_is_paid_from_its_first_calls_budget() {
    // Go's runtime starts when the component is instantiated: under the defaults it fits the first
    // call's budget (the tournament above played), and a first budget too small for it is a fuel ban
    // at `instantiate`, not a crash and not a free start.
    let out = run(&["check", "--game", "yahtzee", "--first-fuel", "200000", &player("yahtzee-go")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAULT: fuel in `instantiate`: used up its 200000 fuel"), "{text}");
    let out = run(&["check", "--game", "goofspiel", &player("goofspiel-go")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("ok: no fault"), "{text}");
}

/// Every language's Yahtzee sample: one strategy (yahtzee-c's) in each, the players `make bench`
/// compares language against language.
const SAME_STRATEGY: [(&str, &str); 7] = [
    ("Rust", "yahtzee-rust"),
    ("C", "yahtzee-c"),
    ("C++", "yahtzee-cpp"),
    ("Zig", "yahtzee-zig"),
    ("Go", "yahtzee-go"),
    ("Python", "yahtzee-py"),
    ("JavaScript", "yahtzee-js"),
];

#[test]
fn every_languages_yahtzee_sample_plays_the_same_game_seed_for_seed() {
    // The same player under one name: every decision the referee recorded (its events) must match the
    // Rust twin's, in both seats, for several seeds; only the fuel each language burns may differ.
    for seed in ["1", "5", "9"] {
        for first in [true, false] {
            let mut games: Vec<(&str, serde_json::Value)> = Vec::new();
            for (lang, name) in SAME_STRATEGY {
                let me = format!("me={}", player(name));
                let seats = if first { [me.as_str(), "builtin:random"] } else { ["builtin:random", me.as_str()] };
                let v = run_json(&["play", "--game", "yahtzee", "--seed", seed, "--json", seats[0], seats[1]]);
                assert!(v["result"]["faults"].as_array().unwrap().is_empty(), "{lang}: {v}");
                games.push((lang, v["events"].clone()));
            }
            let (_, reference) = &games[0];
            assert!(reference.as_array().is_some_and(|e| e.len() > 26), "a whole game's events: {reference}");
            for (lang, events) in &games[1..] {
                assert_eq!(events, reference, "{lang} plays as Rust does (seed {seed}, first seat {first})");
            }
        }
    }
}

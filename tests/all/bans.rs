//! Each misbehaving sample player is banned with the right kind, and the tournament completes.

use super::*;

#[test]
fn every_misbehaving_player_is_banned_with_its_kind_and_the_tournament_completes() {
    let players = YAHTZEE_LINEUP.map(player);
    let mut args = vec![
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "knockout",
        "--seed",
        "11",
        "--json",
        // A short deadline, so the sleeper is stopped quickly; and a fuel budget far below what 300 ms
        // of looping burns (the greedy player needs 1.5 M at most), so a loop is stopped by fuel even
        // when a loaded machine slows it down many times over.
        "--timeout-ms",
        "300",
        "--fuel",
        "20000000",
    ];
    args.extend(players.iter().map(String::as_str));
    let v = run_json(&args);
    let mut got = bans(&v);
    got.sort();
    let want = [
        ("yahtzee-cheat", "illegal", "choose"),
        ("yahtzee-hog", "memory", "keep"),
        ("yahtzee-loop", "fuel", "keep"),
        ("yahtzee-panic", "crash", "choose"),
        ("yahtzee-sleep", "timeout", "keep"),
        ("yahtzee-wat-badenum", "illegal", "choose"),
        ("yahtzee-wat-loop", "fuel", "keep"),
    ]
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(got, want);
    // The well-behaved players were never banned, and the strongest won.
    assert_eq!(v["winner"], "yahtzee-greedy");
    let ranked = ranked(&v);
    assert!(ranked.contains(&"yahtzee-random"));
    for (bad, ..) in &want {
        assert!(!ranked.contains(&bad.as_str()), "{bad} is banned and must not be ranked");
    }
    // Every ban names the game it happened in and a reason a person can read.
    for b in v["banned"].as_array().unwrap() {
        assert!(b["game"].as_str().unwrap().starts_with('R'), "{b}");
        assert!(!b["reason"].as_str().unwrap().is_empty());
    }
    let reasons: Vec<String> =
        v["banned"].as_array().unwrap().iter().map(|b| b["reason"].as_str().unwrap().to_string()).collect();
    assert!(reasons.iter().any(|r| r.contains("already used")), "cheat's reason names the used box: {reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("MiB")), "hog's reason names the cap: {reasons:?}");
}

#[test]
fn a_loop_with_unlimited_fuel_is_stopped_by_the_deadline() {
    let v = run_json(&[
        "play",
        "--game",
        "yahtzee",
        "--seed",
        "3",
        "--json",
        "--fuel",
        "1000000000000",
        "--timeout-ms",
        "200",
        &player("yahtzee-loop"),
        "builtin:greedy",
    ]);
    let faults = v["result"]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1);
    assert_eq!(faults[0]["kind"], "timeout");
    assert_eq!(faults[0]["player"], "yahtzee-loop");
    assert_eq!(v["result"]["winners"], serde_json::json!(["greedy"]));
}

#[test]
fn a_smaller_memory_cap_stops_the_hog_sooner_and_the_greedy_player_fits_in_a_small_one() {
    let v = run_json(&[
        "play",
        "--game",
        "yahtzee",
        "--seed",
        "3",
        "--json",
        "--memory-mb",
        "4",
        &player("yahtzee-hog"),
        &player("yahtzee-greedy"),
    ]);
    let faults = v["result"]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!((faults[0]["player"].as_str(), faults[0]["kind"].as_str()), (Some("yahtzee-hog"), Some("memory")));
    assert!(faults[0]["reason"].as_str().unwrap().contains("cap is 4 MiB"), "{}", faults[0]);
}

#[test]
fn a_fuel_budget_below_what_a_decision_needs_bans_even_a_good_player() {
    let v = run_json(&[
        "play",
        "--game",
        "yahtzee",
        "--seed",
        "3",
        "--json",
        "--fuel",
        "1000",
        &player("yahtzee-greedy"),
        "builtin:random",
    ]);
    let faults = v["result"]["faults"].as_array().unwrap();
    assert_eq!(faults[0]["kind"], "fuel");
    assert_eq!(faults[0]["call"], "keep");
}

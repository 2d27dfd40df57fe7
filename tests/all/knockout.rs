//! Knockout brackets: byes, best of k, the tie rule, and reproducible results.

use super::*;

fn names(v: &serde_json::Value) -> Vec<Option<String>> {
    v.as_array().unwrap().iter().map(|n| n.as_str().map(str::to_string)).collect()
}

#[test]
fn five_players_fill_eight_slots_with_three_byes_to_the_first_seeds() {
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--seed",
        "5",
        "--json",
        "g1=builtin:greedy",
        "r1=builtin:random",
        "g2=builtin:greedy",
        "r2=builtin:random",
        "r3=builtin:random",
    ]);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 7, "8 slots make 4 + 2 + 1 matches");
    let round1: Vec<_> = matches.iter().filter(|m| m["round"] == 1).collect();
    assert_eq!(round1.len(), 4);
    // The standard bracket: seed 1 against seed 8 (a bye), 4 against 5, 2 against 7 (a bye), 3 against
    // 6 (a bye). No bye meets a bye; the three byes are the first three seeds'.
    let pairs: Vec<Vec<Option<String>>> = round1.iter().map(|m| names(&m["players"])).collect();
    let p = |n: &str| Some(n.to_string());
    assert_eq!(pairs, vec![vec![p("g1"), None], vec![p("r2"), p("r3")], vec![p("r1"), None], vec![p("g2"), None]]);
    for m in [0, 2, 3] {
        assert_eq!(round1[m]["decided_by"], "bye");
        assert!(round1[m]["games"].as_array().unwrap().is_empty());
    }
    assert_eq!(round1[0]["winner"], "g1");
    // Nobody has a second bye: every later match is played by two.
    for m in matches.iter().filter(|m| m["round"] != 1) {
        assert!(names(&m["players"]).iter().all(Option::is_some), "{m}");
        assert_ne!(m["decided_by"], "bye", "{m}");
    }
    // Ranked by the round reached: the champion, the finalist, the two semi-finalists, then the one
    // out in the first round.
    let ranking: Vec<usize> = v["ranking"].as_array().unwrap().iter().map(|p| p.as_array().unwrap().len()).collect();
    assert_eq!(ranking, [1, 1, 2, 1], "{}", v["ranking"]);
    let last = matches.last().unwrap();
    assert_eq!(v["ranking"][0][0], last["winner"]);
    let finalist = names(&last["players"]).into_iter().flatten().find(|n| *n != last["winner"]).unwrap();
    assert_eq!(v["ranking"][1][0], finalist.as_str());
    // Best of 3: every played match stops as soon as someone has 2 wins.
    for m in matches.iter().filter(|m| m["decided_by"] == "played") {
        let wins: Vec<u64> = m["wins"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
        assert_eq!(wins.iter().max(), Some(&2), "{m}");
        assert!(m["games"].as_array().unwrap().len() <= 3);
    }
    assert_eq!(v["ranking"].as_array().unwrap().iter().map(|p| p.as_array().unwrap().len()).sum::<usize>(), 5);
    assert!(v["banned"].as_array().unwrap().is_empty());
}

#[test]
fn identical_players_tie_every_game_and_the_earlier_slot_advances() {
    // The same strategy on the same dice scores the same: every game is a tie, sudden death ties too,
    // the totals are level, so the tie rule falls through to the slot order.
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--seed",
        "9",
        "--json",
        "--games-per-match",
        "3",
        "a=builtin:greedy",
        "b=builtin:greedy",
    ]);
    let m = &v["matches"][0];
    assert_eq!(m["ties"], 6, "3 games and 3 sudden-death games: {m}");
    assert_eq!(m["decided_by"], "slot");
    assert_eq!(m["winner"], "a");
    assert_eq!(v["winner"], "a");
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["scores"][0], g["scores"][1]);
        assert_eq!(g["winners"].as_array().unwrap().len(), 2);
    }
    // Players alternate who starts.
    assert_eq!(v["games"][0]["players"], serde_json::json!(["a", "b"]));
    assert_eq!(v["games"][1]["players"], serde_json::json!(["b", "a"]));
}

#[test]
fn the_same_seed_gives_byte_identical_json() {
    let p = [player("yahtzee-greedy"), player("yahtzee-random"), player("yahtzee-cheat"), player("yahtzee-wat-loop")];
    let args = ["tournament", "--game", "yahtzee", "--seed", "77", "--json", &p[0], &p[1], &p[2], &p[3]];
    let a = run(&args);
    let b = run(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(String::from_utf8_lossy(&a.stdout), String::from_utf8_lossy(&b.stdout));
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(v["seed"], 77);
    // A different seed gives other dice.
    let c = run(&["tournament", "--game", "yahtzee", "--seed", "78", "--json", &p[0], &p[1], &p[2], &p[3]]);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn greedy_beats_random_as_components() {
    // Best of 9 between the two sample components: the greedy one takes the match.
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--seed",
        "1",
        "--json",
        "--games-per-match",
        "9",
        &player("yahtzee-greedy"),
        &player("yahtzee-random"),
    ]);
    let m = &v["matches"][0];
    assert_eq!(m["winner"], "yahtzee-greedy");
    assert_eq!(m["wins"][0], 5, "{m}");
    let fuel: u64 = v["games"][0]["fuel"].as_array().unwrap().iter().map(|f| f.as_u64().unwrap()).max().unwrap();
    assert!(fuel > 0, "components report the fuel they used");
}

//! Round robin and elimination rounds on the real binary: schedules, forfeits after a ban, rankings.

use super::*;

#[test]
fn round_robin_plays_every_pair_and_a_ban_forfeits_the_rest() {
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "round-robin",
        "--games-per-match",
        "2",
        "--seed",
        "3",
        "--json",
        &player("yahtzee-greedy"),
        &player("yahtzee-random"),
        &player("yahtzee-cheat"),
        "builtin:random",
    ]);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 6, "4 players make 6 pairs");
    let mut pairs: Vec<(String, String)> = matches
        .iter()
        .map(|m| {
            let mut p = [m["players"][0].as_str().unwrap().to_string(), m["players"][1].as_str().unwrap().to_string()];
            p.sort();
            (p[0].clone(), p[1].clone())
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "every pair exactly once");
    // Every series accounts for its 2 games: won, tied or forfeited.
    for m in matches {
        let total = m["wins"][0].as_u64().unwrap() + m["wins"][1].as_u64().unwrap() + m["ties"].as_u64().unwrap();
        assert_eq!(total, 2, "{m}");
    }
    assert_eq!(bans(&v), vec![("yahtzee-cheat".into(), "illegal".into(), "choose".into())]);
    // The cheat played exactly one game: after its ban every game it had left is a forfeit, unplayed.
    let cheat_games =
        v["games"].as_array().unwrap().iter().filter(|g| g["players"].to_string().contains("yahtzee-cheat")).count();
    assert_eq!(cheat_games, 1);
    let ranked = ranked(&v);
    assert_eq!(ranked.len(), 3);
    assert_eq!(v["ranking"][0], serde_json::json!(["yahtzee-greedy"]));
    assert_eq!(v["winner"], "yahtzee-greedy");
}

#[test]
fn elimination_rounds_advance_winners_and_rotate_who_sits_out() {
    let v = run_json(&[
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "rounds",
        "--seed",
        "3",
        "--json",
        &player("yahtzee-greedy"),
        &player("yahtzee-random"),
        "r2=builtin:random",
        &player("yahtzee-panic"),
        "r3=builtin:random",
    ]);
    let games = v["games"].as_array().unwrap();
    // Round 1 seats four of five in two-player games; the fifth sits out and plays first in round 2.
    let round1: Vec<_> = games.iter().filter(|g| g["round"] == 1).collect();
    assert_eq!(round1.len(), 2);
    let round2_first = games.iter().find(|g| g["round"] == 2).unwrap();
    assert_eq!(round2_first["players"][0], "r3", "{round2_first}");
    assert!(v["matches"].as_array().unwrap().is_empty());
    assert_eq!(v["winner"], "yahtzee-greedy");
    assert_eq!(bans(&v).len(), 1);
    assert_eq!(bans(&v)[0].0, "yahtzee-panic");
}

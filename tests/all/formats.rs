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

#[test]
fn a_round_robin_starting_each_series_when_its_players_are_free_ends_as_round_by_round() {
    // Seven players (a bye each round), three of them banned at different points.
    let args = [
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
        &player("yahtzee-greedy"),
        &player("yahtzee-random"),
        &player("yahtzee-cheat"),
        &player("yahtzee-panic"),
        &player("yahtzee-flaky"),
        "builtin:random",
        "builtin:greedy",
    ];
    let v = run_json(&args);
    let again = run_json(&args);
    let games = |v: &serde_json::Value| -> Vec<(String, String)> {
        v["games"].as_array().unwrap().iter().map(|g| (g["id"].to_string(), g["scores"].to_string())).collect()
    };
    for field in ["matches", "banned", "ranking", "winner"] {
        assert_eq!(v[field], again[field], "{field} differs between two runs");
    }
    assert_eq!(games(&v), games(&again));
    // Series are listed in schedule order, and bans in the order of the rounds they happened in.
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 21);
    let order: Vec<(u64, u64)> =
        matches.iter().map(|m| (m["round"].as_u64().unwrap(), m["match"].as_u64().unwrap())).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    let round_of = |game: &str| game.trim_start_matches('R').split('-').next().unwrap().parse::<u64>().unwrap();
    let banned = v["banned"].as_array().unwrap();
    assert_eq!(banned.len(), 3, "{}", v["banned"]);
    let ban_rounds: Vec<u64> = banned.iter().filter_map(|b| b["game"].as_str()).map(round_of).collect();
    assert!(ban_rounds.windows(2).all(|w| w[0] <= w[1]), "{ban_rounds:?}");
    // After the round of its ban, every series of a banned player is a forfeit with no game played.
    for b in banned {
        let (name, Some(at)) = (b["player"].as_str().unwrap(), b["game"].as_str().map(round_of)) else { continue };
        for m in matches.iter().filter(|m| m["round"].as_u64().unwrap() > at) {
            if m["players"].to_string().contains(&format!("\"{name}\"")) {
                assert_eq!(m["decided_by"], "forfeit", "{m}");
                assert_eq!(m["games"].as_array().unwrap().len(), 0, "{m}");
            }
        }
    }
}

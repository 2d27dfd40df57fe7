//! Fish: bans mid-game with 3 and 4 players (wasm seats of the packaged game: the banned player's
//! penguins disappear and the rest finish), every misbehaving sample component banned with its kind,
//! elimination rounds.

use super::*;
use arena_core::GameOutcome;
use arena_core::{FaultKind, Limits, MatchSoFar};
use arena_play::{Package, PackagePlayer};
use arena_sandbox::Sandbox;
use std::sync::Arc;

/// The Fish package as `make players` assembled it (target/packages/fish), compiled through the
/// tests' compile cache.
fn package() -> Package {
    let dir = players_dir().with_file_name("packages").join("fish");
    assert!(dir.join("game.toml").is_file(), "{} is missing: run `make players` first", dir.display());
    let cache = players_dir().with_file_name("test-compile-cache");
    let sandbox = Arc::new(Sandbox::new(Limits::default()).unwrap().with_cache_dir(cache));
    Package::load(sandbox, &dir).unwrap()
}

/// The package's greedy sample player (`builtin:greedy`), or a test player of `make players`.
fn seat(pkg: &Package, name: &str) -> Arc<PackagePlayer> {
    let path = match name {
        "greedy" => pkg.dir.join("players/greedy.wasm"),
        _ => PathBuf::from(player(name)),
    };
    pkg.load_player(name, &path).unwrap()
}

async fn game(names: &[&str], seed: u64) -> GameOutcome {
    let pkg = package();
    let players: Vec<_> = names.iter().map(|n| seat(&pkg, n)).collect();
    let n = players.len();
    let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0; n], ..Default::default() };
    let o = pkg.play(&players, seed, &so_far).await;
    assert!(o.game_fault.is_none(), "the referee failed: {o:?}");
    o
}

async fn a_ban_mid_game_removes_the_penguins_and_the_rest_finish(n: usize, banned_seat: usize) {
    // fish-breaks plays greedily until it has collected some fish, then traps in take-turn.
    let names: Vec<&str> = (0..n).map(|i| if i == banned_seat { "fish-breaks" } else { "greedy" }).collect();
    let o = game(&names, 11).await;
    assert_eq!(o.faults.len(), 1, "{:?}", o.faults);
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind, f.call.as_str()), (banned_seat, FaultKind::Crash, "take-turn"));
    // It played before failing, and its fault is its last line in the record.
    assert!(o.log.iter().any(|c| c.seat == banned_seat && c.fault.is_none()), "it played before failing");
    let ban_at = o.log.iter().rposition(|c| c.seat == banned_seat).unwrap();
    assert!(o.log[ban_at].fault.is_some(), "{:?}", o.log[ban_at]);
    // The others went on moving after the ban, and the banned seat was never asked again.
    assert!(o.log[ban_at + 1..].iter().any(|c| c.call == "take-turn" && c.fault.is_none()), "the game went on");
    assert!(o.log[ban_at + 1..].iter().all(|c| c.seat != banned_seat));
    // Its penguins are gone from the final board (its letter is not on it), its fish still count.
    let letter = fish_rules::seat_letter(banned_seat as u8);
    let board_rows: Vec<&str> =
        o.view.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).collect();
    assert!(!board_rows.is_empty(), "{}", o.view);
    assert!(board_rows.iter().all(|l| !l.contains(letter)), "{}", o.view);
    assert!(o.scores[banned_seat] > 0);
    assert!(!o.winners.contains(&banned_seat));
    assert!(!o.winners.is_empty());
}

#[tokio::test]
async fn a_ban_in_a_three_player_game() {
    a_ban_mid_game_removes_the_penguins_and_the_rest_finish(3, 1).await;
}

#[tokio::test]
async fn a_ban_in_a_four_player_game() {
    a_ban_mid_game_removes_the_penguins_and_the_rest_finish(4, 0).await;
    a_ban_mid_game_removes_the_penguins_and_the_rest_finish(4, 3).await;
}

#[test]
fn every_misbehaving_fish_player_is_banned_and_the_others_finish() {
    let p = [
        "fish-greedy",
        "fish-random",
        "fish-loop",
        "fish-panic",
        "fish-hog",
        "fish-cheat",
        "fish-quitter",
        "fish-random",
    ]
    .map(player);
    let mut args = vec!["tournament", "--game", "fish", "--format", "rounds", "--seed", "4", "--json"];
    let named: Vec<String> =
        p.iter().enumerate().map(|(i, f)| if i == 7 { format!("random2={f}") } else { f.clone() }).collect();
    args.extend(named.iter().map(String::as_str));
    let v = run_json(&args);
    let mut got = bans(&v);
    got.sort();
    let want = [
        ("fish-cheat", "illegal", "take-turn"),
        ("fish-hog", "memory", "take-turn"),
        ("fish-loop", "fuel", "take-turn"),
        ("fish-panic", "crash", "take-turn"),
        ("fish-quitter", "crash", "end"),
    ]
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(got, want);
    // Round 1 seats eight players in two games of four.
    let round1: Vec<_> = v["games"].as_array().unwrap().iter().filter(|g| g["round"] == 1).collect();
    assert_eq!(round1.len(), 2);
    assert!(round1.iter().all(|g| g["players"].as_array().unwrap().len() == 4));
    assert_eq!(v["winner"], "fish-greedy");
}

#[test]
fn fish_in_a_round_robin_and_bad_boards_or_too_many_players_refused() {
    let v = run_json(&[
        "tournament",
        "--game",
        "fish",
        "--format",
        "round-robin",
        "--games-per-match",
        "2",
        "--seed",
        "2",
        "--json",
        &player("fish-greedy"),
        &player("fish-random"),
        "builtin:random",
    ]);
    assert_eq!(v["matches"].as_array().unwrap().len(), 3);
    assert_eq!(v["winner"], "fish-greedy");
    // A board too small for the penguins is refused before anything runs: the options pass the
    // manifest's ranges, but the referee, tried with them first, refuses to start; exit 2, its reason.
    let out = run(&[
        "play",
        "--game",
        "fish",
        "--option",
        "rows=2",
        "--option",
        "cols=2",
        "builtin:greedy",
        "builtin:random",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("fish does not start with rows=2 cols=2: bad board"), "{err}");
    assert!(out.stdout.is_empty(), "no game was played");
    // A board outside the option's range is refused by the host before the referee even loads.
    let out = run(&["play", "--game", "fish", "--option", "rows=1", "builtin:greedy", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rows"), "{}", String::from_utf8_lossy(&out.stderr));
    // Five players do not fit one game.
    let out = run(&[
        "play",
        "--game",
        "fish",
        "a=builtin:greedy",
        "b=builtin:greedy",
        "c=builtin:greedy",
        "d=builtin:greedy",
        "e=builtin:greedy",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_same_seed_gives_the_same_fish_tournament() {
    let args = [
        "tournament",
        "--game",
        "fish",
        "--format",
        "rounds",
        "--seed",
        "6",
        "--json",
        "a=builtin:greedy",
        "b=builtin:random",
        "c=builtin:random",
        "d=builtin:greedy",
        "e=builtin:random",
    ];
    assert_eq!(run(&args).stdout, run(&args).stdout);
}

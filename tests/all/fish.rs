//! Fish: bans mid-game with 3 and 4 players (native seats: the banned player's penguins disappear and
//! the rest finish), every misbehaving sample component banned with its kind, elimination rounds.

use super::*;
use arena::games::fish::{Fish, FishPlayer, NativeBot, Options};
use arena::{Entry, Fault, FaultKind, Game, GameSetup, Limits, MatchSoFar, Sandbox};
use fish_rules::{Move, PlayerView, Pos};
use std::sync::Arc;

/// Greedy until it has collected some fish, then fails its next move with a crash.
struct Breaks;
impl NativeBot for Breaks {
    fn setup(&mut self, v: &PlayerView) -> Result<Pos, Fault> {
        Ok(fish_bots::greedy::place(v))
    }
    fn take_turn(&mut self, v: &PlayerView) -> Result<Move, Fault> {
        if v.state.players[usize::from(v.me)].fish > 0 {
            return Err(Fault::new(FaultKind::Crash, "take-turn", "staged"));
        }
        Ok(fish_bots::greedy::take_turn(v))
    }
}

async fn native_game(players: Vec<FishPlayer>, seed: u64) -> arena::GameOutcome {
    let sandbox = Arc::new(Sandbox::new(Limits::default()).unwrap());
    let game = Fish::new(sandbox, Options::default()).unwrap();
    let n = players.len();
    let players = players
        .into_iter()
        .enumerate()
        .map(|(i, p)| Arc::new(Entry { name: format!("p{i}"), source: "test".into(), hash: None, player: p }))
        .collect();
    let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0; n], ..Default::default() };
    game.play(GameSetup { id: "t".into(), seed, players, so_far }).await
}

fn breaks() -> FishPlayer {
    FishPlayer::Native(|| Box::new(Breaks))
}

async fn a_ban_mid_game_removes_the_penguins_and_the_rest_finish(n: usize, banned_seat: usize) {
    let players = (0..n).map(|i| if i == banned_seat { breaks() } else { Fish::native("greedy").unwrap() }).collect();
    let o = native_game(players, 11).await;
    assert_eq!(o.faults.len(), 1);
    assert_eq!(o.faults[0].0, banned_seat);
    let ban_at = o.calls.iter().rposition(|c| c.seat == banned_seat).expect("it played before failing");
    // The others went on moving after the ban, and the banned seat was never asked again.
    assert!(o.calls[ban_at + 1..].iter().any(|c| c.call == "take-turn"), "the game went on");
    assert!(o.calls[ban_at + 1..].iter().all(|c| c.seat != banned_seat));
    // Its penguins are gone from the final board (its letter is not on it), its fish still count.
    let letter = fish_rules::seat_letter(banned_seat as u8);
    let board_rows: Vec<&str> =
        o.board.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).collect();
    assert!(board_rows.iter().all(|l| !l.contains(letter)), "{}", o.board);
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
    // A board too small for four players is refused before anything runs.
    let out = run(&["play", "--game", "fish", "--rows", "2", "--cols", "2", "builtin:greedy", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad board"), "{}", String::from_utf8_lossy(&out.stderr));
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

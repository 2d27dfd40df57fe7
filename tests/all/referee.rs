//! The Yahtzee referee with wasm seats (the packaged game, its sample players and misbehaving test
//! players built by `make players`): faults end the game as a forfeit, with the state as it was, and
//! clean games are scored by the rules. Failing a lifecycle call is a ban like any other.

use super::*;
use arena_core::GameOutcome;
use arena_core::{Entry, FaultKind, Limits, MatchSoFar};
use arena_play::{Package, PackageGame, PackagePlayer};
use arena_sandbox::Sandbox;
use std::sync::Arc;
use yahtzee_rules::Category;

/// A sandbox with the tests' compile cache, so the referee and players compile once across runs.
fn sandbox() -> Arc<Sandbox> {
    let cache = players_dir().with_file_name("test-compile-cache");
    Arc::new(Sandbox::new(Limits::default()).unwrap().with_cache_dir(cache))
}

/// The package `game` as `make players` assembled it (target/packages/GAME).
fn package(game: &str) -> Package {
    let dir = players_dir().with_file_name("packages").join(game);
    assert!(dir.join("game.toml").is_file(), "{} is missing: run `make players` first", dir.display());
    Package::load(sandbox(), &dir).unwrap()
}

/// A sample player of `make players` (`greedy` or `random` for the package's own ones).
fn seat(pkg: &Package, name: &str) -> Arc<PackagePlayer> {
    let path = match name {
        "greedy" | "random" | "minimax" => pkg.dir.join("players").join(format!("{name}.wasm")),
        _ => PathBuf::from(player(name)),
    };
    pkg.load_player(name, &path).unwrap()
}

/// One Yahtzee game between two players, as the first and only game of a match.
async fn play(a: &str, b: &str, seed: u64) -> GameOutcome {
    let pkg = package("yahtzee");
    let players = [seat(&pkg, a), seat(&pkg, b)];
    let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() };
    let o = pkg.play(&players, seed, &so_far).await;
    assert!(o.game_fault.is_none(), "the referee failed: {o:?}");
    o
}

#[tokio::test]
async fn a_clean_game_fills_both_cards_and_the_higher_total_wins() {
    let o = play("greedy", "random", 21).await;
    assert!(o.faults.is_empty(), "{:?}", o.faults);
    // 13 turns of keep, keep, choose for each seat, after one game-start each.
    assert_eq!(o.log.len(), 2 + 13 * 3 * 2);
    assert!(o.log.iter().all(|c| c.fault.is_none()));
    let best = if o.scores[0] >= o.scores[1] { 0 } else { 1 };
    assert!(o.winners.contains(&best));
    assert!(o.view.contains("total"));
}

#[tokio::test]
async fn keeping_dice_you_do_not_have_is_illegal_and_forfeits() {
    // yahtzee-badkeep plays greedily, then keeps a value it is not showing on turn 2.
    let o = play("greedy", "yahtzee-badkeep", 5).await;
    assert_eq!(o.faults.len(), 1);
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind, f.call.as_str()), (1, FaultKind::Illegal, "keep"));
    assert!(f.reason.contains("dice"), "{}", f.reason);
    assert_eq!(o.winners, vec![0]);
    // The game stopped at the fault: seat 1 made 1 game-start + 3 calls of turn 1 + its first keep of
    // turn 2 (answered, then refused: the record's last line for the seat is that fault).
    let answered = o.log.iter().filter(|c| c.seat == 1 && c.fault.is_none()).count();
    assert_eq!(answered, 1 + 3 + 1);
    let last = o.log.iter().rfind(|c| c.seat == 1).unwrap();
    assert_eq!(last.fault.as_ref().map(|f| f.call.as_str()), Some("keep"));
}

#[tokio::test]
async fn scoring_a_used_box_is_illegal_and_the_card_keeps_its_old_score() {
    // yahtzee-cheat plays greedily, then scores again in a box it used on turn 4.
    let o = play("yahtzee-cheat", "random", 6).await;
    assert_eq!(o.faults.len(), 1);
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind, f.call.as_str()), (0, FaultKind::Illegal, "choose"));
    assert!(f.reason.contains("already used"), "{}", f.reason);
    assert_eq!(o.winners, vec![1]);
    // Three boxes were scored before the refused fourth (the cheat's column is the first).
    let scored = o
        .view
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 3 && Category::ALL.iter().any(|c| w[0] == c.name()) && w[1] != "-")
        .count();
    assert_eq!(scored, 3, "{}", o.view);
}

#[tokio::test]
async fn a_failing_seat_is_recorded_with_its_kind_and_the_other_wins() {
    // yahtzee-panic plays greedily, then panics (a trap) when choosing a box on turn 5.
    let o = play("random", "yahtzee-panic", 7).await;
    assert_eq!(o.faults.len(), 1);
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind, f.call.as_str()), (1, FaultKind::Crash, "choose"));
    assert_eq!(o.winners, vec![0]);
}

#[tokio::test]
async fn failing_a_lifecycle_call_is_a_ban_like_any_other() {
    // Santorini: santorini-early-quitter traps in tournament-start, santorini-quitter (minimax) in
    // tournament-end; both play well otherwise.
    let pkg = package("santorini");
    let entry = |name: &str, file: &str| {
        Arc::new(Entry { name: name.into(), source: file.into(), hash: None, player: seat(&pkg, file) })
    };
    // Seeded 1 to 4: the first round is seed 1 against 4 and seed 2 against 3.
    let entries = vec![
        entry("early-quitter", "santorini-early-quitter"),
        entry("late-quitter", "santorini-quitter"),
        entry("random2", "random"),
        entry("random", "random"),
    ];
    let game = Arc::new(PackageGame::new(pkg).unwrap());
    let settings = arena_tournament::Settings::new(arena_tournament::Format::Knockout, 3, 4);
    let r = arena_tournament::knockout(game, entries, Limits::default(), &settings).await;
    let bans: Vec<(&str, FaultKind, &str, Option<&str>)> =
        r.banned.iter().map(|b| (b.player.as_str(), b.kind, b.call.as_str(), b.game.as_deref())).collect();
    // The early quitter never plays: its opponent gets a walkover. The late quitter (minimax, it wins
    // the final against a random player) fails at the end and loses its title.
    assert_eq!(
        bans,
        vec![
            ("early-quitter", FaultKind::Crash, "tournament-start", None),
            ("late-quitter", FaultKind::Crash, "tournament-end", None)
        ]
    );
    assert_eq!(r.matches[0].decided_by, "bye");
    assert_eq!(r.matches[0].winner.as_deref(), Some("random"));
    assert!(r.games.iter().all(|g| !g.players.contains(&"early-quitter".to_string())));
    let final_match = r.matches.last().unwrap();
    assert_eq!(final_match.winner.as_deref(), Some("late-quitter"));
    assert_eq!(r.winner.as_deref(), Some("random"), "the finalist inherits the title: {:?}", r.ranking);
    assert!(r.ranking.iter().flatten().all(|n| !n.contains("quitter")));
}

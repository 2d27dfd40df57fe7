//! Goofspiel, the game added only as a package (no host change): simultaneous secret bids, private
//! hands, seats dropping out while the game goes on, every format, the multi-player rating model, and
//! what spectators and seats may see.

use super::*;
use arena_core::Limits;
use arena_play::Package;
use arena_sandbox::Sandbox;
use std::sync::Arc;

fn package() -> Package {
    let dir = players_dir().with_file_name("packages").join("goofspiel");
    assert!(dir.join("game.toml").is_file(), "{} is missing: run `make players` first", dir.display());
    let cache = players_dir().with_file_name("test-compile-cache");
    Package::load(Arc::new(Sandbox::new(Limits::default()).unwrap().with_cache_dir(cache)), &dir).unwrap()
}

#[tokio::test]
async fn all_bid_at_once_each_sees_only_its_own_hand_and_no_bid_is_shown_before_all_are_in() {
    let pkg = package();
    let smart = pkg.load_player("smart", std::path::Path::new(&player("goofspiel-smart"))).unwrap();
    let random = pkg.load_player("random", std::path::Path::new(&player("goofspiel-random"))).unwrap();
    let py = pkg.load_player("py", std::path::Path::new(&player("goofspiel-py"))).unwrap();
    let players = [smart, random, py];
    let o = pkg.play(&players, 11, &Default::default()).await;
    assert!(o.game_fault.is_none() && o.faults.is_empty(), "{o:?}");
    // 13 rounds; in each, the three seats were asked in one step (at once), before any answer was applied.
    let mut steps: Vec<u32> = o.log.iter().map(|c| c.turn).collect();
    steps.dedup();
    assert_eq!(steps.len(), 13);
    for s in &steps {
        let seats: Vec<usize> = o.log.iter().filter(|c| c.turn == *s).map(|c| c.seat).collect();
        assert_eq!(seats, [0, 1, 2], "step {s}: every seat bids in the same step");
    }
    // Each seat's hand is told to it alone; spectators see no hand and no bid before its reveal.
    for seat in 0..3u32 {
        let hands: Vec<_> = o
            .events
            .iter()
            .filter(|e| e.text.contains("your hand"))
            .filter(|e| e.to.as_deref() == Some(&[seat][..]))
            .collect();
        assert_eq!(hands.len(), 1, "seat {seat}");
    }
    let public: Vec<&str> = o.events_for(None).map(|e| e.text.as_str()).collect();
    assert!(public.iter().all(|t| !t.contains("your hand") && !t.contains("you bid")), "{public:?}");
    for round in 1..=13 {
        let at = |want: &dyn Fn(&arena_core::Event) -> bool| o.events.iter().position(want);
        let reveal =
            at(&|e| e.to.is_none() && e.text.starts_with(&format!("round {round}: ")) && e.text.contains(", "))
                .unwrap();
        for seat in 0..3u32 {
            let mine =
                at(&|e| e.to.as_deref() == Some(&[seat][..]) && e.text.starts_with(&format!("round {round}: you bid")))
                    .unwrap();
            assert!(
                mine < reveal,
                "round {round}: seat {seat}'s bid is told to it before the reveal, and to no one else"
            );
        }
    }
    // The scores add up to the prizes taken (1 + … + 13 = 91, less what ties left to nobody).
    assert!(o.scores.iter().sum::<i64>() <= 91 && o.scores.iter().sum::<i64>() > 0);
    // The drawings: every revealed round for everyone, a seat's own hand for that seat alone.
    let spectators = o.svg.as_deref().expect("goofspiel draws");
    assert!(spectators.contains("game over") && spectators.matches("takes it").count() > 0, "{spectators}");
    assert!(!spectators.contains("your hand"), "{spectators}");
    for (seat, letter) in ["A", "B", "C"].iter().enumerate() {
        let mine = o.seat_svgs[seat].as_deref().expect("a seat's drawing");
        assert!(mine.contains(&format!("your hand ({letter})")), "{mine}");
        assert_eq!(mine.matches("your hand").count(), 1, "its own hand only");
    }
    // As a tournament plays it, the same game keeps the spectators' final view (its board), and no
    // drawing nor any seat's view: nobody is shown them.
    let names = ["smart", "random", "py"].map(String::from);
    let seen = pkg.play_as(&players, &names, 11, &Default::default(), arena_core::Finals::Board).await;
    assert_eq!((&seen.scores, &seen.log.len(), &seen.view), (&o.scores, &o.log.len(), &o.view));
    assert!(seen.svg.is_none() && seen.seat_views.is_empty() && seen.seat_svgs.is_empty(), "{:?}", seen.seat_views);
}

#[test]
fn misbehaving_players_are_banned_in_elimination_rounds_and_the_game_goes_on() {
    let names = [
        "goofspiel-smart",
        "goofspiel-random",
        "goofspiel-loop",
        "goofspiel-panic",
        "goofspiel-hog",
        "goofspiel-cheat",
    ];
    let paths: Vec<String> = names.iter().map(|n| player(n)).collect();
    let mut args = vec!["tournament", "--game", "goofspiel", "--format", "rounds", "--seed", "1", "--json"];
    args.extend(paths.iter().map(String::as_str));
    let v = run_json(&args);
    let mut got = bans(&v);
    got.sort();
    let want = [
        ("goofspiel-cheat", "illegal", "bid"),
        ("goofspiel-hog", "memory", "bid"),
        ("goofspiel-loop", "fuel", "bid"),
        ("goofspiel-panic", "crash", "bid"),
    ]
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(got, want);
    // Six players in one game: the four banned drop out, the two others play all 13 rounds.
    let game = &v["games"][0];
    assert_eq!(game["players"].as_array().unwrap().len(), 6);
    assert_eq!(v["winner"], "goofspiel-smart");
    // The same seed, the same tournament.
    assert_eq!(run(&args).stdout, run(&args).stdout);
}

#[test]
fn a_round_robin_of_goofspiel_is_rated_with_the_multi_player_model() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().to_str().unwrap();
    for (name, file) in [("smart", "goofspiel-smart"), ("random", "goofspiel-random"), ("js", "goofspiel-js")] {
        let out = run(&["submit", "--data", data, "--game", "goofspiel", "--name", name, &player(file)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let r = run_json(&[
        "tournament",
        "--data",
        data,
        "--game",
        "goofspiel",
        "--format",
        "round-robin",
        "--games-per-match",
        "2",
        "--seed",
        "5",
        "--registered",
        "--json",
    ]);
    assert_eq!(r["matches"].as_array().unwrap().len(), 3);
    let board = run(&["leaderboard", "--data", data, "--game", "goofspiel"]);
    let text = String::from_utf8_lossy(&board.stdout);
    assert!(text.contains("Weng-Lin"), "goofspiel seats 2 to 6: {text}");
    // A stored game replays through the referee; spectators see each bid only in its round's reveal.
    let id = r["games"][0]["id"].as_str().unwrap();
    let out = run(&["replay", "--data", data, &format!("1/{id}")]);
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && shown.contains("round 13: "), "{shown}");
    assert!(!shown.contains("your hand") && !shown.contains("you bid"), "{shown}");
}

#[test]
fn a_seat_sees_its_own_hand_and_bids_and_never_the_others() {
    let (smart, random) = (player("goofspiel-smart"), player("goofspiel-random"));
    let events = |seat: &str| -> Vec<String> {
        let v = run_json(&["play", "--game", "goofspiel", "--seed", "2", "--json", "--seat", seat, &smart, &random]);
        v["events"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect()
    };
    let (zero, one) = (events("0"), events("1"));
    assert!(
        zero.iter().any(|e| e.starts_with("you are seat 0")) && !zero.iter().any(|e| e.starts_with("you are seat 1"))
    );
    assert!(
        one.iter().any(|e| e.starts_with("you are seat 1")) && !one.iter().any(|e| e.starts_with("you are seat 0"))
    );
    assert_eq!(zero.iter().filter(|e| e.contains("you bid")).count(), 13);
}

//! Ratings kept game by game (a leaderboard's `Board`) agree with ratings recomputed from every stored
//! game, whatever runs at once: a ladder recording games, tournaments running (their games counted on
//! top) and finishing in another order than they started; and a tournament's games are rated in its
//! own order however they were recorded.

use arena_store::{Board, Kind, Store, StoredSettings, Version};
use arena_tournament::ratings::System;
use arena_tournament::{Format, GameRecord, Journal, Lifecycle};

const GAME: &str = "nim";
const SYSTEM: System = System::Glicko2;

fn settings() -> StoredSettings {
    StoredSettings { limits: arena_core::Limits::default(), options: serde_json::json!({}), referee: None, fork: None }
}

/// A finished tournament's result, as far as the ratings care: nothing.
fn result() -> arena_tournament::TournamentResult {
    arena_tournament::TournamentResult {
        game: GAME.into(),
        format: Format::RoundRobin,
        seed: 1,
        games_per_match: 1,
        limits: arena_core::Limits::default(),
        players: vec![],
        winner: None,
        ranking: vec![],
        banned: vec![],
        matches: vec![],
        games: vec![],
        game_faults: vec![],
    }
}

/// A game of `players` (two) won by the seat `winner` (none: a tie); `faulted` seat breaks a rule.
fn game(key: (u32, u32, u32), players: [&Version; 2], winner: Option<usize>, faulted: Option<usize>) -> GameRecord {
    let names: Vec<String> = players.iter().map(|v| v.name.clone()).collect();
    let winners: Vec<String> = winner.map(|w| names[w].clone()).into_iter().collect();
    GameRecord {
        id: arena_tournament::game_id(key.0, key.1, key.2),
        round: key.0,
        match_no: key.1,
        number: key.2,
        players: names.clone(),
        seed: 7,
        scores: (0..2).map(|s| i64::from(winner == Some(s))).collect(),
        winner: winners.first().cloned(),
        winners: if winner.is_none() { names.clone() } else { winners },
        fuel: vec![10, 10],
        calls: vec![1, 1],
        faults: faulted
            .map(|s| {
                arena_core::PlayerFault::new(
                    &names[s],
                    arena_core::Fault::illegal("take-turn", "took more than there is"),
                )
            })
            .into_iter()
            .collect(),
        replay: vec![],
        last_words: vec![],
        board: String::new(),
        logs: vec![String::new(), String::new()],
        game_fault: None,
        fault_by: None,
        events: vec![],
        seat_views: vec![],
        so_far: Default::default(),
        svg: None,
        seat_svgs: vec![],
    }
}

/// The kept board, brought up to date, against a leaderboard computed from nothing.
fn agrees(store: &Store, board: &mut Board) -> serde_json::Value {
    let kept = serde_json::to_value(store.leaders(GAME, board, true).unwrap()).unwrap();
    let fresh = serde_json::to_value(store.leaderboard(GAME, SYSTEM, true).unwrap()).unwrap();
    assert_eq!(kept, fresh, "the board kept game by game differs from the ratings of every stored game");
    // A player's page too: rating history, record, fuel and head to head.
    for row in fresh.as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        let kept = serde_json::to_value(store.player_stats(GAME, name, board).unwrap()).unwrap();
        let again = serde_json::to_value(store.stats(GAME, name, SYSTEM).unwrap()).unwrap();
        assert_eq!(kept, again, "{name}'s statistics from the kept board differ");
        // As the web takes it: the board behind a lock, held only while it is read.
        let lock = std::sync::Mutex::new(std::mem::replace(board, Board::new(SYSTEM)));
        let locked = store.player_stats_from(GAME, name, || lock.lock().unwrap()).unwrap();
        assert_eq!(serde_json::to_value(locked).unwrap(), again, "{name}'s statistics through a lock differ");
        *board = lock.into_inner().expect("the board's lock is given back, unpoisoned");
        assert_eq!(kept["rating"], row["rating"], "{name}'s page and the leaderboard differ");
        assert_eq!(kept["games"], row["games"]);
        let history = kept["rating_history"].as_array().unwrap();
        let played = ["won", "lost", "tied"].iter().map(|k| row["games"][k].as_u64().unwrap()).sum::<u64>();
        assert!(history.len() as u64 >= played, "{name}: a point for each game at least (and each ban)");
        assert!(history.iter().all(|p| !p["game"].as_str().unwrap().is_empty()), "every point names its game");
    }
    fresh
}

fn rating_of(board: &serde_json::Value, name: &str) -> f64 {
    let row = board.as_array().unwrap().iter().find(|r| r["name"] == name).unwrap();
    row["rating"]["rating"].as_f64().unwrap()
}

#[test]
fn ratings_kept_game_by_game_agree_with_every_game_rated_again() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = Store::open(tmp.path()).unwrap();
    let v: Vec<Version> = ["ann", "bob", "cat", "dan"]
        .iter()
        .map(|n| store.add_version(GAME, n, n.as_bytes(), n).unwrap().version)
        .collect();
    let mut board = Board::new(SYSTEM);
    let before = agrees(&store, &mut board);
    assert!(before.as_array().unwrap().iter().all(|r| r["games"]["won"] == 0));

    let ladder = store.create_tournament(GAME, (Kind::Ladder, 1, 1), &settings(), &v).unwrap();
    let first = store.create_tournament(GAME, (Format::RoundRobin, 1, 2), &settings(), &v).unwrap();
    let second = store.create_tournament(GAME, (Format::RoundRobin, 1, 3), &settings(), &v).unwrap();
    let mut n = 0;
    let mut ladder_games = |store: &Store, count: u32| {
        let j = store.ladder_journal(ladder, &v).unwrap();
        for _ in 0..count {
            n += 1;
            let (a, b) = ((n % 4) as usize, ((n + 1 + n / 4) % 4) as usize);
            let b = if a == b { (b + 1) % 4 } else { b };
            j.game(&game((1, n, 1), [&v[a], &v[b]], Some(n as usize % 2), (n % 5 == 0).then_some(1)));
        }
        j.finish().unwrap();
    };
    ladder_games(&store, 12);
    let after_ladder = agrees(&store, &mut board);
    assert_eq!(
        after_ladder.as_array().unwrap().iter().map(|r| r["faults"].as_u64().unwrap()).sum::<u64>(),
        2,
        "the faults of the ladder's games are counted"
    );

    // The second tournament plays first, its games recorded out of their order: counted on top while it runs.
    let j = store.journal(second, &v).unwrap();
    j.record_lifecycle(Lifecycle::Start, 3, Some(&arena_core::Fault::illegal("tournament-start", "no")));
    j.game(&game((1, 2, 1), [&v[1], &v[2]], Some(1), None));
    j.game(&game((1, 1, 1), [&v[0], &v[1]], None, None));
    j.finish().unwrap();
    agrees(&store, &mut board);
    ladder_games(&store, 5);
    let running = agrees(&store, &mut board);
    let j = store.journal(second, &v).unwrap();
    j.game(&game((2, 1, 1), [&v[2], &v[0]], Some(0), None));
    j.finish().unwrap();
    store.finish_tournament(second, &result()).unwrap();
    let finished = agrees(&store, &mut board);
    assert_ne!(running, finished);

    // The first one finishes after the second: rated after it, and the ladder goes on after both.
    let j = store.journal(first, &v).unwrap();
    j.game(&game((1, 1, 1), [&v[3], &v[0]], Some(0), None));
    j.record_lifecycle(Lifecycle::End, 2, Some(&arena_core::Fault::illegal("tournament-end", "no")));
    j.finish().unwrap();
    agrees(&store, &mut board);
    store.finish_tournament(first, &result()).unwrap();
    agrees(&store, &mut board);
    ladder_games(&store, 7);
    let end = agrees(&store, &mut board);
    assert!(rating_of(&end, "dan") != rating_of(&before, "dan"));

    // A fresh board (a restarted server) reads the same.
    let mut again = Board::new(SYSTEM);
    assert_eq!(serde_json::to_value(store.leaders(GAME, &mut again, true).unwrap()).unwrap(), end);
}

#[test]
fn a_tournament_is_rated_in_its_own_order_however_its_games_were_recorded() {
    let boards: Vec<serde_json::Value> = [false, true]
        .iter()
        .map(|&reversed| {
            let tmp = tempfile::tempdir().unwrap();
            let mut store = Store::open(tmp.path()).unwrap();
            let v: Vec<Version> = ["ann", "bob", "cat"]
                .iter()
                .map(|n| store.add_version(GAME, n, n.as_bytes(), n).unwrap().version)
                .collect();
            let id = store.create_tournament(GAME, (Format::RoundRobin, 2, 1), &settings(), &v).unwrap();
            let mut games = vec![
                game((1, 1, 1), [&v[0], &v[1]], Some(0), None),
                game((1, 1, 2), [&v[1], &v[0]], Some(0), None),
                game((1, 2, 1), [&v[1], &v[2]], None, None),
                game((2, 1, 1), [&v[2], &v[0]], Some(0), Some(1)),
                game((2, 1, 2), [&v[0], &v[2]], Some(1), None),
            ];
            if reversed {
                games.reverse();
            }
            let j = store.journal(id, &v).unwrap();
            for g in &games {
                j.game(g);
            }
            j.finish().unwrap();
            store.finish_tournament(id, &result()).unwrap();
            let board = serde_json::to_value(store.leaderboard(GAME, SYSTEM, true).unwrap()).unwrap();
            // A store from before the rating order (schema 7) gets it from its games when opened.
            drop(store);
            let conn = rusqlite::Connection::open(tmp.path().join("arena.db")).unwrap();
            conn.execute_batch(
                "DROP VIEW rateable; DROP TABLE rating_order; ALTER TABLE published_versions DROP COLUMN follows;
                 ALTER TABLE faults DROP COLUMN last_words; ALTER TABLE faults DROP COLUMN step;
                 ALTER TABLE versions DROP COLUMN sparring; DROP TABLE candidates; DROP TABLE final_legs;
         ALTER TABLE competitions DROP COLUMN decide; ALTER TABLE competitions DROP COLUMN final_games; PRAGMA user_version = 7;",
            )
            .unwrap();
            drop(conn);
            let store = Store::open(tmp.path()).unwrap();
            assert_eq!(serde_json::to_value(store.leaderboard(GAME, SYSTEM, true).unwrap()).unwrap(), board);
            // The two stores were made at different moments: their registration times may differ.
            let mut board = board;
            for row in board.as_array_mut().unwrap() {
                row.as_object_mut().unwrap().remove("submitted_at");
            }
            board
        })
        .collect();
    assert_eq!(boards[0], boards[1]);
}

#[test]
fn a_player_page_never_counts_a_tournament_twice_when_another_request_moved_the_board_on() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = Store::open(tmp.path()).unwrap();
    let v: Vec<Version> =
        ["ann", "bob", "cat"].iter().map(|n| store.add_version(GAME, n, n.as_bytes(), n).unwrap().version).collect();
    let id = store.create_tournament(GAME, (Format::RoundRobin, 1, 1), &settings(), &v).unwrap();
    let j = store.journal(id, &v).unwrap();
    j.game(&game((1, 1, 1), [&v[0], &v[1]], Some(0), None));
    j.game(&game((1, 2, 1), [&v[1], &v[2]], Some(1), None));
    j.finish().unwrap();
    // The web's board, brought up to date while the tournament runs (its games counted on top).
    let lock = std::sync::Mutex::new(Board::new(SYSTEM));
    store.leaders(GAME, &mut lock.lock().unwrap(), true).unwrap();
    // A player's page asks for the board; just before it has it, another request (its own connection)
    // sees the tournament finish and brings the board up to date, sealing the tournament's games in it.
    let mut other = Store::open(tmp.path()).unwrap();
    let seen = store
        .player_stats_from(GAME, "bob", || {
            other.finish_tournament(id, &result()).unwrap();
            let mut board = lock.lock().unwrap();
            other.leaders(GAME, &mut board, true).unwrap();
            board
        })
        .unwrap();
    let again = store.stats(GAME, "bob", SYSTEM).unwrap();
    assert_eq!(
        serde_json::to_value(seen).unwrap(),
        serde_json::to_value(again).unwrap(),
        "the page counted the finished tournament's games twice, or missed them"
    );
}

//! The results store's own contract, tested on the crate alone: its schema migrates and refuses a newer
//! one untouched, versions are numbered and an identical file stores nothing, a tournament is created
//! whole or not at all, lists come in pages that hold every row once, and ratings follow the games
//! recorded (a game that faulted counting for nobody).

use arena_core::{Fault, FaultKind, GameOutcome, Limits};
use arena_store::{Kind, Store, StoreError, StoredSettings, Version};
use arena_tournament::ratings::System;
use arena_tournament::{Format, GameRecord, Journal};

fn settings() -> StoredSettings {
    StoredSettings { limits: Limits::default(), options: serde_json::Value::Null, referee: None, fork: None }
}

fn submit(store: &mut Store, name: &str, bytes: &[u8]) -> Version {
    let hash = arena_core::sha256_hex(bytes);
    store.add_version("pennies", name, bytes, &hash).unwrap().version
}

/// A two-seat game of `a` against `b` that `winner` (a seat) won, or none: a tie.
fn game(id: &str, (a, b): (&str, &str), winner: Option<usize>, fault: bool) -> GameRecord {
    let outcome = GameOutcome {
        scores: vec![1, 0],
        winners: winner.map_or(vec![0, 1], |w| vec![w]),
        fuel: vec![0, 0],
        logs: vec![String::new(); 2],
        game_fault: fault.then(|| Fault::new(FaultKind::Crash, "step", "the referee trapped")),
        ..Default::default()
    };
    GameRecord::new(id.into(), (1, 1, 1), vec![a.into(), b.into()], 7, outcome)
}

#[test]
fn a_new_store_is_at_the_current_schema_and_a_newer_one_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path()).unwrap());
    let db = dir.path().join("arena.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert!(version > 0, "no migration was applied");
    // Opened again, nothing is migrated twice.
    drop(Store::open(dir.path()).unwrap());
    let again: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(again, version);
    conn.pragma_update(None, "user_version", version + 1).unwrap();
    drop(conn);
    let before = std::fs::read(&db).unwrap();
    match Store::open(dir.path()) {
        Err(StoreError::NewerSchema { found, known, .. }) => assert_eq!((found, known), (version + 1, version)),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a store from a newer Arena was opened"),
    }
    assert_eq!(std::fs::read(&db).unwrap(), before, "the newer store was changed");
}

#[test]
fn versions_are_numbered_per_player_and_an_identical_file_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let hash = |b: &[u8]| arena_core::sha256_hex(b);
    let first = store.add_version("pennies", "heads", b"one", &hash(b"one")).unwrap();
    assert!(first.new_player && !first.unchanged && first.version.version == 1);
    let same = store.add_version("pennies", "heads", b"one", &hash(b"one")).unwrap();
    assert!(same.unchanged && same.version.version == 1, "an identical file made a version");
    let second = store.add_version("pennies", "heads", b"two", &hash(b"two")).unwrap();
    assert!(!second.new_player && second.version.version == 2);
    assert_eq!(store.latest_version("pennies", "heads").unwrap().unwrap().version, 2);
    // A bad name is refused and stores nothing.
    assert!(store.add_version("pennies", "no spaces", b"x", &hash(b"x")).is_err());
    let players = store.players(Some("pennies")).unwrap();
    assert_eq!(players.len(), 1, "only heads is registered");
}

#[test]
fn a_tournament_is_created_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let a = submit(&mut store, "a", b"a");
    let mut ghost = submit(&mut store, "b", b"b");
    ghost.id = 9_999;
    let refused = store.create_tournament(
        "pennies",
        (Kind::Tournament(Format::RoundRobin), 1, 3),
        &settings(),
        &[a.clone(), ghost],
    );
    assert!(refused.is_err(), "a tournament of a version that does not exist was created");
    assert!(store.tournaments().unwrap().is_empty(), "a refused tournament left a row");
    let id = store
        .create_tournament(
            "pennies",
            (Kind::Tournament(Format::RoundRobin), 1, 3),
            &settings(),
            std::slice::from_ref(&a),
        )
        .unwrap();
    let entrants = store.entrants(id).unwrap();
    assert_eq!(entrants.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(), ["a"]);
}

#[test]
fn tournaments_come_in_pages_that_hold_each_once_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let a = submit(&mut store, "a", b"a");
    let mut made: Vec<i64> = (0..23)
        .map(|s| {
            store
                .create_tournament(
                    "pennies",
                    (Kind::Tournament(Format::Knockout), 1, s),
                    &settings(),
                    std::slice::from_ref(&a),
                )
                .unwrap()
        })
        .collect();
    made.reverse();
    let (mut seen, mut after) = (vec![], None);
    loop {
        let page = store.tournaments_page(after, 10).unwrap();
        assert!(page.len() <= 10);
        if page.is_empty() {
            break;
        }
        after = page.last().map(|t| t.id);
        seen.extend(page.iter().map(|t| t.id));
    }
    assert_eq!(seen, made, "pages of 10 did not hold every tournament once, newest first");
}

#[test]
fn ratings_follow_the_recorded_games_and_a_faulted_game_counts_for_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let (a, b) = (submit(&mut store, "strong", b"s"), submit(&mut store, "weak", b"w"));
    let entrants = [a.clone(), b.clone()];
    let id = store.create_tournament("pennies", (Kind::Ladder, 1, 1), &settings(), &entrants).unwrap();
    let journal = store.ladder_journal(id, &entrants).unwrap();
    for n in 0..6 {
        journal.game(&game(&format!("L-{n}"), ("strong", "weak"), Some(0), false));
    }
    journal.game(&game("L-tie", ("weak", "strong"), None, false));
    journal.game(&game("L-void", ("weak", "strong"), Some(0), true));
    assert_eq!(journal.finish().unwrap(), 8, "every game is written, the faulted one too");
    let board = store.leaderboard("pennies", System::for_seats(2..=2), true).unwrap();
    let names: Vec<&str> = board.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["strong", "weak"]);
    let (s, w) = (&board[0], &board[1]);
    assert_eq!((s.games.won, s.games.lost, s.games.tied), (6, 0, 1), "the faulted game counted");
    assert_eq!((w.games.won, w.games.lost, w.games.tied), (0, 6, 1));
    assert!(s.rating.rating > 1500.0 && w.rating.rating < 1500.0, "{:?} {:?}", s.rating, w.rating);
    // The same games rated again from nothing give the same ratings.
    let again = store.leaderboard("pennies", System::for_seats(2..=2), true).unwrap();
    assert_eq!(again[0].rating.rating, s.rating.rating);
}

//! The results store through the real binary: submissions and their refusals, registered
//! tournaments, stats and ratings, resume after SIGKILL, replays; and store round trips via the library.

use super::*;
use std::path::Path;

fn data_args(dir: &Path) -> Vec<String> {
    vec!["--data".into(), dir.display().to_string()]
}

/// Runs arena with `--data DIR` appended to `args`.
fn in_store(dir: &Path, args: &[&str]) -> Output {
    arena().args(args).args(data_args(dir)).bounded()
}

fn in_store_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = in_store(dir, args);
    assert!(out.status.success(), "arena {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn submit(dir: &Path, game: &str, name: &str, file: &str) {
    let out = in_store(dir, &["submit", "--game", game, "--name", name, file]);
    assert!(out.status.success(), "submit {name}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Asserts a refusal: exit 2, the error names `names` and contains `want`, and nothing was stored.
fn refused(dir: &Path, args: &[&str], names: &str, want: &str) {
    let out = in_store(dir, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(names), "the error names `{names}`: {err}");
    assert!(err.contains(want), "expected `{want}` in: {err}");
    // The host never panics (a refused bot's own panic message, quoted under its fault, is no host's).
    assert!(!err.contains("thread 'main'") && !err.contains("thread 'tokio-runtime-worker'"), "{err}");
    let players = in_store_json(dir, &["players", "--json"]);
    assert_eq!(players, serde_json::json!({}), "nothing registered after {args:?}");
    let stored = std::fs::read_dir(dir.join("components")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(stored, 0, "no component stored after {args:?}");
}

#[test]
fn submit_refuses_bad_players_and_stores_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let greedy = player("yahtzee-greedy");
    let sub = |name: &'static str, file: &str| -> Vec<String> {
        ["submit", "--game", "yahtzee", &format!("--name={name}"), file].iter().map(|s| s.to_string()).collect()
    };
    let call = |a: &[String], names: &str, want: &str| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        refused(&dir, &a, names, want)
    };
    // Names with odd characters.
    for bad in ["", "has space", "-dash-first", "semi;colon", "ünïcode", "a/b", &"x".repeat(41)] {
        let mut a = sub("n", &greedy);
        a[3] = format!("--name={bad}");
        call(&a, "a player name", "");
    }
    // Hostile and malformed files.
    let empty = tmp.path().join("empty.wasm");
    std::fs::write(&empty, b"").unwrap();
    call(&sub("e", &empty.display().to_string()), "empty.wasm", "the file is empty");
    let core = tmp.path().join("core.wasm");
    std::fs::write(&core, wat::parse_str("(module)").unwrap()).unwrap();
    call(&sub("c", &core.display().to_string()), "core.wasm", "not a component");
    let cut = tmp.path().join("cut.wasm");
    let whole = std::fs::read(&greedy).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 3]).unwrap();
    call(&sub("t", &cut.display().to_string()), "cut.wasm", "not a valid component");
    call(&sub("w", &fixture("wrong-world.wat").display().to_string()), "wrong-world.wat", "does not implement");
    call(&sub("m", "no/such/file.wasm"), "no/such/file.wasm", "cannot read");
    // Over the size cap.
    let mut a = sub("big", &greedy);
    a.extend(["--max-size-mb".into(), "0".into()]);
    call(&a, "yahtzee-greedy.wasm", "over the size cap");
    // A Yahtzee player submitted for Fish.
    let mut a = sub("f", &greedy);
    a[2] = "fish".into();
    call(
        &a,
        "yahtzee-greedy.wasm",
        "this is a yahtzee player (it imports `arena:yahtzee/types@0.1.0`), not a fish one",
    );
    // An import no game provides.
    let forbidden = fixture("forbidden-import.wat").display().to_string();
    call(&sub("i", &forbidden), "forbidden-import.wat", "imports `evil:host/files`, which players may not use");
    // Players that fail their validation game: a loop (fuel), a cheat (illegal), a panic (crash).
    for (p, kind) in [("yahtzee-loop", "fuel in"), ("yahtzee-cheat", "illegal in"), ("yahtzee-panic", "crash in")] {
        call(&sub("v", &player(p)), &format!("{p}.wasm"), kind);
    }
}

#[test]
fn versions_and_identical_resubmission() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    submit(dir, "yahtzee", "alice", &player("yahtzee-random"));
    let again = in_store(dir, &["submit", "--game", "yahtzee", "--name", "alice", &player("yahtzee-random")]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing new was stored"));
    submit(dir, "yahtzee", "alice", &player("yahtzee-greedy"));
    submit(dir, "yahtzee", "bob", &player("yahtzee-random"));
    let players = in_store_json(dir, &["players", "--json", "--game", "yahtzee"]);
    let list = players["yahtzee"].as_array().unwrap();
    let names: Vec<&str> = list.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["alice", "bob"], "in the order they registered");
    assert_eq!(list[0]["version"], 2);
    assert_eq!(list[1]["version"], 1);
    // Same content, one file.
    assert_eq!(std::fs::read_dir(dir.join("components")).unwrap().count(), 2);
    // Validated as quick code, kept nowhere: `yahtzee-random` is compiled for games by its first game
    // (`yahtzee-greedy` is the game's sample player, compiled with the package, beside its referee).
    let compiled = || {
        let entries = std::fs::read_dir(dir.join("compiled")).unwrap().filter_map(Result::ok);
        entries.filter(|e| e.path().extension().is_some_and(|x| x == "cwasm")).count()
    };
    assert!(!cached(&dir.join("compiled"), &player("yahtzee-random")));
    assert_eq!(compiled(), 2);
    // The latest version plays.
    let r = in_store_json(dir, &["tournament", "--game", "yahtzee", "--registered", "--seed", "3", "--json"]);
    assert_eq!(r["players"][0]["source"], "alice v2");
    assert_eq!(r["winner"], "alice", "greedy (alice v2) beats random over best of 3");
    // Each compiled once for games, into the store.
    assert!(cached(&dir.join("compiled"), &player("yahtzee-random")));
    assert_eq!(compiled(), 3);
}

#[test]
fn store_errors_are_clear() {
    let tmp = tempfile::tempdir().unwrap();
    // The data directory is a file.
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let out = in_store(&file, &["players"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("not-a-dir") && err.contains("cannot use as the data directory"), "{err}");
    // A store from a newer Arena is refused, untouched.
    let dir = tmp.path().join("newer");
    submit(&dir, "yahtzee", "alice", &player("yahtzee-random"));
    let conn = rusqlite::Connection::open(dir.join("arena.db")).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let out = in_store(&dir, &["players"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("arena.db") && err.contains("newer Arena (schema version 99"), "{err}");
    let conn = rusqlite::Connection::open(dir.join("arena.db")).unwrap();
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(v, 99);
    // Reading where there is no store shows an empty one and creates nothing.
    let nowhere = tmp.path().join("nowhere");
    assert_eq!(in_store_json(&nowhere, &["tournaments", "--json"]), serde_json::json!([]));
    assert!(!nowhere.exists());
    // Too few registered players, an unknown tournament, a game that is not there.
    let out = in_store(&dir.with_file_name("empty"), &["tournament", "--game", "fish", "--registered"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("a tournament needs at least 2"));
    let out = in_store(&dir.with_file_name("empty"), &["resume", "7"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no tournament 7"));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stats_and_ratings_of_a_known_tournament() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    submit(dir, "santorini", "minimax", &player("santorini-minimax"));
    submit(dir, "santorini", "random", &player("santorini-random"));
    // Passes its validation game: it only fails when told the tournament is over.
    submit(dir, "santorini", "quitter", &player("santorini-quitter"));
    let r = in_store_json(
        dir,
        &[
            "tournament",
            "--game",
            "santorini",
            "--format",
            "round-robin",
            "--games-per-match",
            "2",
            "--seed",
            "11",
            "--registered",
            "--json",
        ],
    );
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 6, "3 pairs × 2 games");
    assert_eq!(bans(&r), [("quitter".to_string(), "crash".to_string(), "tournament-end".to_string())]);

    let won_by = |name: &str| games.iter().filter(|g| g["winner"] == name).count() as u64;
    let st = in_store_json(dir, &["stats", "minimax", "--json"]);
    assert_eq!(st["game"], "santorini");
    assert_eq!(st["tournaments"]["played"], 1);
    assert_eq!(st["games"]["won"], won_by("minimax"));
    assert_eq!(st["games"]["won"].as_u64().unwrap() + st["games"]["lost"].as_u64().unwrap(), 4);
    assert_eq!(
        st["matches"]["won"].as_u64().unwrap()
            + st["matches"]["lost"].as_u64().unwrap()
            + st["matches"]["tied"].as_u64().unwrap(),
        2
    );
    assert!(st["fuel"]["per_decision"].as_u64().unwrap() > 1000, "minimax thinks: {}", st["fuel"]);
    assert_eq!(st["rating_history"].as_array().unwrap().len(), 4, "one rating after each of its games");
    let h2h = st["head_to_head"].as_array().unwrap();
    assert_eq!(h2h.len(), 2);
    for h in h2h {
        assert_eq!(h["won"].as_u64().unwrap() + h["lost"].as_u64().unwrap() + h["tied"].as_u64().unwrap(), 2);
    }
    assert_eq!(st["rating_system"], "Glicko-2");

    let q = in_store_json(dir, &["stats", "quitter", "--json", "--game", "santorini"]);
    assert_eq!(q["faults"], serde_json::json!({"crash": 1}), "the ban at tournament-end is counted");
    // ... and rated as a loss after its four games, though not counted as a game.
    let history = q["rating_history"].as_array().unwrap();
    assert_eq!(history.len(), 5);
    assert_eq!(history[4]["game"], "tournament-end");
    assert!(history[4]["rating"].as_f64().unwrap() < history[3]["rating"].as_f64().unwrap());
    let played = q["games"]["won"].as_u64().unwrap()
        + q["games"]["lost"].as_u64().unwrap()
        + q["games"]["tied"].as_u64().unwrap();
    assert_eq!(played, 4);

    // Minimax beats random in every game (100 of 100 natively); the quitter plays minimax too until
    // it quits. Random, who lost to both, is last on the leaderboard, below minimax.
    let vs_random = h2h.iter().find(|h| h["opponent"] == "random").unwrap();
    assert_eq!(vs_random["won"], 2);
    let board = in_store_json(dir, &["leaderboard", "--game", "santorini", "--json"]);
    let order: Vec<&str> = board.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(order[2], "random", "{order:?}");
    let rating = |n: &str| {
        board.as_array().unwrap().iter().find(|l| l["name"] == n).unwrap()["rating"]["rating"].as_f64().unwrap()
    };
    assert!(rating("minimax") > rating("random") && rating("random") < 1500.0);
    // The last point of the history is the current rating.
    let last = st["rating_history"].as_array().unwrap().last().unwrap()["rating"].as_f64().unwrap();
    assert!((last - rating("minimax")).abs() < 1e-9);

    // The tournament is listed, finished, with its winner.
    let ts = in_store_json(dir, &["tournaments", "--json"]);
    assert_eq!(ts[0]["status"], "finished");
    assert_eq!(ts[0]["winner"], "minimax");
    assert_eq!(ts[0]["games"], 6);
}

#[test]
fn fish_ratings_are_weng_lin_and_faults_lose() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (n, p) in [("greedy", "fish-greedy"), ("random", "fish-random"), ("quitter", "fish-quitter")] {
        submit(dir, "fish", n, &player(p));
    }
    let r = in_store_json(
        dir,
        &["tournament", "--game", "fish", "--format", "rounds", "--seed", "2", "--registered", "--json"],
    );
    assert!(!r["games"].as_array().unwrap().is_empty());
    let board = in_store_json(dir, &["leaderboard", "--game", "fish", "--json"]);
    for l in board.as_array().unwrap() {
        let played = l["games"]["won"].as_u64().unwrap()
            + l["games"]["lost"].as_u64().unwrap()
            + l["games"]["tied"].as_u64().unwrap();
        assert!(played > 0);
        assert!(l["rating"]["deviation"].as_f64().unwrap() < 25.0 / 3.0, "σ shrinks after a game: {l}");
    }
    // The first place gains μ over the start (25), the last loses it.
    let board = board.as_array().unwrap();
    assert!(board[0]["rating"]["rating"].as_f64().unwrap() > 25.0);
    assert!(board[board.len() - 1]["rating"]["rating"].as_f64().unwrap() < 25.0);
    let st = in_store_json(dir, &["stats", "quitter", "--json"]);
    assert_eq!(st["rating_system"], "Weng-Lin");
}

/// The games recorded so far for tournament `id`, read while another process writes.
fn games_recorded(dir: &Path, id: i64) -> i64 {
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(dir.join("arena.db"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return 0;
    };
    conn.busy_timeout(std::time::Duration::from_secs(5)).ok();
    conn.query_row("SELECT COUNT(*) FROM games WHERE tournament_id = ?1", [id], |r| r.get(0)).unwrap_or(0)
}

#[test]
fn resume_after_sigkill_ends_as_an_uninterrupted_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    let roster = [
        ("greedy", "yahtzee-greedy"),
        ("random", "yahtzee-random"),
        ("greedy2", "yahtzee-greedy"),
        ("random2", "yahtzee-random"),
        ("greedy3", "yahtzee-greedy"),
        ("random3", "yahtzee-random"),
    ];
    for dir in [&whole, &cut] {
        for (n, p) in roster {
            submit(dir, "yahtzee", n, &player(p));
        }
    }
    let args = [
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "round-robin",
        "--games-per-match",
        "41",
        "--seed",
        "77",
        "--registered",
        "--json",
    ];
    let expected = in_store_json(&whole, &args);
    let total = expected["games"].as_array().unwrap().len() as i64;
    assert_eq!(total, 15 * 41);

    let mut child = arena()
        .args(args)
        .args(data_args(&cut))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while games_recorded(&cut, 1) < 40 && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = games_recorded(&cut, 1);
    assert!((40..total).contains(&before), "killed mid-way: {before} of {total} games recorded");
    let listed = in_store_json(&cut, &["tournaments", "--json"]);
    assert_eq!(listed[0]["status"], "interrupted");

    let out = in_store(&cut, &["resume", "1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(resumed, expected, "the resumed tournament ends exactly as the uninterrupted one");
    assert_eq!(games_recorded(&cut, 1), total, "every game recorded once: none lost, none twice");
    let listed = in_store_json(&cut, &["tournaments", "--json"]);
    assert_eq!(listed[0]["status"], "finished");

    // Same games, same order: same ratings and stats.
    let strip = |mut v: serde_json::Value| {
        for l in v.as_array_mut().unwrap() {
            l.as_object_mut().unwrap().remove("submitted_at");
        }
        v
    };
    assert_eq!(
        strip(in_store_json(&cut, &["leaderboard", "--game", "yahtzee", "--json"])),
        strip(in_store_json(&whole, &["leaderboard", "--game", "yahtzee", "--json"]))
    );
    let stats = |d: &Path| {
        let mut v = in_store_json(d, &["stats", "greedy", "--json"]);
        v.as_object_mut().unwrap().remove("registered_at");
        v
    };
    assert_eq!(stats(&cut), stats(&whole));
    // Resuming a finished tournament plays nothing and shows its result.
    let again = in_store_json(&cut, &["resume", "1", "--json"]);
    assert_eq!(again, expected);
    assert_eq!(games_recorded(&cut, 1), total);
}

#[test]
fn replay_of_a_stored_game_reaches_the_final_position() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    submit(dir, "fish", "greedy", &player("fish-greedy"));
    submit(dir, "fish", "random", &player("fish-random"));
    let r = in_store_json(
        dir,
        &[
            "tournament",
            "--game",
            "fish",
            "--format",
            "rounds",
            "--seed",
            "5",
            "--registered",
            "--json",
            "--option",
            "rows=6",
            "--option",
            "cols=6",
            "--option",
            "holes=3",
        ],
    );
    let id = r["games"][0]["id"].as_str().unwrap();
    let stored = in_store_json(dir, &["replay", &format!("1/{id}"), "--json"]);
    let text = in_store(dir, &["replay", &format!("1/{id}")]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    // Re-run through the referee on the stored options, the game ends where the referee said.
    assert!(text.contains(stored["board"].as_str().unwrap()), "{text}");
    let calls = stored["calls"].as_array().unwrap();
    let moves = calls.iter().filter(|c| c["call"] == "take-turn" && c["fault"].is_null()).count();
    assert!(moves > 0);
    let shown = text.lines().filter(|l| l.split_whitespace().nth(1) == Some("take-turn")).count();
    assert_eq!(shown, moves, "{text}");
    assert!(text.contains(&format!("Winner: {}", r["games"][0]["winner"].as_str().unwrap())));
}

/// Replays rendered from committed replay files, against committed text (set `UPDATE_SNAPSHOTS=1` to
/// rewrite them after a deliberate change).
#[test]
fn replay_rendering_snapshots() {
    for name in ["yahtzee-cheat", "santorini-panic", "fish-faults"] {
        let file = fixture(&format!("replays/{name}.jsonl"));
        let out = run(&["replay", &file.display().to_string()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let got = String::from_utf8(out.stdout).unwrap();
        let snap = fixture(&format!("replays/{name}.txt"));
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(&snap, &got).unwrap();
        }
        let want = std::fs::read_to_string(&snap).unwrap_or_default();
        assert_eq!(got, want, "{name}: the rendering changed (UPDATE_SNAPSHOTS=1 rewrites {})", snap.display());
    }
    // A damaged replay file is an error naming the file and line.
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.jsonl");
    let whole = std::fs::read_to_string(fixture("replays/yahtzee-cheat.jsonl")).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    std::fs::write(&bad, format!("{}\n{{not json\n", lines[0])).unwrap();
    let out = run(&["replay", &bad.display().to_string()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("bad.jsonl: line 2: not JSON"), "{err}");
}

#[test]
fn store_round_trip_through_the_library() {
    use arena_store::{Store, StoredSettings};
    use arena_tournament::{Format, GameRecord, Journal, Lifecycle};
    let tmp = tempfile::tempdir().unwrap();
    let mut store = Store::open(tmp.path()).unwrap();
    let a = store.add_version("fish", "a", b"first", "aa").unwrap().version;
    let b = store.add_version("fish", "b", b"second", "bb").unwrap().version;
    assert_eq!(std::fs::read(store.component_path("aa")).unwrap(), b"first");
    let settings = StoredSettings {
        limits: arena_core::Limits::default(),
        options: serde_json::json!({"rows": 6}),
        referee: None,
        fork: None,
    };
    let id =
        store.create_tournament("fish", (Format::Rounds, 1, u64::MAX), &settings, &[a.clone(), b.clone()]).unwrap();
    let game = GameRecord {
        id: "R1-M1-G1".into(),
        round: 1,
        match_no: 1,
        number: 1,
        players: vec!["a".into(), "b".into()],
        seed: u64::MAX - 1,
        scores: vec![3, 9],
        winner: Some("b".into()),
        winners: vec!["b".into()],
        fuel: vec![u64::from(u32::MAX) * 4, 7],
        calls: vec![1, 1],
        faults: vec![arena_core::PlayerFault::new(
            "a",
            arena_core::Fault { kind: arena_core::FaultKind::Memory, reason: "grew".into(), call: "setup".into() },
        )],
        replay: vec![arena_core::CallLine {
            seat: 0,
            call: "setup".into(),
            turn: 1,
            answer: serde_json::json!([1, 2]),
            fuel: 5,
            fault: None,
            micros: 120,
            output: "thinking".into(),
            request: Some(serde_json::json!({"size": 3})),
        }],
        board: "the board".into(),
        logs: vec!["hello".into(), String::new()],
        last_words: vec!["out of memory".into(), String::new()],
        game_fault: None,
        fault_by: None,
        events: vec![],
        seat_views: vec![],
        so_far: Default::default(),
        svg: Some("<svg/>".into()),
        seat_svgs: vec![],
    };
    {
        let j = store.journal(id, &[a.clone(), b.clone()]).unwrap();
        j.game(&game);
        j.record_lifecycle(Lifecycle::Start, 1, None);
        j.record_lifecycle(Lifecycle::End, 0, Some(&arena_core::Fault::illegal("tournament-end", "no")));
        assert_eq!(j.finish().unwrap(), 1);
    }
    let back = store.game(id, "R1-M1-G1").unwrap().unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&game).unwrap());
    assert_eq!(back.replay.len(), 1);
    assert_eq!(back.svg.as_deref(), Some("<svg/>"), "the final drawing is kept with the record");
    assert_eq!(back.replay[0].answer, serde_json::json!([1, 2]));
    assert_eq!((back.board.as_str(), back.logs.clone()), ("the board", game.logs.clone()));
    assert_eq!(back.last_words, game.last_words, "a faulted seat's last words are kept, for its owner");
    assert_eq!(back.replay[0].request, game.replay[0].request);
    let j = store.journal(id, &[a, b]).unwrap();
    assert!(j.played("R1-M1-G1").is_some() && j.played("R1-M1-G2").is_none());
    assert_eq!(j.lifecycle(Lifecycle::Start, 1), Some(None));
    assert_eq!(j.lifecycle(Lifecycle::End, 0).unwrap().unwrap().call, "tournament-end");
    assert_eq!(j.lifecycle(Lifecycle::Start, 0), None);
    j.finish().unwrap();
    let t = store.tournament(id).unwrap().unwrap();
    assert_eq!((t.seed, t.games, t.players), (u64::MAX, 1, 2));
    assert_eq!(t.settings.options["rows"], 6);
    let st = store.stats("fish", "a", arena_tournament::ratings::System::WengLin).unwrap().unwrap();
    assert_eq!(st.faults.get("memory"), Some(&1));
    assert_eq!(st.faults.get("illegal"), Some(&1));
    assert_eq!((st.games.won, st.games.lost), (0, 1));
}

#[test]
fn a_read_only_store_refuses_writes_clearly_and_stays_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    submit(&dir, "yahtzee", "alice", &player("yahtzee-random"));
    // Readable by all, writable by nobody but the owner; run as another user (root ignores permissions).
    let root = String::from_utf8(Command::new("id").arg("-u").output().unwrap().stdout).unwrap().trim() == "0";
    let mode = if root { 0o755 } else { 0o555 };
    for p in [tmp.path().to_path_buf(), dir.clone(), dir.join("components"), dir.join("compiled"), dir.join("locks")] {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    std::fs::set_permissions(dir.join("arena.db"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let args = ["submit", "--game", "yahtzee", "--name", "bob", &player("yahtzee-greedy")];
    let out = if root {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_arena")])
            .args(args)
            .args(data_args(&dir))
            .env("ARENA_CACHE_DIR", tmp.path().join("no-cache"))
            .bounded()
    } else {
        in_store(&dir, &args)
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&dir.display().to_string()) && err.contains("read-only"), "{err}");
    // Reading it still works.
    if root {
        let out = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_arena")])
            .args(["leaderboard", "--game", "yahtzee", "--json"])
            .args(data_args(&dir))
            .bounded();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let board: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(board[0]["name"], "alice");
    } else {
        assert_eq!(in_store_json(&dir, &["leaderboard", "--game", "yahtzee", "--json"])[0]["name"], "alice");
    }
    for p in [dir.clone(), dir.join("components"), dir.join("locks")] {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let players = in_store_json(&dir, &["players", "--json"]);
    assert_eq!(players["yahtzee"].as_array().unwrap().len(), 1, "only alice: {players}");
    assert_eq!(std::fs::read_dir(dir.join("components")).unwrap().count(), 1);
}

#[test]
fn ctrl_c_keeps_what_finished_and_resume_ends_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (n, p) in [("greedy", "yahtzee-greedy"), ("random", "yahtzee-random"), ("random2", "yahtzee-random")] {
        submit(dir, "yahtzee", n, &player(p));
    }
    let args = [
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "round-robin",
        "--games-per-match",
        "99",
        "--seed",
        "3",
        "--registered",
        "--json",
    ];
    let child = arena()
        .args(args)
        .args(data_args(dir))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while games_recorded(dir, 1) < 20 && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = super::finish(child);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("arena resume") && err.contains(" 1` finishes tournament 1"), "{err}");
    let before = games_recorded(dir, 1);
    assert!((20..3 * 99).contains(&before), "{before}");
    assert_eq!(in_store_json(dir, &["tournaments", "--json"])[0]["status"], "interrupted");
    let r = in_store_json(dir, &["resume", "1", "--json"]);
    assert_eq!(r["games"].as_array().unwrap().len(), 3 * 99);
    assert_eq!(games_recorded(dir, 1), 3 * 99);
    assert_eq!(in_store_json(dir, &["tournaments", "--json"])[0]["winner"], "greedy");
}

#[test]
fn a_registered_tournament_keeps_its_package_so_resume_and_replay_use_the_same_referee() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pkg) = (tmp.path().join("data"), tmp.path().join("santorini"));
    copy_dir(&players_dir().parent().unwrap().join("packages/santorini"), &pkg);
    let game = pkg.to_str().unwrap();
    submit(&dir, game, "minimax", &player("santorini-minimax"));
    submit(&dir, game, "random", &player("santorini-random"));
    let args = ["tournament", "--game", game, "--format", "round-robin", "--seed", "3", "--registered", "--json"];
    let r = in_store_json(&dir, &args);
    let referee = std::fs::read(pkg.join("referee.wasm")).unwrap();
    let hash: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&referee).iter().map(|b| format!("{b:02x}")).collect()
    };
    let kept = dir.join("packages").join(&hash);
    assert_eq!(std::fs::read(kept.join("referee.wasm")).unwrap(), referee, "the store keeps the referee it played");
    // The package is rebuilt (here: gone); the stored games still replay through the referee they were
    // played with, and the tournament still resumes.
    std::fs::remove_dir_all(&pkg).unwrap();
    let id = r["games"][0]["id"].as_str().unwrap();
    let out = in_store(&dir, &["replay", &format!("1/{id}")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (text, said) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(said.contains(&format!("in {}", kept.display())) && text.contains("Winner:"), "{said}{text}");
    let out = in_store(&dir, &["resume", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn games_whose_referee_failed_rate_nobody_and_count_as_no_result() {
    // Nim's players registered with its referee; then the package's referee is swapped for one that
    // fails in every game. Its games are stored, but nobody is rated on them or counted as losing.
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pkg) = (tmp.path().join("data"), tmp.path().join("nim"));
    std::fs::create_dir_all(pkg.join("players")).unwrap();
    let src = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games/nim");
    std::fs::copy(src.join("game.toml"), pkg.join("game.toml")).unwrap();
    std::fs::copy(player("nim-referee"), pkg.join("referee.wasm")).unwrap();
    std::fs::copy(player("nim-optimal"), pkg.join("players/nim-optimal.wasm")).unwrap();
    let game = pkg.display().to_string();
    for name in ["a", "b", "c"] {
        submit(&dir, &game, name, &player("nim-optimal"));
    }
    std::fs::copy(player("nim-broken-referee"), pkg.join("referee.wasm")).unwrap();
    let args = ["tournament", "--game", &game, "--format", "round-robin", "--games-per-match", "1", "--registered"];
    let r = in_store_json(&dir, &[&args[..], &["--seed", "4", "--json"]].concat());
    assert_eq!(r["game_faults"].as_array().map(Vec::len), Some(3), "every game's referee failed: {r}");
    let board = in_store_json(&dir, &["leaderboard", "--game", "nim", "--json"]);
    let rows = board.as_array().expect("a list");
    assert_eq!(rows.len(), 3);
    let first = &rows[0]["rating"];
    for row in rows {
        assert_eq!(row["rating"], *first, "nobody's rating moved: {board}");
        for k in ["won", "lost", "tied"] {
            assert_eq!(row["games"][k], 0, "a game with no result counts for nobody: {board}");
        }
    }
}

/// A version of a published game is a new referee, a constraint of the store: publishes of the same
/// package from many connections at once make one version, and the rest are refused naming it; going
/// back to an earlier version's referee is a new version; a store from before the constraint (with a
/// repeat, as concurrent publishes made them) still opens.
#[test]
fn concurrent_publishes_of_one_package_make_one_version() {
    use arena_store::{Store, StoreError};
    let tmp = tempfile::tempdir().unwrap();
    let mut store = Store::open(tmp.path()).unwrap();
    let (alice, _) = store.add_user("alice", false).unwrap();
    drop(store);
    let (a, b) = ("ab".repeat(32), "cd".repeat(32));
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(5));
    let results: Vec<Result<u32, String>> = (0..5)
        .map(|_| {
            let (dir, alice, a, barrier) = (tmp.path().to_path_buf(), alice.clone(), a.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut s = Store::open(&dir).unwrap();
                barrier.wait();
                match s.publish_version("heaps", &a, 10, &alice) {
                    Ok(v) => Ok(v.version),
                    Err(e @ StoreError::AlreadyPublished { .. }) => Err(e.to_string()),
                    Err(e) => panic!("not the refusal: {e}"),
                }
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "{results:?}");
    for why in results.iter().filter_map(|r| r.as_ref().err()) {
        assert!(why.contains("identical to heaps version 1") && why.contains("nothing"), "{why}");
    }
    let mut store = Store::open(tmp.path()).unwrap();
    assert_eq!(store.published_game("heaps").unwrap().unwrap().versions.len(), 1);
    // Another referee is another version, and so is going back to the first one.
    assert_eq!(store.publish_version("heaps", &b, 10, &alice).unwrap().version, 2);
    assert_eq!(store.publish_version("heaps", &a, 10, &alice).unwrap().version, 3);
    let e = store.publish_version("heaps", &a, 10, &alice).expect_err("refused");
    assert!(matches!(e, StoreError::AlreadyPublished { version: 3, .. }), "{e}");
    // A store of schema 9 holding a repeat (version 4 with version 3's referee) opens, keeping it.
    drop(store);
    let conn = rusqlite::Connection::open(tmp.path().join("arena.db")).unwrap();
    conn.execute_batch(&format!(
        "ALTER TABLE published_versions DROP COLUMN follows;
         ALTER TABLE faults DROP COLUMN last_words; ALTER TABLE faults DROP COLUMN step;
         ALTER TABLE versions DROP COLUMN sparring; DROP TABLE candidates; DROP TABLE final_legs;
         ALTER TABLE competitions DROP COLUMN decide; ALTER TABLE competitions DROP COLUMN final_games;
         INSERT INTO published_versions (game_id, version, referee, size, published_by) VALUES (1, 4, '{a}', 10, 1);
         PRAGMA user_version = 9;"
    ))
    .unwrap();
    drop(conn);
    let mut store = Store::open(tmp.path()).unwrap();
    assert_eq!(store.published_game("heaps").unwrap().unwrap().versions.len(), 4);
    let e = store.publish_version("heaps", &a, 10, &alice).expect_err("refused");
    assert!(matches!(e, StoreError::AlreadyPublished { version: 4, .. }), "{e}");
}

/// Games stored before a faulted game counted for nobody, with a fault after their outcome and a
/// winner, name none once the store is opened (migration 9), and their seats are no wins.
#[test]
fn stored_games_faulted_after_their_outcome_lose_their_winner_when_the_store_opens() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    submit(&dir, "nim", "a", &player("nim-optimal"));
    submit(&dir, "nim", "b", &player("nim-optimal"));
    let r = in_store_json(
        &dir,
        &["tournament", "--game", "nim", "--format", "round-robin", "--registered", "--seed", "2", "--json"],
    );
    let key = r["games"][0]["id"].as_str().unwrap().to_string();
    // As an Arena before it stored such a game: a fault after the outcome, the winner kept.
    let conn = rusqlite::Connection::open(dir.join("arena.db")).unwrap();
    let fault = r#"{"kind":"crash","reason":"trapped in view","call":"view"}"#;
    conn.execute_batch(&format!(
        "UPDATE games SET game_fault = '{fault}', record = json_set(record, '$.game_fault', json('{fault}'))
          WHERE key = '{key}';
         UPDATE game_players SET result = 'won' WHERE seat = 0 AND game_id = (SELECT id FROM games WHERE key = '{key}');
         ALTER TABLE published_versions DROP COLUMN follows;
         ALTER TABLE faults DROP COLUMN last_words; ALTER TABLE faults DROP COLUMN step;
         ALTER TABLE versions DROP COLUMN sparring; DROP TABLE candidates; DROP TABLE final_legs;
         ALTER TABLE competitions DROP COLUMN decide; ALTER TABLE competitions DROP COLUMN final_games;
         PRAGMA user_version = 8;"
    ))
    .unwrap();
    let before: String = conn
        .query_row("SELECT json_extract(record, '$.winner') FROM games WHERE key = ?1", [&key], |r| r.get(0))
        .unwrap();
    assert!(!before.is_empty());
    drop(conn);
    drop(arena_store::Store::open(&dir).unwrap());
    let shown = in_store_json(&dir, &["replay", "--json", &format!("1/{key}")]);
    let text = shown.to_string();
    assert!(text.contains("trapped in view"), "{text}");
    let conn = rusqlite::Connection::open(dir.join("arena.db")).unwrap();
    let (winner, winners, won): (Option<String>, String, i64) = conn
        .query_row(
            "SELECT json_extract(record, '$.winner'), json_extract(record, '$.winners'),
                    (SELECT COUNT(*) FROM game_players gp WHERE gp.game_id = games.id AND gp.result <> 'lost')
               FROM games WHERE key = ?1",
            [&key],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((winner, winners.as_str(), won), (None, "[]", 0));
}

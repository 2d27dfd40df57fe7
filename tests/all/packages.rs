//! Game packages: the host drives a packaged game's referee component (Nim, `games/nim`) and forwards
//! values between it and the players as dynamic component values; a player whose answer the referee
//! refuses is banned with the referee's reason; packages and players that do not fit are refused with
//! the file and the problem.

use super::*;
use arena_core::Limits;
use arena_play::{Package, PackageError};
use arena_sandbox::Sandbox;
use std::path::Path;
use std::sync::Arc;

/// The Nim package assembled in `dir`: its manifest from games/nim, its referee as `make players` built it.
fn nim_package(dir: &Path) -> PathBuf {
    assemble("nim", dir, &["nim-optimal"])
}

/// [`nim_package`] with the broken test referee, its manifest declaring `options` too (TOML tables
/// appended to it; the referee's source says what each does).
pub(crate) fn broken_nim_package(dir: &Path, options: &str) -> PathBuf {
    let root = nim_package(dir);
    std::fs::copy(player("nim-broken-referee"), root.join("referee.wasm")).unwrap();
    let manifest = std::fs::read_to_string(root.join("game.toml")).unwrap();
    std::fs::write(root.join("game.toml"), format!("{manifest}{options}")).unwrap();
    root
}

/// A package assembled in `dir` from games/GAME and the components `make players` built.
pub(crate) fn assemble(game: &str, dir: &Path, samples: &[&str]) -> PathBuf {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games").join(game);
    std::fs::copy(src.join("game.toml"), dir.join("game.toml")).unwrap();
    std::fs::copy(player(&format!("{game}-referee")), dir.join("referee.wasm")).unwrap();
    std::fs::create_dir_all(dir.join("players")).unwrap();
    for s in samples {
        std::fs::copy(player(s), dir.join("players").join(format!("{s}.wasm"))).unwrap();
    }
    dir.to_path_buf()
}

/// The sample player `file` of `make players`, loaded into `pkg` as `name`.
pub(crate) fn seat(pkg: &Package, name: &str, file: &str) -> Arc<arena_play::PackagePlayer> {
    pkg.load_player(name, Path::new(&player(file))).unwrap()
}

pub(crate) fn sandbox() -> Arc<Sandbox> {
    Arc::new(Sandbox::new(Limits::default()).unwrap())
}

/// The heaps a game started with, from the referee's first (public) event.
fn heaps(o: &arena_core::GameOutcome) -> Vec<u32> {
    let first = &o.events.first().expect("an event").text;
    first.strip_prefix("heaps ").expect("the heaps first").split(' ').map(|h| h.parse().unwrap()).collect()
}

#[tokio::test]
async fn the_host_drives_the_referee_and_optimal_play_wins_exactly_the_winning_positions() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = Package::load(sandbox(), &nim_package(dir.path())).unwrap();
    assert_eq!(pkg.manifest.name, "nim");
    assert_eq!(pkg.calls(), ["take-turn"]);
    let a = seat(&pkg, "first", "nim-optimal");
    let b = seat(&pkg, "second", "nim-optimal");
    let mut first_won = 0;
    for seed in 0..8 {
        let o = pkg.play(&[a.clone(), b.clone()], seed, &Default::default()).await;
        assert!(o.game_fault.is_none() && o.faults.is_empty(), "{o:?}");
        // With both playing perfectly, the first to move wins exactly when the heaps' xor is not zero.
        let start = heaps(&o);
        let first_wins = start.iter().fold(0, |x, h| x ^ h) != 0;
        assert_eq!(o.winners, [usize::from(!first_wins)], "heaps {start:?}");
        first_won += usize::from(first_wins);
        assert_eq!(o.scores.iter().sum::<i64>(), 1);
        // One call per move; every move is an event for everyone; seats alternate.
        let moves = o.events.iter().filter(|e| e.text.contains(" takes ")).count();
        assert_eq!(o.calls().len(), moves);
        assert!(
            o.calls()
                .iter()
                .enumerate()
                .all(|(k, (seat, call, fuel))| *seat == k % 2 && *call == "take-turn" && *fuel > 0)
        );
        assert!(o.events.iter().all(|e| e.to.is_none()), "Nim has no private events");
        assert!(o.view.contains("heaps 0 0 0"), "{}", o.view);
    }
    assert!(first_won > 0 && first_won < 8, "the seeds give both kinds of position");
    // The same seed, the same game.
    let (x, y) = (
        pkg.play(&[a.clone(), b.clone()], 3, &Default::default()).await,
        pkg.play(&[a, b], 3, &Default::default()).await,
    );
    assert_eq!((x.events, x.log), (y.events, y.log));
}

#[tokio::test]
async fn an_answer_the_referee_refuses_bans_the_player_with_its_reason_and_the_other_wins() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = Package::load(sandbox(), &nim_package(dir.path())).unwrap();
    let cheat = seat(&pkg, "cheat", "nim-cheat");
    let good = seat(&pkg, "good", "nim-optimal");
    let o = pkg.play(&[cheat, good], 5, &Default::default()).await;
    assert!(o.game_fault.is_none(), "{o:?}");
    assert_eq!(o.faults.len(), 1, "{:?}", o.faults);
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind.as_str(), f.call.as_str()), (0, "illegal", "take-turn"));
    let first = heaps(&o)[0];
    assert_eq!(f.reason, format!("cannot take {} from heap 0, which has {first}", first + 1));
    assert_eq!(o.winners, [1]);
    assert!(o.events.iter().any(|e| e.text.starts_with("seat 0 forfeits")), "the referee was told");
}

#[test]
fn packages_and_players_that_do_not_fit_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = nim_package(dir.path());
    let pkg = Package::load(sandbox(), &root).unwrap();
    // A player of another game, and a component of no game at all.
    let yahtzee = player("yahtzee-greedy");
    let err = pkg.load_player("y", Path::new(&yahtzee)).err().unwrap().to_string();
    assert!(err.starts_with(&yahtzee) && err.contains("imports `arena:yahtzee/types@0.1.0`"), "{err}");
    let hello = fixture("wrong-world.wat");
    let err = pkg.load_player("h", &hello).err().unwrap().to_string();
    assert!(err.starts_with(&hello.display().to_string()) && err.contains("exports no function `take-turn`"), "{err}");

    // A referee that is not one (a player in its place).
    std::fs::copy(player("nim-optimal"), root.join("referee.wasm")).unwrap();
    let err = Package::load(sandbox(), &root).err().unwrap();
    assert!(matches!(err, PackageError::Referee { .. }), "{err}");
    assert!(err.to_string().contains("exports no function `start`"), "{err}");

    // A referee past the size cap is refused before it is read (a sparse file: nothing is written).
    let file = std::fs::File::create(root.join("referee.wasm")).unwrap();
    file.set_len(arena_play::MAX_REFEREE_BYTES + 1).unwrap();
    let err = Package::load(sandbox(), &root).err().unwrap().to_string();
    assert!(err.contains("referee.wasm") && err.contains("a referee may have at most 33554432"), "{err}");
    // So is a manifest past its cap, even one that would read (a long comment).
    let manifest = root.join("game.toml");
    let good = std::fs::read_to_string(&manifest).unwrap();
    let cap = arena_play::MAX_MANIFEST_BYTES as usize;
    std::fs::write(&manifest, format!("{good}#{}\n", "x".repeat(cap))).unwrap();
    let err = Package::load(sandbox(), &root).err().unwrap().to_string();
    assert!(err.starts_with(&manifest.display().to_string()) && err.contains("a manifest may have at most"), "{err}");
    std::fs::write(&manifest, format!("{good}#{}\n", "x".repeat(cap - good.len() - 2))).unwrap();
    assert!(
        !Package::load(sandbox(), &root).err().unwrap().to_string().contains("a manifest may have"),
        "at the cap it reads"
    );

    // A missing referee, then manifests that say impossible things.
    std::fs::remove_file(root.join("referee.wasm")).unwrap();
    let err = Package::load(sandbox(), &root).err().unwrap().to_string();
    assert!(err.contains("referee.wasm: cannot read"), "{err}");
    for (bad, why) in [
        ("name = \"nim\"\ndescription = \"\"\nmin_seats = 3\nmax_seats = 2\nreferee = \"referee.wasm\"\n", "seats"),
        ("name = \"Nim!\"\ndescription = \"\"\nmin_seats = 2\nmax_seats = 2\nreferee = \"referee.wasm\"\n", "`name`"),
        (
            "name = \"nim\"\ndescription = \"\"\nmin_seats = 2\nmax_seats = 2\nreferee = \"../x.wasm\"\n",
            "inside the package",
        ),
        ("name = \"nim\"\nseats = 2\n", "not a valid manifest"),
    ] {
        std::fs::write(&manifest, bad).unwrap();
        let err = Package::load(sandbox(), &root).err().unwrap().to_string();
        assert!(err.starts_with(&manifest.display().to_string()) && err.contains(why), "{err}");
    }
}

#[tokio::test]
async fn a_referee_that_traps_ends_the_game_as_a_game_fault_and_nobody_is_banned() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), "");
    let pkg = Package::load(sandbox(), &root).unwrap();
    let a = seat(&pkg, "a", "nim-optimal");
    let b = seat(&pkg, "b", "nim-optimal");
    let o = pkg.play(&[a, b], 1, &Default::default()).await;
    let f = o.game_fault.clone().expect("a game fault");
    assert_eq!((f.kind.as_str(), f.call.as_str()), ("crash", "step"), "{f}");
    assert!(f.reason.contains("the broken referee gives up"), "its last output is in the reason: {f}");
    assert!(o.faults.is_empty() && o.winners.is_empty(), "{o:?}");
    assert_eq!(o.calls().len(), 2, "both players answered once before the referee failed");
}

#[test]
fn arena_play_runs_a_package_game_from_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = nim_package(dir.path());
    let (cheat, good) = (format!("cheat={}", player("nim-cheat")), format!("good={}", player("nim-optimal")));
    let v = run_json(&["play", "--game", root.to_str().unwrap(), "--seed", "5", "--json", &cheat, &good]);
    assert_eq!(v["game"], "nim");
    assert_eq!(v["result"]["winners"], serde_json::json!(["good"]));
    let faults = &v["result"]["faults"];
    assert_eq!((faults[0]["player"].as_str(), faults[0]["kind"].as_str()), (Some("cheat"), Some("illegal")));
    assert!(v["events"][0].as_str().unwrap().starts_with("heaps "), "{v}");
    let out = run(&["play", "--game", root.to_str().unwrap(), &good, "missing=/nonexistent/player.wasm"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/player.wasm: cannot read"));
    let text =
        run(&["play", "--game", root.to_str().unwrap(), "--seed", "5", &good, &cheat.replace("cheat=", "other=")]);
    let shown = String::from_utf8_lossy(&text.stdout);
    assert!(text.status.success() && shown.contains("Winner: good") && shown.contains("other"), "{shown}");
    let out = run(&["play", "--game", dir.path().join("nowhere").to_str().unwrap(), &good, &cheat]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a game package directory (no game.toml there)"));
}

#[test]
fn every_tournament_format_runs_a_package_and_a_seed_gives_the_same_json() {
    let dir = tempfile::tempdir().unwrap();
    let root = nim_package(dir.path());
    let root = root.to_str().unwrap();
    let (a, b) = (format!("a={}", player("nim-optimal")), format!("b={}", player("nim-optimal")));
    let cheat = format!("cheat={}", player("nim-cheat"));
    for format in ["knockout", "round-robin", "rounds"] {
        let args = ["tournament", "--game", root, "--format", format, "--seed", "9", "--json", &a, &b, &cheat];
        let v = run_json(&args);
        assert_eq!(v["game"], "nim", "{format}");
        assert_eq!(bans(&v), [("cheat".to_string(), "illegal".to_string(), "take-turn".to_string())], "{format}");
        let ranked = ranked(&v);
        assert!(!ranked.contains(&"cheat") && ranked.contains(&"a"), "{format}: {ranked:?}");
        assert_eq!(run(&args).stdout, run(&args).stdout, "{format}: the same seed, the same JSON");
    }
    let data = dir.path().join("data");
    let out = run(&["tournament", "--game", root, "--registered", "--data", data.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("0 player(s) registered for nim"));
}

/// The matching-pennies package assembled in `dir` (simultaneous choices, private events).
fn pennies_package(dir: &Path) -> PathBuf {
    assemble("pennies", dir, &["pennies-alternate", "pennies-heads"])
}

#[tokio::test]
async fn simultaneous_requests_ask_both_seats_in_one_step_and_private_events_stay_private() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = Package::load(sandbox(), &pennies_package(dir.path())).unwrap();
    let heads = seat(&pkg, "heads", "pennies-heads");
    let alternate = seat(&pkg, "alternate", "pennies-alternate");
    let o = pkg.play(&[heads, alternate], 1, &Default::default()).await;
    assert!(o.game_fault.is_none() && o.faults.is_empty(), "{o:?}");
    // Heads against heads-tails-heads-tails-heads: seat 0 takes rounds 1, 3 and 5.
    assert_eq!((o.scores.clone(), o.winners.clone()), (vec![3, 2], vec![0]));
    // Every round both seats were asked at once: ten calls, seats 0 and 1 in each pair.
    let seats: Vec<usize> = o.calls().iter().map(|(s, ..)| *s).collect();
    assert_eq!(seats, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    // Each choice is told only to its chooser, and the reveal to everyone only once both are in.
    for round in 1..=5 {
        let mine = |seat: u32| {
            o.events.iter().position(|e| {
                e.to.as_deref() == Some(&[seat][..]) && e.text.starts_with(&format!("round {round}: you chose"))
            })
        };
        let reveal = o.events.iter().position(|e| e.to.is_none() && e.text.starts_with(&format!("round {round}: ")));
        let (a, b, r) = (mine(0).unwrap(), mine(1).unwrap(), reveal.unwrap());
        assert!(a < r && b < r, "round {round}: both private choices come before the reveal");
    }
    assert!(o.events.iter().filter(|e| e.to.is_none()).all(|e| !e.text.contains("you chose")));
    // Both players, and only they, hear that a round is closed (a varicast), before the reveal.
    let closed: Vec<&arena_core::Event> = o.events.iter().filter(|e| e.text.ends_with("both choices are in")).collect();
    assert_eq!(closed.len(), 5);
    assert!(closed.iter().all(|e| e.to.as_deref() == Some(&[0, 1][..])));
    // What spectators get from the CLI holds no private event.
    let root = pennies_package(dir.path());
    let v = run_json(&[
        "play",
        "--game",
        root.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
        &player("pennies-heads"),
        &player("pennies-alternate"),
    ]);
    let public: Vec<&str> = v["events"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
    assert_eq!(public.len(), 6, "{public:?}");
    assert!(public.iter().all(|e| !e.contains("you chose")), "{public:?}");
    // A seat's view has its own private events, and never the other seat's.
    let as_seat = |seat: &str| {
        let (heads, alternate) = (player("pennies-heads"), player("pennies-alternate"));
        let args =
            ["play", "--game", root.to_str().unwrap(), "--seed", "1", "--json", "--seat", seat, &heads, &alternate];
        let v = run_json(&args);
        v["events"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let (zero, one) = (as_seat("0"), as_seat("1"));
    assert_eq!((zero.len(), one.len()), (16, 16), "6 public events, 5 of its own and 5 to both players");
    assert!(zero.contains(&"round 3: both choices are in".to_string()));
    assert!(
        zero.contains(&"round 2: you chose heads".to_string())
            && !zero.contains(&"round 2: you chose tails".to_string())
    );
    assert!(
        one.contains(&"round 2: you chose tails".to_string()) && !one.contains(&"round 2: you chose heads".to_string())
    );
    assert_eq!(o.events_for(Some(0)).count(), 16);
    // A spectator's replay of the game (re-run from its record) holds no private event either.
    let replays = dir.path().join("replays");
    let (heads, alternate) = (player("pennies-heads"), player("pennies-alternate"));
    let args = ["tournament", "--game", root.to_str().unwrap(), "--format", "round-robin", "--games-per-match", "1"];
    let out =
        run(&[&args[..], &["--seed", "1", "--replay-dir", replays.to_str().unwrap(), &heads, &alternate]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let file = std::fs::read_dir(&replays).unwrap().next().unwrap().unwrap().path();
    let out = run(&["replay", file.to_str().unwrap()]);
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && shown.contains("seat 0 takes it"), "{shown}");
    assert!(!shown.contains("you chose") && !shown.contains("both choices are in"), "{shown}");
    assert_eq!(o.events_for(None).count(), 6);
}

#[test]
fn arena_check_plays_a_package_player_against_its_strongest_sample() {
    let dir = tempfile::tempdir().unwrap();
    let root = nim_package(dir.path());
    let root = root.to_str().unwrap();
    let out = run(&["check", "--game", root, "--seed", "4", &player("nim-optimal")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("against builtin:nim-optimal") && text.contains("ok: no fault"),
        "{text}"
    );
    let out = run(&["check", "--game", root, "--seed", "4", &player("nim-cheat")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAULT: illegal in `take-turn`: cannot take"), "{text}");
    // The samples are the built-in opponents of tournaments too.
    let v = run_json(&[
        "tournament",
        "--game",
        root,
        "--format",
        "round-robin",
        "--seed",
        "4",
        "--json",
        &player("nim-cheat"),
        "builtin:nim-optimal",
    ]);
    assert_eq!(v["winner"], "nim-optimal");
    // A package without samples has no one to check against: a clear error, not a crash.
    let bare = dir.path().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::copy(dir.path().join("referee.wasm"), bare.join("referee.wasm")).unwrap();
    let manifest = std::fs::read_to_string(dir.path().join("game.toml")).unwrap();
    let manifest: String = manifest.lines().filter(|l| !l.starts_with("players")).map(|l| format!("{l}\n")).collect();
    std::fs::write(bare.join("game.toml"), manifest).unwrap();
    let out = run(&["check", "--game", bare.to_str().unwrap(), &player("nim-optimal")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("has no sample player"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn a_replay_reruns_the_referee_on_the_record_and_gets_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = Package::load(sandbox(), &nim_package(dir.path())).unwrap();
    let cheat = seat(&pkg, "cheat", "nim-cheat");
    let good = seat(&pkg, "good", "nim-optimal");
    let names = ["good".to_string(), "other".to_string()];
    for (players, seed) in [([good.clone(), good.clone()], 2), ([good.clone(), cheat.clone()], 7)] {
        let played = pkg.play(&players, seed, &Default::default()).await;
        // The record goes through JSON, as a replay file would carry it.
        let record: Vec<arena_core::CallLine> =
            serde_json::from_str(&serde_json::to_string(&played.log).unwrap()).unwrap();
        let replayed = pkg.replay(&names, seed, &Default::default(), &record).await;
        assert!(replayed.game_fault.is_none(), "{:?}", replayed.game_fault);
        assert_eq!(
            (&replayed.events, &replayed.view, &replayed.scores, &replayed.winners, &replayed.log),
            (&played.events, &played.view, &played.scores, &played.winners, &played.log)
        );
    }
    // A record that does not follow the referee: an answer of a seat that was never asked.
    let played = pkg.play(&[good.clone(), good], 2, &Default::default()).await;
    let mut forged = played.log.clone();
    if let Some(line) = forged.first_mut() {
        line.seat = 1;
    }
    let replayed = pkg.replay(&names, 2, &Default::default(), &forged).await;
    let f = replayed.game_fault.expect("the forged record ends the replay");
    assert_eq!(f.call, "replay", "{f}");
    assert!(f.reason.contains("the record does not answer seat 0"), "{f}");
}

#[test]
fn package_options_are_declared_checked_and_reach_the_referee() {
    let dir = tempfile::tempdir().unwrap();
    let root = pennies_package(dir.path());
    let root = root.to_str().unwrap();
    let (heads, alternate) = (player("pennies-heads"), player("pennies-alternate"));
    let play =
        |option: &str| run(&["play", "--game", root, "--seed", "1", "--json", "--option", option, &heads, &alternate]);
    let out = play("rounds=3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["options"]["rounds"].as_i64(), v["result"]["scores"].clone()), (Some(3), serde_json::json!([2, 1])));
    for (bad, why) in [
        ("rounds=0", "`rounds` must be from 1 to 1000"),
        ("rounds=many", "`many` is not a whole number"),
        ("turns=3", "pennies has no option `turns` (it has: rounds)"),
        ("rounds", "expected NAME=VALUE"),
    ] {
        let out = play(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(why), "{bad}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The tournament records the options it was played with.
    let v = run_json(&[
        "tournament",
        "--game",
        root,
        "--format",
        "round-robin",
        "--seed",
        "1",
        "--json",
        "--option",
        "rounds=7",
        &heads,
        &alternate,
    ]);
    assert_eq!(v["games"][0]["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).sum::<i64>(), 7);
    // A game without options refuses any.
    let out = run(&["play", "--game", "yahtzee", "--option", "rounds=3", "builtin:greedy", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("yahtzee has no option `rounds`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn a_referee_flooding_events_is_stopped_at_the_cap_with_each_event_cut() {
    let dir = tempfile::tempdir().unwrap();
    // Trusting mode plays Nim to its end (see the referee's source), and its events are taken then.
    let options = "\n[options.events]\ndefault = 0\nmin = 0\nmax = 1000000\n\
                   [options.event-chars]\ndefault = 1000\nmin = 0\nmax = 100000\n\
                   [options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n";
    let root = broken_nim_package(dir.path(), options);
    // Each event is cut to a quote: three events far longer than the cut.
    let long = arena_play::EVENT_CHARS * 5;
    let mut pkg = Package::load(sandbox(), &root).unwrap();
    pkg.set_options(&["events=3".to_string(), format!("event-chars={long}")]).unwrap();
    let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
    let o = pkg.play(&[a, b], 1, &Default::default()).await;
    assert!(o.game_fault.is_none(), "{:?}", o.game_fault);
    assert_eq!(o.events.len(), 3);
    for e in &o.events {
        assert!(e.text.len() < arena_play::EVENT_CHARS + 40, "each event is cut to a quote");
        assert!(
            e.text.ends_with(&format!("… [{} more bytes]", long - arena_play::EVENT_CHARS)),
            "{}",
            &e.text[e.text.len() - 40..]
        );
    }
    // The number of events is capped (short events, so the flood is quick even on a loaded machine;
    // answers large enough for a whole flood in one `events()`, so that the cap is what stops it).
    let cap = arena_play::MAX_EVENTS;
    let roomy = Arc::new(Sandbox::new(Limits { answer_bytes: 4 << 20, ..Limits::default() }).unwrap());
    for (events, past) in [(cap, false), (cap + 1, true)] {
        let mut pkg = Package::load(roomy.clone(), &root).unwrap();
        pkg.set_options(&[format!("events={events}"), "event-chars=10".to_string()]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        let o = pkg.play(&[a, b], 1, &Default::default()).await;
        if past {
            let f = o.game_fault.clone().expect("a game fault");
            assert_eq!(f.call, "events", "{f}");
            // The host's own words, never wasmtime's backtrace.
            assert_eq!(f.reason, format!("emitted more than {cap} events in one game"), "{f}");
            assert_eq!(f.kind.as_str(), "illegal", "{f}");
            assert!(o.events.is_empty(), "none of a flood past the cap is kept");
        } else {
            assert!(o.game_fault.is_none(), "at the cap the game is whole: {:?}", o.game_fault);
            assert_eq!(o.events.len(), cap);
        }
        assert!(o.faults.is_empty(), "nobody is banned for the referee's flood");
    }
    // Under the default limits the same flood is more than one answer of the referee may carry: a game
    // fault before the host holds it.
    let mut pkg = Package::load(sandbox(), &root).unwrap();
    pkg.set_options(&[format!("events={cap}"), "event-chars=10".to_string()]).unwrap();
    let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
    let o = pkg.play(&[a, b], 1, &Default::default()).await;
    let f = o.game_fault.clone().expect("a game fault");
    assert_eq!((f.kind.as_str(), f.call.as_str()), ("illegal", "events"), "{f}");
    assert!(o.events.is_empty(), "{f}");
}

/// A referee whose events' lengths do not fit the text they come with (longer, shorter, cutting a
/// character in two, or adding up past `u32::MAX`) breaks the protocol: a game fault naming `events`,
/// nobody banned, and none of those events kept.
#[tokio::test]
async fn a_referee_whose_event_lengths_do_not_fit_their_text_ends_the_game_as_a_game_fault() {
    let dir = tempfile::tempdir().unwrap();
    let options = "\n[options.bad-lengths]\ndefault = 0\nmin = 0\nmax = 4\n\
                   [options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n";
    let root = broken_nim_package(dir.path(), options);
    for (k, why) in [
        (1, "its events' lengths add up to more than the 3 bytes of their text"),
        (2, "its events' lengths add up to 2 bytes, and their text has 6"),
        (3, "an event's length cuts a character of their text in two (at byte 1)"),
        (4, "its events' lengths add up to more than the 2 bytes of their text"),
    ] {
        let mut pkg = Package::load(sandbox(), &root).unwrap();
        pkg.set_options(&[format!("bad-lengths={k}")]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        let o = pkg.play(&[a, b], 1, &Default::default()).await;
        let f = o.game_fault.clone().expect("a game fault");
        assert_eq!((f.kind.as_str(), f.call.as_str(), f.reason.as_str()), ("illegal", "events", why), "{k}");
        assert!(o.events.is_empty() && o.faults.is_empty(), "{k}: {o:?}");
    }
}

/// A referee whose `step` says it took none of the answers it was handed, or more than it was handed,
/// breaks the protocol: a game fault naming `step`, nobody banned, and the game never hangs.
#[tokio::test]
async fn a_referee_that_misreports_what_it_took_ends_the_game_as_a_game_fault() {
    let dir = tempfile::tempdir().unwrap();
    let options = "\n[options.taken]\ndefault = 1\nmin = 0\nmax = 1000000\n";
    let root = broken_nim_package(dir.path(), options);
    for taken in [0, 2, 1_000_000] {
        let mut pkg = Package::load(sandbox(), &root).unwrap();
        pkg.set_options(&[format!("taken={taken}")]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        let o = pkg.play(&[a, b], 1, &Default::default()).await;
        let f = o.game_fault.clone().expect("a game fault");
        assert_eq!((f.kind.as_str(), f.call.as_str()), ("illegal", "step"), "{f}");
        assert_eq!(f.reason, format!("took {taken} of the 1 answers it was handed"), "{f}");
        assert!(o.faults.is_empty() && o.winners.is_empty(), "{o:?}");
        assert_eq!(o.calls().len(), 1, "the answer it was handed stays in the record");
    }
}

/// A referee whose `step` in flat form (`arena:game/flat`) answers bytes that are not a `next` (a varint
/// that never ends, a byte after it, a request case the game does not have, more than the referee's
/// answer limit) breaks the protocol: a game fault naming `step` and what is wrong, nobody banned,
/// whichever seat's answer it was handed; a referee that answers well plays the same game through
/// either form.
#[tokio::test]
async fn a_referee_whose_flat_step_answers_bytes_that_are_not_a_next_ends_the_game_as_a_game_fault() {
    let dir = tempfile::tempdir().unwrap();
    let options = "\n[options.flat-bad]\ndefault = 0\nmin = 0\nmax = 4\n\
                   [options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n";
    let root = broken_nim_package(dir.path(), options);
    let good = Package::load(sandbox(), &root).unwrap();
    let (a, b) = (seat(&good, "a", "nim-optimal"), seat(&good, "b", "nim-optimal"));
    let o = good.play(&[a, b], 1, &Default::default()).await;
    assert!(o.game_fault.is_none() && o.faults.is_empty() && o.winners.len() == 1, "{o:?}");
    for (k, why) in [
        (1, "a varint overflows 64 bits"),
        (2, "1 bytes follow the value"),
        (3, "case 7 of a variant of 1 cases"),
        (4, "sent more than 1 MiB to the host in one answer"),
    ] {
        let mut pkg = Package::load(sandbox(), &root).unwrap();
        pkg.set_options(&[format!("flat-bad={k}")]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        for players in [[a.clone(), b.clone()], [b.clone(), a.clone()]] {
            let o = pkg.play(&players, 1, &Default::default()).await;
            let f = o.game_fault.clone().expect("a game fault");
            assert_eq!((f.kind.as_str(), f.call.as_str()), ("illegal", "step"), "{k}: {f}");
            assert!(f.reason.contains(why), "{k}: {f}");
            assert!(o.faults.is_empty() && o.winners.is_empty(), "{k}: nobody is banned: {o:?}");
            assert_eq!(o.calls().len(), 1, "{k}: the answer it was handed stays in the record");
        }
    }
}

/// A referee that hands its events over one a call, each call slow but within its limits, is stopped
/// by the game's CPU budget: a game fault naming `events`, nobody banned.
#[tokio::test]
async fn a_referee_handing_over_events_slowly_for_ever_is_stopped_by_the_game_budget() {
    let dir = tempfile::tempdir().unwrap();
    let options = "\n[options.slow-events]\ndefault = 1000000\nmin = 0\nmax = 100000000\n\
                   [options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n";
    let root = broken_nim_package(dir.path(), options);
    let budget = std::time::Duration::from_millis(300);
    let tight = Arc::new(Sandbox::new(Limits { game_cpu: budget, ..Limits::default() }).unwrap());
    let pkg = Package::load(tight, &root).unwrap();
    let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
    let o = pkg.play(&[a, b], 1, &Default::default()).await;
    let f = o.game_fault.clone().expect("a game fault");
    assert_eq!((f.kind.as_str(), f.call.as_str()), ("timeout", "events"), "{f}");
    assert!(f.reason.contains("handing over its events"), "{f}");
    assert!(o.faults.is_empty(), "nobody is banned for the referee's stalling");
}

#[test]
fn referee_failures_are_shown_after_the_bans_and_blamed_on_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), "");
    let game = root.to_str().unwrap();
    let players: Vec<String> = ["a", "b", "c"].iter().map(|n| format!("{n}={}", player("nim-optimal"))).collect();
    let mut args =
        vec!["tournament", "--game", game, "--format", "round-robin", "--games-per-match", "1", "--seed", "4"];
    args.extend(players.iter().map(String::as_str));
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Nobody is banned, and the text says which games the package's referee failed, and why.
    assert!(text.contains("No player was banned."), "{text}");
    assert!(
        text.contains(
            "3 games ended in a game fault: the referee of the package `nim` failed (no result, nobody banned)"
        ),
        "{text}"
    );
    let rows: Vec<&str> =
        text.lines().filter(|l| l.contains("step") && l.contains("the broken referee gives up")).collect();
    assert_eq!(rows.len(), 3, "a row per game, with the referee's call and reason: {text}");
    assert!(!text.contains("backtrace") && !text.contains("wasm function"), "{text}");
    // The JSON lists them too, in the order of the games.
    args.push("--json");
    let doc = run_json(&args);
    let faults = doc["game_faults"].as_array().expect("game_faults");
    assert_eq!(faults.len(), 3, "{doc}");
    assert_eq!(
        (faults[0]["game"].as_str(), faults[0]["call"].as_str()),
        (doc["games"][0]["id"].as_str(), Some("step"))
    );
    // One game: the same table after the ban table.
    let out = run(&["play", "--game", game, "--seed", "4", &players[0], &players[1]]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 game ended in a game fault") && text.contains("the broken referee gives up"), "{text}");
}

/// A referee of an earlier protocol (it exports `requests`, or `apply` one answer a call) is refused
/// with that reason, naming the file, before anything is played.
#[test]
fn a_referee_of_an_earlier_protocol_is_refused_with_the_reason() {
    // `events` answering a list (a string an event) is the protocol before `told`.
    let list = r#"(component
        (core module $m (memory (export "mem") 1) (func (export "f") (result i32) i32.const 0))
        (core instance $i (instantiate $m))
        (func $f (result (list u32)) (canon lift (core func $i "f") (memory (core memory $i "mem"))))
        (export "events" (func $f)))"#;
    for (export, what) in [
        ("requests", "`requests`"),
        ("apply", "`apply`, one call an answer"),
        ("events", "`events` answering list<event>"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = nim_package(dir.path());
        let old = if export == "events" {
            list.to_string()
        } else {
            format!(
                r#"(component
                (core module $m (func (export "f")))
                (core instance $i (instantiate $m))
                (func $f (canon lift (core func $i "f")))
                (export "{export}" (func $f)))"#
            )
        };
        std::fs::write(root.join("referee.wat"), old).unwrap();
        let manifest = std::fs::read_to_string(root.join("game.toml")).unwrap();
        std::fs::write(root.join("game.toml"), manifest.replace("referee.wasm", "referee.wat")).unwrap();
        let err = Package::load(sandbox(), &root).err().expect("refused").to_string();
        assert!(
            err.contains("referee.wat")
                && err.contains("earlier protocol")
                && err.contains(what)
                && err.contains("rebuild"),
            "{err}"
        );
    }
}

//! Fuel decides bans, so a game must bill the same fuel however busy the machine is: the same
//! Santorini and Yahtzee games played through their packages with the engine's epoch ticked as fast
//! as a thread can (the clock the CPU-time deadline samples, which under load ticks many times
//! within one call) give the same outcome, fuel included, as played at the sandbox's own pace.

use super::players_dir;
use arena_core::Limits;
use arena_core::{Entry, Finals, Game, GameSetup, MatchSoFar};
use arena_play::{Package, PackageGame};
use arena_sandbox::Sandbox;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

fn outcomes(game: &str, players: [&str; 2], storm: bool) -> Vec<(Vec<i64>, Vec<u64>)> {
    let sandbox = Arc::new(Sandbox::new(Limits::default()).unwrap());
    let dir = players_dir().parent().unwrap().join("packages").join(game);
    let pkg = Package::load(sandbox.clone(), &dir).unwrap();
    let entries: Vec<_> = players
        .iter()
        .map(|p| {
            let player = pkg.load_player(p, &players_dir().join(format!("{p}.wasm"))).unwrap();
            Arc::new(Entry { name: p.to_string(), source: p.to_string(), hash: None, player })
        })
        .collect();
    let game = PackageGame::new(pkg).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let ticker = storm.then(|| {
        let (engine, stop) = (sandbox.engine().clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                engine.increment_epoch();
            }
        })
    });
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let out = rt.block_on(async {
        let mut out = vec![];
        for seed in 0..4 {
            let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() };
            let setup =
                GameSetup { id: format!("g{seed}"), seed, players: entries.clone(), so_far, finals: Finals::All };
            let o = game.play(setup).await;
            assert!(o.faults.is_empty() && o.game_fault.is_none(), "{:?} {:?}", o.faults, o.game_fault);
            out.push((o.scores, o.fuel));
        }
        out
    });
    stop.store(true, Ordering::Relaxed);
    if let Some(t) = ticker {
        t.join().unwrap();
    }
    out
}

#[test]
fn a_storm_of_clock_ticks_changes_no_fuel_in_santorini() {
    let players = ["santorini-minimax", "santorini-random"];
    assert_eq!(outcomes("santorini", players, false), outcomes("santorini", players, true));
}

#[test]
fn a_storm_of_clock_ticks_changes_no_fuel_in_yahtzee() {
    let players = ["yahtzee-greedy", "yahtzee-c"];
    assert_eq!(outcomes("yahtzee", players, false), outcomes("yahtzee", players, true));
}

/// A validation game plays quick code (compiled unoptimised, in about half the time), so quick code
/// must bill exactly the fuel the optimised code bills, call for call: the same games of Santorini,
/// Yahtzee and Fish (a JavaScript player: an interpreter's loops), each seat quick or optimised, give
/// the same outcome and the same fuel in every call. Quick code differs from the optimised code (or
/// this would prove nothing), is kept nowhere, and gives its seats longer deadlines.
#[test]
fn quick_code_bills_the_same_fuel_call_for_call_as_optimised_code() {
    use arena_sandbox::{Compilation, Tier};
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    for (game, players) in [
        ("santorini", ["santorini-minimax", "santorini-random"]),
        ("yahtzee", ["yahtzee-greedy", "yahtzee-c"]),
        ("fish", ["fish-js", "fish-greedy"]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let sandbox = Arc::new(Sandbox::new(Limits::default()).unwrap().with_cache_dir(dir.path().to_path_buf()));
        let pkg = Package::load(sandbox.clone(), &players_dir().parent().unwrap().join("packages").join(game)).unwrap();
        let compiled_files = || {
            std::fs::read_dir(dir.path())
                .unwrap()
                .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "cwasm"))
                .count()
        };
        let referee_only = compiled_files();
        let load = |p: &str, tier: Tier| {
            let path = players_dir().join(format!("{p}.wasm"));
            pkg.load_player_bytes_as(p, &path, &std::fs::read(&path).unwrap(), tier).unwrap()
        };
        let quick: Vec<_> = players.iter().map(|p| load(p, Tier::Quick)).collect();
        for (loaded, player) in &quick {
            assert!(matches!(loaded.compilation, Compilation::Quick(_)), "{game}: {:?}", loaded.compilation);
            assert!(player.quick);
        }
        assert_eq!(compiled_files(), referee_only, "{game}: quick code is not kept on disk");
        let optimised: Vec<_> = players.iter().map(|p| load(p, Tier::Optimized)).collect();
        for ((q, _), (o, player)) in quick.iter().zip(&optimised) {
            assert!(matches!(o.compilation, Compilation::Compiled(_)), "{game}: not kept in memory either");
            assert!(!player.quick);
            assert!(q.component.serialize().unwrap() != o.component.serialize().unwrap(), "{game}: other code");
        }
        // Asked for quick code again, the optimised code now kept is what it gets.
        let (again, p) = load(players[0], Tier::Quick);
        assert!(matches!(again.compilation, Compilation::InMemory) && !p.quick);
        let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() };
        let outcome = |seats: [&Arc<arena_play::PackagePlayer>; 2], seed| {
            let o = rt.block_on(pkg.play(&[seats[0].clone(), seats[1].clone()], seed, &so_far));
            assert!(o.faults.is_empty() && o.game_fault.is_none(), "{game}: {:?} {:?}", o.faults, o.game_fault);
            let calls: Vec<(usize, String, u64)> =
                o.calls().into_iter().map(|(s, c, f)| (s, c.to_string(), f)).collect();
            (o.scores, o.fuel, calls)
        };
        for seed in 0..2 {
            let want = outcome([&optimised[0].1, &optimised[1].1], seed);
            assert!(want.1.iter().all(|f| *f > 0));
            assert_eq!(outcome([&quick[0].1, &quick[1].1], seed), want, "{game}, seed {seed}: both quick");
            assert_eq!(outcome([&quick[0].1, &optimised[1].1], seed), want, "{game}, seed {seed}: one quick");
        }
    }
}

/// Quick code runs up to about three times slower than optimised code, so a seat of quick code has
/// deadlines `QUICK_DEADLINES` times longer: a player within its deadlines as optimised code is
/// within them in its validation game too. (Fuel, the budget that decides bans of compute, is the same.)
#[test]
fn a_seat_of_quick_code_has_longer_deadlines() {
    use arena_sandbox::{QUICK_DEADLINES, Tier};
    let limits = Limits { timeout: std::time::Duration::from_millis(100), ..Limits::default() };
    let pkg = Package::load(
        Arc::new(Sandbox::new(limits).unwrap()),
        &players_dir().parent().unwrap().join("packages").join("yahtzee"),
    )
    .unwrap();
    let load = |p: &str, tier: Tier| {
        let path = players_dir().join(format!("{p}.wasm"));
        pkg.load_player_bytes_as(p, &path, &std::fs::read(&path).unwrap(), tier).unwrap().1
    };
    let greedy = load("yahtzee-greedy", Tier::Optimized);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() };
    // Quick first: once the optimised code is compiled, it is what a load asks for quick code gets.
    for (tier, ms) in [(Tier::Quick, 100 * QUICK_DEADLINES), (Tier::Optimized, 100)] {
        let sleeper = load("yahtzee-sleep", tier);
        assert_eq!(sleeper.quick, tier == Tier::Quick);
        // It sleeps for a minute in its second turn: only the deadline ends that call.
        let o = rt.block_on(pkg.play(&[sleeper, greedy.clone()], 3, &so_far));
        let [(0, f)] = &o.faults[..] else { panic!("{tier:?}: {:?}", o.faults) };
        assert_eq!(f.kind, arena_core::FaultKind::Timeout, "{tier:?}: {f:?}");
        assert!(f.reason.contains(&format!("within {ms} ms")), "{tier:?}: {}", f.reason);
    }
}

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

//! Referees in Python and JavaScript: Nim's referee ported to Python (games/nim/referee-py) and matching
//! pennies' to JavaScript (games/pennies/referee-js) play the same games as the Rust ones, seed for
//! seed: the same record (answers, refusals and faults), the same events with their audiences, scores,
//! winners and views; and each passes `arena check-game`.

use super::packages::assemble;
use super::*;
use arena_core::{GameOutcome, Limits};
use arena_play::Package;
use arena_sandbox::Sandbox;
use std::path::Path;
use std::sync::Arc;

/// `game`'s package assembled in `dir` with `samples`, its referee the component `referee`.
fn package(game: &str, dir: &Path, samples: &[&str], referee: &str) -> Package {
    let root = assemble(game, dir, samples);
    std::fs::copy(player(referee), root.join("referee.wasm")).unwrap();
    let cache = players_dir().with_file_name("test-compile-cache");
    Package::load(Arc::new(Sandbox::new(Limits::default()).unwrap().with_cache_dir(cache)), &root).unwrap()
}

/// The two games are the same game, word for word.
fn same(what: &str, a: &GameOutcome, b: &GameOutcome) {
    assert!(a.game_fault.is_none() && b.game_fault.is_none(), "{what}: {:?} / {:?}", a.game_fault, b.game_fault);
    assert_eq!(a.log, b.log, "{what}: the records");
    assert_eq!(a.events, b.events, "{what}: the events");
    assert_eq!((&a.scores, &a.winners, &a.faults), (&b.scores, &b.winners, &b.faults), "{what}");
    assert_eq!((&a.view, &a.seat_views), (&b.view, &b.seat_views), "{what}: the views");
}

/// Plays every pairing of `players` over `seeds` seeds through both referees and compares the games;
/// returns how many faults (refusals included) they had.
async fn compare(game: &str, referee: &str, players: &[&str], options: &[String], seeds: u64) -> usize {
    let (rust_dir, other_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut rust = package(game, rust_dir.path(), &[], &format!("{game}-referee"));
    let mut other = package(game, other_dir.path(), &[], referee);
    rust.set_options(options).unwrap();
    other.set_options(options).unwrap();
    let load = |pkg: &Package, name: &str| pkg.load_player(name, Path::new(&player(name))).unwrap();
    let mut faults = 0;
    for a in players {
        for b in players {
            for seed in 1..=seeds {
                let r = rust.play(&[load(&rust, a), load(&rust, b)], seed, &Default::default()).await;
                let o = other.play(&[load(&other, a), load(&other, b)], seed, &Default::default()).await;
                same(&format!("{referee}: {a} against {b}, seed {seed}"), &r, &o);
                faults += r.faults.len();
            }
        }
    }
    faults
}

#[tokio::test]
async fn a_python_referee_plays_nim_as_the_rust_one() {
    let faults = compare("nim", "nim-referee-py", &["nim-optimal", "nim-cheat"], &[], 6).await;
    assert!(faults > 0, "refusals were compared too");
}

#[tokio::test]
async fn a_javascript_referee_plays_matching_pennies_as_the_rust_one() {
    let players = ["pennies-heads", "pennies-alternate", "pennies-wat-panic"];
    let faults = compare("pennies", "pennies-referee-js", &players, &[], 2).await;
    assert!(faults > 0, "faults were compared too");
    compare("pennies", "pennies-referee-js", &players[..2], &["rounds=9".to_string()], 2).await;
}

#[test]
fn referees_in_python_and_javascript_pass_the_check() {
    for (game, samples, referee) in [
        ("nim", &["nim-optimal"][..], "nim-referee-py"),
        ("pennies", &["pennies-alternate", "pennies-heads"][..], "pennies-referee-js"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = assemble(game, dir.path(), samples);
        std::fs::copy(player(referee), root.join("referee.wasm")).unwrap();
        let wit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games").join(game).join("wit");
        copy_dir(&wit, &root.join("wit"));
        let out = arena().args(["check-game", root.to_str().unwrap(), "--seeds", "4"]).bounded();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{referee}: {text}{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(&format!("ok: {game} passes the check")), "{text}");
    }
}

/// One referee call a step: a round of matching pennies hands both seats' answers to `step` at once,
/// through the Rust referee (on the kit) and the JavaScript one alike; Nim's Python referee takes its one
/// answer a step.
#[tokio::test]
async fn a_steps_answers_reach_the_referee_in_one_call() {
    for (game, referee, players, answers_a_step) in [
        ("pennies", "pennies-referee", ["pennies-heads", "pennies-alternate"], 2),
        ("pennies", "pennies-referee-js", ["pennies-heads", "pennies-alternate"], 2),
        ("nim", "nim-referee-py", ["nim-optimal", "nim-optimal"], 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut pkg = package(game, dir.path(), &[], referee);
        if game == "pennies" {
            pkg.set_options(&["rounds=9".to_string()]).unwrap();
        }
        let seats = players.map(|name| pkg.load_player(name, Path::new(&player(name))).unwrap());
        let (o, cost) = pkg.play_fuzzed(&seats, 3, None).await;
        assert!(o.game_fault.is_none() && o.faults.is_empty(), "{referee}: {:?}", o.game_fault);
        let answers = o.calls().len() as u32;
        assert!(answers >= 2, "{referee}: {answers} answers");
        assert_eq!(cost.handed * answers_a_step, answers, "{referee}: one `step` call a step");
        // Every step but the last (which finds the game over) handed its answers over once.
        assert_eq!(cost.handed + 1, cost.steps, "{referee}");
    }
}

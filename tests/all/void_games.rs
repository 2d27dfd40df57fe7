//! A game that faulted counts for nobody, whenever the fault came (after its outcome too: in `view`, in
//! `events`), in every format and in every seat order; every address a referee names is a seat of the
//! game; and one game as a whole records a bounded amount, whatever its referee does within its
//! per-call limits. The hostile referee is the broken test referee of Nim (its source says what each
//! option does).

use super::packages::{broken_nim_package, sandbox, seat};
use super::*;
use arena_core::Limits;
use arena_play::Package;
use arena_sandbox::Sandbox;
use std::sync::Arc;

/// The options of the broken referee these tests use, declared in its manifest.
const OPTIONS: &str = "\n[options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n\
                       [options.late]\ndefault = 0\nmin = 0\nmax = 2\n\
                       [options.event-seat]\ndefault = 0\nmin = 0\nmax = 4294967295\n\
                       [options.flood-events]\ndefault = 0\nmin = 0\nmax = 100000\n\
                       [options.event-chars]\ndefault = 1000\nmin = 0\nmax = 100000\n";

/// Nim with the broken referee failing once the game has its outcome: in `view` (late=1) or in
/// `events` (late=2). The game names no winner, in either seat order, and nobody is banned.
#[tokio::test]
async fn a_referee_failing_after_the_outcome_leaves_no_winner_in_either_seat_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    // Without the late failure, the same game has a winner: the failure is what takes it away.
    let good = Package::load(sandbox(), &root).unwrap();
    let (a, b) = (seat(&good, "a", "nim-optimal"), seat(&good, "b", "nim-optimal"));
    let o = good.play(&[a, b], 1, &Default::default()).await;
    assert!(o.game_fault.is_none() && o.winners.len() == 1, "{o:?}");
    for (late, call) in [(1, "view"), (2, "events")] {
        let mut pkg = Package::load(sandbox(), &root).unwrap();
        pkg.set_options(&[format!("late={late}")]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        for players in [[a.clone(), b.clone()], [b.clone(), a.clone()]] {
            let o = pkg.play(&players, 1, &Default::default()).await;
            let f = o.game_fault.clone().expect("a game fault");
            assert_eq!(f.call, call, "{f}");
            assert!(f.reason.contains("after the outcome"), "the referee's own words: {f}");
            assert!(o.winners.is_empty(), "late={late}: a faulted game names no winner: {:?}", o.winners);
            assert!(!o.counts() && o.faults.is_empty(), "late={late}: nobody banned: {:?}", o.faults);
        }
    }
}

/// From the command line: `play --json` names no winner, a round robin counts no win and no tie, a
/// knockout match of nothing but such games is played again (three tries) and then decided by the tie
/// rule, saying it was decided without a result, and the rounds format sends nobody out for it.
#[test]
fn a_game_faulted_after_its_outcome_counts_for_nobody_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    let game = root.to_str().unwrap();
    let players: Vec<String> = ["a", "b"].iter().map(|n| format!("{n}={}", player("nim-optimal"))).collect();
    let (a, b) = (players[0].as_str(), players[1].as_str());
    for late in ["late=1", "late=2"] {
        let one = run_json(&["play", "--game", game, "--option", late, "--seed", "3", "--json", a, b]);
        assert!(one["game_fault"].is_object(), "{one}");
        assert!(one["result"]["winner"].is_null(), "{late}: {}", one["result"]);
        assert_eq!(one["result"]["winners"], serde_json::json!([]), "{late}");
        // In text: no "Winner" beside the fault.
        let out = run(&["play", "--game", game, "--option", late, "--seed", "3", a, b]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("Winner:") && text.contains("No result"), "{late}: {text}");

        let tournament = |format: &'static str, k: &'static str, json: bool| {
            let mut args = vec!["tournament", "--game", game, "--option", late, "--format", format];
            args.extend(["--games-per-match", k, "--seed", "3", a, b]);
            if json {
                args.push("--json");
            }
            args
        };
        let rr = run_json(&tournament("round-robin", "3", true));
        let m = &rr["matches"][0];
        assert_eq!((m["wins"].clone(), m["ties"].clone()), (serde_json::json!([0, 0]), serde_json::json!(0)), "{m}");
        assert!(rr["games"].as_array().unwrap().iter().all(|g| g["winners"] == serde_json::json!([])), "{rr}");
        assert_eq!(rr["game_faults"].as_array().map(Vec::len), Some(3), "{late}");
        assert!(rr["winner"].is_null(), "{late}: nobody won a tournament of games without a result: {}", rr["winner"]);
        assert!(rr["banned"].as_array().unwrap().is_empty(), "{late}");

        // Best of 1: each try is the game and its sudden death (2 games), three tries in all.
        let ko = run_json(&tournament("knockout", "1", true));
        let m = &ko["matches"][0];
        assert_eq!(m["decided_by"], "no-result", "{m}");
        assert_eq!(m["wins"], serde_json::json!([0, 0]), "{m}");
        let ids: Vec<&str> = m["games"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
        assert_eq!(ids.len(), 6, "three tries of a game and its sudden death: {ids:?}");
        let seeds: std::collections::BTreeSet<u64> =
            ko["games"].as_array().unwrap().iter().map(|g| g["seed"].as_u64().unwrap()).collect();
        assert_eq!(seeds.len(), 6, "each try from seeds of its own");
        assert_eq!(m["winner"], "a", "the tie rule decides at last: the earlier slot");
        let out = run(&tournament("knockout", "1", false));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("decided without a result"), "{text}");

        let rounds = run_json(&tournament("rounds", "1", true));
        let first: Vec<&str> = rounds["ranking"][0].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
        assert_eq!(first, ["a", "b"], "{late}: nobody goes out for a game without a result: {}", rounds["ranking"]);
    }
}

/// An event addressed to a seat the game does not have (the first past the last, 99, u32::MAX) ends
/// the game as a game fault in live play, in either seat order; one to a real seat is kept.
#[tokio::test]
async fn an_event_for_a_seat_the_game_does_not_have_is_a_game_fault() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    let mut pkg = Package::load(sandbox(), &root).unwrap();
    pkg.set_options(&["event-seat=1".to_string()]).unwrap();
    let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
    let o = pkg.play(&[a, b], 1, &Default::default()).await;
    assert!(o.game_fault.is_none(), "{:?}", o.game_fault);
    assert!(o.events.iter().any(|e| e.text == "psst" && e.seen_by(Some(1)) && !e.seen_by(Some(0))), "{:?}", o.events);
    for to in [2u64, 99, u64::from(u32::MAX)] {
        let mut pkg = Package::load(sandbox(), &root).unwrap();
        pkg.set_options(&[format!("event-seat={to}")]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        for players in [[a.clone(), b.clone()], [b.clone(), a.clone()]] {
            let o = pkg.play(&players, 1, &Default::default()).await;
            let f = o.game_fault.clone().expect("a game fault");
            assert_eq!((f.kind.as_str(), f.call.as_str()), ("illegal", "events"), "{f}");
            assert!(f.reason.contains(&format!("seat {to}, which the game does not have")), "{f}");
            assert!(o.winners.is_empty() && o.faults.is_empty(), "{o:?}");
        }
    }
}

/// A referee at every per-call limit (each `events()` call as large as its answers may be, for ever)
/// is stopped by the game's record bound: a game fault naming it, nobody banned, and what is kept cut
/// at the bound, under the default bound and a lower one.
#[tokio::test]
async fn a_referee_flooding_within_every_per_call_limit_is_stopped_by_the_game_record_bound() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    for bound in [Limits::default().game_record_bytes, 1 << 20] {
        let sandbox = Arc::new(Sandbox::new(Limits { game_record_bytes: bound, ..Limits::default() }).unwrap());
        let mut pkg = Package::load(sandbox, &root).unwrap();
        // 400 events of 2,000 characters: 800 KB an `events()` call, under the referee's 1 MiB.
        pkg.set_options(&["flood-events=400".to_string(), "event-chars=2000".to_string()]).unwrap();
        let (a, b) = (seat(&pkg, "a", "nim-optimal"), seat(&pkg, "b", "nim-optimal"));
        let o = pkg.play(&[a, b], 1, &Default::default()).await;
        let f = o.game_fault.clone().expect("a game fault");
        assert_eq!((f.kind.as_str(), f.call.as_str()), ("memory", "events"), "{f}");
        assert!(f.reason.contains(&arena_core::bytes_text(bound)) && f.reason.contains("--game-record-mb"), "{f}");
        let kept: u64 = o.events.iter().map(|e| e.text.len() as u64).sum();
        assert!(kept <= bound && kept + 4_000 > bound * 9 / 10, "cut at the bound {bound}: {kept} bytes kept");
        assert!(o.winners.is_empty() && o.faults.is_empty(), "nobody banned, nobody won");
    }
}

/// The bound from the command line: `--game-record-mb 1` keeps a flooding game's JSON near 1 MiB, and
/// the fault names the bound.
#[test]
fn the_game_record_bound_keeps_a_flooding_games_output_small() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    let game = root.to_str().unwrap();
    let (a, b) = (format!("a={}", player("nim-optimal")), format!("b={}", player("nim-optimal")));
    let out = run(&[
        "play",
        "--game",
        game,
        "--option",
        "flood-events=400",
        "--option",
        "event-chars=2000",
        "--game-record-mb",
        "1",
        "--seed",
        "1",
        "--json",
        &a,
        &b,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.len() < 2 << 20, "{} bytes of JSON", out.stdout.len());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["game_fault"]["kind"], "memory", "{}", doc["game_fault"]);
    assert!(doc["game_fault"]["reason"].as_str().unwrap().contains("1 MiB"), "{}", doc["game_fault"]);
    let out = run(&["play", "--game", game, "--game-record-mb", "0", &a, &b]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("game-record-mb"));
}

/// The game's rule checker (served from the referee) failing during a player's call is a game fault,
/// not that player's ban, in either seat order: nobody is banned, nobody wins, and the game names the
/// player whose call it was (`fault_by`). The broken referee's checker traps on 10 stones or fewer,
/// and the `nim-checker` player asks it before each move.
#[tokio::test]
async fn a_rule_checker_failing_during_a_players_call_is_a_game_fault_not_its_ban() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    let pkg = Package::load(sandbox(), &root).unwrap();
    let (checker, optimal) = (seat(&pkg, "checker", "nim-checker"), seat(&pkg, "optimal", "nim-optimal"));
    for (players, at) in [([checker.clone(), optimal.clone()], 0), ([optimal.clone(), checker.clone()], 1)] {
        let o = pkg.play(&players, 1, &Default::default()).await;
        let f = o.game_fault.clone().expect("a game fault");
        assert_eq!(f.call, "rules", "{f}");
        assert!(
            f.reason.contains(&format!("during seat {at}'s `take-turn`")) && f.reason.contains("rule checker"),
            "{f}"
        );
        assert!(o.faults.is_empty(), "nobody is banned for the checker's failure: {:?}", o.faults);
        assert!(o.winners.is_empty());
        assert_eq!(o.fault_by, Some(at), "the game names whose call it was");
    }
}

/// In a ladder, a player whose calls keep meeting the checker's failure (each game a no-result) is
/// benched after 3 such games of its latest 20, saying why; the others play on, unbanned.
#[test]
fn a_player_whose_calls_keep_failing_the_rule_checker_is_benched_from_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let root = broken_nim_package(dir.path(), OPTIONS);
    let game = root.to_str().unwrap();
    let data = tempfile::tempdir().unwrap();
    let d = data.path().display().to_string();
    for (name, p) in [("checker", "nim-checker"), ("a", "nim-optimal"), ("b", "nim-optimal")] {
        let out = run(&["submit", "--data", &d, "--game", game, "--name", name, &player(p)]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = run(&["ladder", "--data", &d, "--game", game, "--games", "30", "--seed", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        said.contains(
            "checker version 1 is benched: the game's rule checker failed during its own calls in 3 of its latest 20"
        ),
        "{said}"
    );
    assert!(!said.contains("a version 1 is benched") && !said.contains("b version 1 is benched"), "{said}");
    // The next run remembers it (the store's records name whose call each such game came in).
    let out = run(&["ladder", "--data", &d, "--game", game, "--games", "4", "--seed", "3"]);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("checker version 1 stays benched"), "{said}");
    // On the web, its page tells its owner and the admins why (here an admin: it was submitted from the
    // command line, by the organiser); a visitor who is neither is not told.
    let admin = super::web::user(data.path(), "admin", true);
    let s = super::web::serve_in(data, &[]);
    super::web::rt().block_on(async {
        let session = super::web::sign_in(&s.url, &admin).await;
        let (body, _) = super::web::page(&format!("{}/players/checker", s.url), &session).await;
        assert!(body.contains("id=\"benched-nim\"") && body.contains("of its latest 20 ladder games"), "{body}");
        let (body, _) = super::web::page(&format!("{}/players/a", s.url), &session).await;
        assert!(!body.contains("benched-nim"), "a is not benched");
        let (body, _) = super::web::page(&format!("{}/players/checker", s.url), "").await;
        assert!(!body.contains("benched-nim"), "a visitor is not told");
    });
}

//! Backups while a tournament records games (`arena backup`), restored into a new data directory
//! (`arena restore`) whose every file is checked: the restored store resumes the tournament to exactly
//! the uninterrupted result and replays its games; a damaged or tampered backup restores nothing.

use super::*;
use std::io::Read;
use std::path::Path;

fn games_in(dir: &Path) -> i64 {
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(dir.join("arena.db"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return 0;
    };
    conn.busy_timeout(std::time::Duration::from_secs(5)).ok();
    conn.query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0)).unwrap_or(0)
}

fn arena_in(dir: &Path, args: &[&str]) -> Output {
    arena().args(args).args(["--data", dir.to_str().unwrap()]).bounded()
}

fn ok_json(out: Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_backup_taken_mid_tournament_restores_to_a_store_that_resumes_and_replays_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, live, restored) = (tmp.path().join("whole"), tmp.path().join("live"), tmp.path().join("restored"));
    let roster = [("greedy", "yahtzee-greedy"), ("random", "yahtzee-random"), ("greedy2", "yahtzee-greedy")];
    for dir in [&whole, &live] {
        for (n, p) in roster {
            let out = arena_in(dir, &["submit", "--game", "yahtzee", "--name", n, &player(p)]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let args = ["tournament", "--game", "yahtzee", "--format", "round-robin", "--games-per-match", "99", "--seed", "5"];
    let args = [&args[..], &["--registered", "--json"]].concat();
    let expected = ok_json(arena_in(&whole, &args));
    let total = expected["games"].as_array().unwrap().len() as i64;

    let child = arena()
        .args(&args)
        .args(["--data", live.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while games_in(&live) < 30 && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let file = tmp.path().join("arena-backup.tar.gz");
    let out = arena_in(&live, &["backup", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("2 components and 1 game packages"),
        "greedy and greedy2 are one file"
    );
    // The tournament went on, undisturbed.
    let finished = super::finish(child);
    assert!(finished.status.success());
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&finished.stdout).unwrap(), expected);

    // A backup is never written over a file.
    let out = arena_in(&live, &["backup", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));

    let out = arena().args(["restore", file.to_str().unwrap(), "--data", restored.to_str().unwrap()]).bounded();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let kept = games_in(&restored);
    assert!((30..total).contains(&kept), "taken mid-way: {kept} of {total} games");
    // Every game in it replays through the package it was played with, kept in the backup.
    let keys: Vec<String> = {
        let conn = rusqlite::Connection::open(restored.join("arena.db")).unwrap();
        let mut q = conn.prepare("SELECT key FROM games ORDER BY id").unwrap();
        q.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    for key in &keys {
        let out = arena_in(&restored, &["replay", &format!("1/{key}"), "--json"]);
        assert!(out.status.success(), "{key}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // And the tournament, interrupted there, resumes to exactly the uninterrupted result.
    let resumed = ok_json(arena_in(&restored, &["resume", "1", "--json"]));
    assert_eq!(resumed, expected);
    assert_eq!(games_in(&restored), total);

    // Restoring never writes over a store.
    let out = arena().args(["restore", file.to_str().unwrap(), "--data", restored.to_str().unwrap()]).bounded();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
    assert_eq!(games_in(&restored), total, "nothing lost");

    // A damaged backup, or one whose component was changed, restores nothing.
    let bytes = std::fs::read(&file).unwrap();
    let cut = tmp.path().join("cut.tar.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let tampered = tmp.path().join("tampered.tar.gz");
    {
        let mut from = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
        let gz = flate2::write::GzEncoder::new(std::fs::File::create(&tampered).unwrap(), flate2::Compression::fast());
        let mut to = tar::Builder::new(gz);
        for e in from.entries().unwrap() {
            let mut e = e.unwrap();
            let path = e.path().unwrap().into_owned();
            let mut data = Vec::new();
            e.read_to_end(&mut data).unwrap();
            if path.starts_with("components") && path.extension().is_some_and(|x| x == "wasm") {
                *data.last_mut().unwrap() ^= 1;
            }
            let mut h = e.header().clone();
            to.append_data(&mut h, &path, data.as_slice()).unwrap();
        }
        to.into_inner().unwrap().finish().unwrap();
    }
    for (what, f, says) in [("cut", &cut, "nothing was restored"), ("tampered", &tampered, "has other bytes")] {
        let into = tmp.path().join(format!("from-{what}"));
        let out = arena().args(["restore", f.to_str().unwrap(), "--data", into.to_str().unwrap()]).bounded();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains(says) && err.contains("nothing was restored"), "{what}: {err}");
        assert!(!into.join("arena.db").exists(), "{what}: a store was put in place");
    }
}

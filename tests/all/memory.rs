//! A tournament's memory does not grow with the games it has finished: each game lets go of its call
//! log, views, logs and drawings once they are written (journal, replay files), and the result is
//! written as it is serialized. Measured as the peak resident memory of the arena process.

use super::hostile::run_measured;
use super::player;

/// Peak memory (KiB) of a one-game-a-match round robin of `n` copies of the fastest player.
fn round_robin_peak(n: usize, replays: Option<&std::path::Path>) -> (i64, serde_json::Value) {
    let file = player("yahtzee-random");
    let players: Vec<String> = (0..n).map(|i| format!("p{i:03}={file}")).collect();
    let mut args = vec!["tournament", "--game", "yahtzee", "--format", "round-robin", "--games-per-match", "1"];
    args.extend(["--seed", "5", "--json"]);
    let dir = replays.map(|d| d.display().to_string());
    if let Some(d) = &dir {
        args.extend(["--replay-dir", d]);
    }
    args.extend(players.iter().map(String::as_str));
    let m = run_measured(&args);
    assert_eq!(m.code, Some(0), "{}", m.stderr);
    (m.peak_kib, serde_json::from_slice(&m.stdout).unwrap())
}

#[test]
fn a_round_robin_keeps_little_of_each_finished_game() {
    let replays = tempfile::tempdir().unwrap();
    let (small, _) = round_robin_peak(12, None);
    let (big, v) = round_robin_peak(60, Some(replays.path()));
    let games = v["games"].as_array().unwrap().len();
    assert_eq!(games, 60 * 59 / 2);
    // Every game's replay was written, with its calls, though the tournament no longer holds them.
    let files = std::fs::read_dir(replays.path()).unwrap().count();
    assert_eq!(files, games);
    let one = std::fs::read_to_string(replays.path().join(format!("{}.jsonl", v["games"][0]["id"].as_str().unwrap())));
    assert!(one.unwrap().lines().filter(|l| l.contains("\"type\":\"call\"")).count() >= 26);
    // 1,704 more games than the small run: each kept whole (its call log, about 40 KB for Yahtzee)
    // would add some 70 MB; what a finished game keeps now is a small record.
    let per_game = (big - small) as f64 * 1024.0 / (games - 66) as f64;
    assert!(per_game < 8_000.0, "{per_game:.0} bytes held per finished game (peaks {small} and {big} KiB)");
}

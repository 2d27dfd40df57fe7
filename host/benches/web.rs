//! `make bench` (web part): the web arena under load while a tournament runs, on loopback. A
//! registered round robin is timed alone, then again while 50 clients (closed loop: each asks again
//! as soon as it is answered) read the game's leaderboard and the running tournament's page for 10 s
//! through `arena serve`. Reported: p50/p90/p99 latency of each page, requests served, and how much
//! the tournament slowed down. Server, clients and tournament share this machine's cores.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CLIENTS: usize = 50;
const LOAD: Duration = Duration::from_secs(10);

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

fn players() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena")).parent().unwrap().parent().unwrap().join("players")
}

fn ok(c: &mut Command) -> String {
    let out = c.output().expect("run arena");
    assert!(out.status.success(), "{c:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Registers `n` players of Yahtzee (random and greedy alternately) in a fresh store.
fn store(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    for i in 0..n {
        let p = if i % 2 == 0 { "yahtzee-greedy" } else { "yahtzee-random" };
        let file = players().join(format!("{p}.wasm"));
        ok(arena().args(["submit", "--data", &d, "--game", "yahtzee", "--name", &format!("p{i:02}")]).arg(file));
    }
    dir
}

/// Runs a registered round robin; its wall time.
fn tournament(data: &Path, k: u32) -> Duration {
    let d = data.display().to_string();
    let t = Instant::now();
    ok(arena()
        .args(["tournament", "--data", &d, "--game", "yahtzee", "--registered", "--format", "round-robin"])
        .args(["--games-per-match", &k.to_string(), "--seed", "1", "--json"]));
    t.elapsed()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let data = store(12);
    // Warm the compile cache and calibrate: games per match for a tournament of about 10 s alone.
    let probe = tournament(data.path(), 4);
    let k = ((LOAD.as_secs_f64() / (probe.as_secs_f64() / 4.0)).ceil() as u32).clamp(4, 400);
    let alone = tournament(data.path(), k);
    println!("round robin of 12 Yahtzee players, {} games: {} alone", 66 * k, ms(alone));

    let d = data.path().display().to_string();
    let mut server = arena()
        .args(["serve", "--data", &d, "--listen", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_string();
    std::thread::spawn(move || for _ in lines {});

    // The tournament under load is the store's third (the first two ran above).
    let pages = [format!("{url}/games/yahtzee"), format!("{url}/tournaments/3")];
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let data_path = data.path().to_path_buf();
    let runner = std::thread::spawn(move || tournament(&data_path, k));
    let latencies = rt.block_on(async {
        let client = reqwest::Client::builder().pool_max_idle_per_host(CLIENTS).build().unwrap();
        let until = Instant::now() + LOAD;
        let tasks: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let (client, pages) = (client.clone(), pages.clone());
                tokio::spawn(async move {
                    let mut seen: [Vec<Duration>; 2] = [vec![], vec![]];
                    let mut errors = 0u32;
                    let mut j = i;
                    while Instant::now() < until {
                        let which = j % 2;
                        j += 1;
                        let t = Instant::now();
                        match client.get(&pages[which]).send().await {
                            Ok(r) if r.status().is_success() || r.status().as_u16() == 404 => {
                                let _ = r.bytes().await;
                                seen[which].push(t.elapsed());
                            }
                            _ => errors += 1,
                        }
                    }
                    (seen, errors)
                })
            })
            .collect();
        let mut all: [Vec<Duration>; 2] = [vec![], vec![]];
        let mut errors = 0;
        for t in tasks {
            let (seen, e) = t.await.unwrap();
            all[0].extend(seen[0].iter());
            all[1].extend(seen[1].iter());
            errors += e;
        }
        (all, errors)
    });
    let loaded = runner.join().unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let ((mut all, errors), names) = (latencies, ["leaderboard", "tournament page"]);
    for (v, name) in all.iter_mut().zip(names) {
        v.sort();
        println!(
            "{name:<16} {:>6} requests in {} s from {CLIENTS} clients: p50 {}, p90 {}, p99 {}",
            v.len(),
            LOAD.as_secs(),
            ms(percentile(v, 0.5)),
            ms(percentile(v, 0.9)),
            ms(percentile(v, 0.99))
        );
    }
    println!("errors: {errors}");
    println!(
        "the same round robin under that load: {} ({:.2}x its time alone; the load lasted the first {} s of it, \
         and the clients ran on the same two cores)",
        ms(loaded),
        loaded.as_secs_f64() / alone.as_secs_f64(),
        LOAD.as_secs().min(loaded.as_secs())
    );
}

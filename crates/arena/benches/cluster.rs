//! `make bench` (distributed part): games per second in-process and with 1, 2 and 4 workers
//! (`arena worker --jobs 1`) over a loopback `nats-server -js`, for a fast game (Nim) and a slower one
//! (Yahtzee); the queue's cost per game and the coordinator's ceiling, from a no-op game (a responder
//! here answers every job at once with a fixed outcome, so only the queue's round trip is left); and
//! the peak memory of round robins of 100 and 300 players (and 1,000 with `ARENA_BENCH_FULL=1`),
//! in-process and distributed; and a round robin on 3 workers with one killed (SIGKILL) part way, against
//! none killed. One run, everything on this machine's cores (coordinator, server and workers share
//! them); `ARENA_BENCH_ONLY=play|noop|memory|kill` runs one part.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

fn players() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena")).parent().unwrap().parent().unwrap().join("players")
}

/// A process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `nats-server -js` on a port of its own choosing (`-p -1`), read from the ports file it writes, so
/// that no other process can take the port between its choosing and its use.
fn nats(dir: &Path) -> (Killed, String) {
    let ports = dir.with_extension("ports");
    std::fs::create_dir_all(&ports).unwrap();
    let child = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", "-1", "--ports_file_dir"])
        .arg(&ports)
        .arg("-sd")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server is not installed (scripts/setup-nats.sh)");
    let mut server = Killed(child);
    let file = ports.join(format!("nats-server_{}.ports", server.0.id()));
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let written: Option<serde_json::Value> =
            std::fs::read(&file).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok());
        if let Some(url) = written.as_ref().and_then(|v| v["nats"][0].as_str()) {
            let url = url.to_string();
            return (server, url);
        }
        assert!(server.0.try_wait().unwrap().is_none(), "nats-server exited at start");
        assert!(Instant::now() < until, "nats-server wrote no ports file in 10 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn workers(url: &str, dirs: &Path, n: usize) -> Vec<Killed> {
    (0..n)
        .map(|i| {
            let child = arena()
                .args(["worker", "--nats", url, "--jobs", "1", "--dir"])
                .arg(dirs.join(format!("w{i}")))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            Killed(child)
        })
        .collect()
}

/// A round robin of `lineup` (one game a match); its wall time, peak memory (KiB) and JSON result.
fn tournament(game: &str, lineup: &[(String, PathBuf)], nats: Option<&str>) -> (Duration, u64, Vec<u8>) {
    let mut c = arena();
    c.args(["tournament", "--game", game, "--format", "round-robin", "--games-per-match", "1", "--seed", "7"]);
    c.arg("--json");
    if let Some(url) = nats {
        c.args(["--nats", url]);
    }
    for (name, path) in lineup {
        c.arg(format!("{name}={}", path.display()));
    }
    let out = tempfile::NamedTempFile::new().unwrap();
    let err = tempfile::NamedTempFile::new().unwrap();
    c.stdout(out.reopen().unwrap()).stderr(err.reopen().unwrap());
    let t = Instant::now();
    let mut child = c.spawn().unwrap();
    // The high-water mark of its resident memory, read until it exits.
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    // A distributed run says every 10 s how many games workers played: one that plays none for 60 s
    // fails the bench instead of hanging it.
    let (mut played, mut since) = (None, Instant::now());
    loop {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(kb) = s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1))
        {
            peak = peak.max(kb.parse().unwrap_or(0));
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if nats.is_some() {
            let now = played_by_workers(&std::fs::read_to_string(err.path()).unwrap_or_default());
            if now != played {
                (played, since) = (now, Instant::now());
            }
            if since.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                let said = std::fs::read_to_string(err.path()).unwrap_or_default();
                panic!("{game} tournament on workers made no progress for 60 s; it said:\n{said}");
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let elapsed = t.elapsed();
    assert!(child.wait().unwrap().success(), "{game} tournament failed");
    (elapsed, peak, std::fs::read(out.path()).unwrap())
}

/// The games played by workers, as the coordinator's last status line says ("…, N played by workers").
fn played_by_workers(stderr: &str) -> Option<u64> {
    let line = stderr.lines().rev().find(|l| l.contains(" played by workers"))?;
    let head = &line[..line.find(" played by workers")?];
    head.rsplit(", ").next()?.trim().parse().ok()
}

fn lineup(n: usize, files: &[&str]) -> Vec<(String, PathBuf)> {
    (0..n).map(|i| (format!("p{i:04}"), players().join(format!("{}.wasm", files[i % files.len()])))).collect()
}

fn games(n: usize) -> usize {
    n * (n - 1) / 2
}

/// Answers every job at once with a fixed outcome (seat 0 wins), as a worker would, without playing
/// (each message in a task of its own).
async fn responder(url: String) {
    let client = async_nats::connect(&url).await.unwrap();
    let js = async_nats::jetstream::new(client.clone());
    // The job stream is made by the coordinator; the consumer as `arena worker` makes it.
    let config = async_nats::jetstream::consumer::pull::Config {
        durable_name: Some("arena-workers".into()),
        ack_policy: async_nats::jetstream::consumer::AckPolicy::Explicit,
        ack_wait: Duration::from_secs(30),
        max_deliver: 5,
        max_ack_pending: 10_000,
        ..Default::default()
    };
    let consumer = loop {
        if let Ok(s) = js.get_stream("ARENA_JOBS").await
            && let Ok(c) = s.get_or_create_consumer("arena-workers", config.clone()).await
        {
            break c;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    use futures_util::StreamExt;
    let mut messages = consumer.messages().await.unwrap();
    while let Some(Ok(m)) = messages.next().await {
        let (client, js) = (client.clone(), js.clone());
        // Each message answered in a task of its own, so that the responder never waits on one.
        tokio::spawn(async move {
            // The jobs and their outcomes in the very types a worker uses, so the bench speaks the current
            // format: one job, or a batch answered in one message, packed as a worker packs it.
            let jobs = arena_cluster::jobs_in(&m.payload).unwrap();
            let dones: Vec<arena_cluster::Done> = jobs
                .iter()
                .map(|job| {
                    let n = job.players.len();
                    let outcome = arena_core::GameOutcome {
                        scores: (0..n).map(|i| i64::from(i == 0)).collect(),
                        winners: vec![0],
                        fuel: vec![0; n],
                        logs: vec![String::new(); n],
                        ..Default::default()
                    };
                    arena_cluster::Done {
                        game: job.game.clone(),
                        key: job.key(),
                        outcome: Ok(outcome),
                        worker: "no-op".into(),
                    }
                })
                .collect();
            let _ = client.publish(arena_cluster::BUSY_SUBJECT, "no-op".into()).await;
            let payload = arena_cluster::dones_message(&dones).unwrap();
            js.publish_with_headers(jobs[0].reply.clone(), arena_cluster::protocol_headers(), payload.into())
                .await
                .unwrap()
                .await
                .unwrap();
            m.ack().await.unwrap();
        });
    }
}

fn rate(n: usize, d: Duration) -> String {
    format!("{:.0}", n as f64 / d.as_secs_f64())
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    println!("\nDistributed play (one run, {cores} cores shared by coordinator, nats-server and workers)\n");
    // `ARENA_BENCH_ONLY=play|noop|memory|kill` runs one part (to profile it).
    let only = std::env::var("ARENA_BENCH_ONLY").ok();
    let part = |p: &str| only.as_deref().is_none_or(|o| o == p);
    if part("play") {
        play_rates(tmp.path());
    }
    if part("noop") {
        noop_ceiling(tmp.path());
    }
    if part("kill") {
        killed_worker(tmp.path());
    }
    if part("memory") {
        peak_memory(tmp.path());
    }
}

/// A Yahtzee round robin on 3 workers (`arena worker` with its default ack wait), and the same with one
/// worker killed (SIGKILL) 40% of the way in: the games it held go to the others once the queue hears
/// nothing of them for an ack wait.
fn killed_worker(tmp: &Path) {
    println!(
        "\n| a worker killed | games | 3 workers | one of them killed part way | against none killed (goal <= 1.5x) | same result |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let n = 90;
    let l = lineup(n, &["yahtzee-greedy", "yahtzee-random"]);
    let (_, _, expected) = tournament("yahtzee", &l, None);
    let (_server, url) = nats(&tmp.join("nats-kill"));
    let dirs = tmp.join("workers-kill");
    // A first run fetches and compiles into every worker's cache.
    {
        let _w = workers(&url, &dirs, 3);
        tournament("yahtzee", &lineup(4, &["yahtzee-greedy", "yahtzee-random"]), Some(&url));
    }
    let whole = {
        let _w = workers(&url, &dirs, 3);
        tournament("yahtzee", &l, Some(&url))
    };
    let mut w = workers(&url, &dirs, 3);
    let victim = w.remove(0);
    let at = whole.0 * 2 / 5;
    let killer = std::thread::spawn(move || {
        std::thread::sleep(at);
        drop(victim);
    });
    let (t, _, out) = tournament("yahtzee", &l, Some(&url));
    killer.join().unwrap();
    println!(
        "| yahtzee, {n} players (greedy and random) | {} | {:.1} s | {:.1} s (killed at {:.1} s) | {:.2}x | {} |",
        games(n),
        whole.0.as_secs_f64(),
        t.as_secs_f64(),
        at.as_secs_f64(),
        t.as_secs_f64() / whole.0.as_secs_f64(),
        if out == expected && whole.2 == expected { "yes" } else { "NO" }
    );
}

/// Games per second of round robins, in-process and on 1, 2 and 4 workers (long enough, a second or
/// more in-process, that the ratios hold from run to run).
fn play_rates(tmp: &Path) {
    println!("| round robin | games | in-process | 1 worker | 2 workers | 4 workers | same result |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let cases: [(&str, usize, &[&str]); 2] =
        [("nim", 150, &["nim-optimal"]), ("yahtzee", 60, &["yahtzee-greedy", "yahtzee-random"])];
    for (game, n, files) in cases {
        let l = lineup(n, files);
        let g = games(n);
        // A first run compiles into the cache (a new build's engine starts with an empty one).
        tournament(game, &l, None);
        let (here, _, expected) = tournament(game, &l, None);
        let (_server, url) = nats(&tmp.join(format!("nats-{game}")));
        let dirs = tmp.join(format!("workers-{game}"));
        // A first run fetches and compiles into every worker's cache.
        {
            let _w = workers(&url, &dirs, 4);
            tournament(game, &l, Some(&url));
        }
        let mut cells = vec![];
        let mut same = true;
        for w in [1, 2, 4] {
            let _w = workers(&url, &dirs, w);
            let (t, _, out) = tournament(game, &l, Some(&url));
            same &= out == expected;
            cells.push(format!("{} games/s", rate(g, t)));
        }
        println!(
            "| {game}, {n} players | {g} | {} games/s | {} | {} | {} | {} |",
            rate(g, here),
            cells[0],
            cells[1],
            cells[2],
            if same { "yes" } else { "NO" }
        );
    }
}

/// The queue alone: a no-op game's round trip, and what one coordinator can dispatch and record.
fn noop_ceiling(tmp: &Path) {
    println!("\n| no-op games through JetStream | games | games/s (coordinator's ceiling) | per game |");
    println!("| --- | --- | --- | --- |");
    for responders in [1, 2] {
        let (_server, url) = nats(&tmp.join(format!("nats-noop-{responders}")));
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        for _ in 0..responders {
            rt.spawn(responder(url.clone()));
        }
        // 19,900 games: long enough (about a second) that starting the run is not most of it.
        let n = 200;
        let l = lineup(n, &["nim-optimal"]);
        let (t, _, _) = tournament("nim", &l, Some(&url));
        let g = games(n);
        println!(
            "| {responders} responder(s), {n} players | {g} | {} | {:.0} µs |",
            rate(g, t),
            t.as_secs_f64() * 1e6 / g as f64
        );
        rt.shutdown_background();
    }
}

/// Peak memory against the number of games, in-process and on 2 workers.
fn peak_memory(tmp: &Path) {
    println!(
        "\n| round robin of yahtzee-random | games | in-process: time, peak memory | 2 workers: time, coordinator's peak |"
    );
    println!("| --- | --- | --- | --- |");
    let (_server, url) = nats(&tmp.join("nats-memory"));
    let dirs = tmp.join("workers-memory");
    // 1,000 players (499,500 games) take about 5 minutes in-process and 16 distributed: only with
    // ARENA_BENCH_FULL=1, so that `make bench` stays within its 15 minutes.
    let full = std::env::var("ARENA_BENCH_FULL").as_deref() == Ok("1");
    for n in [100, 300, 1000] {
        if n > 300 && !full {
            println!(
                "| {n} players | {} | not run here (ARENA_BENCH_FULL=1 runs it: 301 s, 726 MB when last run) | not \
                 run here (ARENA_BENCH_FULL=1: 946 s, 703 MB when last run) |",
                games(n)
            );
            continue;
        }
        let l = lineup(n, &["yahtzee-random"]);
        let (t, peak, _) = tournament("yahtzee", &l, None);
        let _w = workers(&url, &dirs, 2);
        let (dt, dpeak, _) = tournament("yahtzee", &l, Some(&url));
        println!(
            "| {n} players | {} | {:.1} s, {} MB | {:.1} s, {} MB |",
            games(n),
            t.as_secs_f64(),
            peak / 1024,
            dt.as_secs_f64(),
            dpeak / 1024
        );
    }
}

//! Games played by workers over NATS JetStream (loopback only; each test starts its own
//! `nats-server -js` in a temporary directory on a free port, and its own workers): the same result
//! as in-process, byte for byte, even when a worker is killed mid-game; a clear error when NATS is not
//! there.

use super::{arena, player, run};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A process killed when dropped.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `nats-server -js` on a free loopback port, storing in `dir`; its URL.
pub fn nats(dir: &Path) -> (Killed, String) {
    nats_with(dir, None)
}

/// [`nats`], with the server's configuration file `config` (its flags still win). The server picks
/// its own port and writes it to a ports file, so that no other test's server can take the port
/// between its choice and its use.
fn nats_with(dir: &Path, config: Option<&Path>) -> (Killed, String) {
    let ports = dir.with_extension("ports");
    std::fs::create_dir_all(&ports).unwrap();
    let mut c = std::process::Command::new("nats-server");
    if let Some(file) = config {
        c.arg("-c").arg(file);
    }
    let child = c
        .args(["-js", "-a", "127.0.0.1", "-p", "-1", "--ports_file_dir"])
        .arg(&ports)
        .arg("-sd")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server is not installed (apt-get install nats-server; `make test` installs it)");
    let mut server = Killed(child);
    let file = ports.join(format!("nats-server_{}.ports", server.0.id()));
    let until = Instant::now() + Duration::from_secs(10);
    let url = loop {
        let written: Option<serde_json::Value> =
            std::fs::read(&file).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok());
        if let Some(url) = written.as_ref().and_then(|v| v["nats"][0].as_str()) {
            break url.to_string();
        }
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("nats-server ended ({status}) before it listened");
        }
        assert!(Instant::now() < until, "nats-server did not start");
        std::thread::sleep(Duration::from_millis(20));
    };
    let addr = url.trim_start_matches("nats://").to_string();
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(Instant::now() < until, "nats-server did not answer on {url}");
        std::thread::sleep(Duration::from_millis(20));
    }
    (server, url)
}

pub fn worker(url: &str, dir: &Path, ack_wait: &str) -> Killed {
    let child = arena()
        .args(["worker", "--nats", url, "--jobs", "1", "--ack-wait-secs", ack_wait, "--dir"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Killed(child)
}

/// A store with these players registered for `game`.
fn registered(dir: &Path, game: &str, players: &[(&str, &str)]) {
    let d = dir.display().to_string();
    for (name, p) in players {
        let out = run(&["submit", "--data", &d, "--game", game, "--name", name, &player(p)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

fn tournament(data: &Path, game: &str, nats: Option<&str>) -> std::process::Output {
    let d = data.display().to_string();
    let mut args =
        vec!["tournament", "--data", &d, "--game", game, "--registered", "--format", "round-robin", "--seed", "11"];
    args.extend(["--games-per-match", "2", "--json"]);
    if let Some(url) = nats {
        args.extend(["--nats", url]);
    }
    run(&args)
}

#[test]
fn three_workers_play_a_registered_round_robin_exactly_as_one_process_does() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let _workers: Vec<Killed> = (0..3).map(|i| worker(&url, &tmp.path().join(format!("w{i}")), "30")).collect();
    let lineup =
        [("greedy", "yahtzee-greedy"), ("random", "yahtzee-random"), ("c", "yahtzee-c"), ("greedy2", "yahtzee-greedy")];
    let (local, remote) = (tmp.path().join("local"), tmp.path().join("remote"));
    registered(&local, "yahtzee", &lineup);
    registered(&remote, "yahtzee", &lineup);
    let here = tournament(&local, "yahtzee", None);
    let there = tournament(&remote, "yahtzee", Some(&url));
    assert!(there.status.success(), "{}", String::from_utf8_lossy(&there.stderr));
    assert_eq!(String::from_utf8_lossy(&here.stdout), String::from_utf8_lossy(&there.stdout));
    let v: serde_json::Value = serde_json::from_slice(&there.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 12, "{v}");
    // Every game is stored once, with its replay.
    let d = remote.display().to_string();
    let stored = run(&["replay", "--data", &d, "--json", &format!("1/{}", v["games"][0]["id"].as_str().unwrap())]);
    assert!(stored.status.success(), "{}", String::from_utf8_lossy(&stored.stderr));
    // The workers fetched the components and the package by hash.
    let fetched = std::fs::read_dir(tmp.path().join("w0").join("components")).map(|d| d.count()).unwrap_or(0)
        + std::fs::read_dir(tmp.path().join("w1").join("components")).map(|d| d.count()).unwrap_or(0)
        + std::fs::read_dir(tmp.path().join("w2").join("components")).map(|d| d.count()).unwrap_or(0);
    assert!(fetched >= 4, "the workers fetched {fetched} components");
}

#[test]
fn a_tournament_nobody_replays_has_the_same_result_and_one_with_replay_files_the_same_replays() {
    // Without a store or replay files, games hand back their results only (in-process and from workers
    // alike); the result must not change with it, nor must replay files, asked for, lose anything.
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let _workers: Vec<Killed> = (0..2).map(|i| worker(&url, &tmp.path().join(format!("w{i}")), "30")).collect();
    let (optimal, cheat) = (player("nim-optimal"), player("nim-cheat"));
    let lineup = [format!("a={optimal}"), format!("b={optimal}"), format!("cheat={cheat}"), format!("c={optimal}")];
    let play = |nats: bool, replays: Option<&Path>| {
        let mut args = vec!["tournament", "--game", "nim", "--format", "round-robin", "--seed", "5", "--json"];
        args.extend(["--games-per-match", "3"]);
        if nats {
            args.extend(["--nats", &url]);
        }
        let dir = replays.map(|d| d.display().to_string());
        if let Some(d) = &dir {
            args.extend(["--replay-dir", d]);
        }
        args.extend(lineup.iter().map(String::as_str));
        let out = run(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let (here_dir, there_dir) = (tmp.path().join("here"), tmp.path().join("there"));
    let results = [play(false, None), play(true, None), play(false, Some(&here_dir)), play(true, Some(&there_dir))];
    let v: serde_json::Value = serde_json::from_str(&results[0]).unwrap();
    assert!(v["games"].as_array().unwrap().iter().any(|g| !g["faults"].as_array().unwrap().is_empty()), "{v}");
    for r in &results[1..] {
        assert_eq!(&results[0], r);
    }
    // The replays from workers are those played here, call for call (the calls' times aside).
    let read = |dir: &Path| -> Vec<(String, serde_json::Value)> {
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let untimed = |mut line: serde_json::Value| {
            if let Some(o) = line.as_object_mut() {
                o.remove("micros");
            }
            line
        };
        let lines = |f: &Path| -> serde_json::Value {
            let text = std::fs::read_to_string(f).unwrap();
            text.lines().map(|l| untimed(serde_json::from_str(l).unwrap())).collect()
        };
        files.iter().map(|f| (f.file_name().unwrap().to_string_lossy().to_string(), lines(f))).collect()
    };
    let (here, there) = (read(&here_dir), read(&there_dir));
    assert_eq!(here.len(), v["games"].as_array().unwrap().len());
    assert_eq!(here, there);
    let text = std::fs::read_to_string(there_dir.join(&there[0].0)).unwrap();
    assert!(text.contains("\"answer\":{") && text.contains("\"events\""), "{text}");
}

#[test]
fn a_worker_killed_mid_game_has_its_game_played_by_another_and_the_result_is_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let lineup = [("minimax", "santorini-minimax"), ("random", "santorini-random"), ("js", "santorini-js")];
    let (local, remote) = (tmp.path().join("local"), tmp.path().join("remote"));
    registered(&local, "santorini", &lineup);
    registered(&remote, "santorini", &lineup);
    let here = tournament(&local, "santorini", None);
    assert!(here.status.success());

    // One worker takes the first game, and is killed while it plays.
    let mut first = worker(&url, &tmp.path().join("w0"), "2");
    let d = remote.display().to_string();
    let mut coordinator = arena()
        .args(["tournament", "--data", &d, "--game", "santorini", "--registered", "--format", "round-robin"])
        .args(["--seed", "11", "--games-per-match", "2", "--json", "--nats", &url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Killed once it has started on the games (it fetched the players), before the tournament ends.
    let fetched = || std::fs::read_dir(tmp.path().join("w0").join("components")).map(|d| d.count()).unwrap_or(0);
    let until = Instant::now() + Duration::from_secs(60);
    while fetched() < 2 {
        assert!(Instant::now() < until, "the worker never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(coordinator.try_wait().unwrap().is_none(), "the tournament ended before the worker could be killed");
    first.0.kill().unwrap();
    let _ = first.0.wait();
    let _second = worker(&url, &tmp.path().join("w1"), "2");
    let there = super::finish(coordinator);
    assert!(there.status.success(), "{}", String::from_utf8_lossy(&there.stderr));
    assert_eq!(String::from_utf8_lossy(&here.stdout), String::from_utf8_lossy(&there.stdout));
    let v: serde_json::Value = serde_json::from_slice(&there.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 6, "every game once");
}

#[test]
fn a_game_longer_than_the_ack_wait_is_kept_alive_by_its_worker_and_played_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    // The queue gives a job up after 1 s without a word from its worker; the sleeper's game takes four
    // times that (its `keep` blocks until the wall-clock backstop of a 3 s deadline ends it).
    let _worker = worker(&url, &tmp.path().join("w0"), "1");
    let (sleep, greedy) =
        (format!("sleep={}", player("yahtzee-sleep")), format!("greedy={}", player("yahtzee-greedy")));
    let out = run(&[
        "tournament",
        "--game",
        "yahtzee",
        "--seed",
        "3",
        "--timeout-ms",
        "3000",
        "--json",
        "--nats",
        &url,
        &sleep,
        &greedy,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    let faults: Vec<&serde_json::Value> = games.iter().flat_map(|g| g["faults"].as_array().unwrap()).collect();
    assert!(
        faults.iter().any(|f| f["player"] == "sleep" && f["kind"] == "timeout"),
        "the sleeper is banned for its timeout: {faults:?}"
    );
    // Its worker said it was still at it, so the queue never handed a job out again: as many
    // deliveries as jobs published.
    let (stream, consumer) = job_queue(&url).expect("the job queue");
    let (delivered, published) = (consumer.delivered.consumer_sequence, stream.state.last_sequence);
    assert!(published >= 1);
    assert_eq!(delivered, published, "a job was delivered again while its worker played it");
}

/// The job stream on `url` and the workers' consumer of it, as the server says now (`None` until a
/// worker has made the consumer).
fn job_queue(url: &str) -> Option<(async_nats::jetstream::stream::Info, async_nats::jetstream::consumer::Info)> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let js = async_nats::jetstream::new(async_nats::connect(url).await.ok()?);
        let mut stream = js.get_stream(arena_cluster::JOBS).await.ok()?;
        let mut consumer: async_nats::jetstream::consumer::PullConsumer =
            stream.get_consumer(arena_cluster::WORKERS).await.ok()?;
        let consumer = consumer.info().await.ok()?.clone();
        Some((stream.info().await.ok()?.clone(), consumer))
    })
}

#[test]
fn a_workers_ack_wait_holds_even_when_an_earlier_worker_made_the_queue_with_another() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let ack_wait = || job_queue(&url).map(|(_, consumer)| consumer.config.ack_wait);
    // A first worker makes the queue with a 30 s ack wait; one started later with 1 s brings it to 1 s.
    for (secs, want) in [("30", Duration::from_secs(30)), ("1", Duration::from_secs(1))] {
        let w = worker(&url, &tmp.path().join(format!("w{secs}")), secs);
        let until = Instant::now() + Duration::from_secs(30);
        while ack_wait() != Some(want) {
            assert!(Instant::now() < until, "the queue's ack wait is {:?}, not the worker's {want:?}", ack_wait());
            std::thread::sleep(Duration::from_millis(50));
        }
        drop(w);
    }
}

/// A loopback port that refuses every connection for as long as the returned socket lives: the socket
/// is bound but never listens, so no server of another test can take the port meanwhile (as one could
/// take a port that was picked free and let go of) and no connection's own end can be given it.
pub fn closed_port() -> (std::os::fd::OwnedFd, u16) {
    use std::os::fd::FromRawFd;
    // SAFETY: plain socket calls on a socket this function owns from its creation; every pointer
    // passed points to a live local of the size passed with it.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "socket: {}", std::io::Error::last_os_error());
        let fd = std::os::fd::OwnedFd::from_raw_fd(fd);
        let mut addr: libc::sockaddr_in = std::mem::zeroed();
        addr.sin_family = libc::AF_INET as libc::sa_family_t;
        addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
        let mut len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        let raw = std::os::fd::AsRawFd::as_raw_fd(&fd);
        assert_eq!(libc::bind(raw, (&raw const addr).cast(), len), 0, "bind: {}", std::io::Error::last_os_error());
        assert_eq!(libc::getsockname(raw, (&raw mut addr).cast(), &mut len), 0);
        (fd, u16::from_be(addr.sin_port))
    }
}

#[test]
fn nats_that_is_not_there_is_a_clear_error() {
    let (_reserved, port) = closed_port();
    let url = format!("nats://127.0.0.1:{port}");
    let out = run(&["tournament", "--game", "nim", "--nats", &url, "builtin:nim-optimal", "builtin:nim-optimal"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&url) && err.contains("NATS is unreachable"), "{err}");
    let out = run(&["worker", "--nats", &url, "--dir", "/nonexistent-never-used"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NATS is unreachable"));
}

/// Games tournament 1 of the store at `data` has recorded.
fn recorded(data: &Path) -> u64 {
    let out = run(&["tournaments", "--data", &data.display().to_string(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    v[0]["games"].as_u64().unwrap_or(0)
}

/// A registered Santorini round robin (6 games) started on `url` in the background.
fn coordinator(data: &Path, url: &str) -> Child {
    arena()
        .args(["tournament", "--data", &data.display().to_string(), "--game", "santorini", "--registered"])
        .args(["--format", "round-robin", "--seed", "11", "--games-per-match", "2", "--json", "--nats", url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the tournament at `data` has recorded at least one game.
fn until_recorded(data: &Path) {
    let until = Instant::now() + Duration::from_secs(120);
    while recorded(data) < 1 {
        assert!(Instant::now() < until, "no game was recorded");
        std::thread::sleep(Duration::from_millis(100));
    }
}

const SANTORINI: [(&str, &str); 3] =
    [("minimax", "santorini-minimax"), ("random", "santorini-random"), ("js", "santorini-js")];

/// Two stores with the Santorini players registered; the second, and the first's round robin played
/// in-process (what the second must come to).
fn santorini_here(tmp: &Path) -> (std::path::PathBuf, std::process::Output) {
    let (local, remote) = (tmp.join("local"), tmp.join("remote"));
    registered(&local, "santorini", &SANTORINI);
    registered(&remote, "santorini", &SANTORINI);
    let here = tournament(&local, "santorini", None);
    assert!(here.status.success());
    (remote, here)
}

#[test]
fn a_coordinator_killed_mid_tournament_is_resumed_with_the_same_result() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let _workers: Vec<Killed> = (0..2).map(|i| worker(&url, &tmp.path().join(format!("w{i}")), "5")).collect();
    let (remote, here) = santorini_here(tmp.path());

    let mut first = coordinator(&remote, &url);
    until_recorded(&remote);
    assert!(first.try_wait().unwrap().is_none(), "the tournament ended before its coordinator could be killed");
    first.kill().unwrap();
    let _ = first.wait();
    let before = recorded(&remote);
    assert!(before < 6, "{before} games were recorded before the kill");

    let d = remote.display().to_string();
    let there = run(&["resume", "--data", &d, "1", "--json", "--nats", &url]);
    assert!(there.status.success(), "{}", String::from_utf8_lossy(&there.stderr));
    assert_eq!(String::from_utf8_lossy(&here.stdout), String::from_utf8_lossy(&there.stdout));
    // Every game stored once.
    assert_eq!(recorded(&remote), 6);
}

#[test]
fn nats_restarted_mid_tournament_loses_nothing_and_counts_nothing_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("nats");
    let (server, url) = nats(&store);
    let port: u16 = url.rsplit(':').next().unwrap().parse().unwrap();
    let _workers: Vec<Killed> = (0..2).map(|i| worker(&url, &tmp.path().join(format!("w{i}")), "5")).collect();
    let (remote, here) = santorini_here(tmp.path());

    let mut c = coordinator(&remote, &url);
    until_recorded(&remote);
    assert!(c.try_wait().unwrap().is_none(), "the tournament ended before the server could be restarted");
    // The server goes away for a second, with games queued and in play, and comes back on the same
    // port with the same store.
    drop(server);
    std::thread::sleep(Duration::from_secs(1));
    let child = std::process::Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(&store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _server = Killed(child);
    let there = super::finish(c);
    assert!(there.status.success(), "{}", String::from_utf8_lossy(&there.stderr));
    assert_eq!(String::from_utf8_lossy(&here.stdout), String::from_utf8_lossy(&there.stdout));
    assert_eq!(recorded(&remote), 6);
}

#[test]
fn a_ladder_has_its_games_played_by_workers() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let _workers: Vec<Killed> = (0..2).map(|i| worker(&url, &tmp.path().join(format!("w{i}")), "30")).collect();
    let data = tmp.path().join("data");
    registered(&data, "yahtzee", &[("greedy", "yahtzee-greedy"), ("random", "yahtzee-random"), ("c", "yahtzee-c")]);
    let d = data.display().to_string();
    let out = run(&["ladder", "--data", &d, "--game", "yahtzee", "--games", "60", "--seed", "4", "--nats", &url]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(recorded(&data), 60);
    let out = run(&["leaderboard", "--data", &d, "--game", "yahtzee", "--json"]);
    let board: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for row in board.as_array().unwrap() {
        let played: u64 = ["won", "lost", "tied"].iter().map(|k| row["games"][k].as_u64().unwrap()).sum();
        assert!(played > 0, "{row}");
    }
    let rating = |n: &str| {
        board.as_array().unwrap().iter().find(|r| r["name"] == n).unwrap()["rating"]["rating"].as_f64().unwrap()
    };
    assert!(rating("greedy") > rating("random"), "{board}");
    // The workers played them.
    let fetched = std::fs::read_dir(tmp.path().join("w0").join("components")).map(|d| d.count()).unwrap_or(0)
        + std::fs::read_dir(tmp.path().join("w1").join("components")).map(|d| d.count()).unwrap_or(0);
    assert!(fetched >= 3, "the workers fetched {fetched} components");
}

/// A server and one worker (ack wait 30 s) under `tmp`, and a runtime to send jobs from.
fn one_worker(tmp: &Path) -> (Killed, Killed, String, tokio::runtime::Runtime) {
    let (server, url) = nats(&tmp.join("nats"));
    let worker = worker(&url, &tmp.join("w0"), "30");
    (server, worker, url, tokio::runtime::Runtime::new().unwrap())
}

/// The nim-optimal component and its sha256.
fn nim_optimal() -> (Vec<u8>, String) {
    let good = std::fs::read(player("nim-optimal")).unwrap();
    let hash = arena_core::sha256_hex(&good);
    (good, hash)
}

/// Publishes a job naming the Nim package (uploaded) and `component` in seat 0; the outcome the
/// worker stores for it.
async fn job_outcome(url: &str, component: &str, upload: Option<&[u8]>) -> serde_json::Value {
    job_outcome_with(url, component, upload, |_| {}).await
}

/// [`job_outcome`], the job changed by `tamper` before it is sent.
async fn job_outcome_with(
    url: &str,
    component: &str,
    upload: Option<&[u8]>,
    tamper: impl FnOnce(&mut serde_json::Value),
) -> serde_json::Value {
    let uploads: Vec<(&str, &[u8])> = upload.map(|b| (component, b)).into_iter().collect();
    let edit = move |j: &mut serde_json::Value| {
        j["players"][0]["component"] = component.into();
        tamper(j)
    };
    nim_outcomes(url, &uploads, vec![Box::new(edit)], false).await.remove(0)
}

/// A change made to a job before it is sent.
type Edit<'a> = Box<dyn FnOnce(&mut serde_json::Value) + 'a>;

/// Publishes a Nim job per edit (the package and `uploads`, components by sha256, uploaded first), each
/// the template (game `R1-M1-G1`, seed 1, `stranger` in seat 0, the sample player nim-optimal in
/// seat 1) changed by its edit: all in one message when `batch`, else one message each. Their outcomes
/// as the worker stores them, in the order of the edits (matched by game id).
async fn nim_outcomes(
    url: &str,
    uploads: &[(&str, &[u8])],
    edits: Vec<Edit<'_>>,
    batch: bool,
) -> Vec<serde_json::Value> {
    use futures_util::StreamExt;
    let engine = arena_cluster::Nats::connect(url).await.unwrap();
    let files = engine.files().await.unwrap();
    let dir = std::path::PathBuf::from(player("nim-optimal")).parent().unwrap().parent().unwrap().join("packages/nim");
    let manifest = arena_play::Manifest::read(&dir).unwrap();
    let package = arena_core::sha256_hex(&std::fs::read(dir.join(&manifest.referee)).unwrap());
    let mut listed = vec![];
    for f in arena_play::files_under(&dir).unwrap() {
        let f = f.to_string_lossy().to_string();
        let bytes = std::fs::read(dir.join(&f)).unwrap();
        arena_cluster::put_once(&files, &format!("packages/{package}/{f}"), &bytes, engine.chunk()).await.unwrap();
        listed.push(f);
    }
    for (component, bytes) in uploads {
        arena_cluster::put_once(&files, &format!("components/{component}"), bytes, engine.chunk()).await.unwrap();
    }
    // Each call its own result subject (a work-queue stream takes one consumer a subject).
    static JOBS_SENT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let reply = format!("arena.results.test{}", JOBS_SENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let stream = engine.js.get_stream(arena_cluster::RESULTS).await.unwrap();
    let consumer = stream
        .create_consumer(async_nats::jetstream::consumer::pull::Config {
            filter_subject: reply.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    let jobs: Vec<serde_json::Value> = edits
        .into_iter()
        .map(|edit| {
            let mut job = serde_json::json!({
                "reply": reply, "game": "R1-M1-G1", "package": package, "files": listed, "options": [],
                "players": [{"name": "stranger"}, {"name": "optimal", "builtin": "nim-optimal"}],
                "seed": 1, "limits": arena_core::Limits::default(), "so_far": arena_core::MatchSoFar::default(),
            });
            edit(&mut job);
            job
        })
        .collect();
    let games: Vec<String> = jobs.iter().map(|j| j["game"].as_str().unwrap_or_default().to_string()).collect();
    let messages: Vec<Vec<u8>> = if batch {
        vec![serde_json::to_vec(&jobs).unwrap()]
    } else {
        jobs.iter().map(|j| serde_json::to_vec(j).unwrap()).collect()
    };
    for m in messages {
        let headers = arena_cluster::protocol_headers();
        engine.js.publish_with_headers(arena_cluster::JOBS_SUBJECT, headers, m.into()).await.unwrap();
    }
    let mut outcomes: Vec<Option<serde_json::Value>> = vec![None; games.len()];
    let mut messages = consumer.messages().await.unwrap();
    while outcomes.iter().any(Option::is_none) {
        let m = tokio::time::timeout(Duration::from_secs(60), messages.next()).await.unwrap().unwrap().unwrap();
        for done in arena_cluster::dones_in(&m.payload).unwrap() {
            let i = games.iter().position(|g| *g == done.game).unwrap_or_else(|| panic!("game {}", done.game));
            outcomes[i] = Some(serde_json::to_value(&done.outcome).unwrap());
        }
    }
    outcomes.into_iter().flatten().collect()
}

#[test]
fn a_batch_of_jobs_in_one_message_is_played_game_by_game_each_with_its_own_outcome() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, _worker, url, rt) = one_worker(tmp.path());
    let (good, hash) = nim_optimal();
    let missing = "cd".repeat(32);
    // Three games, the middle one naming a component nobody stored.
    let edits = || -> Vec<Edit<'_>> {
        (1..=3u64)
            .map(|i| {
                let component = if i == 2 { missing.clone() } else { hash.clone() };
                Box::new(move |j: &mut serde_json::Value| {
                    j["game"] = format!("R1-M1-G{i}").into();
                    j["seed"] = i.into();
                    j["players"][0]["component"] = component.into();
                }) as Edit<'_>
            })
            .collect()
    };
    let uploads: [(&str, &[u8]); 1] = [(&hash, &good)];
    let together = rt.block_on(nim_outcomes(&url, &uploads, edits(), true));
    let why = together[1]["Err"].as_str().unwrap_or_else(|| panic!("{}", together[1]));
    assert!(why.contains(&format!("components/{missing}")), "only the game naming it fails: {why}");
    // The others are played, each exactly as the same job alone (timings aside).
    let alone = rt.block_on(nim_outcomes(&url, &uploads, edits(), false));
    for i in [0, 2] {
        let (a, b) = (&together[i]["Ok"], &alone[i]["Ok"]);
        assert!(a["scores"].is_array(), "{a}");
        for field in ["scores", "winners", "fuel", "events", "view", "faults"] {
            assert_eq!(a[field], b[field], "game {}: {field}", i + 1);
        }
    }
    assert_eq!(together[1], alone[1]);
}

#[test]
fn a_job_naming_a_missing_or_broken_component_fails_that_game_naming_the_component() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, _worker, url, rt) = one_worker(tmp.path());
    let missing = "ab".repeat(32);
    let outcome = rt.block_on(job_outcome(&url, &missing, None));
    let why = outcome["Err"].as_str().unwrap_or_else(|| panic!("{outcome}"));
    assert!(why.contains(&format!("components/{missing}")) && why.contains("not in the object store"), "{why}");
    // Bytes that are no component: stored under their true sha256, they fail to load, named.
    let junk = b"\0asm this is not a component".to_vec();
    let hash = arena_core::sha256_hex(&junk);
    let outcome = rt.block_on(job_outcome(&url, &hash, Some(&junk)));
    let why = outcome["Err"].as_str().unwrap_or_else(|| panic!("{outcome}"));
    assert!(why.contains(&format!("component {hash} (stranger)")), "{why}");
    // The worker goes on: a good job after them is played.
    let (good, hash) = nim_optimal();
    let outcome = rt.block_on(job_outcome(&url, &hash, Some(&good)));
    assert!(outcome["Ok"]["scores"].is_array(), "{outcome}");
}

#[test]
fn a_job_stream_made_with_other_settings_is_refused_with_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let js = async_nats::jetstream::new(async_nats::connect(&url).await.unwrap());
        let config = async_nats::jetstream::stream::Config {
            name: arena_cluster::JOBS.into(),
            subjects: vec!["somebody.else".into()],
            ..Default::default()
        };
        js.create_stream(config).await.unwrap();
    });
    let out = run(&["tournament", "--game", "nim", "--nats", &url, "builtin:nim-optimal", "builtin:nim-optimal"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("exists with other settings") && err.contains("nats stream rm ARENA_JOBS"), "{err}");
}

#[test]
fn an_outcome_too_large_for_the_server_fails_its_game_instead_of_hanging() {
    let tmp = tempfile::tempdir().unwrap();
    // A server that takes 2 KiB a message: packages go up in smaller chunks, a job fits, a Yahtzee
    // game's outcome with its course (its whole call log and events, for the replay files: about 18 KB
    // of JSON, 4.6 KB packed) does not.
    let conf = tmp.path().join("nats.conf");
    std::fs::write(&conf, "max_payload: 2048\n").unwrap();
    let (_server, url) = nats_with(&tmp.path().join("nats"), Some(&conf));
    let _worker = worker(&url, &tmp.path().join("w0"), "30");
    let out = run(&[
        "tournament",
        "--game",
        "yahtzee",
        "--format",
        "round-robin",
        "--games-per-match",
        "1",
        "--seed",
        "3",
        "--json",
        "--nats",
        &url,
        "--replay-dir",
        &tmp.path().join("replays").display().to_string(),
        "builtin:greedy",
        "builtin:random",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let why = v["games"][0]["game_fault"]["reason"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(why.contains("could not be sent back") && why.contains("more than the NATS server takes"), "{why}");
}

#[test]
fn a_worker_refuses_jobs_that_reach_outside_their_package_or_are_not_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, _worker, url, rt) = one_worker(tmp.path());
    let (good, hash) = nim_optimal();
    // A file path out of the package directory: refused before anything is written.
    let escape = |j: &mut serde_json::Value| j["files"].as_array_mut().unwrap().push("../../escaped".into());
    let outcome = rt.block_on(job_outcome_with(&url, &hash, Some(&good), escape));
    let why = outcome["Err"].as_str().unwrap_or_else(|| panic!("{outcome}"));
    assert!(why.contains("`../../escaped` is not a path inside a package"), "{why}");
    assert!(!tmp.path().join("escaped").exists() && !tmp.path().join("w0").join("escaped").exists());
    // A package that is not named by a sha256.
    let unnamed = |j: &mut serde_json::Value| j["package"] = "../..".into();
    let outcome = rt.block_on(job_outcome_with(&url, &hash, Some(&good), unnamed));
    let why = outcome["Err"].as_str().unwrap_or_else(|| panic!("{outcome}"));
    assert!(why.contains("is not a package's sha256"), "{why}");
    // Not a job at all, nor a batch of none, nor packed bytes that lie (terminated, no outcome), then a
    // megabyte of one name: the worker goes on.
    rt.block_on(async {
        let engine = arena_cluster::Nats::connect(&url).await.unwrap();
        // Packed lies too: a length past any bound, and a block that does not unpack.
        let mut junk: Vec<Vec<u8>> = vec![b"not json".to_vec(), b"[]".to_vec()];
        junk.push([b"\0lz4".as_slice(), &u32::MAX.to_le_bytes(), b"\xff\xff\xff"].concat());
        junk.push([b"\0lz4".as_slice(), &4096u32.to_le_bytes(), &[0xf0; 64]].concat());
        for junk in junk {
            engine.js.publish(arena_cluster::JOBS_SUBJECT, junk.into()).await.unwrap().await.unwrap();
        }
    });
    let huge = |j: &mut serde_json::Value| j["players"][0]["name"] = "x".repeat(900_000).into();
    let outcome = rt.block_on(job_outcome_with(&url, &hash, Some(&good), huge));
    assert!(outcome["Ok"]["scores"].is_array(), "{outcome}");
}

/// The lines a child writes to stderr, as they come.
fn stderr_lines(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    let err = child.stderr.take().expect("stderr piped");
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx
}

/// Waits (at most 40 s) for a line containing `want`; every line read on the way is in the panic.
fn wait_for(lines: &std::sync::mpsc::Receiver<String>, want: &str) -> String {
    let until = Instant::now() + Duration::from_secs(40);
    let mut seen = vec![];
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match lines.recv_timeout(left) {
            Ok(l) if l.contains(want) => return l,
            Ok(l) => seen.push(l),
            Err(_) => break,
        }
    }
    panic!("no line with `{want}` within 40 s; stderr said:\n{}", seen.join("\n"));
}

#[test]
fn with_no_worker_the_coordinator_says_so_counts_what_it_cannot_place_and_a_worker_keeps_its_files_in_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let players: Vec<String> = ["a", "b"].iter().map(|n| format!("{n}={}", player("nim-optimal"))).collect();
    let mut coordinator = arena()
        .args(["tournament", "--game", "nim", "--format", "round-robin", "--seed", "1", "--nats", &url])
        .args(&players)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = stderr_lines(&mut coordinator);
    let coordinator = Killed(coordinator);
    // Nobody takes its jobs: it says so, with the command that starts a worker.
    let said = wait_for(&lines, "no worker has taken a job in the last 10 s");
    assert!(said.contains(&format!("start one with `arena worker --nats {url}`")), "{said}");
    // An outcome it cannot read, on its result subject, is counted (and logged), not silently dropped.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        use futures_util::StreamExt;
        let client = async_nats::connect(&url).await.unwrap();
        let js = async_nats::jetstream::new(client);
        let mut stream = js.get_stream(arena_cluster::RESULTS).await.unwrap();
        let info = stream.info().await.unwrap().clone();
        let mut names = stream.consumer_names();
        let mut subject = None;
        while let Some(Ok(name)) = names.next().await {
            let c: async_nats::jetstream::consumer::PullConsumer = stream.get_consumer(&name).await.unwrap();
            subject = c.cached_info().config.filter_subject.clone().into();
        }
        let subject = subject.unwrap_or_else(|| panic!("no result consumer on {info:?}"));
        js.publish(subject, "{\"not\": \"an outcome\"}".into()).await.unwrap().await.unwrap();
    });
    let said = wait_for(&lines, "1 outcome(s) not placed");
    assert!(said.contains("no worker has taken a job"), "{said}");
    // A worker started in a directory of its own keeps its files in the cache directory, not there.
    let (cwd, cache) = (tmp.path().join("cwd"), tmp.path().join("cache"));
    std::fs::create_dir_all(&cwd).unwrap();
    let _worker = Killed(
        arena()
            .args(["worker", "--nats", &url, "--jobs", "1"])
            .current_dir(&cwd)
            .env("ARENA_CACHE_DIR", &cache)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut coordinator = coordinator;
    let until = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = coordinator.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < until, "the tournament did not end once a worker came");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success());
    assert!(cache.join("worker").join("packages").is_dir(), "the worker's files are under $ARENA_CACHE_DIR/worker");
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0, "nothing is written where the worker was started");
}

/// A worker and a coordinator of different cluster protocol versions refuse each other, naming both
/// versions: a worker handed a job of a forged version (or of none, an Arena from before versions)
/// hands it back untaken and stops, saying why; a coordinator handed an outcome of a forged version
/// ends that game as a game fault saying why, and reads nothing of it as a result.
#[test]
fn a_worker_and_a_coordinator_of_different_protocol_versions_refuse_each_other_naming_both() {
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let ours = format!("protocol {}", arena_cluster::PROTOCOL);
    let job = serde_json::json!({
        "reply": "arena.results.forged", "game": "R1-M1-G1", "package": "ab".repeat(32), "files": [],
        "options": [], "players": [{"name": "a", "builtin": "nim-optimal"}, {"name": "b", "builtin": "nim-optimal"}],
        "seed": 1, "limits": arena_core::Limits::default(), "so_far": arena_core::MatchSoFar::default(),
    });
    for forged in [Some("999"), None] {
        rt.block_on(async {
            let engine = arena_cluster::Nats::connect(&url).await.unwrap();
            let mut headers = async_nats::HeaderMap::new();
            if let Some(v) = forged {
                headers.insert(arena_cluster::PROTOCOL_HEADER, v);
            }
            let payload = serde_json::to_vec(&job).unwrap();
            engine
                .js
                .publish_with_headers(arena_cluster::JOBS_SUBJECT, headers, payload.into())
                .await
                .unwrap()
                .await
                .unwrap();
        });
        let mut w = arena()
            .args(["worker", "--nats", &url, "--jobs", "1", "--dir"])
            .arg(tmp.path().join("w"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = stderr_lines(&mut w);
        let said = wait_for(&lines, "refused");
        let theirs = forged.map_or("none (an Arena from before".to_string(), |v| format!("protocol {v}"));
        assert!(said.contains(&theirs) && said.contains(&ours) && said.contains("same Arena version"), "{said}");
        let status = super::finish_within(w, "the refusing worker", Duration::from_secs(20)).status;
        assert!(!status.success(), "a worker that cannot read the queue's jobs stops with an error");
        // The job was not taken: it is still on the queue, for a worker of its version.
        let (stream, _) = job_queue(&url).expect("the job queue");
        assert_eq!(stream.state.messages, 1, "{forged:?}: the job stays on the queue");
        rt.block_on(async {
            let engine = arena_cluster::Nats::connect(&url).await.unwrap();
            engine.js.get_stream(arena_cluster::JOBS).await.unwrap().purge().await.unwrap();
        });
    }

    // The coordinator's side: the test takes its one job as a forged worker would, and answers it with
    // an outcome of another version that names a winner.
    let players: Vec<String> = ["a", "b"].iter().map(|n| format!("{n}={}", player("nim-optimal"))).collect();
    let coordinator = arena()
        .args(["tournament", "--game", "nim", "--format", "round-robin", "--games-per-match", "1", "--seed", "1"])
        .args(["--json", "--nats", &url])
        .args(&players)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    rt.block_on(async {
        use futures_util::StreamExt;
        let engine = arena_cluster::Nats::connect(&url).await.unwrap();
        let stream = engine.js.get_stream(arena_cluster::JOBS).await.unwrap();
        let consumer: async_nats::jetstream::consumer::PullConsumer = stream
            .get_or_create_consumer(
                arena_cluster::WORKERS,
                async_nats::jetstream::consumer::pull::Config {
                    durable_name: Some(arena_cluster::WORKERS.into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let mut messages = consumer.messages().await.unwrap();
        let m = tokio::time::timeout(Duration::from_secs(30), messages.next()).await.unwrap().unwrap().unwrap();
        for job in arena_cluster::jobs_in(&m.payload).expect("jobs") {
            let n = job.players.len();
            let outcome = arena_core::GameOutcome {
                scores: vec![1; n],
                winners: vec![0],
                fuel: vec![0; n],
                ..Default::default()
            };
            let done = arena_cluster::Done {
                game: job.game.clone(),
                key: job.key(),
                outcome: Ok(outcome),
                worker: "forger".into(),
            };
            let mut headers = async_nats::HeaderMap::new();
            headers.insert(arena_cluster::PROTOCOL_HEADER, "999");
            let payload = arena_cluster::dones_message(&[done]).unwrap();
            engine.js.publish_with_headers(job.reply.clone(), headers, payload.into()).await.unwrap().await.unwrap();
        }
        m.ack().await.unwrap();
    });
    let out = super::finish_within(coordinator, "the coordinator", Duration::from_secs(60));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = &v["game_faults"][0];
    let why = f["reason"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(why.contains("forger") && why.contains("protocol 999") && why.contains(&ours), "{why}");
    assert_eq!(v["games"][0]["winners"], serde_json::json!([]), "nothing of the forged outcome is read: {v}");
}

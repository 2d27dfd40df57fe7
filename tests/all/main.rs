//! Arena's integration tests: one binary that drives the real `arena` binary on the real sample
//! components (built by `make players` into target/players), and the library's referee with native seats.
//! Each game's own tests live in its folder (games/<name>/tests.rs) and are modules of this binary.

mod accounts;
mod backup;
mod bad_files;
mod bans;
mod cache;
mod candidates;
mod check_game;
mod cli;
mod cluster;
mod competitions;
mod determinism;
mod docs;
mod fairness;
mod formats;
mod hostile;
mod knockout;
mod ladder;
mod languages;
mod layers;
mod memory;
mod newcomer;
mod packages;
mod publish;
mod ratings;
mod referee;
mod referee_langs;
mod starters;
mod store;
mod templates;
mod void_games;
mod web;
mod workbench;

// Each game's own tests, from its folder (games/<name>/tests.rs; see crates/arena/build.rs).
include!(concat!(env!("OUT_DIR"), "/game_tests.rs"));

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Yahtzee sample players, the two good ones among every kind of misbehaviour.
pub const YAHTZEE_LINEUP: [&str; 9] = [
    "yahtzee-greedy",
    "yahtzee-loop",
    "yahtzee-random",
    "yahtzee-panic",
    "yahtzee-hog",
    "yahtzee-cheat",
    "yahtzee-sleep",
    "yahtzee-wat-loop",
    "yahtzee-wat-badenum",
];

/// The games shipped with Arena: every folder of `games/` with a manifest, sorted. Tests read the list
/// here, so a new game folder is tested with no edit elsewhere.
pub fn shipped_games() -> Vec<String> {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let mut names: Vec<String> = std::fs::read_dir(&games)
        .unwrap_or_else(|e| panic!("{}: {e}", games.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("game.toml").is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "games/ holds {names:?}");
    names
}

/// The `arena` binary under test, with a compile cache of the tests' own under the target dir.
pub fn arena() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    c.env("ARENA_CACHE_DIR", players_dir().with_file_name("test-compile-cache"));
    // A compile's CPU budget is a bound on strangers' components, not a figure the suite measures: on a
    // shared machine, two 18 MB Python components compiled at once by a debug build can pass 40 s. The
    // tests of the bound itself give --compile-cpu-s, which wins over this.
    c.env("ARENA_COMPILE_CPU_S", "300");
    c
}

/// Where `make players` puts the sample players: beside the binary's profile directory.
pub fn players_dir() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    bin.parent().and_then(|p| p.parent()).expect("target/<profile>/arena").join("players")
}

/// A sample player's path, failing with a hint if the players were not built.
pub fn player(name: &str) -> String {
    let dir = players_dir();
    let p = [dir.join(format!("{name}.wasm")), dir.join(format!("{name}.wat"))]
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{name} is not in {}: run `make players` first", dir.display()));
    p.display().to_string()
}

/// `from` copied into `to`, following links (a game's wit/deps/game is a link to wit/game).
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let path = e.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The source file of a test fixture.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
}

pub fn run(args: &[&str]) -> Output {
    arena().args(args).bounded()
}

/// How long one command of a test may run before it is killed and its test fails: a command that
/// hangs fails its own test, with what it printed, instead of holding up the whole suite.
pub const COMMAND_LIMIT: Duration = Duration::from_secs(600);

/// [`Command::output`] within [`COMMAND_LIMIT`].
pub trait Bounded {
    /// Runs to the end and returns what it printed; panics, naming the command, if it cannot start
    /// or is still running after [`COMMAND_LIMIT`] (then it is killed).
    fn bounded(&mut self) -> Output {
        self.bounded_within(COMMAND_LIMIT)
    }

    /// [`Bounded::bounded`] within `limit`.
    fn bounded_within(&mut self, limit: Duration) -> Output;
}

impl Bounded for Command {
    fn bounded_within(&mut self, limit: Duration) -> Output {
        let what = format!("{:?}", self);
        let child = self
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
        finish_within(child, &what, limit)
    }
}

/// [`std::process::Child::wait_with_output`] within [`COMMAND_LIMIT`] (see [`finish_within`]).
pub fn finish(child: std::process::Child) -> Output {
    let what = format!("process {}", child.id());
    finish_within(child, &what, COMMAND_LIMIT)
}

/// Waits for `child` (called `what`) to end and returns what it printed on the streams that were
/// piped; panics with that output if it is still running after `limit` (then it is killed).
pub fn finish_within(mut child: std::process::Child, what: &str, limit: Duration) -> Output {
    // Each stream is read on a thread of its own; what it read comes back on a channel, so that a
    // grandchild still holding a pipe cannot hold up the report of a killed command.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut bytes);
            }
            let _ = tx.send(bytes);
        });
        rx
    };
    let stdout = drain(child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>));
    let (start, mut pause) = (Instant::now(), Duration::from_millis(1));
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let read =
                |rx: std::sync::mpsc::Receiver<Vec<u8>>| rx.recv_timeout(Duration::from_secs(5)).unwrap_or_default();
            let (out, err) = (read(stdout), read(stderr));
            panic!(
                "{what} was still running after {} s and was killed; its output:\n{}\n{}",
                limit.as_secs(),
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&err)
            );
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    Output { status, stdout: stdout.recv().unwrap_or_default(), stderr: stderr.recv().unwrap_or_default() }
}

#[test]
fn a_test_command_past_its_limit_is_killed_and_fails_its_test_with_its_output() {
    let start = Instant::now();
    let hung = std::panic::catch_unwind(|| {
        Command::new("sh").args(["-c", "echo started; exec sleep 60"]).bounded_within(Duration::from_secs(1))
    });
    let message = *hung.expect_err("a command past its limit fails").downcast::<String>().unwrap();
    assert!(message.contains("sleep 60") && message.contains("killed") && message.contains("started"), "{message}");
    assert!(start.elapsed() < Duration::from_secs(30), "it was not killed at its limit");
}

/// Runs arena, insists on success, and parses its stdout as JSON.
pub fn run_json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert!(out.status.success(), "arena {args:?} failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", String::from_utf8_lossy(&out.stdout)))
}

/// The bans of a result, as (player, kind, call).
pub fn bans(v: &serde_json::Value) -> Vec<(String, String, String)> {
    v["banned"]
        .as_array()
        .expect("banned is a list")
        .iter()
        .map(|b| {
            (
                b["player"].as_str().unwrap().into(),
                b["kind"].as_str().unwrap().into(),
                b["call"].as_str().unwrap().into(),
            )
        })
        .collect()
}

/// The ranked players of a result, best first, ties flattened.
pub fn ranked(v: &serde_json::Value) -> Vec<&str> {
    v["ranking"]
        .as_array()
        .expect("ranking is a list")
        .iter()
        .flat_map(|p| p.as_array().expect("a place is a list"))
        .map(|n| n.as_str().expect("a name"))
        .collect()
}

/// Whether the compile cache in `dir` holds an entry for the component in `file` (entries are named
/// by the file's sha256).
pub fn cached(dir: &std::path::Path, file: &str) -> bool {
    use sha2::Digest;
    let hash: String = sha2::Sha256::digest(std::fs::read(file).unwrap()).iter().map(|b| format!("{b:02x}")).collect();
    std::fs::read_dir(dir)
        .map(|r| r.filter_map(Result::ok).any(|e| e.file_name().to_string_lossy().starts_with(&hash)))
        .unwrap_or(false)
}

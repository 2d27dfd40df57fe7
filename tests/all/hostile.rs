//! Hand-made hostile components (generated here from the WAT sample player): a huge answer, huge
//! arguments to the rule checker, a rule-checker loop, compile bombs; and bans that stay the same on a
//! saturated machine.

use super::*;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The Yahtzee WAT sample player with `keep`'s body replaced, and `extra` core functions added.
fn yahtzee_wat(keep_body: &str, extra: &str) -> String {
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games/yahtzee/players/wat/yahtzee-wat-loop.wat");
    let src = std::fs::read_to_string(&sample).unwrap();
    let body = "      ;; never returns\n      (loop $forever (br $forever))\n      unreachable\n";
    let last = "    (func (;12;) (type 2))\n";
    assert!(src.contains(body) && src.contains(last), "{} changed: update this test's template", sample.display());
    src.replacen(body, keep_body, 1).replacen(last, &format!("{last}{extra}"), 1)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// What a measured run of arena gave: exit code, stdout, stderr, and the peak resident memory of the
/// process (and the children it waited for), in KiB.
pub struct Measured {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub peak_kib: i64,
}

/// Runs arena under a small Python process that waits for it and reports its peak resident memory
/// (with its compile workers'). Not `wait4` from here: Linux carries a process's peak across fork and
/// exec, so a child of this test process (hundreds of MiB, running other tests' engines) would report
/// this process's size; Python's is small.
pub fn run_measured(args: &[&str]) -> Measured {
    const WAIT: &str = "import resource, subprocess, sys\n\
                        code = subprocess.run(sys.argv[2:]).returncode\n\
                        open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n\
                        sys.exit(code)\n";
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("peak");
    let out = std::process::Command::new("python3")
        .args(["-c", WAIT, report.to_str().unwrap(), env!("CARGO_BIN_EXE_arena")])
        .args(args)
        .env("ARENA_CACHE_DIR", players_dir().with_file_name("test-compile-cache"))
        .bounded();
    let peak_kib = std::fs::read_to_string(&report).unwrap().trim().parse().unwrap();
    Measured {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        peak_kib,
    }
}

fn one_fault(v: &serde_json::Value) -> &serde_json::Value {
    let faults = v["result"]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{faults:?}");
    &faults[0]
}

/// Plays one game of a Yahtzee WAT player whose `keep` is `keep` against the greedy built-in, measuring
/// the host: what it printed, its peak memory, and the player's one fault.
fn play_measured(keep: &str) -> (Measured, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let wat = write(dir.path(), "hostile.wat", &yahtzee_wat(keep, ""));
    let args = ["play", "--game", "yahtzee", "--seed", "1", "--json", &wat, "builtin:greedy"];
    // Once first, so that every component (the referee, the sample, this player) is in the compile
    // cache: what is measured is the host handling the answer, not a compile worker (whose memory is
    // bounded on its own, and counts in the peak of the process that waited for it).
    run_measured(&args);
    let m = run_measured(&args);
    assert_eq!(m.code, Some(0), "{}", m.stderr);
    let v: serde_json::Value = serde_json::from_slice(&m.stdout).unwrap();
    let f = one_fault(&v).clone();
    (m, f)
}

#[test]
fn a_huge_answer_is_banned_illegal_with_bounded_host_memory_and_output() {
    // 60,000,000 dice: memory grown to 921 of the 1,024 pages the 64 MiB cap allows.
    let (m, f) = play_measured(
        "      (drop (memory.grow (i32.const 920)))
      (i32.store (i32.const 32) (i32.const 65536))
      (i32.store (i32.const 36) (i32.const 60000000))
      (i32.const 32)
",
    );
    assert_eq!((f["kind"].as_str(), f["call"].as_str()), (Some("illegal"), Some("keep")), "{f}");
    assert_eq!(f["reason"], "sent more than 64 KiB to the host in one answer or host call");
    // The answer was never copied nor quoted: the document is small, and the host held less than the
    // player's own memory (it held 2.4 GB and printed 180 MB before answers were bounded).
    assert!(m.stdout.len() < 16 << 10, "{} bytes of JSON", m.stdout.len());
    assert!(m.peak_kib < 150 << 10, "the host peaked at {} MiB", m.peak_kib >> 10);
}

#[test]
fn huge_arguments_to_the_rule_checker_are_refused_as_illegal() {
    // score(card with no boxes, 60,000,000 dice, ones) -> option at 32.
    let (m, f) = play_measured(
        "      (drop (memory.grow (i32.const 920)))
      (call 0 (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
              (i32.const 65536) (i32.const 60000000) (i32.const 0) (i32.const 32))
      (i32.const 16)
",
    );
    assert_eq!((f["kind"].as_str(), f["call"].as_str()), (Some("illegal"), Some("keep")), "{f}");
    assert_eq!(f["reason"], "sent more than 64 KiB to the host in one answer or host call");
    assert!(m.peak_kib < 150 << 10, "the host peaked at {} MiB", m.peak_kib >> 10);
}

#[test]
fn a_rule_checker_loop_pays_fuel_and_is_banned_for_fuel_the_same_way_twice() {
    let dir = tempfile::tempdir().unwrap();
    let keep = "      (loop $spam
        (call 0 (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
                (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 32))
        (br $spam))
      unreachable
";
    let spam = write(dir.path(), "spam.wat", &yahtzee_wat(keep, ""));
    let args = ["tournament", "--game", "yahtzee", "--format", "round-robin", "--seed", "5", "--json"];
    let args: Vec<&str> = args.into_iter().chain([spam.as_str(), "builtin:greedy", "builtin:random"]).collect();
    let first = run(&args);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let v: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(bans(&v), [("spam".to_string(), "fuel".to_string(), "keep".to_string())]);
    assert_eq!(v["banned"][0]["reason"], "used up its 200000000 fuel");
    let second = run(&args);
    assert_eq!(first.stdout, second.stdout, "the same tournament twice gives the same JSON");
}

/// A call's fuel is its wasm's and its host calls' bill together, also when it answers: a `keep` that
/// asks the rule checker once (a bill of at least 4,500 fuel) and then counts down `LOOPS` times (6 fuel a
/// turn) is out of fuel under a budget its wasm alone fits in, while the same count without the check is
/// not.
#[test]
fn the_bill_for_host_calls_counts_against_the_budget_of_a_call_that_answers() {
    const LOOPS: u64 = 100_000;
    let dir = tempfile::tempdir().unwrap();
    let count = format!(
        "      (local.set 0 (i32.const {LOOPS}))
      (loop $count
        (local.set 0 (i32.sub (local.get 0) (i32.const 1)))
        (br_if $count (local.get 0)))
      (i32.const 16)
"
    );
    let check = "      (call 0 (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
              (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 32))
";
    let counter = write(dir.path(), "counter.wat", &yahtzee_wat(&count, ""));
    let checker = write(dir.path(), "checker.wat", &yahtzee_wat(&format!("{check}{count}"), ""));
    let budget = (6 * LOOPS + 2_000).to_string();
    let play = |wat: &str, fuel: &str| {
        let out = run(&["play", "--game", "yahtzee", "--seed", "3", "--json", "--fuel", fuel, wat, "builtin:random"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    // The template's `choose` takes chance every turn, so a player that answers every `keep` is out at
    // its second `choose`, illegal, after the keeps of two turns.
    let answers_every_keep = |v: &serde_json::Value, why: &str| {
        let f = one_fault(v);
        assert_eq!((f["kind"].as_str(), f["call"].as_str()), (Some("illegal"), Some("choose")), "{why}: {f}");
    };
    answers_every_keep(&play(&counter, &budget), "the count alone fits in the budget");
    let v = play(&checker, &budget);
    let f = one_fault(&v);
    assert_eq!((f["kind"].as_str(), f["call"].as_str()), (Some("fuel"), Some("keep")), "{f}");
    assert_eq!(f["reason"], format!("used up its {budget} fuel"));
    answers_every_keep(&play(&checker, "200000000"), "with room, the checking player answers");
}

/// A core function of `n` additions in a row: 3 bytes of code each.
fn long_function(n: usize) -> String {
    let mut f = String::with_capacity(n * 22 + 64);
    f.push_str("    (func (result i32)\n      i32.const 0\n");
    for _ in 0..n {
        f.push_str("      i32.const 1 i32.add\n");
    }
    f.push_str("    )\n");
    f
}

#[test]
fn a_compile_bomb_is_refused_before_compiling_and_nothing_is_stored_or_cached() {
    let dir = tempfile::tempdir().unwrap();
    let body = "      (loop $forever (br $forever))\n      unreachable\n";
    // One function of 400,000 instructions (1.2 MB of code): Cranelift took 42 s and 2 GB on a 3 MB one.
    let bomb = write(dir.path(), "bomb.wat", &yahtzee_wat(body, &long_function(400_000)));
    let cache = dir.path().join("cache");
    let data = dir.path().join("data");
    let out = arena().args(["check", "--game", "yahtzee", "--cache-dir", cache.to_str().unwrap(), &bomb]).bounded();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{bomb}: too costly to compile (function")), "{err}");
    assert!(err.contains("bytes of code; the limit is 1 MiB a function"), "{err}");
    assert!(!cached(&cache, &bomb), "nothing cached");
    let out = run(&["submit", "--data", data.to_str().unwrap(), "--game", "yahtzee", "--name", "bomb", &bomb]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("too costly to compile"));
    let players = run_json(&["players", "--data", data.to_str().unwrap(), "--json"]);
    assert_eq!(players, serde_json::json!({}), "nothing stored");
    // The same function, smaller, compiles: the limit is on the function, not on the file.
    let fine = write(dir.path(), "fine.wat", &yahtzee_wat(body, &long_function(1_000)));
    let out = run(&["play", "--game", "yahtzee", "--seed", "1", "--json", &fine, "builtin:greedy"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_compile_over_its_cpu_or_memory_limit_is_stopped_and_nothing_is_cached() {
    let dir = tempfile::tempdir().unwrap();
    let py = player("yahtzee-py");
    for (flag, value, why) in [
        (
            "--compile-cpu-s",
            "1",
            "more than 1 s of CPU time; the functions compiled so far are kept, so a second try carries on from there",
        ),
        ("--compile-memory-mb", "300", "more than 300 MiB of memory"),
    ] {
        let out = arena()
            .args(["check", "--game", "yahtzee", "--cache-dir", dir.path().to_str().unwrap(), flag, value, &py])
            .bounded();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("{py}: too costly to compile ({why})")), "{err}");
        assert!(!cached(dir.path(), &py), "nothing cached");
    }
}

/// A Yahtzee player in the text format that plays every game to its end: it keeps no dice and fills the
/// boxes in order. `extra` is added to its core module.
fn yahtzee_wat_that_plays(extra: &str) -> String {
    let text = yahtzee_wat("      (i32.const 16)\n", extra);
    let swaps = [
        (
            "    (global $bump (mut i32) (i32.const 1024))\n",
            "    (global $bump (mut i32) (i32.const 1024))\n    (global $turn (mut i32) (i32.const 0))\n",
        ),
        (
            "    (func (;3;) (type 3) (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32))",
            "    (func (;3;) (type 3) (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32)\n      (global.set $turn (i32.const 0)))",
        ),
        (
            "      (i32.const 12)\n    )",
            "      (global.set $turn (i32.add (global.get $turn) (i32.const 1)))\n      (i32.sub (global.get $turn) (i32.const 1))\n    )",
        ),
    ];
    swaps.iter().fold(text, |text, (from, to)| {
        assert!(text.contains(from), "the Yahtzee WAT template changed: update this test's player");
        text.replacen(from, to, 1)
    })
}

/// A core function Cranelift's optimiser takes far longer over than its quick code: `depth` loops
/// nested, around `n` loop-invariant multiplications it tries to hoist through every one of them. At
/// 14,000 in 1,400 loops it optimises in some 17 s of CPU and compiles as quick code in half a second.
fn hoisting_bomb(n: usize, depth: usize) -> String {
    let mut f = String::from("    (func (param i32 i32) (result i32) (local $a i32)\n");
    (0..depth).for_each(|i| f.push_str(&format!("      (loop $l{i}\n")));
    (0..n).for_each(|i| {
        f.push_str(&format!(
            "      local.get 0 local.get 1 i32.const {i} i32.xor i32.mul local.get $a i32.add local.set $a\n"
        ))
    });
    (0..depth).rev().for_each(|i| f.push_str(&format!("      local.get $a i32.const {i} i32.lt_u br_if $l{i})\n")));
    f.push_str("      local.get $a\n    )\n");
    f
}

/// A player too costly to optimise within the compile limits, but not to compile as quick code (what its
/// validation game played), plays its quick code: a version accepted on its quick code can always be
/// loaded, and its game is the game of the same player without the costly function, optimised (the same
/// fuel, call for call, and the same score). The limits are 4 s of CPU against 17 s and half a second,
/// so a busy machine does not change the outcome.
#[test]
fn a_player_too_costly_to_optimise_plays_its_quick_code() {
    let dir = tempfile::tempdir().unwrap();
    let costly = write(dir.path(), "costly.wat", &yahtzee_wat_that_plays(&hoisting_bomb(14_000, 1_400)));
    let plain = write(dir.path(), "plain.wat", &yahtzee_wat_that_plays(""));
    let check = |path: &str| {
        let args = ["check", "--game", "yahtzee", "--seed", "7", "--no-cache", "--compile-cpu-s", "4", path];
        let out = arena().env("ARENA_CACHE_DIR", dir.path()).args(args).bounded();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
        text
    };
    let quick = check(&costly);
    assert!(quick.contains("too costly to optimise within the compile limits: compiled as quick code"), "{quick}");
    let optimised = check(&plain);
    assert!(optimised.contains("  compiled in "), "{optimised}");
    let line = |t: &str, start: &str| t.lines().find(|l| l.trim_start().starts_with(start)).map(str::to_string);
    for start in ["fuel: ", "played one game"] {
        assert!(
            line(&quick, start).is_some() && line(&quick, start) == line(&optimised, start),
            "{quick}\n{optimised}"
        );
    }
    assert!(quick.contains("ok: no fault"), "{quick}");
    // With a compile cache its quick code is kept for these limits: a later load plays it without
    // paying the refused compile again; under other limits it tries again.
    let cache = dir.path().join("cache");
    let cached_check = |limit: &str| {
        let args = ["check", "--game", "yahtzee", "--seed", "7", "--cache-dir", cache.to_str().unwrap()];
        let out = arena().args(args).args(["--compile-cpu-s", limit, &costly]).bounded();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("it plays quick code, as it is too costly to optimise"), "{text}");
        assert_eq!(line(&text, "fuel: "), line(&optimised, "fuel: "), "{text}");
        text
    };
    assert!(cached_check("4").contains("compiled as quick code in"));
    assert!(cached_check("4").contains("loaded from the compile cache in"));
    assert!(cached_check("5").contains("compiled as quick code in"), "other limits try to optimise it again");
    let kept: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".cwasm"))
        .collect();
    assert!(kept.iter().any(|n| n.ends_with("-quick-4s-2048mib.cwasm")), "{kept:?}");
}

/// A submission whose quick code (what its validation game plays) is over the compile limits is refused
/// with the limit it passed, and nothing of it is stored or kept.
#[test]
fn a_submissions_quick_compile_over_its_cpu_or_memory_limit_is_refused_and_nothing_is_kept() {
    let py = player("yahtzee-py");
    for (flag, value, why) in
        [("--compile-cpu-s", "1", "more than 1 s of CPU time"), ("--compile-memory-mb", "300", "more than 300 MiB")]
    {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let data = data.to_str().unwrap();
        let args = ["submit", "--data", data, "--game", "yahtzee", "--name", "py", flag, value, &py];
        let out = arena().args(args).bounded();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("{py}: too costly to compile ({why}")), "{err}");
        assert!(err.contains("nothing was stored"), "{err}");
        assert_eq!(run_json(&["players", "--data", data, "--json"]), serde_json::json!({}), "nothing stored");
        let data = std::path::Path::new(data);
        assert!(!cached(&data.join("compiled"), &py), "its code is not kept");
        let components = std::fs::read_dir(data.join("components")).map(|d| d.count()).unwrap_or(0);
        assert_eq!(components, 0, "its component is not kept");
    }
}

/// A compile stopped at its CPU limit keeps the functions it compiled in the shared cache, so a second
/// try of the same component carries on from there: what a legitimate Python player refused on a busy
/// machine gets when its owner submits it again.
#[test]
fn a_compile_stopped_at_its_cpu_limit_keeps_its_progress_for_the_next_try() {
    let dir = tempfile::tempdir().unwrap();
    let py = player("yahtzee-py");
    let kept = || super::cache::function_files(dir.path());
    let mut counts = vec![];
    for _ in 0..2 {
        let out = arena()
            .args([
                "check",
                "--game",
                "yahtzee",
                "--cache-dir",
                dir.path().to_str().unwrap(),
                "--compile-cpu-s",
                "4",
                &py,
            ])
            .bounded();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("more than 4 s of CPU time; the functions compiled so far are kept"), "{err}");
        counts.push(kept());
    }
    assert!(counts[0] > 0 && counts[1] > counts[0], "functions kept after each try: {counts:?}");
}

/// A compile worker dies with the process that started it: a server stopped (or killed) mid-compile
/// leaves no compile running on. Here its parent, a shell, ends as soon as it has started it, while it
/// has seconds of compiling ahead (the Python player).
#[test]
fn a_compile_worker_whose_parent_ends_stops_at_once() {
    let exe = env!("CARGO_BIN_EXE_arena");
    let script = format!(
        "ARENA_COMPILE_PARENT=$$ {exe} __compile-worker 60 4294967296 quick < {} > /dev/null 2>&1 & echo $!",
        player("yahtzee-py")
    );
    let out = std::process::Command::new("sh").args(["-c", &script]).output().unwrap();
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(pid.parse::<u32>().is_ok(), "{pid}");
    // Gone, or a zombie waiting to be reaped, well before its compile could end.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| s.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')))
    };
    while running() {
        assert!(std::time::Instant::now() < until, "the worker {pid} outlived its parent");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn bans_are_decided_by_fuel_the_same_way_on_a_saturated_machine() {
    let players = YAHTZEE_LINEUP.map(player);
    // The default limits: 200 M fuel and a 1 s deadline a call.
    let mut args = vec!["tournament", "--game", "yahtzee", "--format", "knockout", "--seed", "23", "--json"];
    args.extend(players.iter().map(String::as_str));
    let quiet = run(&args);
    assert!(quiet.status.success(), "{}", String::from_utf8_lossy(&quiet.stderr));
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let busy: Vec<_> = (0..cores * 2)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let loaded = run(&args);
    stop.store(true, Ordering::Relaxed);
    busy.into_iter().for_each(|t| t.join().unwrap());
    assert!(loaded.status.success(), "{}", String::from_utf8_lossy(&loaded.stderr));
    let v: serde_json::Value = serde_json::from_slice(&quiet.stdout).unwrap();
    let mut got = bans(&v);
    got.sort();
    let kinds: Vec<(&str, &str)> = got.iter().map(|(p, k, _)| (p.as_str(), k.as_str())).collect();
    assert!(kinds.contains(&("yahtzee-loop", "fuel")) && kinds.contains(&("yahtzee-wat-loop", "fuel")), "{kinds:?}");
    assert!(kinds.contains(&("yahtzee-sleep", "timeout")), "{kinds:?}");
    assert_eq!(
        String::from_utf8_lossy(&quiet.stdout),
        String::from_utf8_lossy(&loaded.stdout),
        "the saturated run must equal the quiet one"
    );
}

#[test]
fn a_player_hoarding_wasi_resources_is_stopped_at_the_cap() {
    let v = run_json(&[
        "play",
        "--game",
        "yahtzee",
        "--seed",
        "1",
        "--json",
        fixture("resource-hoarder.wat").to_str().unwrap(),
        "builtin:greedy",
    ]);
    let f = one_fault(&v);
    assert_eq!((f["kind"].as_str(), f["call"].as_str()), (Some("memory"), Some("keep")), "{f}");
    assert_eq!(f["reason"], "holds more than 1000 WASI resources at once, the cap");
}

#[test]
fn answers_just_over_a_smaller_limit_are_refused_and_just_under_pass() {
    let dir = tempfile::tempdir().unwrap();
    // keep answers N dice (zeros, so an answer that passes the size check is refused by the rules).
    let keep = |n: u32| {
        format!(
            "      (drop (memory.grow (i32.const 2)))
      (i32.store (i32.const 32) (i32.const 65536))
      (i32.store (i32.const 36) (i32.const {n}))
      (i32.const 32)
"
        )
    };
    let play = |n: u32| {
        let p = write(dir.path(), &format!("dice-{n}.wat"), &yahtzee_wat(&keep(n), ""));
        let v =
            run_json(&["play", "--game", "yahtzee", "--seed", "1", "--json", "--answer-kb", "1", &p, "builtin:greedy"]);
        one_fault(&v)["reason"].as_str().unwrap().to_string()
    };
    // The host holds an answer as dynamic component values, one `Val` per number: the limit bounds
    // that, the host's memory, not the bytes in the player's.
    let per = std::mem::size_of::<wasmtime::component::Val>() as u32;
    assert_eq!(play(1024 / per + 1), "sent more than 1 KiB to the host in one answer or host call");
    assert_eq!(play(1025), "sent more than 1 KiB to the host in one answer or host call");
    let under = play(1024 / per - 2);
    assert!(!under.contains("1 KiB") && under.contains("dice"), "these dice fit in 1 KiB and reach the rules: {under}");
}

//! `make bench`: how fast Arena plays, measured in one run on this machine. Every game is a game
//! package (`target/packages/<name>`, assembled by `make players`): a referee component the host drives
//! with dynamic values, and players checked against its requests.
//! - compiling: each game's referee, a player, and a Rust, a JavaScript and a Python player through a
//!   cold and then a warm on-disk compile cache;
//! - instantiating from an `InstancePre` into a fresh store (pooling allocator): a player, and the
//!   referee of each game (every game instantiates one referee and one instance per seat);
//! - the per-call overhead of a decision: a component whose `keep` returns at once, called with a
//!   dynamic turn state built once (lowering it, the call, lifting the answer), bare and guarded as a
//!   game calls it; and, as most arenas do it, one round trip to a bot process speaking JSON lines over
//!   pipes (this binary again), asked the same turn state and answering at once, then with both
//!   processes on one core (no other core to wake);
//! - what metering costs a compute-bound decision: the greedy Yahtzee player's first `keep` natively and
//!   in wasm without fuel or epochs, with one of them, and with both (as every guest runs);
//! - a decision all-in in a packaged game: Nim games per second, and one 1,000-round game of matching
//!   pennies (one referee `step` a round, after both player calls), through the referee's flat `step`
//!   and through its typed one;
//! - referees in Python and JavaScript against the Rust ones (Nim's in Python, matching pennies' in
//!   JavaScript): instantiation, and a decision in a long game, through the same package;
//! - games per second of each game's strong sample player against itself, as components through its
//!   package (referee and players in wasm) and as the same referee state machine and bots compiled
//!   natively into the bench: the ratio is the headline figure;
//! - what fuel buys in time: a wasm loop against a loop of calls to a rule checker (Yahtzee's `score`,
//!   served from a referee instance of the player's own and charged a fee, the fuel it burns and the
//!   bytes it moves; the ratio says whether spamming it costs the host more time per unit of fuel than
//!   running wasm does), and what one such call costs;
//! - compiling in a child process under limits (what every submission gets) against in-process; quick
//!   code (what a validation game plays) against optimised code: its compile, its games, its fuel;
//! - a round-robin tournament with every game recorded in the results store (journal, writer thread,
//!   SQLite) against the same tournament unrecorded: the store's cost per game;
//! - one game whose referee floods what the game records within every per-call limit: the host's peak
//!   memory and the JSON written, against a plain game (`ARENA_BENCH_ONLY=hostile-referee` alone);
//! - opening and dropping a package 1,000 times, as a long-running server does for every publication,
//!   tournament and validation: resident memory must stay flat (`ARENA_BENCH_ONLY=packages` alone).
//!
//! Each figure is the median of several rounds; run it on a quiet machine.

#[path = "games/floor.rs"]
mod floor;
#[path = "games/probe.rs"]
mod probe;
#[path = "games/quick.rs"]
mod quick;

// The allocator the `arena` binary runs with (mimalloc), so that both sides of a ratio use it.
use arena as _;
use arena_core::{Entry, Finals, Game, GameOutcome, Limits, MatchSoFar};
use arena_play::{LoadPlayers, Package, PackageGame, PackagePlayer, values};
use arena_sandbox::Sandbox;
use arena_sandbox::{Guard, PlayerState, WorldSpec};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wasmtime::component::{Func, Instance, InstancePre, Val};

/// `target/`: the bench runs as target/<profile>/deps/<bench>.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    exe.ancestors().nth(3).expect("target dir").to_path_buf()
}

/// target/players: every sample player built by `make players`.
fn players_dir() -> PathBuf {
    target_dir().join("players")
}

/// target/packages/NAME: a game package assembled by `make players`.
fn package_dir(name: &str) -> PathBuf {
    let dir = target_dir().join("packages").join(name);
    assert!(dir.join("game.toml").is_file(), "{} is missing: run `make players` first", dir.display());
    dir
}

/// Loads the package `name` (compiling its referee), and how long that took.
fn package(sandbox: &Arc<Sandbox>, name: &str) -> (Package, Duration) {
    let t = Instant::now();
    let pkg = Package::load(sandbox.clone(), &package_dir(name)).unwrap_or_else(|e| panic!("{e}"));
    (pkg, t.elapsed())
}

/// A player of `pkg` from target/players.
fn player(pkg: &Package, name: &str, file: &str) -> Arc<PackagePlayer> {
    pkg.load_player(name, &players_dir().join(file)).unwrap_or_else(|e| panic!("{e} (run `make players` first)"))
}

/// The no-op player of the per-call figures: the Yahtzee WAT sample whose `keep` answers at once, its
/// bump allocator reset after each call (in `keep`'s post-return), as a player that frees its request
/// does. The sample itself never frees: called 200,000 times it grew its memory by some 50 MB, within
/// 5 MiB of the 64 MiB cap.
fn noop_player(pkg: &Package) -> Arc<PackagePlayer> {
    let src = wat_sample(
        "yahtzee-wat-badenum.wat",
        "    (func (;6;) (type 5) (param i32))\n",
        "    (func (;6;) (type 5) (param i32) (global.set $bump (i32.const 1024)))\n",
    );
    let file = std::env::temp_dir().join(format!("arena-bench-noop-{}.wat", std::process::id()));
    std::fs::write(&file, src).expect("write the no-op player");
    let noop = pkg.load_player("noop", &file).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&file);
    noop
}

/// The Yahtzee WAT sample player `file` (games/yahtzee/players/wat) with its text `from` replaced by
/// `to`; `from` must be there.
fn wat_sample(file: &str, from: &str, to: &str) -> String {
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games/yahtzee/players/wat").join(file);
    let src = std::fs::read_to_string(&sample).expect("the WAT sample player");
    assert!(src.contains(from), "{file} has changed: it no longer holds {from:?}");
    src.replacen(from, to, 1)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The median of ratios or times in seconds.
fn median_f64(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn entry<P>(name: &str, p: P) -> Arc<Entry<P>> {
    Arc::new(Entry { name: name.into(), source: name.into(), hash: None, player: p })
}

/// One game of `pkg` as a tournament plays it (keeping the spectators' final view only).
async fn play(pkg: &Package, players: &[Arc<PackagePlayer>], seed: u64, so_far: &MatchSoFar) -> GameOutcome {
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    pkg.play_as(players, &names, seed, so_far, Finals::Board).await
}

/// The first and only game of a match.
fn one_game() -> MatchSoFar {
    MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // The process-per-player baseline's bot: this same binary, started again by `pipe_round_trip`.
    if std::env::var_os(BOT_ENV).is_some() {
        return json_lines_bot();
    }
    let dir = players_dir();
    let sandbox = Arc::new(Sandbox::new(Limits::default()).expect("sandbox"));
    println!(
        "machine: {} cores; wasmtime 50, Cranelift, pooling allocator, fuel and epochs on",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // Compiling: each package's referee, and a player, in-process without a disk cache.
    let (yahtzee, y_load) = package(&sandbox, "yahtzee");
    let (santorini, s_load) = package(&sandbox, "santorini");
    let (fish, f_load) = package(&sandbox, "fish");
    println!(
        "load a package, compiling its referee:           yahtzee {y_load:.2?}, santorini {s_load:.2?}, fish \
         {f_load:.2?}"
    );
    let t = Instant::now();
    let greedy = player(&yahtzee, "a", "yahtzee-greedy.wasm");
    println!("compile yahtzee-greedy.wasm (once per run):      {:>10.2?}", t.elapsed());
    // `ARENA_BENCH_PROFILE=instantiate` only instantiates a player for 20 s (to profile it with perf;
    // `pennies` profiles a decision through a package, below).
    if std::env::var("ARENA_BENCH_PROFILE").as_deref() == Ok("instantiate") {
        let (limits, until) = (*sandbox.limits(), Instant::now() + std::time::Duration::from_secs(20));
        while Instant::now() < until {
            println!("instantiate: {:.2?}", instantiate_time(&sandbox, greedy.pre(), &limits).await);
        }
        return;
    }
    // `ARENA_BENCH_ONLY=calls` prints only the per-call figures and the decisions through a package;
    // `ARENA_BENCH_ONLY=games` only the games per second; `store` only what recording costs.
    let only = std::env::var("ARENA_BENCH_ONLY");
    if only.as_deref() == Ok("hostile-referee") {
        return hostile_referee();
    }
    if only.as_deref() == Ok("packages") {
        return packages_dropped(&sandbox);
    }
    if only.as_deref() == Ok("store") {
        return store_overhead(&sandbox, &dir).await;
    }
    if only.as_deref() == Ok("quick") {
        return quick::compare().await;
    }
    if only.as_deref() == Ok("games") {
        metering(&dir.join("yahtzee-greedy.wasm"), &first_keep()).await;
        return games_per_second(&sandbox, &dir, &yahtzee, &santorini, &fish, greedy).await;
    }
    let calls_only = only.as_deref() == Ok("calls");
    if !calls_only {
        compile_cache(&dir);
    }

    // Instantiation from InstancePre, into a fresh store each time: a player, and each game's referee.
    println!();
    let limits = *sandbox.limits();
    let player_instantiation = instantiate_time(&sandbox, greedy.pre(), &limits).await;
    println!("instantiate from InstancePre (fresh store), goal <= 10 us a component:");
    println!("  player yahtzee-greedy                          {player_instantiation:>10.2?}");
    for pkg in [&yahtzee, &santorini, &fish] {
        let pre = referee_pre(&sandbox, pkg);
        let took = instantiate_time(&sandbox, &pre, &limits.referee()).await;
        println!("  referee {:<38} {took:>10.2?}", pkg.manifest.name);
    }

    // Per-call overhead: a component whose keep returns an empty list at once, called with a dynamic
    // turn state built once.
    println!();
    let noop_player = noop_player(&yahtzee);
    let (store, instance, keep, params) = ready_keep(&sandbox, &noop_player).await;
    let mut noop = Ready { store, instance, export: "keep", params, results: vec![Val::Bool(false)] };
    let (mut bare, mut guarded) = (vec![], vec![]);
    for _ in 0..5 {
        let n = 20_000;
        let t = Instant::now();
        for _ in 0..n {
            noop.store.set_fuel(1_000_000).unwrap();
            noop.store.set_epoch_deadline(1_000_000);
            keep.call_async(&mut noop.store, &noop.params, &mut noop.results).await.expect("keep");
        }
        bare.push(t.elapsed() / n);
        guarded.push(noop.guarded(&sandbox, n).await);
    }
    assert!(matches!(&noop.results[0], Val::List(l) if l.is_empty()), "the no-op keep keeps nothing");
    println!("per-call overhead of a decision (no-op keep, dynamic values):");
    println!("  a bare call                                    {:>10.2?}", median(bare));
    let guarded = median(guarded);
    println!("  guarded, as a game calls a seat                {guarded:>10.2?}");
    println!(
        "  instantiating a player ({player_instantiation:.2?}, above) against a guarded call: {:.1}x (goal <= 4x)",
        player_instantiation.as_secs_f64() / guarded.as_secs_f64()
    );
    let trip = pipe_round_trip();
    println!(
        "  a bot process over pipes (the architecture of most arenas: JSON lines on stdin and stdout, the same \
         turn state, answered at once): {trip:.2?} a round trip, a guarded call {:.1}x faster (goal >= 50x)",
        trip.as_secs_f64() / guarded.as_secs_f64()
    );
    match on_one_cpu(pipe_round_trip) {
        Some(same_core) => println!(
            "  the same, the bot process and the caller on one core (no wake-up of another core: two context \
             switches and the JSON): {same_core:.2?} a round trip, a guarded call {:.1}x faster",
            same_core.as_secs_f64() / guarded.as_secs_f64()
        ),
        None => println!("  the same on one core: not measured (the bench could not pin itself to a CPU)"),
    }
    // What the engine lets a call cost at best, in the same run: 50x the pipe round trip needs a guarded
    // call of at most a fiftieth of it.
    let best = floor::measure(&sandbox, noop_player.pre()).await;
    println!(
        "  the same call with the turn state lowered by wasmtime's typed API (Rust types written for Yahtzee: \
         a host that knows no game cannot have them): bare {:.2?}, guarded {:.2?}, the pipe {:.1}x it",
        best.typed_bare,
        best.typed_guarded,
        trip.as_secs_f64() / best.typed_guarded.as_secs_f64()
    );
    println!(
        "  the same request handed over as its {} postcard bytes (what a per-game adapter inside the sandbox \
         would be handed), guarded: {:.2?}, the pipe {:.1}x it",
        floor::TURN_STATE_BYTES,
        best.bytes_guarded,
        trip.as_secs_f64() / best.bytes_guarded.as_secs_f64()
    );
    println!(
        "  a guarded call with nothing to lower (a u32 in and out): {:.2?}, the pipe {:.1}x it; 50x the pipe \
         would be {:.2?} a call",
        best.echo_guarded,
        trip.as_secs_f64() / best.echo_guarded.as_secs_f64(),
        trip / 50
    );

    // Native strategy cost of one decision, for scale.
    let view = first_keep();
    let t = Instant::now();
    let n = 2_000;
    for _ in 0..n {
        std::hint::black_box(yahtzee_bots::greedy::keep(std::hint::black_box(&view)));
    }
    println!("native greedy keep decision:                     {:>10.2?}", t.elapsed() / n);
    if !calls_only {
        metering(&dir.join("yahtzee-greedy.wasm"), &view).await;
    }

    println!();
    decisions_all_in(&sandbox, &dir, &mut noop).await;
    if calls_only {
        return;
    }
    referees_in_other_languages(&sandbox).await;

    games_per_second(&sandbox, &dir, &yahtzee, &santorini, &fish, greedy).await;
    fuel_prices(&sandbox, &yahtzee, &dir).await;
    compile_in_child(&dir);
    quick::compare().await;
    store_overhead(&sandbox, &dir).await;
    hostile_referee();
}

/// What one game costs the host when its referee stays inside every per-call limit and floods what it
/// records (#48): `arena play --json` of Nim under the broken test referee handing over 400 events of
/// 2,000 characters at every `events()` call, for ever, against a plain game of Nim. The process's peak
/// memory and the size of its JSON; the game's bound (16 MiB recorded by default) ends it as a game
/// fault. (Before the bound: one such game took 810 MB and wrote 203 MB of JSON.)
fn hostile_referee() {
    let dir = tempfile::tempdir().expect("tempdir");
    let from = package_dir("nim");
    for entry in arena_play::files_under(&from).expect("the package") {
        let to = dir.path().join(&entry);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(from.join(&entry), &to).expect("copy");
    }
    std::fs::copy(players_dir().join("nim-broken-referee.wasm"), dir.path().join("referee.wasm")).expect("referee");
    let manifest = std::fs::read_to_string(dir.path().join("game.toml")).expect("manifest");
    let options = "\n[options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n\
                   [options.flood-events]\ndefault = 0\nmin = 0\nmax = 100000\n\
                   [options.event-chars]\ndefault = 1000\nmin = 0\nmax = 100000\n";
    std::fs::write(dir.path().join("game.toml"), format!("{manifest}{options}")).expect("manifest");
    let optimal = players_dir().join("nim-optimal.wasm");
    let (a, b) = (format!("a={}", optimal.display()), format!("b={}", optimal.display()));
    let play = |flood: &[&str]| -> (u64, usize, String) {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_arena"));
        c.args(["play", "--game"]).arg(dir.path()).args(flood).args(["--seed", "1", "--json", &a, &b]);
        let child = c.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().expect("arena");
        let pid = child.id();
        // The peak, read while it runs (its /proc entry goes with it).
        let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let watch = {
            let peak = peak.clone();
            std::thread::spawn(move || {
                while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
                    let kb = status.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1));
                    if let Some(kb) = kb.and_then(|k| k.parse::<u64>().ok()) {
                        peak.fetch_max(kb, std::sync::atomic::Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        };
        let out = child.wait_with_output().expect("arena play");
        let _ = watch.join();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let ended =
            doc["game_fault"]["reason"].as_str().map_or("a result".to_string(), |r| r.chars().take(60).collect());
        (peak.load(std::sync::atomic::Ordering::Relaxed) / 1024, out.stdout.len(), ended)
    };
    println!("\none game whose referee floods within every per-call limit (arena play --json, Nim):");
    let (plain_mib, plain_json, _) = play(&[]);
    let (mib, json, ended) = play(&["--option", "flood-events=400", "--option", "event-chars=2000"]);
    println!("  a plain game:           peak {plain_mib:>4} MiB, {:>8.1} KiB of JSON", plain_json as f64 / 1024.0);
    println!(
        "  the flooding referee:   peak {mib:>4} MiB, {:>8.1} MiB of JSON; ended: {ended}",
        json as f64 / (1 << 20) as f64
    );
    println!("  (goal: at most 256 MiB and 16 MiB of JSON for one such game)");
}

/// The games whose games per second the bench compares with native.
const GAMES: [&str; 4] = ["yahtzee", "santorini", "fish", "goofspiel"];

/// Games per second, the strong sample player against itself, through the package and natively, each
/// game's ratio against the metering floor read beside it (what metering alone costs a compute-bound
/// decision, native time to wasm time: see `probe`), and the host's own cost of a decision.
async fn games_per_second(
    sandbox: &Arc<Sandbox>,
    dir: &Path,
    yahtzee: &Package,
    santorini: &Package,
    fish: &Package,
    greedy: Arc<PackagePlayer>,
) {
    let probe = &mut probe::FloorProbe::new(&dir.join("yahtzee-greedy.wasm"), first_keep(), &turn_state()).await;
    println!();
    println!(
        "{:<10} {:>12} {:>14} {:>7} {:>7} {:>8} {:>12} {:>9} {:>11} {:>11}",
        "game",
        "wasm games/s",
        "native games/s",
        "ratio",
        "floor",
        "÷ floor",
        "fuel a game",
        "decisions",
        "a decision",
        "host's part"
    );
    // `ARENA_BENCH_PROFILE=<game>` (with `ARENA_BENCH_ONLY=games`) plays only that game's wasm games,
    // for 20 s (to profile with perf).
    let profiled = std::env::var("ARENA_BENCH_PROFILE").ok();
    let wanted = |game: &str| profiled.as_deref().is_none_or(|p| p == game || !GAMES.contains(&p));
    if wanted("yahtzee") {
        let players = [greedy, player(yahtzee, "b", "yahtzee-greedy.wasm")];
        compare(yahtzee, &players, &yahtzee_native, 20, probe).await;
    }
    if wanted("santorini") {
        let players =
            [player(santorini, "a", "santorini-minimax.wasm"), player(santorini, "b", "santorini-minimax.wasm")];
        compare(santorini, &players, &santorini_native, 10, probe).await;
    }
    if wanted("fish") {
        let players = [player(fish, "a", "fish-greedy.wasm"), player(fish, "b", "fish-greedy.wasm")];
        let options: Vec<(String, String)> = fish.options().iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
        compare(fish, &players, &|seed| fish_native(seed, &options), 20, probe).await;
    }
    if wanted("goofspiel") {
        let (goofspiel, _) = package(sandbox, "goofspiel");
        let players =
            [player(&goofspiel, "a", "goofspiel-smart.wasm"), player(&goofspiel, "b", "goofspiel-smart.wasm")];
        compare(&goofspiel, &players, &goofspiel_native, 50, probe).await;
    }
    println!(
        "(ratio: native games/s over wasm games/s, goal at most 1.1x the metering floor (÷ floor) and at most \
         3x; floor: the metering floor read after each of the game's five rounds (greedy's first keep, nine \
         pairs of 40 decisions natively and in wasm), each round judged against its own; a decision: the wasm \
         game's time over its calls; host's part: what the host adds a decision, the wasm game's time less \
         the native game's time at the floor, over its calls; the native games score as the packaged ones, \
         seed for seed; each figure the median of the five rounds)"
    );
}

/// Loading a player through a package on a sandbox with an on-disk compile cache: cold (an empty cache
/// directory), then warm (a new sandbox on the same directory), the referee's load too.
fn compile_cache(dir: &Path) {
    let cache = std::env::temp_dir().join(format!("arena-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let files = ["yahtzee-greedy.wasm", "yahtzee-js.wasm", "yahtzee-py.wasm"];
    // Per phase (cold, warm): the package (its referee), then each file.
    let mut phases: Vec<Vec<Duration>> = vec![];
    for _ in ["cold", "warm"] {
        let s = Arc::new(Sandbox::new(Limits::default()).expect("sandbox").with_cache_dir(cache.clone()));
        let (pkg, t) = package(&s, "yahtzee");
        let mut took = vec![t];
        for file in files {
            let t = Instant::now();
            pkg.load_player("p", &dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
            took.push(t.elapsed());
        }
        phases.push(took);
    }
    let _ = std::fs::remove_dir_all(&cache);
    let names = std::iter::once("the yahtzee package").chain(files);
    for ((name, cold), warm) in names.zip(phases[0].iter().copied()).zip(phases[1].iter().copied()) {
        let ratio = cold.as_secs_f64() / warm.as_secs_f64().max(1e-9);
        println!("load {name:<22} cold cache {cold:>10.2?}, warm {warm:>8.2?} ({ratio:.0}x)");
    }
}

/// The referee of `pkg` pre-instantiated as its package does (its component from the package, linked
/// with what every component may import; a referee imports nothing more), since `Package` does not
/// expose its own.
fn referee_pre(sandbox: &Sandbox, pkg: &Package) -> InstancePre<PlayerState> {
    let name = pkg.manifest.name.clone();
    let spec = WorldSpec {
        game: name.clone().into(),
        package: "arena:".into(),
        world: format!("arena:{name}/referee").into(),
    };
    let loaded = sandbox.load(&pkg.dir.join(&pkg.manifest.referee), &spec).unwrap_or_else(|e| panic!("{e}"));
    let linker = sandbox.linker().expect("linker");
    linker.instantiate_pre(&loaded.component).expect("the referee links")
}

/// Median time to instantiate `pre` into a fresh store under `limits` (the store created and dropped).
async fn instantiate_time(sandbox: &Sandbox, pre: &InstancePre<PlayerState>, limits: &Limits) -> Duration {
    let mut rounds = vec![];
    for _ in 0..5 {
        let n = 200;
        let t = Instant::now();
        for i in 0..n {
            let mut store = sandbox.store_with(i, limits);
            store.set_fuel(u64::MAX / 2).unwrap();
            store.set_epoch_deadline(1_000_000);
            let _instance = pre.instantiate_async(&mut store).await.expect("instantiate");
        }
        rounds.push(t.elapsed() / n as u32);
    }
    median(rounds)
}

/// A Yahtzee turn state at its first `keep`, for the native bots.
fn first_keep() -> yahtzee_rules::PlayerView {
    yahtzee_rules::PlayerView {
        turn: 1,
        dice: [1, 2, 3, 4, 5],
        rolls_left: 2,
        mine: Default::default(),
        theirs: Default::default(),
        opponent: "x".into(),
        match_view: Default::default(),
    }
}

/// `player` instantiated in a fresh store, its `keep`, and `keep`'s arguments: the same turn state as
/// [`first_keep`], built from JSON against the export's parameter type.
async fn ready_keep(
    sandbox: &Sandbox,
    player: &PackagePlayer,
) -> (wasmtime::Store<PlayerState>, Instance, Func, Vec<Val>) {
    let mut store = sandbox.store(1);
    store.set_fuel(u64::MAX / 2).unwrap();
    store.set_epoch_deadline(1_000_000);
    let instance = player.pre().instantiate_async(&mut store).await.expect("instantiate");
    let keep = instance.get_func(&mut store, "keep").expect("keep");
    let (_, ty) = keep.ty(&store).params().next().expect("keep takes a turn state");
    let arg = values::from_json(&turn_state(), &ty).expect("a turn state");
    (store, instance, keep, vec![arg])
}

/// What the sandbox's metering costs a compute-bound decision: the greedy player's first `keep`,
/// natively and in wasm compiled without fuel or epochs, with fuel only, with epochs only, and with
/// both as Arena runs every guest (its own engine each; the imports the keep never calls trap). The last
/// is the metering floor, which the games are judged against (read again beside each: see `probe`).
async fn metering(greedy: &Path, view: &yahtzee_rules::PlayerView) {
    // The fastest of 15 rounds of 200 decisions: what each costs undisturbed (the median of a few
    // rounds read 1.24x to 1.74x for the same build on this shared machine).
    let time = |f: &mut dyn FnMut()| {
        let mut rounds = vec![];
        for _ in 0..15 {
            let n = 200;
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            rounds.push(t.elapsed() / n);
        }
        rounds.into_iter().min().unwrap_or_default()
    };
    let native = time(&mut || {
        std::hint::black_box(yahtzee_bots::greedy::keep(std::hint::black_box(view)));
    });
    let mut cells = vec![];
    for (fuel, epochs) in [(false, false), (true, false), (false, true), (true, true)] {
        let (mut store, keep, params) = probe::greedy_keep(greedy, &turn_state(), fuel, epochs).await;
        let mut results = [Val::Bool(false)];
        let mut rounds = vec![];
        for _ in 0..15 {
            let n = 200;
            let t = Instant::now();
            for _ in 0..n {
                keep.call_async(&mut store, &params, &mut results).await.expect("keep");
            }
            rounds.push(t.elapsed() / n);
        }
        let took = rounds.into_iter().min().unwrap_or_default();
        cells.push(format!("{took:.2?} ({:.2}x)", took.as_secs_f64() / native.as_secs_f64()));
    }
    println!("what metering costs a compute-bound decision (greedy's first keep; against native, {native:.2?}):");
    println!("  wasm without fuel or epochs                    {}", cells[0]);
    println!("  fuel only                                      {}", cells[1]);
    println!("  epochs only                                    {}", cells[2]);
    println!("  fuel and epochs (as Arena runs every guest)    {}", cells[3]);
}

/// A player's export with its arguments, ready to be called again and again (the no-op `keep` of the
/// per-call figures, a pennies player's `choose`).
struct Ready {
    store: wasmtime::Store<PlayerState>,
    instance: Instance,
    export: &'static str,
    params: Vec<Val>,
    results: Vec<Val>,
}

impl Ready {
    /// A guarded call as a game calls a seat (the export looked up once, fuel, deadline and CPU clock
    /// armed, the outcome judged): the mean of `n`.
    async fn guarded(&mut self, sandbox: &Sandbox, n: u32) -> Duration {
        let f = self.instance.get_func(&mut self.store, self.export).expect("the export");
        let t = Instant::now();
        for _ in 0..n {
            let guard = Guard::arm(sandbox, &mut self.store, false, self.export);
            let r = guard.run(f.call_async(&mut self.store, &self.params, &mut self.results)).await;
            guard.finish(&mut self.store, r).expect("an answer");
        }
        t.elapsed() / n
    }
}

/// A packaged game played all-in (the referee's `step` after the step's player calls, three instances a
/// game): Nim games per second, and one long game of matching pennies.
async fn decisions_all_in(sandbox: &Arc<Sandbox>, dir: &Path, noop: &mut Ready) {
    let (pkg, _) = package(sandbox, "nim");
    let optimal = dir.join("nim-optimal.wasm");
    let players = [pkg.load_player("a", &optimal).expect("player"), pkg.load_player("b", &optimal).expect("player")];
    let mut rounds = vec![];
    let (games, mut decisions) = (200u64, 0);
    for _ in 0..3 {
        decisions = 0;
        let t = Instant::now();
        for seed in 0..games {
            let o = play(&pkg, &players, seed, &Default::default()).await;
            assert!(o.game_fault.is_none() && o.faults.is_empty());
            decisions += o.calls().len() as u32;
        }
        rounds.push(t.elapsed());
    }
    let t = median(rounds);
    println!(
        "nim package (referee component, dynamic values): {:.0} games/s, {:.2?} a decision, everything included \
         (three instances a game), over {} decisions",
        games as f64 / t.as_secs_f64(),
        t / decisions,
        decisions
    );

    // Steady state: one long game of matching pennies (both seats asked at once each round), so the
    // instances and the start are spread over 2,000 decisions: two player calls and one `step` a
    // round.
    let (mut pkg, _) = package(sandbox, "pennies");
    pkg.set_options(&["rounds=1000".to_string()]).expect("rounds");
    let players = [
        pkg.load_player("a", &dir.join("pennies-heads.wasm")).expect("player"),
        pkg.load_player("b", &dir.join("pennies-alternate.wasm")).expect("player"),
    ];
    // `ARENA_BENCH_PROFILE=pennies` only plays these games for 20 s (to profile a decision with perf).
    if std::env::var("ARENA_BENCH_PROFILE").as_deref() == Ok("pennies") {
        let until = Instant::now() + std::time::Duration::from_secs(20);
        while Instant::now() < until {
            let t = Instant::now();
            let o = play(&pkg, &players, 1, &Default::default()).await;
            println!("pennies: {:.2?} a decision", t.elapsed() / o.calls().len() as u32);
        }
        std::process::exit(0);
    }
    // Two games to warm up (the pool's fresh slots, the allocator's first pages: the first games of a
    // run took up to 1.5x longer), then nine pairs: the guarded no-op call measured just before each
    // game, so that the ratio of each pair is taken at the same moment on a shared machine. Each seed
    // is played twice, alternately: through the referee's flat `step` (as games are played) and
    // through its typed `step`, to show what the flat form saves.
    let (mut decisions, mut ratios, mut typed_ratios) = (vec![], vec![], vec![]);
    for seed in 0..11 {
        for typed in [false, true] {
            let guarded = noop.guarded(sandbox, 4_000).await;
            let t = Instant::now();
            let o = if typed {
                pkg.play_typed(&players, seed).await.0
            } else {
                play(&pkg, &players, seed, &Default::default()).await
            };
            let decision = t.elapsed() / o.calls().len() as u32;
            assert!(o.game_fault.is_none() && o.faults.is_empty());
            if seed >= 2 {
                let ratio = decision.as_secs_f64() / guarded.as_secs_f64();
                if typed {
                    typed_ratios.push(ratio);
                } else {
                    decisions.push(decision);
                    ratios.push(ratio);
                }
            }
        }
    }
    let decision = median(decisions);
    ratios.sort_by(f64::total_cmp);
    typed_ratios.sort_by(f64::total_cmp);
    println!(
        "pennies package, one game of 1,000 rounds: {decision:.2?} a decision (steady state), {:.2}x a guarded \
         call of a player measured beside it (median of nine pairs; goal: at most 1.5x); through the typed \
         `step` instead of the flat one: {:.2}x",
        ratios[ratios.len() / 2],
        typed_ratios[typed_ratios.len() / 2]
    );
    // For reference: the same player guarded with the very request a round makes (a smaller argument
    // than the no-op keep's turn state), so what the package adds to it shows as well.
    let mut store = sandbox.store(1);
    let instance = players[0].pre().instantiate_async(&mut store).await.expect("instantiate");
    let f = instance.get_func(&mut store, "choose").expect("choose");
    let (_, ty) = f.ty(&store).params().next().expect("choose takes a round");
    let round = serde_json::json!({"number": 500, "of": 1000, "you": 0, "taken": [250, 249]});
    let params = vec![values::from_json(&round, &ty).expect("a round")];
    let mut choose = Ready { store, instance, export: "choose", params, results: vec![Val::Bool(false)] };
    let mut rounds = vec![];
    for _ in 0..5 {
        rounds.push(choose.guarded(sandbox, 20_000).await);
    }
    let same = median(rounds);
    println!(
        "  the same player's guarded call with a round's request: {same:.2?}; the decision is {:.2}x it",
        decision.as_secs_f64() / same.as_secs_f64()
    );
}

/// The package `name` with its referee replaced by the component `referee` of target/players, in a
/// directory of its own (kept by the caller).
fn package_with_referee(sandbox: &Arc<Sandbox>, name: &str, referee: &str) -> (tempfile::TempDir, Package) {
    let dir = tempfile::tempdir().expect("tempdir");
    let from = package_dir(name);
    for entry in arena_play::files_under(&from).expect("the package") {
        let to = dir.path().join(&entry);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(from.join(&entry), &to).expect("copy");
    }
    std::fs::copy(players_dir().join(format!("{referee}.wasm")), dir.path().join("referee.wasm")).expect("referee");
    let pkg = Package::load(sandbox.clone(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
    (dir, pkg)
}

/// A decision in one long game of `pkg` between `players` (with `options`), the median of three.
async fn decision_time(pkg: &mut Package, players: [&str; 2], options: &[String], seeds: u64) -> Duration {
    pkg.set_options(options).expect("options");
    let seated = players.map(|p| player(pkg, p, &format!("{p}.wasm")));
    let mut rounds = vec![];
    for seed in 0..seeds.max(3) {
        let t = Instant::now();
        let o = play(pkg, &seated, seed, &Default::default()).await;
        assert!(o.game_fault.is_none() && o.faults.is_empty(), "{:?}", o.game_fault);
        rounds.push(t.elapsed() / o.calls().len().max(1) as u32);
    }
    median(rounds)
}

/// Nim's referee in Python and matching pennies' in JavaScript against their Rust referees: the
/// instantiation of each (every game makes one) and a decision all-in, through the same package.
async fn referees_in_other_languages(sandbox: &Arc<Sandbox>) {
    println!(
        "referees in other languages (same package, same players; instantiate from InstancePre, a decision all-in):"
    );
    let limits = sandbox.limits().referee();
    for (game, other, lang, players, options) in [
        ("nim", "nim-referee-py", "Python", ["nim-optimal", "nim-optimal"], vec![]),
        (
            "pennies",
            "pennies-referee-js",
            "JavaScript",
            ["pennies-heads", "pennies-alternate"],
            vec!["rounds=200".into()],
        ),
    ] {
        let (mut rust, _) = package(sandbox, game);
        let (_keep, mut theirs) = package_with_referee(sandbox, game, other);
        let rust_start = instantiate_time(sandbox, &referee_pre(sandbox, &rust), &limits).await;
        let their_start = instantiate_time(sandbox, &referee_pre(sandbox, &theirs), &limits).await;
        let rust_decision = decision_time(&mut rust, players, &options, 3).await;
        let their_decision = decision_time(&mut theirs, players, &options, 3).await;
        println!(
            "  {game:<8} Rust {rust_start:>9.2?} / {rust_decision:>8.2?}   {lang:<10} {their_start:>9.2?} / \
             {their_decision:>8.2?}   ({:.0}x to instantiate, {:.1}x a decision)",
            their_start.as_secs_f64() / rust_start.as_secs_f64(),
            their_decision.as_secs_f64() / rust_decision.as_secs_f64()
        );
    }
}

/// Median games per second of `players` through `pkg` and of `native` (the same games natively; three
/// rounds each, interleaved), their ratio, and the wasm games' fuel and calls per game. The native games
/// must score as the packaged ones do, seed for seed.
async fn compare(
    pkg: &Package,
    players: &[Arc<PackagePlayer>],
    native: &dyn Fn(u64) -> Vec<i64>,
    games: u64,
    probe: &mut probe::FloorProbe,
) {
    let name = &pkg.manifest.name;
    if std::env::var("ARENA_BENCH_PROFILE").as_deref() == Ok(name.as_str()) {
        let (until, mut played) = (Instant::now() + Duration::from_secs(20), 0);
        while Instant::now() < until {
            std::hint::black_box(play(pkg, players, played % games, &one_game()).await);
            played += 1;
        }
        return println!("{name}: {played} games in 20 s");
    }
    // Per round: the wasm games, the native games, the floor.
    let (mut rounds, mut fuel, mut calls) = (vec![], 0, 0);
    for round in 0..5 {
        let (mut scores, t) = (vec![], Instant::now());
        (fuel, calls) = (0, 0);
        for seed in 0..games {
            let o = play(pkg, players, seed, &one_game()).await;
            assert!(o.game_fault.is_none() && o.faults.is_empty(), "{name}: {:?} {:?}", o.game_fault, o.faults);
            fuel += o.fuel.iter().sum::<u64>();
            calls += o.calls().len() as u64;
            scores.push(o.scores);
        }
        let w = t.elapsed();
        let t = Instant::now();
        for seed in 0..games {
            let s = std::hint::black_box(native(std::hint::black_box(seed)));
            if round == 0 {
                assert_eq!(s, scores[seed as usize], "{name}, seed {seed}: the native game is not the packaged one");
            }
        }
        let n = t.elapsed();
        rounds.push((w.as_secs_f64(), n.as_secs_f64(), probe.floor().await));
    }
    let per_round =
        |f: &dyn Fn(f64, f64, f64) -> f64| median_f64(rounds.iter().map(|&(w, n, fl)| f(w, n, fl)).collect());
    let rate = |secs: f64| games as f64 / secs;
    let wasm = per_round(&|w, _, _| w);
    // The players' and referee's own compute, taken as the native game's at the round's floor.
    let host = per_round(&|w, n, fl| (w - n * fl).max(0.0) / calls.max(1) as f64);
    println!(
        "{name:<10} {:>12.1} {:>14.1} {:>6.2}x {:>6.2}x {:>7.2}x {:>12} {:>9} {:>11.2?} {:>11.2?}",
        rate(wasm),
        rate(per_round(&|_, n, _| n)),
        per_round(&|w, n, _| w / n),
        per_round(&|_, _, fl| fl),
        per_round(&|w, n, fl| w / n / fl),
        fuel / games,
        calls / games,
        Duration::from_secs_f64(wasm / calls.max(1) as f64),
        Duration::from_secs_f64(host)
    );
}

/// One game of Yahtzee between two natively compiled greedy bots, driven through the referee's state
/// machine as its component does (the same turn state, the same events): the scores.
fn yahtzee_native(seed: u64) -> Vec<i64> {
    use yahtzee_bots::greedy;
    use yahtzee_referee::game::{Ask, MatchSoFar, Move, Table, match_view};
    let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ties: 0, earlier: vec![] };
    let views = [0, 1].map(|seat| match_view(&so_far, seat));
    let mut events = 0;
    let mut emit = |e: &str| events += e.len();
    let mut g = Table::new(["a".to_string(), "b".to_string()], seed, &mut emit);
    let view = |g: &Table, seat: usize| {
        let v = g.turn_view(seat);
        yahtzee_rules::PlayerView {
            turn: v.turn,
            dice: *v.dice,
            rolls_left: v.rolls_left,
            mine: v.mine.clone(),
            theirs: v.theirs.clone(),
            opponent: v.opponent.to_string(),
            match_view: views[seat].clone(),
        }
    };
    while let Some((seat, ask)) = g.pending() {
        let r = match ask {
            Ask::GameStart => g.apply(seat, Move::GameStart, &mut emit),
            Ask::Keep => {
                let keep = greedy::keep(&view(&g, seat));
                g.apply(seat, Move::Keep(&keep), &mut emit)
            }
            Ask::Choose => {
                let category = greedy::choose(&view(&g, seat));
                g.apply(seat, Move::Choose(category), &mut emit)
            }
        };
        r.expect("a legal answer");
    }
    std::hint::black_box(events);
    g.outcome().expect("the game is over").0.to_vec()
}

/// One game of Santorini between two natively compiled minimax bots, through the referee's state
/// machine (Santorini deals nothing: the seed changes no game).
fn santorini_native(_seed: u64) -> Vec<i64> {
    use santorini_bots::minimax;
    use santorini_referee::game::{Ask, Match, Reply, Table};
    use santorini_rules::PlayerView;
    let so_far = Match { game: 1, games_in_match: 1, wins: [0, 0], number: 0, matches: 0 };
    let mut g = Table::new(["a".to_string(), "b".to_string()], so_far);
    while let Some((seat, ask)) = g.ask() {
        let reply = match ask {
            Ask::Place(state) => Reply::Place(minimax::place(&PlayerView { me: state.turn, state })),
            Ask::TakeTurn(state) => Reply::TakeTurn(minimax::take_turn(&PlayerView { me: state.turn, state })),
            Ask::MatchStart { .. } | Ask::GameStart(_) | Ask::GameOver(_) => Reply::Done,
        };
        g.apply(seat, reply).expect("a legal answer");
    }
    g.outcome().expect("the game is over").0
}

/// One game of Fish between two natively compiled greedy bots on the board of `options`, through the
/// referee's state machine (its events taken as its component takes them).
fn fish_native(seed: u64, options: &[(String, String)]) -> Vec<i64> {
    use fish_bots::greedy;
    use fish_referee::game::{Answer, Request, Table};
    use fish_rules::PlayerView;
    let mut g = Table::start(2, seed, options).expect("a game");
    loop {
        let asked = g.requests();
        if asked.is_empty() {
            break;
        }
        for (seat, request) in asked {
            let answer = match request {
                Request::Setup(state) => {
                    Answer::Setup(greedy::place(&PlayerView { me: state.turn, state, actions_since: vec![] }))
                }
                Request::TakeTurn(state, since) => {
                    Answer::TakeTurn(greedy::take_turn(&PlayerView { me: state.turn, state, actions_since: since }))
                }
                Request::PlayAs(_) => Answer::PlayAs,
                Request::PlayWith(_) => Answer::PlayWith,
                Request::Start => Answer::Start,
                Request::End(_) => Answer::End,
            };
            g.apply(seat, answer).expect("a legal answer");
        }
        std::hint::black_box(g.take_events());
    }
    g.outcome().expect("the game is over").0
}

/// One game of Goofspiel between two natively compiled `smart` bots, through the referee's state
/// machine as its component drives it (both seats asked each round with the state before either bids,
/// its events taken).
fn goofspiel_native(seed: u64) -> Vec<i64> {
    use goofspiel_bots::{Round, View, smart};
    use goofspiel_referee::game::Table;
    let mut g = Table::start(vec!["a".into(), "b".into()], seed, &[]).expect("a game");
    loop {
        let asked = g.requests();
        if asked.is_empty() {
            break;
        }
        for (seat, a) in asked {
            let history = a
                .history
                .into_iter()
                .map(|r| Round { prize: r.prize, carried: r.carried, bids: r.bids, winner: r.winner.map(|w| w as u32) })
                .collect();
            let view = View {
                you: a.you,
                seats: a.seats,
                round: a.round,
                prize: a.prize,
                carried: a.carried,
                hand: a.hand,
                scores: a.scores,
                playing: a.playing,
                history,
            };
            g.apply(seat, smart::bid(&view)).expect("a legal answer");
        }
        std::hint::black_box(g.take_events());
    }
    g.outcome().expect("the game is over").0
}

/// The Yahtzee WAT sample player with `keep`'s body replaced.
fn yahtzee_wat(keep_body: &str) -> String {
    let body = "      ;; never returns\n      (loop $forever (br $forever))\n      unreachable\n";
    wat_sample("yahtzee-wat-loop.wat", body, keep_body)
}

/// Nanoseconds per 1,000 fuel: for a wasm loop, and for a loop of calls to the rule checker `score`
/// (served from a referee instance of the player's own); and the time and fuel of one such call.
async fn fuel_prices(sandbox: &Arc<Sandbox>, pkg: &Package, dir: &Path) {
    let tmp = tempfile::tempdir().expect("temp dir");
    // score(card, dice, box) with an empty card and no dice (flattened: the card's list and three u16,
    // the dice's list, the box, the return pointer): the checker answers `none` at once, so the call is
    // the crossing itself, the cheapest in fuel a player can make.
    let call = "(call 0 (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) \
                (i32.const 0) (i32.const 0) (i32.const 32))";
    let spam = tmp.path().join("spam.wat");
    std::fs::write(&spam, yahtzee_wat(&format!("(loop $spam {call} (br $spam)) unreachable\n"))).expect("write");
    // The same call `checks` times, then an empty keep (the list at bytes 16..24).
    let checks = 1_000;
    let counted = tmp.path().join("counted.wat");
    let body = format!(
        "(local.set 0 (i32.const {checks})) (loop $spam {call} (local.set 0 (i32.sub (local.get 0) (i32.const 1))) \
         (br_if $spam (local.get 0))) (i32.const 16)\n"
    );
    std::fs::write(&counted, yahtzee_wat(&body)).expect("write");

    let fuel = 100_000_000;
    let mut prices = vec![];
    for path in [dir.join("yahtzee-wat-loop.wat"), spam] {
        let p = pkg.load_player("p", &path).unwrap_or_else(|e| panic!("{e}"));
        let mut rounds = vec![];
        for _ in 0..5 {
            let (mut store, _, keep, params) = ready_keep(sandbox, &p).await;
            let mut results = vec![Val::Bool(false)];
            store.set_fuel(fuel).unwrap();
            let t = Instant::now();
            let r = keep.call_async(&mut store, &params, &mut results).await;
            rounds.push(t.elapsed());
            // Out of fuel: the wasm's own, or the bill for its checks (counted beside the store's fuel).
            let trap = r.as_ref().err().and_then(|e| e.downcast_ref::<wasmtime::Trap>());
            assert_eq!(trap, Some(&wasmtime::Trap::OutOfFuel), "the loop runs out of fuel: {r:?}");
        }
        prices.push(median(rounds).as_nanos() as f64 / (fuel / 1_000) as f64);
    }
    println!();
    println!(
        "fuel in time: a wasm loop {:.1} ns per 1,000 fuel; a loop of rule-checker calls (`score`, served by a \
         referee instance) {:.1} ns per 1,000 fuel ({:.2}x)",
        prices[0],
        prices[1],
        prices[1] / prices[0]
    );

    let p = pkg.load_player("p", &counted).unwrap_or_else(|e| panic!("{e}"));
    let (mut rounds, mut spent) = (vec![], 0);
    for _ in 0..5 {
        let (mut store, _, keep, params) = ready_keep(sandbox, &p).await;
        let mut results = vec![Val::Bool(false)];
        // The first call starts the player's checker instance.
        keep.call_async(&mut store, &params, &mut results).await.expect("checks");
        store.set_fuel(fuel).unwrap();
        store.data_mut().take_owed();
        let t = Instant::now();
        keep.call_async(&mut store, &params, &mut results).await.expect("checks");
        rounds.push(t.elapsed() / checks);
        // The wasm's fuel and the bill for its checks, counted beside it.
        let billed = store.data_mut().take_owed();
        spent = (fuel - store.get_fuel().unwrap() + billed) / u64::from(checks);
    }
    println!(
        "a `score` check through the package: {:.2?} and {spent} fuel a call ({} fuel the crossing, then the \
         checker's own fuel and {} a byte moved)",
        median(rounds),
        arena_sandbox::HOST_CALL_FUEL,
        arena_sandbox::BYTE_FUEL
    );
}

/// Loading a component compiled in a child process under the compile limits, against in-process.
fn compile_in_child(dir: &Path) {
    use arena_sandbox::{CompileLimits, Compiler};
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let files = ["yahtzee-greedy.wasm", "yahtzee-py.wasm"];
    let mut took = vec![[Duration::ZERO; 2]; files.len()];
    for (mode, child) in [false, true].into_iter().enumerate() {
        let mut s = Sandbox::new(Limits::default()).expect("sandbox");
        if child {
            s = s.with_compiler(Compiler::Child(exe.clone()), CompileLimits::default());
        }
        let (pkg, _) = package(&Arc::new(s), "yahtzee");
        for (i, file) in files.iter().enumerate() {
            let t = Instant::now();
            pkg.load_player("p", &dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
            took[i][mode] = t.elapsed();
        }
    }
    println!();
    for (file, [local, child]) in files.iter().zip(took) {
        let ratio = child.as_secs_f64() / local.as_secs_f64();
        println!("compile {file:<19} in-process {local:>10.2?}, in a child under limits {child:>10.2?} ({ratio:.2}x)");
    }
}

/// A round robin of six `yahtzee-random` components (the fastest player, so the store's share is
/// largest) in the Yahtzee package, recorded in a fresh store and not, three rounds interleaved.
async fn store_overhead(sandbox: &Arc<Sandbox>, dir: &Path) {
    use arena_store::{Store, StoredSettings};
    use arena_tournament::{Format, Settings};
    let (pkg, _) = package(sandbox, "yahtzee");
    let game = Arc::new(PackageGame::new(pkg).unwrap_or_else(|e| panic!("{e}")));
    let data = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(data.path()).expect("store");
    let path = dir.join("yahtzee-random.wasm");
    let bytes = std::fs::read(&path).expect("yahtzee-random.wasm");
    let (mut entries, mut versions) = (vec![], vec![]);
    for i in 0..6 {
        let (loaded, p) = game.load(&path).expect("load");
        let name = format!("p{i}");
        versions.push(store.add_version("yahtzee", &name, &bytes, &loaded.hash).expect("submit").version);
        entries.push(entry(&name, p));
    }
    let k = 21;
    let (mut plain, mut stored, mut games) = (vec![], vec![], 0);
    for seed in 0..3 {
        let s = Settings::new(Format::RoundRobin, k, seed);
        let t = Instant::now();
        let r = arena_tournament::run(game.clone(), entries.clone(), Limits::default(), &s).await;
        plain.push(t.elapsed());
        games = r.games.len();

        let mut s = Settings::new(Format::RoundRobin, k, seed);
        let t = Instant::now();
        let settings = StoredSettings {
            limits: Limits::default(),
            options: game.options(),
            referee: game.referee_hash(),
            fork: None,
        };
        let id =
            store.create_tournament("yahtzee", (Format::RoundRobin, k, seed), &settings, &versions).expect("create");
        let journal = store.journal(id, &versions).expect("journal");
        s.journal = Some(journal.clone());
        let r = arena_tournament::run(game.clone(), entries.clone(), Limits::default(), &s).await;
        journal.finish().expect("recorded");
        store.finish_tournament(id, &r).expect("finish");
        stored.push(t.elapsed());
    }
    let (p, st) = (median(plain), median(stored));
    let rate = |d: Duration| games as f64 / d.as_secs_f64();
    println!();
    println!(
        "round robin of 6 yahtzee-random, {games} games: unrecorded {:.0} games/s, recorded in the store {:.0} games/s \
         ({:.2}x the time, goal at most 1.2x)",
        rate(p),
        rate(st),
        st.as_secs_f64() / p.as_secs_f64()
    );
}

/// Set in the environment of the bench binary started as a bot process.
const BOT_ENV: &str = "ARENA_BENCH_JSON_BOT";

/// The turn state of [`first_keep`] as JSON, as the player's `keep` takes it.
fn turn_state() -> serde_json::Value {
    let card = serde_json::json!({
        "boxes": vec![serde_json::Value::Null; 13], "upper-bonus": 0, "yahtzee-bonus": 0, "total": 0
    });
    serde_json::json!({
        "turn": 1, "dice": [1, 2, 3, 4, 5], "rolls-left": 2, "mine": card, "theirs": card, "opponent": "x",
        "match-state": {
            "game": 1, "games-in-match": 1, "my-wins": 0, "their-wins": 0, "ties": 0, "earlier": []
        }
    })
}

/// The same turn state as a process-per-player arena would send it: one JSON line.
fn turn_json() -> String {
    serde_json::json!({"call": "keep", "state": turn_state()}).to_string()
}

/// The bot: reads a request a line, parses it as a bot would, answers at once (keeps nothing).
fn json_lines_bot() {
    use std::io::{BufRead, Write};
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let request: serde_json::Value = serde_json::from_str(&line).expect("a JSON request");
        let dice = request["state"]["dice"].as_array().map_or(0, Vec::len);
        std::hint::black_box(dice);
        if writeln!(out, "{{\"keep\":[]}}").and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}

/// One round trip to a bot process over pipes (JSON lines): the median of 20,000 round trips each timed
/// on its own, after 2,000 to warm up (the bot process awake and its pages touched, as in an arena
/// that has been playing). A median of single trips does not move with the odd trip that waited for a
/// core, as a mean over a batch did (5.7x to 45x for the same guarded call on one machine).
fn pipe_round_trip() -> Duration {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(std::env::current_exe().expect("the bench binary"))
        .env(BOT_ENV, "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start the bot process");
    let mut to = child.stdin.take().expect("its stdin");
    let mut from = BufReader::new(child.stdout.take().expect("its stdout"));
    let request = turn_json();
    let mut answer = String::new();
    let mut trips = Vec::with_capacity(20_000);
    for i in 0..22_000 {
        let t = Instant::now();
        writeln!(to, "{request}").and_then(|_| to.flush()).expect("ask the bot");
        answer.clear();
        from.read_line(&mut answer).expect("its answer");
        let v: serde_json::Value = serde_json::from_str(&answer).expect("a JSON answer");
        assert!(v["keep"].as_array().is_some_and(Vec::is_empty), "{answer}");
        if i >= 2_000 {
            trips.push(t.elapsed());
        }
    }
    drop(to);
    let _ = child.wait();
    median(trips)
}

/// Runs `f` with the calling thread, and the processes it starts, on the one CPU it is on now (`None`,
/// without running it, when the thread cannot be pinned); the thread's CPUs are given back after. On this machine's virtual CPUs the pipe's round trip between two
/// cores is mostly waking the other core from idle (14 to 66 µs in runs hours apart, the same build),
/// and on one core two context switches (about 6 µs, steady).
fn on_one_cpu<T>(f: impl FnOnce() -> T) -> Option<T> {
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: the sets are plain bit masks of the size given; pid 0 is the calling thread.
    unsafe {
        let mut before: libc::cpu_set_t = std::mem::zeroed();
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(libc::sched_getcpu().max(0) as usize, &mut one);
        if libc::sched_getaffinity(0, size, &mut before) != 0 || libc::sched_setaffinity(0, size, &one) != 0 {
            return None;
        }
        let out = f();
        libc::sched_setaffinity(0, size, &before);
        Some(out)
    }
}

/// The process's resident memory, in bytes (Linux: /proc/self/statm's second field, in pages).
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

/// Opens and drops Nim's package (its referee compiled once, then found in the sandbox's cache) and
/// the game made of it, 1,000 times: what a package costs must go with it.
fn packages_dropped(sandbox: &Arc<Sandbox>) {
    let dir = package_dir("nim");
    let open = || {
        let pkg = Package::load(sandbox.clone(), &dir).unwrap_or_else(|e| panic!("{e}"));
        let game = PackageGame::new(pkg).unwrap_or_else(|e| panic!("{e}"));
        std::hint::black_box(game.name().len() + game.builtin_names().len());
    };
    for _ in 0..100 {
        open();
    }
    let after_100 = resident();
    let t = Instant::now();
    for _ in 0..900 {
        open();
    }
    let each = t.elapsed() / 900;
    let after_1000 = resident();
    println!(
        "open and drop a package (Nim) 1,000 times: {each:.2?} each; resident memory after 100 {:.1} MiB, after \
         1,000 {:.1} MiB: {:+.1} MiB for 900 more (goal: flat)",
        after_100 as f64 / 1048576.0,
        after_1000 as f64 / 1048576.0,
        (after_1000 as f64 - after_100 as f64) / 1048576.0
    );
}

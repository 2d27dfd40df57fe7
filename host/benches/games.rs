//! `make bench`: how fast Arena plays, measured in one run on this machine.
//! - instantiating a player from its `InstancePre` (fresh store, pooling allocator);
//! - the per-call overhead of a decision (a component whose `keep` does nothing: lowering the turn
//!   state, the guarded call, lifting the answer);
//! - games per second of each game's strong sample player against itself as components and as the
//!   same Rust code compiled natively into the host: the ratio is the headline figure.
//!
//! - what fuel buys in time: a wasm loop against a loop of rule-checker calls (host calls are charged
//!   fuel so that spamming them costs the host no more time per unit of fuel than running wasm does);
//! - compiling in a child process under limits (what every submission gets) against in-process;
//! - a round-robin tournament with every game recorded in the results store (journal, writer thread,
//!   SQLite) against the same tournament unrecorded: the store's cost per game.
//!
//! Each figure is the median of several rounds; run it on a quiet machine.

use arena::games::fish::{Fish, Options};
use arena::games::santorini::Santorini;
use arena::games::yahtzee::{Yahtzee, YahtzeePlayer};
use arena::{Entry, Game, GameSetup, Limits, MatchSoFar, Sandbox};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn players_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    // target/<profile>/deps/<bench> → target/players
    exe.ancestors().nth(3).expect("target dir").join("players")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn entry<P>(name: &str, p: P) -> Arc<Entry<P>> {
    Arc::new(Entry { name: name.into(), source: name.into(), hash: None, player: p })
}

async fn games_per_second<G: Game>(game: &G, [a, b]: [&Arc<Entry<G::Player>>; 2], games: u64) -> (f64, u64) {
    let start = Instant::now();
    let mut fuel = 0;
    for seed in 0..games {
        let setup = GameSetup {
            id: format!("b{seed}"),
            seed,
            players: vec![a.clone(), b.clone()],
            so_far: MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() },
        };
        let o = game.play(setup).await;
        assert!(o.faults.is_empty(), "{:?}", o.faults);
        fuel += o.fuel.iter().sum::<u64>();
    }
    (games as f64 / start.elapsed().as_secs_f64(), fuel)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = players_dir();
    let sandbox = Arc::new(Sandbox::new(Limits::default()).expect("sandbox"));
    let game = Arc::new(Yahtzee::new(sandbox.clone()).expect("game"));
    let load = |name: &str| {
        let path = dir.join(name);
        let t = Instant::now();
        let (_, p) = game.load(&path).unwrap_or_else(|e| panic!("{e} (run `make players` first)"));
        (p, t.elapsed())
    };
    let (greedy, compile) = load("yahtzee-greedy.wasm");
    let (noop, _) = load("yahtzee-wat-badenum.wat");
    println!(
        "machine: {} cores; wasmtime 48, Cranelift, pooling allocator, fuel and epochs on",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("compile yahtzee-greedy.wasm (once per run):      {:>10.2?}", compile);
    // The same component through a cold and then a warm on-disk compile cache.
    let cache = std::env::temp_dir().join(format!("arena-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    for file in ["yahtzee-greedy.wasm", "yahtzee-js.wasm", "yahtzee-py.wasm"] {
        let mut took = vec![];
        for _ in ["cold", "warm"] {
            let s = Arc::new(Sandbox::new(Limits::default()).expect("sandbox").with_cache_dir(cache.clone()));
            let g = Yahtzee::new(s).expect("game");
            let t = Instant::now();
            g.load(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
            took.push(t.elapsed());
        }
        let ratio = took[0].as_secs_f64() / took[1].as_secs_f64().max(1e-9);
        println!("load {file:<22} cold cache {:>10.2?}, warm {:>8.2?} ({ratio:.0}x)", took[0], took[1]);
    }
    let _ = std::fs::remove_dir_all(&cache);

    // Instantiation from InstancePre, into a fresh store each time.
    let YahtzeePlayer::Wasm(pre) = &greedy else { unreachable!() };
    let mut rounds = vec![];
    for _ in 0..5 {
        let n = 200;
        let t = Instant::now();
        for i in 0..n {
            let mut store = sandbox.store(i);
            store.set_fuel(u64::MAX / 2).unwrap();
            store.set_epoch_deadline(1_000_000);
            let _p = pre.instantiate_async(&mut store).await.expect("instantiate");
        }
        rounds.push(t.elapsed() / n as u32);
    }
    println!("instantiate from InstancePre (fresh store):      {:>10.2?}", median(rounds));

    // Per-call overhead: a component whose keep returns an empty list at once.
    let YahtzeePlayer::Wasm(noop_pre) = &noop else { unreachable!() };
    let view = first_keep();
    let arg = arena::games::yahtzee::bindings::wit::TurnState::from(&view);
    let mut store = sandbox.store(1);
    store.set_fuel(u64::MAX / 2).unwrap();
    store.set_epoch_deadline(1_000_000);
    let p = noop_pre.instantiate_async(&mut store).await.unwrap();
    let mut rounds = vec![];
    for _ in 0..5 {
        let n = 20_000;
        let t = Instant::now();
        for _ in 0..n {
            store.set_fuel(1_000_000).unwrap();
            store.set_epoch_deadline(1_000_000);
            let _ = p.call_keep(&mut store, &arg).await.unwrap();
        }
        rounds.push(t.elapsed() / n);
    }
    let overhead = median(rounds);
    println!("per-call overhead of a decision (no-op keep):    {:>10.2?}", overhead);

    // Native strategy cost of one decision, for scale.
    let t = Instant::now();
    let n = 2_000;
    for _ in 0..n {
        std::hint::black_box(yahtzee_bots::greedy::keep(std::hint::black_box(&view)));
    }
    println!("native greedy keep decision:                     {:>10.2?}", t.elapsed() / n);

    // Games per second, the strong sample player against itself, as components and natively.
    println!();
    println!("{:<10} {:>16} {:>16} {:>8} {:>16}", "game", "wasm games/s", "native games/s", "ratio", "fuel per game");
    let ya = entry("a", greedy);
    let yb = entry("b", game.load(&dir.join("yahtzee-greedy.wasm")).unwrap().1);
    let (na, nb) = (entry("na", Yahtzee::native("greedy").unwrap()), entry("nb", Yahtzee::native("greedy").unwrap()));
    compare(&*game, "yahtzee", [&ya, &yb], [&na, &nb], 20).await;

    let santorini = Santorini::new(sandbox.clone()).expect("santorini");
    let load = |name: &str| santorini.load(&dir.join(name)).unwrap_or_else(|e| panic!("{e}")).1;
    let (sa, sb) = (entry("a", load("santorini-minimax.wasm")), entry("b", load("santorini-minimax.wasm")));
    let (na, nb) =
        (entry("na", Santorini::native("minimax").unwrap()), entry("nb", Santorini::native("minimax").unwrap()));
    compare(&santorini, "santorini", [&sa, &sb], [&na, &nb], 10).await;

    let fish = Fish::new(sandbox.clone(), Options::default()).expect("fish");
    let load = |name: &str| fish.load(&dir.join(name)).unwrap_or_else(|e| panic!("{e}")).1;
    let (fa, fb) = (entry("a", load("fish-greedy.wasm")), entry("b", load("fish-greedy.wasm")));
    let (na, nb) = (entry("na", Fish::native("greedy").unwrap()), entry("nb", Fish::native("greedy").unwrap()));
    compare(&fish, "fish", [&fa, &fb], [&na, &nb], 20).await;

    fuel_prices(&sandbox, &dir).await;
    rule_checker_prices();
    compile_in_child(&dir);
    package_game(&sandbox, &dir).await;
    store_overhead(&game, &dir).await;
}

/// A Yahtzee turn state at its first `keep`.
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

/// The Yahtzee WAT sample player with `keep`'s body replaced.
fn yahtzee_wat(keep_body: &str) -> String {
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../sample-players/wat/yahtzee-wat-loop.wat");
    let src = std::fs::read_to_string(&sample).expect("the WAT sample player");
    src.replacen("      ;; never returns\n      (loop $forever (br $forever))\n      unreachable\n", keep_body, 1)
}

/// Nanoseconds per 1,000 fuel: for a wasm loop, and for a loop of calls to the rule checker `score`.
async fn fuel_prices(sandbox: &Arc<Sandbox>, dir: &std::path::Path) {
    let game = Yahtzee::new(sandbox.clone()).expect("game");
    let tmp = tempfile::tempdir().expect("temp dir");
    let spam = tmp.path().join("spam.wat");
    let call = "(call 0 (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) \
                (i32.const 0) (i32.const 0) (i32.const 32))";
    std::fs::write(&spam, yahtzee_wat(&format!("(loop $spam {call} (br $spam)) unreachable\n"))).expect("write");
    let view = first_keep();
    let arg = arena::games::yahtzee::bindings::wit::TurnState::from(&view);
    let fuel = 100_000_000;
    let mut prices = vec![];
    for path in [dir.join("yahtzee-wat-loop.wat"), spam] {
        let YahtzeePlayer::Wasm(pre) = game.load(&path).expect("load").1 else { unreachable!() };
        let mut rounds = vec![];
        for i in 0..5 {
            let mut store = sandbox.store(i);
            store.set_fuel(u64::MAX / 2).unwrap();
            store.set_epoch_deadline(1_000_000);
            let p = pre.instantiate_async(&mut store).await.expect("instantiate");
            store.set_fuel(fuel).unwrap();
            let t = Instant::now();
            let r = p.call_keep(&mut store, &arg).await;
            rounds.push(t.elapsed());
            assert!(r.is_err() && store.get_fuel().unwrap() == 0, "the loop runs out of fuel");
        }
        prices.push(median(rounds).as_nanos() as f64 / (fuel / 1_000) as f64);
    }
    println!();
    println!(
        "fuel in time: a wasm loop {:.1} ns per 1,000 fuel; a loop of rule-checker calls {:.1} ns per 1,000 fuel \
         ({:.2}x)",
        prices[0],
        prices[1],
        prices[1] / prices[0]
    );
}

/// The host work behind each rule checker, natively (the host function alone, without crossing from
/// wasm), in ns per 1,000 fuel charged for it: compare with the wasm loop's figure.
fn rule_checker_prices() {
    use arena::games::{fish::bindings as fb, santorini::bindings as sb, yahtzee::bindings as yb};
    use arena::sandbox::{HOST_CALL_FUEL, PlayerState};
    use fb::arena::fish::rules::Host as _;
    use sb::arena::santorini::rules::Host as _;
    use yb::arena::yahtzee::rules::Host as _;
    let mut host = PlayerState::new(&Limits::default(), 0);
    let mut price = |name: &str, f: &mut dyn FnMut(&mut PlayerState) -> usize| {
        let n = 20_000;
        let (mut items, mut fuel) = (0, 0);
        let t = Instant::now();
        for _ in 0..n {
            items += std::hint::black_box(f(&mut host));
            fuel += host.take_owed() + HOST_CALL_FUEL;
        }
        let ns = t.elapsed().as_nanos() as f64;
        println!(
            "  {name:<36} {:>7.0} ns a call, {:>6} fuel a call: {:>5.1} ns per 1,000 fuel",
            ns / n as f64,
            fuel / n,
            ns / (fuel / 1_000) as f64
        );
        items
    };
    println!("host work of the rule checkers, natively:");
    let mut card = yahtzee_rules::Scorecard::default();
    card.boxes[yahtzee_rules::Category::Chance.index()] = Some(20);
    let wcard = yb::wit::Scorecard::from(&card);
    price("yahtzee score (full house)", &mut |h| {
        usize::from(h.score(wcard.clone(), vec![3, 3, 3, 5, 5], yb::wit::Category::FullHouse).is_some())
    });
    // Santorini after the placements and ten turns, the first legal turn each time.
    let mut s = santorini_rules::State::new();
    for cell in [(1, 1), (3, 3), (1, 3), (3, 1)] {
        s = s.place(santorini_rules::Cell { row: cell.0, col: cell.1 }).expect("placement");
    }
    for _ in 0..10 {
        s = s.apply(s.legal_turns()[0]);
    }
    let ws = sb::state_to_wit(&s, 0);
    price("santorini legal-turns (mid-game)", &mut |h| h.legal_turns(ws.clone()).len());
    let board = fish_rules::Board::generate(3, 5, 5, 2).expect("board");
    let mut f = fish_rules::State::new(board, 2).expect("state");
    while f.phase == fish_rules::Phase::Placement {
        f = f.place(f.legal_placements()[0]).expect("placement");
    }
    let wf = fb::state(&f);
    price("fish legal-moves (after placement)", &mut |h| h.legal_moves(wf.clone()).len());
}

/// A packaged game (Nim, `games/nim`) driven through its referee component with dynamic values: games
/// per second, and the time of one decision (the referee's `requests`, the player's call, the referee's
/// `apply`: three guarded calls with their values lowered and lifted as `Val`s).
async fn package_game(sandbox: &Arc<Sandbox>, dir: &std::path::Path) {
    use arena::package::Package;
    let pkg_dir = tempfile::tempdir().expect("temp dir");
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/nim");
    std::fs::copy(src.join("game.toml"), pkg_dir.path().join("game.toml")).expect("manifest");
    std::fs::copy(dir.join("nim-referee.wasm"), pkg_dir.path().join("referee.wasm")).expect("referee");
    let pkg = Package::load(sandbox.clone(), pkg_dir.path()).expect("the Nim package");
    let optimal = dir.join("nim-optimal.wasm");
    let players = [pkg.load_player("a", &optimal).expect("player"), pkg.load_player("b", &optimal).expect("player")];
    let mut rounds = vec![];
    let (games, mut decisions) = (200u64, 0);
    for _ in 0..3 {
        decisions = 0;
        let t = Instant::now();
        for seed in 0..games {
            let o = pkg.play(&players, seed, &Default::default()).await;
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
    // instances and the start are spread over 2,000 decisions: the referee's `requests`, two player
    // calls and two `apply`s a round.
    let pkg_dir = tempfile::tempdir().expect("temp dir");
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/pennies");
    std::fs::copy(src.join("game.toml"), pkg_dir.path().join("game.toml")).expect("manifest");
    std::fs::copy(dir.join("pennies-referee.wasm"), pkg_dir.path().join("referee.wasm")).expect("referee");
    let mut pkg = Package::load(sandbox.clone(), pkg_dir.path()).expect("the pennies package");
    pkg.set_options(&["rounds=1000".to_string()]).expect("rounds");
    let players = [
        pkg.load_player("a", &dir.join("pennies-heads.wasm")).expect("player"),
        pkg.load_player("b", &dir.join("pennies-alternate.wasm")).expect("player"),
    ];
    let mut rounds = vec![];
    for seed in 0..3 {
        let t = Instant::now();
        let o = pkg.play(&players, seed, &Default::default()).await;
        rounds.push(t.elapsed() / o.calls().len() as u32);
    }
    println!(
        "pennies package, one game of 1,000 rounds: {:.2?} a decision (steady state; a typed call is the \
         per-call overhead above)",
        median(rounds)
    );
}

/// Loading a component compiled in a child process under the compile limits, against in-process.
fn compile_in_child(dir: &std::path::Path) {
    use arena::sandbox::{CompileLimits, Compiler};
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    for file in ["yahtzee-greedy.wasm", "yahtzee-py.wasm"] {
        let mut took = vec![];
        for child in [false, true] {
            let mut s = Sandbox::new(Limits::default()).expect("sandbox");
            if child {
                s = s.with_compiler(Compiler::Child(exe.clone()), CompileLimits::default());
            }
            let g = Yahtzee::new(Arc::new(s)).expect("game");
            let t = Instant::now();
            g.load(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
            took.push(t.elapsed());
        }
        let ratio = took[1].as_secs_f64() / took[0].as_secs_f64();
        println!(
            "compile {file:<19} in-process {:>10.2?}, in a child under limits {:>10.2?} ({ratio:.2}x)",
            took[0], took[1]
        );
    }
}

/// A round robin of six `yahtzee-random` components (the fastest player, so the store's share is
/// largest), recorded in a fresh store and not, three rounds interleaved.
async fn store_overhead(game: &Arc<Yahtzee>, dir: &std::path::Path) {
    use arena::store::{Store, StoredSettings};
    use arena::tournament::{Format, Settings};
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
        let r = arena::tournament::run(game.clone(), entries.clone(), Limits::default(), &s).await;
        plain.push(t.elapsed());
        games = r.games.len();

        let mut s = Settings::new(Format::RoundRobin, k, seed);
        let t = Instant::now();
        let settings = StoredSettings { limits: Limits::default(), options: serde_json::Value::Null };
        let id =
            store.create_tournament("yahtzee", (Format::RoundRobin, k, seed), &settings, &versions).expect("create");
        let journal = store.journal(id, &versions).expect("journal");
        s.journal = Some(journal.clone());
        let r = arena::tournament::run(game.clone(), entries.clone(), Limits::default(), &s).await;
        journal.finish().expect("recorded");
        store.finish_tournament(id, &r).expect("finish");
        stored.push(t.elapsed());
    }
    let (p, st) = (median(plain), median(stored));
    let rate = |d: Duration| games as f64 / d.as_secs_f64();
    println!();
    println!(
        "round robin of 6 yahtzee-random, {games} games: unrecorded {:.0} games/s, recorded in the store {:.0} games/s \
         ({:.2}x the time)",
        rate(p),
        rate(st),
        st.as_secs_f64() / p.as_secs_f64()
    );
}

/// Median games per second of `wasm` and of `native` (three rounds each, interleaved) and their ratio.
async fn compare<G: Game>(
    game: &G,
    name: &str,
    wasm: [&Arc<Entry<G::Player>>; 2],
    native: [&Arc<Entry<G::Player>>; 2],
    games: u64,
) {
    let (mut w, mut n, mut fuel) = (vec![], vec![], 0);
    for _ in 0..3 {
        let (g, f) = games_per_second(game, wasm, games).await;
        w.push(g);
        fuel = f;
        n.push(games_per_second(game, native, games).await.0);
    }
    w.sort_by(f64::total_cmp);
    n.sort_by(f64::total_cmp);
    println!("{name:<10} {:>16.1} {:>16.1} {:>7.2}x {:>16}", w[1], n[1], n[1] / w[1], fuel / games);
}

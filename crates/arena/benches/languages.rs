//! `make bench` (languages): what a budget means in each language. Every language's Yahtzee sample plays
//! one strategy (yahtzee-c's; `languages::every_languages_yahtzee_sample_plays_the_same_game_seed_for_seed`
//! holds them to the same decisions), so what differs is the language alone: its component's size, its
//! compile time (cold, and from the on-disk cache), the fuel its runtime burns to start (the game's first
//! call, which instantiation is paid from) and per decision (`keep` and `choose`, host calls to the rule
//! checker included), and the wall time of a decision; each beside Rust's. Self-play games of the
//! package, as a tournament plays them.

// The allocator the `arena` binary runs with (mimalloc), so that both sides of a ratio use it.
use arena as _;
use arena_core::{Finals, Limits, MatchSoFar};
use arena_play::{Package, PackagePlayer};
use arena_sandbox::Sandbox;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// (language, the player's file in target/players), Rust first: the others are measured against it.
const SAME_STRATEGY: [(&str, &str); 7] = [
    ("Rust", "yahtzee-rust.wasm"),
    ("C", "yahtzee-c.wasm"),
    ("C++", "yahtzee-cpp.wasm"),
    ("Zig", "yahtzee-zig.wasm"),
    ("Go", "yahtzee-go.wasm"),
    ("JavaScript", "yahtzee-js.wasm"),
    ("Python", "yahtzee-py.wasm"),
];
/// Self-play games per language (seeds 1..=GAMES).
const GAMES: u64 = 20;

/// `target/`: the bench runs as target/<profile>/deps/<bench>.
fn target_dir() -> PathBuf {
    std::env::current_exe().expect("bench path").ancestors().nth(3).expect("target dir").to_path_buf()
}

fn median<T: Ord + Copy>(mut v: Vec<T>) -> T {
    v.sort();
    v[v.len() / 2]
}

fn mean(v: &[u64]) -> u64 {
    v.iter().sum::<u64>() / v.len().max(1) as u64
}

/// What one language's player cost.
struct Measured {
    size: u64,
    cold: Duration,
    warm: Duration,
    /// The game's first call of a seat (its runtime's start-up and the instantiation are paid from it).
    first_fuel: u64,
    /// Mean fuel of a `keep` (the language's own work alone) and of a `choose` (which asks the rule
    /// checker up to 13 times, each call billed as the fuel it burns in the checker's instance), and the
    /// mean time on the clock of a decision (either).
    keep: u64,
    choose: u64,
    micros: u64,
    /// A whole self-play game's wall time (both seats, the referee, the host), median.
    game: Duration,
}

/// A sandbox that keeps compiled components in `cache`.
fn sandbox(cache: &Path) -> Arc<Sandbox> {
    Arc::new(Sandbox::new(Limits::default()).expect("sandbox").with_cache_dir(cache.to_path_buf()))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let players = target_dir().join("players");
    let package = target_dir().join("packages/yahtzee");
    assert!(package.join("game.toml").is_file(), "{} is missing: run `make players` first", package.display());
    let cache = std::env::temp_dir().join(format!("arena-bench-languages-{}", std::process::id()));
    let mut rows = Vec::new();
    for (lang, file) in SAME_STRATEGY {
        let path = players.join(file);
        let size =
            std::fs::metadata(&path).unwrap_or_else(|e| panic!("{}: {e} (run `make players`)", path.display())).len();
        // Cold: compiled into an empty cache; warm: loaded from it by a new sandbox.
        let _ = std::fs::remove_dir_all(&cache);
        let mut took = Vec::new();
        let mut player: Option<(Package, Arc<PackagePlayer>)> = None;
        for _ in ["cold", "warm"] {
            let pkg = Package::load(sandbox(&cache), &package).unwrap_or_else(|e| panic!("{e}"));
            let t = Instant::now();
            let p = pkg.load_player(lang, &path).unwrap_or_else(|e| panic!("{e}"));
            took.push(t.elapsed());
            player = Some((pkg, p));
        }
        let (pkg, p) = player.expect("loaded");
        let (mut first, mut keep, mut choose, mut micros, mut games) = (vec![], vec![], vec![], vec![], vec![]);
        for seed in 1..=GAMES {
            let so_far = MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() };
            let seats = [p.clone(), p.clone()];
            let names = [format!("{lang} 1"), format!("{lang} 2")];
            let t = Instant::now();
            let o = pkg.play_as(&seats, &names, seed, &so_far, Finals::Board).await;
            games.push(t.elapsed());
            assert!(o.faults.is_empty() && o.game_fault.is_none(), "{lang}: {:?} {:?}", o.faults, o.game_fault);
            for seat in 0..2 {
                let calls: Vec<_> = o.log.iter().filter(|c| c.seat == seat).collect();
                first.push(calls.first().map_or(0, |c| c.fuel));
                for c in &calls {
                    match c.call.as_ref() {
                        "keep" => keep.push(c.fuel),
                        "choose" => choose.push(c.fuel),
                        _ => continue,
                    }
                    micros.push(c.micros);
                }
            }
        }
        rows.push((
            lang,
            Measured {
                size,
                cold: took[0],
                warm: took[1],
                first_fuel: median(first),
                keep: mean(&keep),
                choose: mean(&choose),
                micros: mean(&micros),
                game: median(games),
            },
        ));
    }
    let _ = std::fs::remove_dir_all(&cache);
    let rust = &rows[0].1;
    println!(
        "languages: one Yahtzee strategy in each ({GAMES} self-play games a language): fuel of the first call \
         (start-up), the mean fuel of a `keep` (the language's own work) and of a `choose` (with up to 13 calls \
         to the rule checker), the mean time of a decision; compile times and a whole game's wall time, medians"
    );
    println!(
        "  {:<10} {:>9} {:>12} {:>9} {:>10} {:>9} {:>7} {:>9} {:>7} {:>7} {:>9} {:>7}",
        "language",
        "size",
        "compile cold",
        "warm",
        "first call",
        "keep",
        "x Rust",
        "choose",
        "x Rust",
        "us/dec",
        "game",
        "x Rust"
    );
    for (lang, m) in &rows {
        let size = if m.size >= 1 << 20 {
            format!("{:.1} MB", m.size as f64 / (1 << 20) as f64)
        } else {
            format!("{:.1} KB", m.size as f64 / 1024.0)
        };
        let ratio = |a: u64, b: u64| a as f64 / b.max(1) as f64;
        println!(
            "  {:<10} {:>9} {:>12.2?} {:>9.2?} {:>10} {:>9} {:>6.1}x {:>9} {:>6.1}x {:>7} {:>9.2?} {:>6.1}x",
            lang,
            size,
            m.cold,
            m.warm,
            m.first_fuel,
            m.keep,
            ratio(m.keep, rust.keep),
            m.choose,
            ratio(m.choose, rust.choose),
            m.micros,
            m.game,
            m.game.as_secs_f64() / rust.game.as_secs_f64().max(1e-9)
        );
    }
    let worst = rows.iter().map(|(_, m)| m.keep.max(m.choose)).max().unwrap_or(0);
    let limits = Limits::default();
    println!(
        "  the default budget ({} fuel a call) is {:.0}x the costliest language's decision; its first call ({} fuel) \
         {:.0}x the costliest start-up",
        limits.fuel,
        limits.fuel as f64 / worst.max(1) as f64,
        limits.first_fuel,
        limits.first_fuel as f64 / rows.iter().map(|(_, m)| m.first_fuel).max().unwrap_or(1).max(1) as f64
    );
}

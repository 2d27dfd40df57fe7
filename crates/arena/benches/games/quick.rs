//! Quick code (`Tier::Quick`: compiled without optimisation, what a validation game plays) against the
//! optimised code games are played with: compiling the 18 MB Python player in a child under the compile
//! limits (its time and the child's CPU), and the same games played by each, fuel compared.

use super::{one_game, package, play, players_dir};
use arena_core::Limits;
use arena_sandbox::{CompileLimits, Compiler, Sandbox, Tier};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// CPU time of this process's children that have ended.
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let u = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u
    };
    let t = |v: libc::timeval| Duration::from_secs(v.tv_sec as u64) + Duration::from_micros(v.tv_usec as u64);
    t(u.ru_utime) + t(u.ru_stime)
}

/// Per tier: the compile's wall and CPU time, then for each game (the Python player against greedy,
/// greedy against itself) the median time of its games and their fuel.
pub async fn compare() {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let games: [(&str, [&str; 2]); 2] =
        [("yahtzee-py", ["yahtzee-py", "yahtzee-greedy"]), ("yahtzee-greedy", ["yahtzee-greedy", "yahtzee-greedy"])];
    println!();
    println!("quick code (what a validation game plays) against optimised code, compiled in a child, no cache:");
    let mut per_tier = vec![];
    for tier in [Tier::Optimized, Tier::Quick] {
        let s = Sandbox::new(Limits::default()).expect("sandbox");
        let (pkg, _) =
            package(&Arc::new(s.with_compiler(Compiler::Child(exe.clone()), CompileLimits::default())), "yahtzee");
        let load = |file: &str| {
            let path = players_dir().join(format!("{file}.wasm"));
            let bytes = std::fs::read(&path).expect("player");
            pkg.load_player_bytes_as(file, &path, &bytes, tier).unwrap_or_else(|e| panic!("{e}")).1
        };
        let (cpu, t) = (children_cpu(), Instant::now());
        let py = load("yahtzee-py");
        let (wall, cpu) = (t.elapsed(), children_cpu().saturating_sub(cpu));
        let greedy = load("yahtzee-greedy");
        let mut figures = vec![];
        for (_, names) in games {
            let seats: Vec<_> =
                names.iter().map(|n| if *n == "yahtzee-py" { py.clone() } else { greedy.clone() }).collect();
            let (mut times, mut fuel) = (vec![], vec![]);
            for seed in 0..5 {
                let t = Instant::now();
                let o = play(&pkg, &seats, seed, &one_game()).await;
                times.push(t.elapsed());
                assert!(o.faults.is_empty() && o.game_fault.is_none(), "{:?} {:?}", o.faults, o.game_fault);
                fuel.push(o.fuel);
            }
            times.sort();
            figures.push((times[2], fuel));
        }
        println!(
            "  {:<9} compile yahtzee-py.wasm {wall:>8.2?} ({cpu:.2?} of CPU); a game of yahtzee-py against greedy \
             {:>9.2?}, greedy against greedy {:>9.2?}",
            format!("{tier:?}"),
            figures[0].0,
            figures[1].0
        );
        per_tier.push((wall, cpu, figures));
    }
    let (o, q) = (&per_tier[0], &per_tier[1]);
    let same_fuel = o.2.iter().zip(&q.2).all(|(a, b)| a.1 == b.1);
    println!(
        "  quick against optimised: compile {:.2}x the time, {:.2}x the CPU; games {:.2}x (Python) and {:.2}x \
         (greedy) the time; the same fuel in every game: {same_fuel}",
        q.0.as_secs_f64() / o.0.as_secs_f64(),
        q.1.as_secs_f64() / o.1.as_secs_f64(),
        q.2[0].0.as_secs_f64() / o.2[0].0.as_secs_f64(),
        q.2[1].0.as_secs_f64() / o.2[1].0.as_secs_f64(),
    );
    assert!(same_fuel, "quick code must spend the optimised code's fuel");
}

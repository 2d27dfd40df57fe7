//! `arena check-game`: the conformance run of a game package (see `arena_service::check_game`), with
//! its figures per kind of game, and the first failing game with the command that plays it again.

use super::flags::{CacheArgs, GameArg, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{cores, runtime, sandbox};
use anyhow::Context;
use arena_service::check_game::{self, Case, Plan};
use arena_service::packages;
use arena_service::packages::Fuzz;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The package: its directory (with its game.toml, referee and sample players), or its name.
    #[arg(value_parser = parse_game_arg)]
    pub game: GameArg,
    /// Games per seat count, and per fuzzed seat at each seat count.
    #[arg(long, default_value_t = 20)]
    pub seeds: u64,
    /// The first seed; the games use this seed and the ones after it.
    #[arg(long, default_value_t = 1, value_parser = arena_core::parse_seed)]
    pub first_seed: u64,
    /// Games played at once (default: this machine's cores).
    #[arg(long)]
    pub parallel: Option<usize>,
    /// Play one game only (with --seed): at this seat count. A failure prints the flags that replay it.
    #[arg(long, requires = "seed")]
    pub seats: Option<usize>,
    /// The one game's seed (with --seats).
    #[arg(long, requires = "seats", value_parser = arena_core::parse_seed)]
    pub seed: Option<u64>,
    /// In the one game, the seat the fuzzer plays.
    #[arg(long, requires = "seats")]
    pub fuzz_seat: Option<usize>,
    /// In the one game, the fuzzer answers one request in this many (1: every request).
    #[arg(long, requires = "fuzz_seat", default_value_t = 1)]
    pub fuzz_every: u32,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    let limits = a.limits.to_limits()?;
    let compile = a.limits.to_compile_limits()?;
    let only = match (a.seats, a.seed) {
        (Some(seats), Some(seed)) => {
            Some(Case { seats, seed, fuzz: a.fuzz_seat.map(|seat| Fuzz { seat, every: a.fuzz_every }) })
        }
        _ => None,
    };
    let plan = Plan { seeds: a.seeds, first_seed: a.first_seed, parallel: a.parallel.unwrap_or_else(cores), only };
    let dir = a.game.dir.clone();
    let options = a.options.options.clone();
    runtime()?.block_on(async move {
        let sandbox = Arc::new(sandbox(limits, compile, a.cache.dir())?);
        // The manifest, the referee (compiled and checked under the referee limits) and the options.
        let game = packages::open(sandbox, &dir, &options)
            .await
            .with_context(|| format!("{}: the package does not load", dir.display()))?;
        let manifest = &game.package().manifest;
        println!("{}: package {} loads (referee sha256 {})", dir.display(), manifest.name, game.package().hash);
        check_game::check_package(&game, &plan).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
        println!("  its WIT defines the player and referee worlds the referee's requests name");
        let game = Arc::new(game);
        match only {
            Some(case) => println!("  one game: seed {} at {} seats{}", case.seed, case.seats, fuzzed(&case)),
            None => println!(
                "  {} games: sample players at {:?} seats, each game twice; then each seat fuzzed in turn",
                check_game::cases(&game, &plan).len(),
                game.package().manifest.seats()
            ),
        }
        let result = check_game::run(game.clone(), &plan).await;
        match result {
            Ok(played) => {
                println!(
                    "  {:<32} {:>6} {:>13} {:>22} {:>17}",
                    "games", "count", "steps", "referee fuel", "referee ms"
                );
                for f in check_game::figures(&played) {
                    println!(
                        "  {:<32} {:>6} {:>6.0} ({:>4}) {:>12.0} ({:>8}) {:>8.2} ({:>6.1})",
                        f.label, f.games, f.steps.0, f.steps.1, f.fuel.0, f.fuel.1, f.cpu_ms.0, f.cpu_ms.1
                    );
                    if f.refused > 0 {
                        println!("  {:<32} {} fuzzed answers refused, each cleanly", "", f.refused);
                    }
                }
                println!("  (mean, and the most, per game)");
                match only {
                    Some(_) => println!("ok: the game passes the check"),
                    None => println!("ok: {} passes the check", game.package().manifest.name),
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(f) => {
                println!("FAIL: seed {} at {} seats{}: {}", f.case.seed, f.case.seats, fuzzed(&f.case), f.why);
                let options: String = options.iter().map(|o| format!(" --option {o}")).collect();
                println!("  play it again: arena check-game {}{options} {}", dir.display(), f.case.flags());
                Ok(ExitCode::from(1))
            }
        }
    })
}

fn fuzzed(case: &Case) -> String {
    case.fuzz.map(|f| format!(", seat {} fuzzed (one answer in {})", f.seat, f.every)).unwrap_or_default()
}

//! `arena check`: a component loaded and validated, one game against the game's strongest sample
//! player, and what it imports, exports and spends.

use super::flags::{CacheArgs, GameArg, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{Plays, Setup};
use anyhow::Context;
use arena_core::{Entry, Limits};
use arena_service::engine::Compilation;
use arena_service::packages::LoadPlayers;
use arena_service::submit::against_strongest;
use arena_service::tournaments::seed_or_clock;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game: a package's name (see `arena games`) or its directory (with its game.toml).
    #[arg(long, value_parser = parse_game_arg)]
    pub game: GameArg,
    /// Seed of the game played; drawn from the clock if absent.
    #[arg(long, value_parser = arena_core::parse_seed)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Profile the player in its game, as `arena play --profile` does, into FILE.
    #[arg(long, value_name = "FILE")]
    pub profile: Option<PathBuf>,
    /// The player to try: a WebAssembly component (.wasm) or its text (.wat).
    pub file: PathBuf,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    super::game::run(a)
}

impl Plays for Args {
    fn setup(&self) -> anyhow::Result<Setup> {
        let setup = Setup::new(&self.game, &self.limits, &self.options, self.cache.dir())?;
        Ok(Setup { profiling: self.profile.is_some(), ..setup })
    }

    async fn with<G: LoadPlayers>(self, game: Arc<G>, limits: Limits) -> anyhow::Result<ExitCode> {
        let files = (self.file.as_path(), self.profile.as_deref());
        check(game, limits, seed_or_clock(self.seed), files, self.cache.dir().as_deref()).await
    }
}

async fn check<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    seed: u64,
    (file, profile): (&Path, Option<&Path>),
    cache_dir: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let g = game.clone();
    let f = file.to_path_buf();
    let what = format!("compiling {}", file.display());
    let (loaded, player) =
        super::progress::noting(&what, tokio::task::spawn_blocking(move || g.load(&f))).await.context("loading")??;
    println!("{}: a component implementing {}", file.display(), game.spec().world);
    println!("  size {} bytes, sha256 {}", loaded.size, loaded.hash);
    let kept = cache_dir.map(|d| format!(" (kept in {})", d.display())).unwrap_or_default();
    match loaded.compilation {
        Compilation::Compiled(t) => println!("  compiled in {} ms{kept}", t.as_millis()),
        Compilation::Quick(t) => println!(
            "  too costly to optimise within the compile limits: compiled as quick code in {} ms{kept}",
            t.as_millis()
        ),
        Compilation::FromDisk(t) => println!("  loaded from the compile cache in {} ms{kept}", t.as_millis()),
        Compilation::InMemory => println!("  already compiled in this run"),
    }
    if loaded.quick {
        println!(
            "  it plays quick code, as it is too costly to optimise within the compile limits (the same fuel, four \
             times the deadlines)"
        );
    }
    println!("  imports: {}", if loaded.imports.is_empty() { "nothing".into() } else { loaded.imports.join(", ") });
    println!("  exports: {}", loaded.exports.join(", "));
    let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("player").to_string();
    let mut me = vec![Arc::new(Entry { name, source: file.display().to_string(), hash: Some(loaded.hash), player })];
    let wanted: Vec<super::game::ProfileArg> =
        profile.map(|f| super::game::ProfileArg { seat: 0, file: f.to_path_buf() }).into_iter().collect();
    let sinks = super::game::profile_seats(&*game, &mut me, &wanted)?;
    let (best, o) = against_strongest(&*game, seed, me.remove(0)).await.map_err(anyhow::Error::msg)?;
    super::game::write_profiles(&o.players, &sinks)?;
    let mine: Vec<u64> = o.replay.iter().filter(|c| c.seat == 0).map(|c| c.fuel).collect();
    let max = mine.iter().copied().max().unwrap_or(0);
    println!("  played one game against builtin:{best} (seed {seed}): {} to {}", o.scores[0], o.scores[1]);
    println!(
        "  fuel: {} over {} calls, at most {} in one call (limits: {} per call, {} for the first)",
        o.fuel[0],
        mine.len(),
        max,
        limits.fuel,
        limits.first_fuel
    );
    match o.faults.iter().find(|f| f.player == o.players[0]) {
        Some(f) => {
            println!("  FAULT: {} in `{}`: {}", f.kind, f.call, f.reason);
            print!("{}", arena_service::submit::fault_details(&o, 0, "  "));
            println!("  this player would be banned");
            Ok(ExitCode::from(1))
        }
        None => {
            println!("  ok: no fault");
            Ok(ExitCode::SUCCESS)
        }
    }
}

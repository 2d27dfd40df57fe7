//! How the commands that play get their game: the package they name (or a stored tournament's), opened
//! with its options in a sandbox that compiles in a child process under limits, played here or (with
//! `--nats`) by workers; and the players they name, loaded.

use super::flags::{GameArg, LimitArgs, OptionArgs, PlayerArg, Source};
use anyhow::Context;
use arena_core::{Entry, Limits};
use arena_service::engine::{CompileLimits, Compiler, Sandbox};
use arena_service::packages::LoadPlayers;
use arena_service::venue::{Venue, WithGame, play_on};
use arena_service::{packages, players};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Where a command's game comes from and what it runs under.
pub struct Setup {
    /// The package's directory.
    pub dir: PathBuf,
    pub limits: Limits,
    /// The game's options, `NAME=VALUE`.
    pub options: Vec<String>,
    /// Where compiled components are kept.
    pub cache: Option<PathBuf>,
    pub compile: CompileLimits,
    /// Workers over NATS JetStream at this URL play the games.
    pub nats: Option<String>,
    /// Players are profiled: the sandbox samples them every [`PROFILE_TICK`].
    pub profiling: bool,
}

/// How often a profiled player's stack is sampled.
pub const PROFILE_TICK: std::time::Duration = std::time::Duration::from_micros(50);

impl Setup {
    /// The package named by `game`, under the limits and with the options given, played here.
    pub fn new(
        game: &GameArg,
        limits: &LimitArgs,
        options: &OptionArgs,
        cache: Option<PathBuf>,
    ) -> anyhow::Result<Setup> {
        Ok(Setup {
            dir: game.dir.clone(),
            limits: limits.to_limits()?,
            options: options.options.clone(),
            cache,
            compile: limits.to_compile_limits()?,
            nats: None,
            profiling: false,
        })
    }
}

/// A command that plays with a game, whichever way its games are played.
pub trait Plays: Sized {
    /// Where its game comes from.
    fn setup(&self) -> anyhow::Result<Setup>;
    /// What it does with the game loaded.
    #[allow(async_fn_in_trait)]
    async fn with<G: LoadPlayers>(self, game: Arc<G>, limits: Limits) -> anyhow::Result<ExitCode>;
}

/// Opens `cmd`'s game and runs it, its games played where `--nats` says (see [`play_on`]).
pub fn run(cmd: impl Plays) -> anyhow::Result<ExitCode> {
    let Setup { dir, limits, options, cache, compile, nats, profiling } = cmd.setup()?;
    runtime()?.block_on(async move {
        let venue = Venue::connect(nats.as_deref()).await?;
        let sandbox = sandbox(limits, compile, cache)?;
        let sandbox = Arc::new(if profiling { sandbox.profiling(PROFILE_TICK) } else { sandbox });
        let what = format!("compiling the game's referee ({})", dir.display());
        let game = super::progress::noting(&what, packages::open(sandbox, &dir, &options)).await?;
        play_on(&venue, Arc::new(game), &dir, limits, Command(cmd, limits)).await
    })
}

/// A command, as work that plays.
struct Command<P>(P, Limits);

impl<P: Plays> WithGame for Command<P> {
    type Output = ExitCode;
    async fn with<G: LoadPlayers + 'static>(self, game: Arc<G>) -> anyhow::Result<ExitCode> {
        self.0.with(game, self.1).await
    }
}

/// This machine's cores (2 when it cannot tell): games played at once by default.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
}

/// The runtime the commands that play run on.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    runtime_with(None)
}

/// [`runtime`] with `threads` worker threads (by default, one a core).
pub fn runtime_with(threads: Option<usize>) -> anyhow::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = threads {
        builder.worker_threads(n);
    }
    builder.enable_all().build().context("starting the runtime")
}

/// A sandbox under `limits` that compiles every component in a child process of this executable under
/// `compile`, keeping compiled components in `cache`.
pub fn sandbox(limits: Limits, compile: CompileLimits, cache: Option<PathBuf>) -> anyhow::Result<Sandbox> {
    let exe = std::env::current_exe().context("cannot find the arena executable to run compiles in")?;
    let sandbox = Sandbox::new(limits)?.with_compiler(Compiler::Child(exe), compile);
    Ok(match cache {
        Some(dir) => sandbox.with_cache_dir(dir),
        None => sandbox,
    })
}

/// Loads every player named on the command line (each distinct file compiled once, in parallel).
pub async fn load_players<G: LoadPlayers>(game: &Arc<G>, raw: &[String]) -> anyhow::Result<Vec<Arc<Entry<G::Player>>>> {
    let players = PlayerArg::parse_all(raw)?
        .into_iter()
        .map(|a| {
            let source = match a.source {
                Source::Builtin(b) => players::Source::Builtin(b),
                Source::File(p) => players::Source::File(p),
            };
            (a.name, source)
        })
        .collect();
    super::progress::noting("compiling the players", players::load(game, players)).await
}

/// `--profile SEAT=FILE`: a seat whose player is profiled, and where its profile is written.
#[derive(Debug, Clone)]
pub struct ProfileArg {
    pub seat: usize,
    pub file: PathBuf,
}

pub fn parse_profile_arg(s: &str) -> Result<ProfileArg, String> {
    let (seat, file) = s.split_once('=').ok_or_else(|| format!("`{s}`: give SEAT=FILE (e.g. 0=me.folded)"))?;
    let seat = seat.parse().map_err(|_| format!("`{seat}` is not a seat number (from 0)"))?;
    if file.is_empty() {
        return Err(format!("`{s}`: no file to write the profile to"));
    }
    Ok(ProfileArg { seat, file: file.into() })
}

/// The entries of the seats `--profile` names, profiled: each seat's sink, by seat.
pub fn profile_seats<G: LoadPlayers>(
    game: &G,
    entries: &mut [Arc<Entry<G::Player>>],
    profile: &[ProfileArg],
) -> anyhow::Result<Vec<(usize, PathBuf, arena_service::engine::ProfileSink)>> {
    let mut sinks = vec![];
    for p in profile {
        let Some(e) = entries.get(p.seat) else {
            anyhow::bail!(
                "--profile {}={}: a game of {} players has seats 0 to {}",
                p.seat,
                p.file.display(),
                entries.len(),
                entries.len() - 1
            );
        };
        let Some((player, sink)) = game.profiled(&e.player) else {
            anyhow::bail!("--profile: games played by workers are not profiled; play here");
        };
        entries[p.seat] =
            Arc::new(Entry { name: e.name.clone(), source: e.source.clone(), hash: e.hash.clone(), player });
        sinks.push((p.seat, p.file.clone(), sink));
    }
    Ok(sinks)
}

/// Writes each profiled seat's samples to its file (folded stacks, fuel-weighted) and tells what they
/// found: the fuel sampled and the costliest functions.
pub fn write_profiles(
    names: &[String],
    sinks: &[(usize, PathBuf, arena_service::engine::ProfileSink)],
) -> anyhow::Result<()> {
    use arena_service::tournaments::report::thousands;
    for (seat, file, sink) in sinks {
        let p = sink.lock().unwrap_or_else(|e| e.into_inner()).clone();
        std::fs::write(file, p.folded()).with_context(|| format!("{}: cannot write", file.display()))?;
        let (fuel, samples) = p.sampled();
        let name = names.get(*seat).map_or("?", String::as_str);
        eprintln!(
            "profile of seat {seat} ({name}) written to {}: {} fuel over {samples} samples, one about every {} µs of its running wasm ({} fuel in calls too short for a sample)",
            file.display(),
            thousands(fuel),
            PROFILE_TICK.as_micros(),
            thousands(p.unsampled_fuel)
        );
        let functions = p.functions();
        if functions.is_empty() {
            eprintln!("  no sample: its calls were all shorter than a tick");
            continue;
        }
        eprintln!("  {:>14} {:>14}  function", "self fuel", "total fuel");
        for f in functions.iter().take(10) {
            eprintln!("  {:>14} {:>14}  {}", thousands(f.self_fuel), thousands(f.total_fuel), f.function);
        }
    }
    Ok(())
}

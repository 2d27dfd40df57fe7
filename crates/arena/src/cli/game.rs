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
}

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
    let Setup { dir, limits, options, cache, compile, nats } = cmd.setup()?;
    runtime()?.block_on(async move {
        let venue = Venue::connect(nats.as_deref()).await?;
        let sandbox = Arc::new(sandbox(limits, compile, cache)?);
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

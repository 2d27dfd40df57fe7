//! `arena submit`: a player validated (a component of the game's world, under the size cap, compiling
//! and playing one game against the strongest sample player without a fault) and registered as the
//! next version of its name: in the local store, or with `--server`, in a web arena through its API.

use super::client;
use super::flags::{DataArgs, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{Plays, Setup, runtime};
use anyhow::{Context, anyhow, bail};
use arena_core::{DataDir, Limits};
use arena_service::packages::LoadPlayers;
use arena_service::store::check_name;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game: a package's name (see `arena games`) or its directory; with --server, a game of
    /// that arena.
    #[arg(long)]
    pub game: String,
    /// Upload to a web arena (`arena serve`) at this URL instead of a local store: validated
    /// there, registered there under the token's account.
    #[arg(long, value_name = "URL", requires = "token")]
    pub server: Option<String>,
    /// The account's token for --server (or set ARENA_TOKEN).
    #[arg(long, env = "ARENA_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The player's name: 1 to 40 ASCII letters, digits, `-`, `_` or `.`.
    #[arg(long)]
    pub name: String,
    /// Largest file accepted, in MiB.
    #[arg(long, default_value_t = 32)]
    pub max_size_mb: u64,
    /// Seed of the validation game.
    #[arg(long, default_value_t = 1, value_parser = arena_core::parse_seed)]
    pub seed: u64,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    /// The player: a WebAssembly component (.wasm) or its text (.wat) implementing the game's player world.
    pub file: PathBuf,
}

/// `arena submit`: to a web arena with `--server`, else into the local store.
pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(url) = &a.server {
        let upload = client::Upload {
            game: &a.game,
            name: &a.name,
            file: &a.file,
            token: a.token.as_deref().unwrap_or(""),
            max_size_mb: a.max_size_mb,
        };
        return runtime()?.block_on(client::submit(url, upload));
    }
    super::game::run(a)
}

impl Plays for Args {
    fn setup(&self) -> anyhow::Result<Setup> {
        let game = parse_game_arg(&self.game).map_err(anyhow::Error::msg)?;
        let mut s = Setup::new(&game, &self.limits, &self.options, None)?;
        s.cache = Some(DataDir::new(&self.data.dir).compiled());
        Ok(s)
    }

    async fn with<G: LoadPlayers>(self, game: Arc<G>, _: Limits) -> anyhow::Result<ExitCode> {
        let s = SubmitArgs {
            name: &self.name,
            file: &self.file,
            max_size_mb: self.max_size_mb,
            seed: self.seed,
            data: &self.data.dir,
        };
        submit(game, s).await
    }
}

/// What a local submission is made of.
pub struct SubmitArgs<'a> {
    pub name: &'a str,
    pub file: &'a Path,
    pub max_size_mb: u64,
    pub seed: u64,
    pub data: &'a Path,
}

async fn submit<G: LoadPlayers>(game: Arc<G>, s: SubmitArgs<'_>) -> anyhow::Result<ExitCode> {
    let file = s.file;
    check_name(s.name).map_err(|e| anyhow!("{e}; nothing was stored"))?;
    let meta = std::fs::metadata(file).with_context(|| format!("{}: cannot read", file.display()))?;
    if !meta.is_file() {
        bail!("{}: not a file", file.display());
    }
    let cap = s.max_size_mb.saturating_mul(1 << 20);
    if meta.len() > cap {
        bail!(
            "{}: {} bytes is over the size cap of {} MiB (--max-size-mb); nothing was stored",
            file.display(),
            meta.len(),
            s.max_size_mb
        );
    }
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let label = file.display().to_string();
    let sub = arena_service::submit::Submission { name: s.name, bytes: bytes.into(), label: &label, seed: s.seed };
    let what = "compiling it and playing its validation game";
    let a = super::progress::noting(what, arena_service::submit::submit(game.clone(), s.data, sub, None)).await?;
    let v = &a.version;
    if a.unchanged {
        println!(
            "{}: identical to {} version {} of {} ({}); nothing new was stored",
            file.display(),
            v.name,
            v.version,
            v.game,
            short(&v.hash)
        );
    } else {
        let o = &a.validation;
        println!(
            "Submitted {} version {} for {} ({} bytes, sha256 {}){}",
            v.name,
            v.version,
            v.game,
            v.size,
            short(&v.hash),
            if a.new_player { ", a new player" } else { "" }
        );
        println!(
            "  validation game against {} (seed {}): {} to {}, {} fuel over {} calls",
            o.opponent, o.seed, o.scores[0], o.scores[1], o.fuel, o.calls
        );
        if o.quick {
            println!(
                "  played as quick code, compiled for it in {:.1} s (the same fuel); the code games are played \
                 with is compiled by its first game",
                o.compile_ms as f64 / 1000.0
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn short(hash: &str) -> &str {
    &hash[..hash.len().min(12)]
}

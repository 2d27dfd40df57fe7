//! `arena worker`: plays games for coordinators over NATS JetStream, stateless, as many as the cores.

use super::flags::CacheArgs;
use super::game::{cores, runtime_with};
use anyhow::Context;
use arena_service::engine::CompileLimits;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The NATS server, e.g. nats://127.0.0.1:4222 (started with `nats-server -js`).
    #[arg(long, value_name = "URL")]
    pub nats: String,
    /// Games played at once (default: the cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Where fetched packages and components and their compiled forms are kept [default: `worker`
    /// in the compile cache's directory: $ARENA_CACHE_DIR, else $XDG_CACHE_HOME/arena, else
    /// ~/.cache/arena].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Seconds the queue waits for a sign of life from a worker before giving its game to another (a
    /// worker says it is alive four times as often, so a killed worker's games are played again soon).
    #[arg(long, default_value_t = 2)]
    pub ack_wait_secs: u64,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe().context("cannot find the arena executable to run compiles in")?;
    let cfg = arena_service::venue::WorkerConfig {
        url: a.nats.clone(),
        jobs: a.jobs.unwrap_or_else(cores),
        dir: match a.dir {
            Some(d) => d,
            None => CacheArgs { cache_dir: None, no_cache: false }.dir().map(|d| d.join("worker")).context(
                "no cache directory for the worker's files ($ARENA_CACHE_DIR, $XDG_CACHE_HOME and $HOME are \
                 unset): give one with --dir",
            )?,
        },
        ack_wait: std::time::Duration::from_secs(a.ack_wait_secs.max(1)),
        exe,
        compile: CompileLimits::default(),
    };
    // A thread more than the games played at once: the heartbeats and the connection to NATS always
    // have one, however long the games run without waiting.
    runtime_with(Some(cfg.jobs.max(1) + 1))?.block_on(arena_service::venue::work(cfg))?;
    Ok(ExitCode::SUCCESS)
}

//! `arena serve`: the web arena over the results store, its tournaments played here or by workers.

use super::flags::{DataArgs, LimitArgs};
use super::game::{runtime, sandbox};
use arena_core::DataDir;
use arena_service::candidate::stored::Judging;
use arena_service::engine::CompileLimits;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub data: DataArgs,
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// Largest upload accepted, in MiB.
    #[arg(long, default_value_t = 32)]
    pub max_upload_mb: usize,
    /// Uploads (and scrimmages, forks and candidates' games) one account may start in an hour.
    #[arg(long, default_value_t = 30)]
    pub uploads_per_hour: usize,
    /// Uploads validated at once.
    #[arg(long, default_value_t = 2)]
    pub upload_workers: usize,
    /// Have the tournaments and scrimmages started here played by workers (`arena worker`) over
    /// NATS JetStream at this URL (uploads are still validated here).
    #[arg(long, value_name = "URL")]
    pub nats: Option<String>,
    /// Behind a reverse proxy: take a client's address from the last entry of `X-Forwarded-For`
    /// (for the caps kept per client) and cap connections in total only. Off by default: a
    /// client could then name any address it likes.
    #[arg(long)]
    pub trust_proxy: bool,
    /// Who may publish games to this arena (`arena publish`, the publish page).
    #[arg(long, value_enum, default_value_t = PublishersArg::Everyone)]
    pub publishers: PublishersArg,
    /// Game versions one account may publish in a day.
    #[arg(long, default_value_t = 10)]
    pub publishes_per_day: u32,
    /// The arena's address as its visitors reach it (for invitation links); an https address turns
    /// --secure-cookies on.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Mark cookies `Secure` (sent over TLS only): on by default when --public-url is https.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub secure_cookies: Option<bool>,
    /// Compiled code kept in memory, in MiB: past it, the components used least recently are let go
    /// of (and read from the disk cache when next needed).
    #[arg(long, default_value_t = arena_service::engine::CACHE_MEMORY_BYTES >> 20)]
    pub cache_memory_mb: u64,
    /// Candidate uploads: H0 of their test, the candidate at most this many Elo stronger.
    #[arg(long, default_value_t = Judging::default().bounds.elo0, allow_negative_numbers = true)]
    pub candidate_elo0: f64,
    /// Candidate uploads: H1 of their test, at least this many Elo stronger.
    #[arg(long, default_value_t = Judging::default().bounds.elo1, allow_negative_numbers = true)]
    pub candidate_elo1: f64,
    /// Candidate uploads: the most games one plays before it is left undecided (not promoted).
    #[arg(long, default_value_t = Judging::default().cap)]
    pub candidate_games: u32,
    /// A component to compile at start, in the background, so that uploads sharing its code compile
    /// only their own: a Python player (every one carries the same CPython) or a JavaScript one makes
    /// the first such upload's verdict come in seconds. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub warm: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Who may publish games.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum PublishersArg {
    /// Admin accounts only.
    Admins,
    /// Every account.
    Everyone,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    let limits = a.limits.to_limits()?;
    // A server's games are anyone's: its bound on what one game records may be lowered, never raised.
    let most = arena_core::Limits::default().game_record_bytes;
    if limits.game_record_bytes > most {
        anyhow::bail!(
            "--game-record-mb {}: a server may only lower the bound on what a game records (at most {})",
            limits.game_record_bytes >> 20,
            arena_core::bytes_text(most)
        );
    }
    for file in &a.warm {
        if !file.is_file() {
            anyhow::bail!("--warm {}: no such file", file.display());
        }
    }
    let memory = a.cache_memory_mb.max(1).saturating_mul(1 << 20);
    let compiled = DataDir::new(&a.data.dir).compiled();
    let sandbox = sandbox(limits, CompileLimits::default(), Some(compiled))?.with_cache_memory(memory);
    // The disk cache keeps what something here references: what a refused upload or an earlier run
    // left is swept.
    let swept = arena_service::compiled::sweep(&sandbox, &a.data.dir)?;
    if swept > 0 {
        tracing::info!("swept {swept} compiled component(s) nothing here references from the compile cache");
    }
    let sandbox = Arc::new(sandbox);
    let cfg = arena_web::Config {
        data: a.data.dir.clone(),
        listen: a.listen,
        limits,
        max_upload: a.max_upload_mb.saturating_mul(1 << 20),
        uploads_per_hour: a.uploads_per_hour,
        upload_workers: a.upload_workers,
        trust_proxy: a.trust_proxy,
        publishers: match a.publishers {
            PublishersArg::Admins => arena_web::Publishers::Admins,
            PublishersArg::Everyone => arena_web::Publishers::Everyone,
        },
        publishes_per_day: a.publishes_per_day,
        secure_cookies: a
            .secure_cookies
            .unwrap_or_else(|| a.public_url.as_deref().is_some_and(|u| u.starts_with("https://"))),
        public_url: a.public_url.clone(),
        warm: a.warm.clone(),
        candidates: Judging {
            bounds: arena_service::candidate::Bounds {
                elo0: a.candidate_elo0,
                elo1: a.candidate_elo1,
                ..Default::default()
            },
            cap: a.candidate_games,
        },
    };
    cfg.candidates.bounds.check().map_err(|e| anyhow::anyhow!("--candidate-elo0/--candidate-elo1: {e}"))?;
    runtime()?.block_on(async move {
        let venue = arena_service::venue::Venue::connect(a.nats.as_deref()).await?;
        arena_web::serve(arena_web::App::new(cfg, sandbox, venue)).await
    })?;
    Ok(ExitCode::SUCCESS)
}

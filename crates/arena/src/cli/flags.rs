//! Flag groups several commands share (the game, the data directory, the compile cache, the game's
//! options, the limits, the players), parsed by clap and then validated into settings (two steps, as
//! ripgrep does).

use arena_core::Limits;
use arena_service::engine::CompileLimits;
use arena_service::tournaments::Format;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// `--format`: a tournament format by its one name, each value with what it plays (a ladder is `arena
/// ladder`, not a format).
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = Format::ALL.map(|f| PossibleValue::new(f.as_str()).help(f.about()));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Format>())
}

/// The languages `arena new-game` writes a game's referee in.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameLang {
    Rust,
    Python,
    Js,
}

/// The languages `arena new` writes players in.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    Js,
    C,
    Cpp,
    Go,
    Zig,
}

/// A game package's directory, found from its name or given as a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameArg {
    pub dir: PathBuf,
}

pub fn parse_game_arg(s: &str) -> Result<GameArg, String> {
    arena_service::packages::locate(s).map(|dir| GameArg { dir })
}

/// The results store.
#[derive(Args, Debug, Clone)]
pub struct DataArgs {
    /// The data directory: the database, submitted components and their compiled forms.
    #[arg(long = "data", value_name = "DIR", default_value = "arena-data")]
    pub dir: PathBuf,
}

/// Where compiled components are kept across runs.
#[derive(Args, Debug, Clone)]
pub struct CacheArgs {
    /// Keep compiled components here [default: $ARENA_CACHE_DIR, else $XDG_CACHE_HOME/arena, else
    /// ~/.cache/arena].
    #[arg(long)]
    pub cache_dir: Option<std::path::PathBuf>,
    /// Compile every component afresh and keep nothing.
    #[arg(long)]
    pub no_cache: bool,
}

impl CacheArgs {
    /// The cache directory to use, if any.
    pub fn dir(&self) -> Option<std::path::PathBuf> {
        if self.no_cache {
            return None;
        }
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
        self.cache_dir
            .clone()
            .or_else(|| env("ARENA_CACHE_DIR"))
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("arena")))
            .or_else(|| env("HOME").map(|h| h.join(".cache").join("arena")))
    }
}

/// The game's options, as its package declares them (`arena games` lists them).
#[derive(Args, Debug, Clone)]
pub struct OptionArgs {
    /// A game option, NAME=VALUE (repeatable; see `arena games`).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Every limit can be overridden; the defaults are `Limits::default()`.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Fuel per call, about one unit per wasm instruction (default 200000000).
    #[arg(long)]
    pub fuel: Option<u64>,
    /// Fuel for the first call of a game, instantiation included (default 1000000000).
    #[arg(long)]
    pub first_fuel: Option<u64>,
    /// Wall-clock deadline per call, in milliseconds (default 1000).
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Wall-clock deadline for the first call of a game, in milliseconds (default 5000).
    #[arg(long)]
    pub first_timeout_ms: Option<u64>,
    /// Linear memory per player, in MiB (default 64).
    #[arg(long)]
    pub memory_mb: Option<u64>,
    /// The largest answer a call may return, and the largest arguments a player may pass to a host
    /// function, in KiB as the host holds them (default 64).
    #[arg(long)]
    pub answer_kb: Option<u64>,
    /// CPU time a whole game may use, its players and referee together, in seconds (default 300; a
    /// fraction is allowed); past it the game ends as a game fault.
    #[arg(long)]
    pub game_cpu_s: Option<f64>,
    /// What a whole game may record (its referee's events, views and drawings, its players' answers
    /// and output), in MiB (default 16); past it the game ends as a game fault.
    #[arg(long)]
    pub game_record_mb: Option<u64>,
    /// CPU time one compile of a component may use, in seconds (default 40).
    #[arg(long, env = "ARENA_COMPILE_CPU_S")]
    pub compile_cpu_s: Option<u64>,
    /// Memory (address space) one compile may use, in MiB (default 2048).
    #[arg(long)]
    pub compile_memory_mb: Option<u64>,
    /// The largest function a component may hold, in KiB of code (default 1024).
    #[arg(long)]
    pub compile_function_kb: Option<u64>,
}

impl LimitArgs {
    pub fn to_limits(&self) -> anyhow::Result<Limits> {
        let d = Limits::default();
        Ok(Limits {
            fuel: positive("fuel", self.fuel)?.unwrap_or(d.fuel),
            first_fuel: positive("first-fuel", self.first_fuel)?.unwrap_or(d.first_fuel),
            timeout: positive("timeout-ms", self.timeout_ms)?.map_or(d.timeout, Duration::from_millis),
            first_timeout: positive("first-timeout-ms", self.first_timeout_ms)?
                .map_or(d.first_timeout, Duration::from_millis),
            memory_bytes: positive("memory-mb", self.memory_mb)?.map_or(d.memory_bytes, |m| m.saturating_mul(1 << 20)),
            answer_bytes: positive("answer-kb", self.answer_kb)?.map_or(d.answer_bytes, |k| k.saturating_mul(1 << 10)),
            game_cpu: match self.game_cpu_s {
                None => d.game_cpu,
                Some(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Duration::from_secs_f64(s),
                Some(s) => anyhow::bail!("--game-cpu-s {s}: must be a number of seconds above 0"),
            },
            game_record_bytes: positive("game-record-mb", self.game_record_mb)?
                .map_or(d.game_record_bytes, |m| m.saturating_mul(1 << 20)),
            ..d
        })
    }

    /// What one compile may cost; the defaults are `CompileLimits::default()`.
    pub fn to_compile_limits(&self) -> anyhow::Result<CompileLimits> {
        let d = CompileLimits::default();
        Ok(CompileLimits {
            cpu: positive("compile-cpu-s", self.compile_cpu_s)?.map_or(d.cpu, Duration::from_secs),
            memory_bytes: positive("compile-memory-mb", self.compile_memory_mb)?
                .map_or(d.memory_bytes, |m| m.saturating_mul(1 << 20)),
            function_bytes: positive("compile-function-kb", self.compile_function_kb)?
                .map_or(d.function_bytes, |k| k.saturating_mul(1 << 10)),
        })
    }
}

/// A flag's value, refused when it is 0.
fn positive(name: &str, v: Option<u64>) -> anyhow::Result<Option<u64>> {
    match v {
        Some(0) => anyhow::bail!("--{name} must be greater than 0"),
        v => Ok(v),
    }
}

/// A player on the command line: `PATH`, `NAME=PATH` or `builtin:NAME`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerArg {
    pub name: String,
    pub source: Source,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    Builtin(String),
}

impl PlayerArg {
    pub fn parse(s: &str) -> anyhow::Result<PlayerArg> {
        let (name, rest) = match s.split_once('=') {
            Some((n, r)) if !n.is_empty() && !n.contains('/') => (Some(n.to_string()), r),
            _ => (None, s),
        };
        let source = match rest.strip_prefix("builtin:") {
            Some(b) => Source::Builtin(b.to_string()),
            None => Source::File(PathBuf::from(rest)),
        };
        let name = match (name, &source) {
            (Some(n), _) => n,
            (None, Source::Builtin(b)) => b.clone(),
            (None, Source::File(p)) => p
                .file_stem()
                .and_then(|s| s.to_str())
                .map(str::to_string)
                .ok_or_else(|| anyhow::anyhow!("{s}: cannot take a player name from this path; use NAME=PATH"))?,
        };
        arena_core::check_player_name(&name).map_err(|e| anyhow::anyhow!("{s}: {e} (name it with NAME=PATH)"))?;
        Ok(PlayerArg { name, source })
    }

    /// Parses every player and refuses duplicate names.
    pub fn parse_all(raw: &[String]) -> anyhow::Result<Vec<PlayerArg>> {
        let players = raw.iter().map(|s| PlayerArg::parse(s)).collect::<anyhow::Result<Vec<_>>>()?;
        for (i, p) in players.iter().enumerate() {
            if players[..i].iter().any(|q| q.name == p.name) {
                anyhow::bail!("two players are named `{}`; name them apart with NAME=PATH", p.name);
            }
        }
        Ok(players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_args() {
        let p = PlayerArg::parse("target/players/yahtzee-greedy.wasm").unwrap();
        assert_eq!(p.name, "yahtzee-greedy");
        let p = PlayerArg::parse("g2=a/b.wasm").unwrap();
        assert_eq!((p.name.as_str(), p.source), ("g2", Source::File("a/b.wasm".into())));
        let p = PlayerArg::parse("builtin:random").unwrap();
        assert_eq!((p.name.as_str(), p.source), ("random", Source::Builtin("random".into())));
        assert!(PlayerArg::parse_all(&["a.wasm".into(), "x/a.wasm".into()]).is_err());
        assert!(PlayerArg::parse("bad name=a.wasm").is_err());
    }
}

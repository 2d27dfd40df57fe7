//! Command-line flags, parsed by clap and then validated into settings (two steps, as ripgrep does).

use arena_sandbox::CompileLimits;

use arena_core::Limits;
use arena_tournament::Format;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(name = "arena", version, about = "Sandboxed tournaments between WebAssembly game-playing bots")]
#[command(after_help = "Examples (GAME is a game package's name, as `arena games` lists them, or its directory):\n  \
    arena games\n  \
    arena tournament --game GAME --format knockout target/players/*.wasm\n  \
    arena play --game GAME --seed 7 my-player.wasm builtin:random\n  \
    arena check --game GAME my-player.wasm\n  \
    arena new --game GAME --lang python my-player\n  \
    arena submit --game GAME --name alice my-player.wasm\n  \
    arena tournament --game GAME --format round-robin --registered\n  \
    arena leaderboard --game GAME")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game between the players given (as many as the game seats; see `arena games`) and show
    /// the final position.
    Play {
        /// A game: a package's name (see `arena games`) or its directory (with its game.toml).
        #[arg(long, value_parser = parse_game_arg)]
        game: GameArg,
        /// Show the game as this seat (from 0) saw it, its private events included, instead of as a
        /// spectator.
        #[arg(long, value_name = "SEAT")]
        seat: Option<usize>,
        /// Write the referee's drawing of the final position (as the spectators, or `--seat`, see it)
        /// to this SVG file; for games whose package draws.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Seed for dice and boards; drawn from the clock (and shown) if absent.
        #[arg(long)]
        seed: Option<u64>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        options: OptionArgs,
        #[command(flatten)]
        cache: CacheArgs,
        /// The players in seat order: PATH (a .wasm or .wat component), NAME=PATH, or builtin:NAME.
        #[arg(required = true)]
        players: Vec<String>,
    },
    /// Run a tournament.
    Tournament {
        /// A game: a package's name (see `arena games`) or its directory (with its game.toml).
        #[arg(long, value_parser = parse_game_arg)]
        game: GameArg,
        #[arg(long, value_enum, default_value = "knockout")]
        format: FormatArg,
        /// Games per match: k in best of k for a knockout (odd), the series length in a round robin.
        #[arg(long, default_value_t = 3)]
        games_per_match: u32,
        /// Seed for dice, boards and every game; drawn from the clock (and shown) if absent.
        #[arg(long)]
        seed: Option<u64>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Write one JSON Lines replay per game into this directory.
        #[arg(long)]
        replay_dir: Option<PathBuf>,
        /// Play the players registered for the game in the store (`arena submit`), latest versions,
        /// first come first served, and record every game there as it finishes.
        #[arg(long, conflicts_with = "players")]
        registered: bool,
        /// With --registered: take only the first N registered players.
        #[arg(long, requires = "registered")]
        max_players: Option<usize>,
        /// Have the games played by workers (`arena worker`) over NATS JetStream at this URL; the
        /// tournament's logic, its store and its output stay here.
        #[arg(long, value_name = "URL")]
        nats: Option<String>,
        #[command(flatten)]
        data: DataArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        options: OptionArgs,
        #[command(flatten)]
        cache: CacheArgs,
        /// Players in slot order: PATH, NAME=PATH, or builtin:NAME. The name defaults to the file stem.
        #[arg(required_unless_present = "registered")]
        players: Vec<String>,
    },
    /// Validate a player and register it in the store: it must be a component under the size cap that
    /// implements the game's world, compiles, and plays one game against the strongest built-in bot
    /// without a fault. Submitting a name again stores a new version; the latest version plays.
    Submit {
        /// A game: a package's name (see `arena games`) or its directory; with --server, a game of
        /// that arena.
        #[arg(long)]
        game: String,
        /// Upload to a web arena (`arena serve`) at this URL instead of a local store: validated
        /// there, registered there under the token's account.
        #[arg(long, value_name = "URL", requires = "token")]
        server: Option<String>,
        /// The account's token for --server (or set ARENA_TOKEN).
        #[arg(long, env = "ARENA_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// The player's name: 1 to 40 ASCII letters, digits, `-`, `_` or `.`.
        #[arg(long)]
        name: String,
        /// Largest file accepted, in MiB.
        #[arg(long, default_value_t = 32)]
        max_size_mb: u64,
        /// Seed of the validation game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        data: DataArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        options: OptionArgs,
        file: PathBuf,
    },
    /// The registered players with their version, rating and record.
    Players {
        #[arg(long)]
        game: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The tournaments in the store, oldest first: id, game, format, status, winner.
    Tournaments {
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Finish an interrupted tournament from where it stopped: games already recorded are not played
    /// again.
    Resume {
        /// The tournament's id (see `arena tournaments`).
        id: i64,
        #[arg(long)]
        json: bool,
        /// Have the remaining games played by workers over NATS JetStream (outcomes the interrupted
        /// run's workers left on the stream are taken, not played again).
        #[arg(long, value_name = "URL")]
        nats: Option<String>,
        #[command(flatten)]
        data: DataArgs,
        #[arg(long)]
        no_cache: bool,
    },
    /// A player's tournaments, matches and games won and lost, faults by kind, fuel per decision,
    /// rating and its history, and head-to-head records.
    Stats {
        name: String,
        /// Only this game (a name may be registered for several).
        #[arg(long)]
        game: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The registered players of a game by rating, best first.
    Leaderboard {
        #[arg(long)]
        game: String,
        #[arg(long)]
        json: bool,
        /// Read the leaderboard of a web arena (`arena serve`) at this URL instead of a local store.
        #[arg(long, value_name = "URL")]
        server: Option<String>,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Show a game turn by turn: TOURNAMENT/GAME from the store (e.g. `3/R1-M2-G1`), or a replay file
    /// written by `--replay-dir`.
    Replay {
        game: String,
        /// The stored record as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also write the referee's drawing after each step into this directory (start.svg,
        /// step-0001.svg, …), for games whose package draws.
        #[arg(long, value_name = "DIR")]
        svg_dir: Option<PathBuf>,
        /// Write one self-contained HTML file that plays the game step by step, offline (its public
        /// events only, as a spectator sees it).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The web arena: pages (games, leaderboards, players, tournaments, replays), accounts and uploads,
    /// live tournaments and a JSON API under /api/, over the results store.
    Serve {
        #[command(flatten)]
        data: DataArgs,
        /// Where to listen.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// Largest upload accepted, in MiB.
        #[arg(long, default_value_t = 32)]
        max_upload_mb: usize,
        /// Uploads (and scrimmages) one account may start in an hour.
        #[arg(long, default_value_t = 30)]
        uploads_per_hour: usize,
        /// Uploads validated at once.
        #[arg(long, default_value_t = 2)]
        upload_workers: usize,
        /// Have the tournaments and scrimmages started here played by workers (`arena worker`) over
        /// NATS JetStream at this URL (uploads are still validated here).
        #[arg(long, value_name = "URL")]
        nats: Option<String>,
        /// Behind a reverse proxy: take a client's address from the last entry of `X-Forwarded-For`
        /// (for the caps kept per client) and cap connections in total only. Off by default: a
        /// client could then name any address it likes.
        #[arg(long)]
        trust_proxy: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Run the game's ladder: rated games without end among its registered players, paired by
    /// rating (uncertain and new players more often, a share of opponents at random), new versions
    /// entering as they are submitted, a version benched after --max-faults faults. Ctrl-C stops it
    /// cleanly; running it again goes on with the same ladder (its stored limits and options).
    Ladder {
        /// A game: a package's name (see `arena games`) or its directory.
        #[arg(long, value_parser = parse_game_arg)]
        game: GameArg,
        /// Stop after this many games (the games in flight are finished) [default: until Ctrl-C].
        #[arg(long)]
        games: Option<u64>,
        /// Games in flight at once [default: the cores; 32 with --nats].
        #[arg(long)]
        parallel: Option<usize>,
        /// The share of opponents drawn at random instead of by rating, 0 to 1.
        #[arg(long, default_value_t = 0.1)]
        explore: f64,
        /// A version that faults this many times in the ladder plays no more (its next version does).
        #[arg(long, default_value_t = 5)]
        max_faults: u32,
        /// Seed of a new ladder's pairings and games [default: drawn from the clock].
        #[arg(long)]
        seed: Option<u64>,
        /// How often the store is looked at for new versions, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        poll_ms: u64,
        /// Have the games played by workers (`arena worker`) over NATS JetStream at this URL.
        #[arg(long, value_name = "URL")]
        nats: Option<String>,
        #[command(flatten)]
        data: DataArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        options: OptionArgs,
    },
    /// Play games for coordinators (`arena tournament --nats`): pull jobs from NATS JetStream, fetch
    /// packages and components by sha256, play them with the sandbox and limits they name, publish the
    /// outcomes. Stateless; run any number, on any number of machines.
    Worker {
        /// The NATS server, e.g. nats://127.0.0.1:4222 (started with `nats-server -js`).
        #[arg(long, value_name = "URL")]
        nats: String,
        /// Games played at once (default: the cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Where fetched packages and components and their compiled forms are kept [default: `worker`
        /// in the compile cache's directory: $ARENA_CACHE_DIR, else $XDG_CACHE_HOME/arena, else
        /// ~/.cache/arena].
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Seconds the queue waits for a sign of life from a worker before giving its game to another.
        #[arg(long, default_value_t = 30)]
        ack_wait_secs: u64,
    },
    /// Accounts of the web arena.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// The games this host can run: every package found by name (name, seats, options, description,
    /// referee hash, directory).
    Games {
        #[arg(long)]
        json: bool,
    },
    /// Write a minimal, buildable player project for a game in a language into DIR.
    New {
        /// A game: a package's name (see `arena games`) or its directory.
        #[arg(long, value_parser = parse_game_arg)]
        game: GameArg,
        #[arg(long, value_enum)]
        lang: Lang,
        dir: PathBuf,
    },
    /// Write a new game package for game authors into DIR: a tiny complete game (its WIT, manifest, pure
    /// rules, referee component and a sample player) that builds with DIR/build.sh and runs as is.
    NewGame {
        #[arg(long, value_enum, default_value = "rust")]
        lang: GameLang,
        dir: PathBuf,
    },
    /// Load and validate a component, play one game against the strongest built-in bot, and show what
    /// it imports and exports and the fuel it used.
    Check {
        /// A game: a package's name (see `arena games`) or its directory (with its game.toml).
        #[arg(long, value_parser = parse_game_arg)]
        game: GameArg,
        /// Seed of the game played; drawn from the clock if absent.
        #[arg(long)]
        seed: Option<u64>,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        options: OptionArgs,
        #[command(flatten)]
        cache: CacheArgs,
        file: PathBuf,
    },
}

/// A tournament format, as the command line names it (a ladder is `arena ladder`, not a format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// 2^m slots, byes for empty ones, best-of-k matches; the winner of each match advances.
    Knockout,
    /// Every pair plays a series of k games, alternating who starts; ranked by games won.
    RoundRobin,
    /// Elimination rounds of games as large as the game allows; the winners of each game advance.
    Rounds,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Knockout => Format::Knockout,
            FormatArg::RoundRobin => Format::RoundRobin,
            FormatArg::Rounds => Format::Rounds,
        }
    }
}

/// The languages `arena new-game` writes a game's referee in.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameLang {
    Rust,
}

/// The languages `arena new` writes players in.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    Js,
    C,
}

/// A game package's directory, found from its name or given as a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameArg {
    pub dir: PathBuf,
}

pub fn parse_game_arg(s: &str) -> Result<GameArg, String> {
    arena_match::locate(s).map(|dir| GameArg { dir })
}

/// The results store.
#[derive(Args, Debug, Clone)]
pub struct DataArgs {
    /// The data directory: the database, submitted components and their compiled forms.
    #[arg(long = "data", value_name = "DIR", default_value = "arena-data")]
    pub dir: PathBuf,
}

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Add an account and print its token, once (only its hash is stored): sign in with it on the
    /// web arena, or send it as `Authorization: Bearer TOKEN` to the API.
    Add {
        /// The account's name: 1 to 40 ASCII letters, digits, `-`, `_` or `.`.
        name: String,
        /// May start tournaments from the web arena.
        #[arg(long)]
        admin: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The accounts.
    List {
        #[command(flatten)]
        data: DataArgs,
    },
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
    /// Fuel per call (about one unit per wasm instruction).
    #[arg(long)]
    pub fuel: Option<u64>,
    /// Fuel for the first call of a game (instantiation included).
    #[arg(long)]
    pub first_fuel: Option<u64>,
    /// Wall-clock deadline per call, in milliseconds.
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Wall-clock deadline for the first call of a game, in milliseconds.
    #[arg(long)]
    pub first_timeout_ms: Option<u64>,
    /// Linear memory per player, in MiB.
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
    /// CPU time one compile of a component may use, in seconds (default 40).
    #[arg(long)]
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
        if name.is_empty() || name.len() > 64 || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
            anyhow::bail!("{s}: a player name must be 1 to 64 characters without spaces or control characters");
        }
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

//! `arena ladder`: finds the game's ladder in the store (or starts one with the package kept there),
//! plays it in-process or on workers until Ctrl-C or a number of games, shows what happens, and ends
//! with the leaderboard.

use super::flags::{DataArgs, GameArg, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{cores, runtime, sandbox};
use super::leaderboard::print_leaderboard;
use arena_core::DataDir;
use arena_core::Limits;
use arena_service::engine::CompileLimits;
use arena_service::ladder::{self, Begin, Event, LadderConfig, Stop};
use arena_service::packages;
use arena_service::packages::LoadPlayers;
use arena_service::packages::Manifest;
use arena_service::store::Store;
use arena_service::tournaments::ratings::System;
use arena_service::tournaments::seed_or_clock;
use arena_service::venue::{Venue, WithGame, play_on};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game: a package's name (see `arena games`) or its directory.
    #[arg(long, value_parser = parse_game_arg)]
    pub game: GameArg,
    /// Stop after this many games (the games in flight are finished) [default: until Ctrl-C].
    #[arg(long)]
    pub games: Option<u64>,
    /// Games in flight at once [default: the cores; 32 with --nats].
    #[arg(long)]
    pub parallel: Option<usize>,
    /// The share of opponents drawn at random instead of by rating, 0 to 1.
    #[arg(long, default_value_t = 0.1)]
    pub explore: f64,
    /// A version that faults this many times in the ladder plays no more (its next version does).
    #[arg(long, default_value_t = 5)]
    pub max_faults: u32,
    /// Seed of a new ladder's pairings and games [default: drawn from the clock].
    #[arg(long, value_parser = arena_core::parse_seed)]
    pub seed: Option<u64>,
    /// Games after which a pair of versions is settled and not drawn again; once every pair is, the
    /// ladder waits for a new version (with --games, it stops). 0: play on for ever.
    #[arg(long, default_value_t = arena_service::ladder::SETTLE)]
    pub settle: u32,
    /// How often the store is looked at for new versions, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub poll_ms: u64,
    /// Have the games played by workers (`arena worker`) over NATS JetStream at this URL.
    #[arg(long, value_name = "URL")]
    pub nats: Option<String>,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    ladder(LadderArgs {
        game_dir: a.game.dir.clone(),
        data: a.data.dir.clone(),
        seed: a.seed,
        limits: a.limits.to_limits()?,
        compile: a.limits.to_compile_limits()?,
        options: a.options.options.clone(),
        cfg: LadderConfig {
            parallel: a.parallel.unwrap_or_else(|| {
                if a.nats.is_some() { 32 } else { cores().min(arena_service::ladder::MAX_PARALLEL) }
            }),
            games: a.games,
            explore: a.explore,
            max_faults: a.max_faults,
            poll: std::time::Duration::from_millis(a.poll_ms.max(10)),
            settle: a.settle,
        },
        nats: a.nats.clone(),
    })
}

/// What `arena ladder` was given, validated.
struct LadderArgs {
    pub game_dir: PathBuf,
    pub data: PathBuf,
    pub nats: Option<String>,
    pub seed: Option<u64>,
    pub limits: Limits,
    pub compile: CompileLimits,
    pub options: Vec<String>,
    pub cfg: LadderConfig,
}

fn ladder(a: LadderArgs) -> anyhow::Result<ExitCode> {
    a.cfg.check().map_err(|e| anyhow::anyhow!("{e} (--parallel, --explore, --max-faults)"))?;
    let mut store = Store::open(&a.data)?;
    let name = Manifest::read(&a.game_dir)?.name;
    // A ladder goes on with what it was started with: its package's copy, limits and options.
    let begin = ladder::begin(&store, &a.data, &name, &a.game_dir, a.limits, &a.options)?;
    if let Some(row) = &begin.row {
        eprintln!(
            "Ladder {} of {name} goes on ({} games so far; its own limits and options, seed {})",
            row.id, row.games, row.seed
        );
    }
    let Begin { dir, options, limits, row } = begin;
    let compiled = Some(DataDir::new(a.data).compiled());
    runtime()?.block_on(async move {
        let sandbox = Arc::new(sandbox(limits, a.compile, compiled)?);
        let game = Arc::new(packages::open(sandbox, &dir, &options).await?);
        let (id, _lock) = match row {
            Some(row) => (row.id, store.lock(row.id)?),
            None => {
                let seed = seed_or_clock(a.seed);
                let (id, lock) = ladder::create(&mut store, &game, seed, limits, None)?;
                eprintln!("Ladder {id} of {name} starts (seed {seed})");
                (id, lock)
            }
        };
        let venue = Venue::connect(a.nats.as_deref()).await?;
        play_on(&venue, game, &dir, limits, Shown { store: &store, id, cfg: &a.cfg }).await
    })
}

/// The ladder's run, shown as it goes.
struct Shown<'a> {
    store: &'a Store,
    id: i64,
    cfg: &'a LadderConfig,
}

impl WithGame for Shown<'_> {
    type Output = ExitCode;
    async fn with<G: LoadPlayers + 'static>(self, game: Arc<G>) -> anyhow::Result<ExitCode> {
        play(game, self.store, self.id, self.cfg).await
    }
}

async fn play<G: LoadPlayers>(game: Arc<G>, store: &Store, id: i64, cfg: &LadderConfig) -> anyhow::Result<ExitCode> {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{elapsed:>4} {pos} games ({per_sec}) {msg} {prefix}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let _watch = super::progress::watch(&game, &bar);
    let b = bar.clone();
    let max_faults = cfg.max_faults;
    // Lines above the spinner on a terminal, plain lines otherwise.
    let say = {
        let b = bar.clone();
        move |line: String| if b.is_hidden() { eprintln!("{line}") } else { b.println(line) }
    };
    let observe = move |e: Event<'_>| match e {
        Event::Game(g) => {
            b.inc(1);
            let who = g.players.join(" v ");
            let won = g.winner.as_deref().map_or("a tie".to_string(), |w| format!("{w} won"));
            b.set_message(format!("last: {who}, {won}"));
        }
        Event::Entered(v) => say(format!("  {} version {} enters the ladder", v.name, v.version)),
        Event::Benched(v, f) => say(format!(
            "  {} version {} is benched ({} faults; the last: {} in {}: {})",
            v.name, v.version, max_faults, f.kind, f.call, f.reason
        )),
        Event::BenchedForChecker(v, n) => say(format!(
            "  {} version {} is benched: the game's rule checker failed during its own calls in {n} of its latest {} \
             games (each a game fault, no result for anyone); it plays again with its next version",
            v.name,
            v.version,
            arena_service::ladder::CHECKER_WINDOW
        )),
        Event::StaysBenched(v, n) => say(format!("  {} version {} stays benched ({n} faults)", v.name, v.version)),
        Event::Waiting(n) => say(format!("  {n} player(s) can play: waiting for submissions (`arena submit`)")),
        Event::Settled(n) => say(format!(
            "  every pair of the players' latest versions has played {n} games together: their results are \
             known, so the ladder waits for a new version (`arena submit`); --settle 0 plays on"
        )),
    };
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let run = arena_service::ladder::run(game.clone(), store, id, cfg, observe, stop).await?;
    bar.finish_and_clear();
    let total = store.tournament(id)?.map_or(0, |r| r.games);
    let why = match run.stop {
        Stop::Played => "the games asked for were played",
        Stop::Interrupted => "interrupted; the games in flight were dropped",
        Stop::Settled => "every pair of versions was settled (see --settle)",
    };
    eprintln!(
        "Ladder {id} of {}: {} games this run ({why}), {total} in all; {} version(s) benched.",
        game.name(),
        run.written,
        run.benched
    );
    eprintln!("  arena ladder --game {} --data {}   goes on", game.name(), display(store.dir()));
    let rows = store.leaderboard(game.name(), System::for_seats(game.seats()), true)?;
    print_leaderboard(game.name(), &rows, false, &display(store.dir()))
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

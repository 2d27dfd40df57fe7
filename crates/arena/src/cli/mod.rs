//! The `arena` command: turns validated flags into loaded players, runs the game or tournament on a
//! tokio runtime, and prints text or JSON. The only place that uses `anyhow`.

pub mod args;
mod client;
mod ladder;
mod new;
mod package;
mod results;
mod stored;

use anyhow::{Context, bail};
use arena_core::Limits;
use arena_core::{DataDir, Entry};
use arena_match::LoadPlayers;
use arena_sandbox::{Compilation, CompileLimits, Compiler, Sandbox};
use arena_service::packages;
use arena_service::submit::{against_strongest, one_game};
use arena_service::tournaments::{check_settings, seed_or_clock};
use arena_store::Kind;
use arena_tournament::{Ban, Format, Observer, Progress, Settings, report};
use args::{Cli, Command, PlayerArg, Source};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Runs a parsed command line; `Ok` carries the exit code (1 when `check` finds a fault).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let cmd = cli.command;
    if let Command::Leaderboard { server: Some(url), game, json, .. } = &cmd {
        return runtime()?.block_on(client::leaderboard(url, game, *json));
    }
    // Commands that need no game loaded.
    match &cmd {
        Command::New { game, lang, dir } => {
            new::write(&game.dir, *lang, dir)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Games { json } => return package::games(*json),
        Command::NewGame { lang, dir } => {
            new::write_game(*lang, dir)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Players { .. } | Command::Tournaments { .. } | Command::Stats { .. } | Command::Leaderboard { .. } => {
            return results::run(cmd);
        }
        // A replay loads its game's referee on its own terms (the store's copy of the package).
        Command::Replay { game, json, data, svg_dir, html } => {
            let out = results::ReplayOut { json: *json, svg_dir: svg_dir.as_deref(), html: html.as_deref() };
            return runtime()?.block_on(results::replay(&data.dir, game, out));
        }
        Command::User { .. } => {}
        Command::Serve { data, listen, max_upload_mb, uploads_per_hour, upload_workers, limits, nats, trust_proxy } => {
            let limits = limits.to_limits()?;
            let sandbox =
                Arc::new(sandbox(limits, CompileLimits::default(), Some(DataDir::new(&data.dir).compiled()))?);
            arena_store::Store::open(&data.dir)?;
            let cfg = arena_web::Config {
                data: data.dir.clone(),
                listen: *listen,
                limits,
                max_upload: max_upload_mb.saturating_mul(1 << 20),
                uploads_per_hour: *uploads_per_hour,
                upload_workers: *upload_workers,
                trust_proxy: *trust_proxy,
            };
            runtime()?.block_on(async move {
                let connection = match nats {
                    Some(url) => Some(arena_cluster::Nats::connect(url).await?),
                    None => None,
                };
                arena_web::serve(arena_web::App::new(cfg, sandbox, connection)).await
            })?;
            return Ok(ExitCode::SUCCESS);
        }
        _ => {}
    }
    if let Command::Submit { server: Some(url), token, game, name, file, max_size_mb, .. } = &cmd {
        let upload =
            client::Upload { game, name, file, token: token.as_deref().unwrap_or(""), max_size_mb: *max_size_mb };
        return runtime()?.block_on(client::submit(url, upload));
    }
    if let Command::Worker { nats, jobs, dir, ack_wait_secs } = &cmd {
        let exe = std::env::current_exe().context("cannot find the arena executable to run compiles in")?;
        let cfg = arena_cluster::WorkerConfig {
            url: nats.clone(),
            jobs: jobs.unwrap_or_else(cores),
            dir: match dir {
                Some(d) => d.clone(),
                None => args::CacheArgs { cache_dir: None, no_cache: false }.dir().map(|d| d.join("worker")).context(
                    "no cache directory for the worker's files ($ARENA_CACHE_DIR, $XDG_CACHE_HOME and $HOME are \
                     unset): give one with --dir",
                )?,
            },
            ack_wait: std::time::Duration::from_secs((*ack_wait_secs).max(1)),
            exe,
            compile: CompileLimits::default(),
        };
        runtime()?.block_on(arena_cluster::work(cfg))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Command::Ladder { game, games, parallel, explore, max_faults, seed, poll_ms, nats, data, limits, options } =
        &cmd
    {
        return ladder::ladder(ladder::LadderArgs {
            game_dir: game.dir.clone(),
            data: data.dir.clone(),
            seed: *seed,
            limits: limits.to_limits()?,
            compile: limits.to_compile_limits()?,
            options: options.options.clone(),
            cfg: arena_service::ladder::LadderConfig {
                parallel: parallel.unwrap_or_else(|| if nats.is_some() { 32 } else { cores() }),
                games: *games,
                explore: *explore,
                max_faults: *max_faults,
                poll: std::time::Duration::from_millis((*poll_ms).max(10)),
            },
            nats: nats.clone(),
        });
    }
    if let Command::User { command } = cmd {
        return results::user(command);
    }
    let compiled = |d: &args::DataArgs| Some(DataDir::new(&d.dir).compiled());
    let compile_limits = match &cmd {
        Command::Play { limits, .. }
        | Command::Check { limits, .. }
        | Command::Tournament { limits, .. }
        | Command::Submit { limits, .. } => limits.to_compile_limits()?,
        _ => CompileLimits::default(),
    };
    let (dir, limits, options, cache): (PathBuf, Limits, Vec<String>, Option<PathBuf>) = match &cmd {
        Command::Play { game, limits, options, cache, .. } | Command::Check { game, limits, options, cache, .. } => {
            (game.dir.clone(), limits.to_limits()?, options.options.clone(), cache.dir())
        }
        Command::Tournament { game, limits, options, cache, registered, data, .. } => {
            // Registered players are compiled once, ever, into the store, and the tournament is played
            // with the store's own copy of the package.
            let compiled_dir = if *registered && !cache.no_cache { compiled(data) } else { cache.dir() };
            let dir = if *registered { arena_match::keep(&data.dir, &game.dir)? } else { game.dir.clone() };
            (dir, limits.to_limits()?, options.options.clone(), compiled_dir)
        }
        Command::Submit { game, limits, options, data, .. } => (
            args::parse_game_arg(game).map_err(anyhow::Error::msg)?.dir,
            limits.to_limits()?,
            options.options.clone(),
            compiled(data),
        ),
        Command::Resume { id, data, no_cache, .. } => {
            // The game, its limits and its options are the ones the tournament was started with.
            let store = arena_store::Store::open(&data.dir)?;
            let row = store
                .tournament(*id)?
                .with_context(|| format!("{}: there is no tournament {id}", data.dir.display()))?;
            if row.format == Kind::Ladder {
                bail!(
                    "{}: tournament {id} is the ladder of {}: `arena ladder --game {} --data {}` goes on with it",
                    data.dir.display(),
                    row.game,
                    row.game,
                    data.dir.display()
                );
            }
            let found = packages::of_tournament(&data.dir, &row, packages::Find::KeptOrByName)?;
            (found.dir, row.settings.limits, found.options, if *no_cache { None } else { compiled(data) })
        }
        _ => bail!("unexpected command"),
    };
    let nats = match &cmd {
        Command::Tournament { nats, .. } | Command::Resume { nats, .. } => nats.clone(),
        _ => None,
    };
    runtime()?.block_on(async move {
        let sandbox = Arc::new(sandbox(limits, compile_limits, cache)?);
        let game = packages::open(sandbox, &dir, &options).await?;
        match nats {
            // The games go to the workers; everything else stays here.
            Some(url) => {
                let connection = arena_cluster::Nats::connect(&url).await?;
                let remote = arena_cluster::RemoteGame::new(connection, Arc::new(game), &dir, &options, limits).await?;
                command(Arc::new(remote), limits, cmd).await
            }
            None => command(Arc::new(game), limits, cmd).await,
        }
    })
}

/// This machine's cores (2 when it cannot tell): games played at once by default.
fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
}

/// The runtime the commands that play run on.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")
}

/// A sandbox under `limits` that compiles every component in a child process of this executable under
/// `compile`, keeping compiled components in `cache`.
fn sandbox(limits: Limits, compile: CompileLimits, cache: Option<PathBuf>) -> anyhow::Result<Sandbox> {
    let exe = std::env::current_exe().context("cannot find the arena executable to run compiles in")?;
    let sandbox = Sandbox::new(limits)?.with_compiler(Compiler::Child(exe), compile);
    Ok(match cache {
        Some(dir) => sandbox.with_cache_dir(dir),
        None => sandbox,
    })
}

async fn command<G: LoadPlayers>(game: Arc<G>, limits: Limits, cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Play { seed, json, players, seat, svg, .. } => {
            let shown = Shown { json, seat, svg };
            play(game, limits, seed_or_clock(seed), shown, &players).await
        }
        Command::Tournament {
            format,
            games_per_match,
            seed,
            json,
            replay_dir,
            players,
            registered,
            max_players,
            data,
            ..
        } => {
            let format = Format::from(format);
            // Registered players are checked once they are read from the store.
            if !registered {
                let counted = players.len();
                check_settings(game.name(), game.seats(), (format, games_per_match), counted)
                    .map_err(anyhow::Error::msg)?;
            }
            let settings = Settings::new(format, games_per_match, seed_or_clock(seed));
            if registered {
                let r = stored::Registered { data: &data.dir, max_players, json, replay_dir: replay_dir.as_deref() };
                return stored::registered(game, limits, settings, r).await;
            }
            run_tournament(game, limits, settings, json, replay_dir.as_deref(), &players).await
        }
        Command::Check { seed, file, cache, .. } => {
            check(game, limits, seed_or_clock(seed), &file, cache.dir().as_deref()).await
        }
        Command::Submit { name, max_size_mb, seed, data, file, .. } => {
            let s = stored::SubmitArgs { name: &name, file: &file, max_size_mb, seed, data: &data.dir };
            stored::submit(game, s).await
        }
        Command::Resume { id, json, data, .. } => stored::resume(game, &data.dir, id, json).await,
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Loads every player (each distinct file compiled once, in parallel on the blocking pool).
async fn load_players<G: LoadPlayers>(game: &Arc<G>, raw: &[String]) -> anyhow::Result<Vec<Arc<Entry<G::Player>>>> {
    let args = PlayerArg::parse_all(raw)?;
    let loads: Vec<_> = args
        .into_iter()
        .map(|a| {
            let game = game.clone();
            tokio::task::spawn_blocking(move || -> anyhow::Result<Entry<G::Player>> {
                match &a.source {
                    Source::Builtin(b) => {
                        let player = game.builtin(b).with_context(|| {
                            if game.builtin_names().contains(&b.as_str()) {
                                format!(
                                    "builtin:{b}: {}'s sample player does not load (the error is above)",
                                    game.name()
                                )
                            } else {
                                format!(
                                    "builtin:{b}: no such built-in {} player (there are: {})",
                                    game.name(),
                                    game.builtin_names().join(", ")
                                )
                            }
                        })?;
                        Ok(Entry { name: a.name, source: format!("builtin:{b}"), hash: None, player })
                    }
                    Source::File(path) => {
                        let (loaded, player) = game.load(path)?;
                        Ok(Entry { name: a.name, source: path.display().to_string(), hash: Some(loaded.hash), player })
                    }
                }
            })
        })
        .collect();
    let mut entries = Vec::new();
    for l in loads {
        entries.push(Arc::new(l.await.context("loading a player")??));
    }
    Ok(entries)
}

/// Every 10 s, while it runs, the game's status line (who plays its games: workers, for games played
/// elsewhere) after the bar, or on a line of its own when stderr is not a terminal. Aborted on drop.
fn watch<G: LoadPlayers>(game: &Arc<G>, bar: &ProgressBar) -> AbortOnDrop {
    let (game, bar) = (game.clone(), bar.clone());
    AbortOnDrop(tokio::spawn(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(10)).await;
            let Some(line) = game.status() else { continue };
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.set_prefix(format!("| {line}"));
            }
        }
    }))
}

/// A task that ends with its owner.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A bar of matches on stderr (hidden when stderr is not a terminal), with games played and the last ban.
fn progress_bar(unit: &'static str) -> (ProgressBar, Observer) {
    let bar = ProgressBar::new(0);
    let template = format!("{{elapsed:>4}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}} {{prefix}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let b = bar.clone();
    let games = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let last_ban = Arc::new(std::sync::Mutex::new(String::new()));
    let observe = move |p: Progress<'_>| match p {
        Progress::Matches(n) => b.set_length(n),
        Progress::Match(_) => b.inc(1),
        Progress::Round(r) => {
            b.set_length(b.length().unwrap_or(0).max(u64::from(r)));
            b.set_position(u64::from(r));
        }
        Progress::Game(g) => {
            let n = games.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            let mut ban = last_ban.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(f) = g.faults.first() {
                *ban = format!(", last ban: {} ({})", f.player, f.kind);
            }
            b.set_message(format!("{n} games played{ban}"));
        }
    };
    (bar, Arc::new(observe))
}

async fn run_tournament<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    mut settings: Settings,
    json: bool,
    replay_dir: Option<&Path>,
    players: &[String],
) -> anyhow::Result<ExitCode> {
    let entries = load_players(&game, players).await?;
    let (bar, observe) = progress_bar(if settings.format == Format::Rounds { "rounds" } else { "matches" });
    let _watch = watch(&game, &bar);
    let (observe, failed) = writing_replays(observe, replay_dir, (game.name(), limits, game.options()))?;
    settings.progress = Some(observe);
    let result = arena_tournament::run(game, entries, limits, &settings).await;
    bar.finish_and_clear();
    replays_written(&failed)?;
    print_result(&result, json)?;
    Ok(ExitCode::SUCCESS)
}

/// The first replay file that could not be written, and why.
type ReplayError = Arc<std::sync::Mutex<Option<String>>>;

/// `observe`, preceded by writing each finished game's replay into `dir` (when given) as it finishes:
/// a tournament keeps no game's call log once it is written.
fn writing_replays(
    observe: Observer,
    dir: Option<&Path>,
    (game, limits, options): (&str, Limits, serde_json::Value),
) -> anyhow::Result<(Observer, ReplayError)> {
    let failed = ReplayError::default();
    let Some(dir) = dir else { return Ok((observe, failed)) };
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot write replays", dir.display()))?;
    let (dir, game, f) = (dir.to_path_buf(), game.to_string(), failed.clone());
    let write = move |p: Progress<'_>| {
        if let Progress::Game(g) = &p {
            let path = dir.join(format!("{}.jsonl", g.id));
            if let Err(e) = report::write_replay(&path, &game, g, &limits, &options) {
                f.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(format!("{}: cannot write: {e}", path.display()));
            }
        }
        observe(p);
    };
    Ok((Arc::new(write), failed))
}

fn replays_written(failed: &ReplayError) -> anyhow::Result<()> {
    match failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
        Some(e) => bail!("{e}"),
        None => Ok(()),
    }
}

/// A tournament's result: the human summary, or one JSON document (written as it is serialized, never
/// held whole in memory).
fn print_result(result: &arena_tournament::TournamentResult, json: bool) -> anyhow::Result<()> {
    use std::io::Write as _;
    if json {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer_pretty(&mut out, result)?;
        writeln!(out)?;
        out.flush()?;
    } else {
        print!("{}", report::human(result));
    }
    Ok(())
}

/// How `play` shows its game.
struct Shown {
    json: bool,
    /// As this seat saw it (`None`: as a spectator).
    seat: Option<usize>,
    /// Where to write the final drawing.
    svg: Option<PathBuf>,
}

async fn play<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    seed: u64,
    Shown { json, seat, svg }: Shown,
    players: &[String],
) -> anyhow::Result<ExitCode> {
    if !game.seats().contains(&players.len()) {
        bail!("a game of {} seats {:?} players, got {}", game.name(), game.seats(), players.len());
    }
    if let Some(path) = &svg
        && !game.draws_svg()
    {
        bail!("--svg {}: {} does not draw its positions (its referee exports no `svg`)", path.display(), game.name());
    }
    if let Some(s) = seat.filter(|&s| s >= players.len()) {
        bail!("--seat {s}: a game of {} players has seats 0 to {}", players.len(), players.len() - 1);
    }
    let entries = load_players(&game, players).await?;
    let record = one_game(&*game, seed, entries).await;
    // Spectators see public events only; a seat sees its own private ones too.
    let events: Vec<&str> = record.events.iter().filter(|e| e.seen_by(seat)).map(|e| e.text.as_str()).collect();
    let view = match seat {
        Some(s) => record.seat_views.get(s).cloned().unwrap_or_default(),
        None => record.board.clone(),
    };
    if let Some(path) = &svg {
        let drawn = match seat {
            Some(s) => record.seat_svgs.get(s).cloned().flatten(),
            None => record.svg.clone(),
        };
        let drawn = drawn.with_context(|| format!("--svg {}: the referee drew nothing", path.display()))?;
        std::fs::write(path, drawn).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    if json {
        let doc = serde_json::json!({"game": game.name(), "seed": seed, "options": game.options(), "limits": limits,
            "result": record, "board": record.board, "seat": seat, "events": events, "view": view,
            "game_fault": record.game_fault});
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        println!("{}, seed {seed}\n", game.name());
        if let Some(s) = seat {
            println!("as seen by seat {s} ({}):\n", record.players[s]);
        }
        for e in &events {
            println!("  {e}");
        }
        if !events.is_empty() {
            println!();
        }
        println!("{view}\n");
        match (&record.game_fault, record.winners.as_slice()) {
            (Some(f), _) => println!("No result: the referee failed (game fault): {f}"),
            (None, [w]) => println!("Winner: {w}"),
            (None, []) => println!("No winner"),
            (None, ws) => println!("Tie: {}", ws.join(", ")),
        }
        let bans: Vec<Ban> =
            record.faults.iter().map(|f| Ban { fault: f.clone(), game: Some(record.id.clone()) }).collect();
        print!("{}", report::ban_table(&bans));
        print!("{}", report::game_fault_table(game.name(), &arena_tournament::GameFaultRow::of([&record])));
    }
    Ok(ExitCode::SUCCESS)
}

async fn check<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    seed: u64,
    file: &Path,
    cache_dir: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let g = game.clone();
    let f = file.to_path_buf();
    let (loaded, player) = tokio::task::spawn_blocking(move || g.load(&f)).await.context("loading")??;
    println!("{}: a component implementing {}", file.display(), game.spec().world);
    println!("  size {} bytes, sha256 {}", loaded.size, loaded.hash);
    let kept = cache_dir.map(|d| format!(" (kept in {})", d.display())).unwrap_or_default();
    match loaded.compilation {
        Compilation::Compiled(t) => println!("  compiled in {} ms{kept}", t.as_millis()),
        Compilation::FromDisk(t) => println!("  loaded from the compile cache in {} ms{kept}", t.as_millis()),
        Compilation::InMemory => println!("  already compiled in this run"),
    }
    println!("  imports: {}", if loaded.imports.is_empty() { "nothing".into() } else { loaded.imports.join(", ") });
    println!("  exports: {}", loaded.exports.join(", "));
    let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("player").to_string();
    let me = Arc::new(Entry { name, source: file.display().to_string(), hash: Some(loaded.hash), player });
    let (best, o) = against_strongest(&*game, seed, me).await.map_err(anyhow::Error::msg)?;
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
            println!("  this player would be banned");
            Ok(ExitCode::from(1))
        }
        None => {
            println!("  ok: no fault");
            Ok(ExitCode::SUCCESS)
        }
    }
}

//! What the commands that play a tournament show while it runs and when it ends: a progress bar (with
//! the game's status line), each game's replay written as it finishes, and the result; and a stored
//! tournament run to its end or to Ctrl-C.

use anyhow::{Context, bail};
use arena_core::{Entry, Limits};
use arena_service::packages::LoadPlayers;
use arena_service::store::{Store, TournamentLock, Version};
use arena_service::tournaments::{Format, Observer, Progress, Settings, report};
use arena_service::tournaments::{Ran, run_stored as run_stored_in};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Every 10 s, while it runs, the game's status line (who plays its games: workers, for games played
/// elsewhere) after the bar, or on a line of its own when stderr is not a terminal. Aborted on drop.
pub fn watch<G: LoadPlayers>(game: &Arc<G>, bar: &ProgressBar) -> AbortOnDrop {
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

/// How long a wait goes unmentioned: past it, [`noting`] says what is under way.
pub const QUIET_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Awaits `work`, and if it takes more than [`QUIET_WAIT`] says on stderr what it is (`what`, e.g.
/// "compiling bot.wasm") with the time so far (a spinner on a terminal, one line otherwise), then how
/// long it took. A first compile of a Python or JavaScript component takes 10–60 s: nobody should wonder
/// whether anything happens.
pub async fn noting<T>(what: &str, work: impl std::future::Future<Output = T>) -> T {
    tokio::pin!(work);
    let started = std::time::Instant::now();
    tokio::select! {
        done = &mut work => return done,
        () = tokio::time::sleep(QUIET_WAIT) => {}
    }
    let spinner = ProgressBar::new_spinner();
    let terminal = !spinner.is_hidden();
    if terminal {
        spinner.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        spinner.set_message(what.to_string());
        spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    } else {
        eprintln!(
            "{what} … (the first compile of a Python or JavaScript component takes up to a minute; it is cached)"
        );
    }
    let done = work.await;
    let took = started.elapsed().as_secs_f64();
    if terminal {
        spinner.finish_and_clear();
    }
    eprintln!("{what}: done in {took:.1} s");
    done
}

/// A task that ends with its owner.
pub struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A bar of matches on stderr (hidden when stderr is not a terminal), with games played and the last ban.
pub fn progress_bar(unit: &'static str) -> (ProgressBar, Observer) {
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

/// The first replay file that could not be written, and why.
pub type ReplayError = Arc<std::sync::Mutex<Option<String>>>;

/// `observe`, preceded by writing each finished game's replay into `dir` (when given) as it finishes:
/// a tournament keeps no game's call log once it is written.
pub fn writing_replays(
    observe: Observer,
    dir: Option<&Path>,
    (game, referee, limits, options): (&str, Option<String>, Limits, serde_json::Value),
) -> anyhow::Result<(Observer, ReplayError)> {
    let failed = ReplayError::default();
    let Some(dir) = dir else { return Ok((observe, failed)) };
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot write replays", dir.display()))?;
    let (dir, game, f) = (dir.to_path_buf(), game.to_string(), failed.clone());
    let write = move |p: Progress<'_>| {
        if let Progress::Game(g) = &p {
            let path = dir.join(format!("{}.jsonl", g.id));
            let with =
                report::PlayedWith { game: &game, referee: referee.as_deref(), limits: &limits, options: &options };
            if let Err(e) = report::write_replay(&path, with, g) {
                f.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(format!("{}: cannot write: {e}", path.display()));
            }
        }
        observe(p);
    };
    Ok((Arc::new(write), failed))
}

pub fn replays_written(failed: &ReplayError) -> anyhow::Result<()> {
    match failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
        Some(e) => bail!("{e}"),
        None => Ok(()),
    }
}

/// A tournament's result: the human summary, or one JSON document (written as it is serialized, never
/// held whole in memory).
pub fn print_result(result: &arena_service::tournaments::TournamentResult, json: bool) -> anyhow::Result<()> {
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

/// Runs a stored tournament with its journal, then records its result (Ctrl-C leaves it to resume),
/// showing its progress and printing its result.
#[allow(clippy::too_many_arguments)]
pub async fn run_stored<G: LoadPlayers>(
    game: Arc<G>,
    mut store: Store,
    (id, lock): (i64, TournamentLock),
    entries: Vec<Arc<Entry<G::Player>>>,
    versions: &[Version],
    limits: Limits,
    mut settings: Settings,
    (json, replay_dir): (bool, Option<&Path>),
) -> anyhow::Result<ExitCode> {
    let (bar, observe) = progress_bar(if settings.format == Format::Rounds { "rounds" } else { "matches" });
    let _watch = watch(&game, &bar);
    let (observe, failed) =
        writing_replays(observe, replay_dir, (game.name(), game.referee_hash(), limits, game.options()))?;
    settings.progress = Some(observe);
    // Ctrl-C: what has finished is written, and the tournament is left to `arena resume`.
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let ran = run_stored_in(game, &mut store, id, (entries, versions), limits, settings, ctrl_c).await;
    bar.finish_and_clear();
    let result = match ran? {
        Ran::Finished(result) => *result,
        Ran::Interrupted { kept } => {
            eprintln!(
                "Interrupted: {kept} games recorded in this run; `arena resume --data {} {id}` finishes tournament {id}",
                store.dir().display()
            );
            return Ok(ExitCode::from(130));
        }
    };
    drop(lock);
    replays_written(&failed)?;
    print_result(&result, json)?;
    if !json {
        let data = store.dir().display();
        println!("\nStored as tournament {id} in {data}.");
        if let Some(g) = result.games.first() {
            println!("  arena replay --data {data} {id}/{}   shows a game", g.id);
        }
        println!("  arena leaderboard --data {data} --game {}   shows the ratings", result.game);
    }
    Ok(ExitCode::SUCCESS)
}

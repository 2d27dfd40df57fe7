//! `arena fork`: a game of a replay file played again, its recorded answers up to a step and live from
//! there, one seat by another version of its player; says where the fork differs from the original.

use super::flags::{CacheArgs, DataArgs, GameArg, parse_game_arg};
use super::game::{load_players, runtime, sandbox};
use anyhow::{Context, bail};
use arena_service::fork::{self, Forked};
use arena_service::packages;
use arena_service::tournaments::report;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game's replay file (as `--replay-dir`, `arena fork --replay-dir` and a replay's download
    /// write them).
    pub file: PathBuf,
    /// The first step played live (from 1, as `arena replay` numbers them): the record's answers are
    /// replayed before it.
    #[arg(long, value_name = "N")]
    pub step: u32,
    /// The seat (from 0) played by another version of its player.
    #[arg(long, value_name = "SEAT")]
    pub seat: usize,
    /// Print one JSON document (`arena play --json`'s, with `diverged_at`) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the forked game's replay file into this directory (as ID-fork-N.jsonl).
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
    /// Profile seat SEAT's player, as `arena play --profile` does. Repeatable.
    #[arg(long, value_name = "SEAT=FILE", value_parser = super::game::parse_profile_arg)]
    pub profile: Vec<super::game::ProfileArg>,
    /// The game's package (its name or directory), when it is not the one the file names, kept in the
    /// store or found by name. Its referee must be the one the game was played with.
    #[arg(long, value_parser = parse_game_arg)]
    pub game: Option<GameArg>,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// The players in seat order, one a seat: PATH (a .wasm or .wat component) or builtin:NAME. They
    /// play under the names the game was played with. The seats other than --seat should be the
    /// versions that played, for the fork to go on as the game would have.
    #[arg(required = true)]
    pub players: Vec<String>,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    runtime()?.block_on(run(a))
}

async fn run(a: Args) -> anyhow::Result<ExitCode> {
    let file = &a.file;
    let replay = report::read_replay(file).map_err(anyhow::Error::msg)?;
    let record = &replay.record;
    let at = |e: fork::ForkError| anyhow::anyhow!("{}: {e}", file.display());
    fork::check(record, a.step, a.seat).map_err(at)?;
    if a.players.len() != record.players.len() {
        return Err(at(fork::ForkError::Seats { given: a.players.len(), players: record.players.len() }));
    }
    let dir = match &a.game {
        Some(g) => g.dir.clone(),
        None => {
            packages::by_referee(&a.data.dir, &replay.game, replay.referee.as_deref(), packages::Find::KeptOrByName)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?
        }
    };
    // The game's own limits and options: the fork is the same game until it goes live.
    let limits = replay.limits.unwrap_or_default();
    let sandbox = sandbox(limits, arena_service::engine::CompileLimits::default(), a.cache.dir())?;
    let sandbox = Arc::new(if a.profile.is_empty() { sandbox } else { sandbox.profiling(super::game::PROFILE_TICK) });
    let options = packages::stored_options(&replay.options)?;
    let what = format!("compiling the game's referee ({})", dir.display());
    let game = super::progress::noting(&what, packages::open(sandbox, &dir, &options)).await?;
    let hash = arena_core::Game::referee_hash(&game);
    if let (Some(then), Some(now)) = (&replay.referee, &hash)
        && then != now
    {
        bail!(
            "{}: the game was played with {}'s referee sha256 {then}, but {} holds {now}; a fork would not be \
             that game",
            file.display(),
            replay.game,
            dir.display()
        );
    }
    let game = Arc::new(game);
    // Named by seat: the record's names play, and one file may sit in several seats.
    let named: Vec<String> = a
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let path =
                p.split_once('=').filter(|(n, _)| !n.is_empty() && !n.contains('/')).map_or(p.as_str(), |(_, r)| r);
            format!("seat{i}={path}")
        })
        .collect();
    let mut entries = load_players(&game, &named).await?;
    let sinks = super::game::profile_seats(&*game, &mut entries, &a.profile)?;
    let sources: Vec<String> = entries.iter().map(|e| e.source.clone()).collect();
    let forked = fork::fork(&game, record, (a.step, a.seat), entries).await.map_err(at)?;
    super::game::write_profiles(&forked.record.players, &sinks)?;
    if let Some(dir) = &a.replay_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot write replays", dir.display()))?;
        let path = dir.join(format!("{}-fork-{}.jsonl", forked.record.id, a.step));
        let with = report::PlayedWith {
            game: &replay.game,
            referee: hash.as_deref(),
            limits: &limits,
            options: &replay.options,
        };
        report::write_replay(&path, with, &forked.record)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    if a.json {
        print_json(&replay, &limits, &forked, &sources)?;
    } else {
        print!("{}", text(&replay.game, file, &forked, &sources));
    }
    Ok(ExitCode::SUCCESS)
}

/// The fork as `arena play --json` prints a game, with where it went live and where it differs.
fn print_json(
    replay: &report::ReplayFile,
    limits: &arena_core::Limits,
    forked: &Forked,
    sources: &[String],
) -> anyhow::Result<()> {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        game: &'a str,
        seed: u64,
        options: &'a serde_json::Value,
        limits: &'a arena_core::Limits,
        result: &'a arena_service::tournaments::GameRecord,
        board: &'a str,
        seat: Option<usize>,
        events: Vec<&'a str>,
        view: &'a str,
        game_fault: &'a Option<arena_core::Fault>,
        #[serde(flatten)]
        fork: &'a Forked,
        players: &'a [String],
    }
    let r = &forked.record;
    let doc = Doc {
        game: &replay.game,
        seed: r.seed,
        options: &replay.options,
        limits,
        result: r,
        board: &r.board,
        seat: None,
        events: r.events.iter().filter(|e| e.seen_by(None)).map(|e| e.text.as_str()).collect(),
        view: &r.board,
        game_fault: &r.game_fault,
        fork: forked,
        players: sources,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, &doc)?;
    writeln!(out)?;
    Ok(out.flush()?)
}

/// The fork in words: what was forked, where it went live, its final position and result, and where
/// it differs from the original.
fn text(game: &str, file: &Path, f: &Forked, sources: &[String]) -> String {
    use std::fmt::Write as _;
    let r = &f.record;
    let mut s = String::new();
    let _ = writeln!(s, "{game} game {} (seed {}) forked at step {} from {}", r.id, r.seed, f.from, file.display());
    for (i, name) in r.players.iter().enumerate() {
        let mark = if i == f.seat { "  <- forked seat" } else { "" };
        let _ = writeln!(s, "  seat {i}: {name} played by {}{mark}", sources.get(i).map_or("?", String::as_str));
    }
    if f.live_from < f.from {
        let _ = writeln!(
            s,
            "\nLive from step {}: a seat's own call faulted there, where the original's answered.",
            f.live_from
        );
    }
    let _ = writeln!(s, "\n{}\n", r.board.trim_end());
    match (&r.game_fault, r.winners.as_slice()) {
        (Some(fault), _) => {
            let _ = writeln!(s, "No result: the referee failed (game fault): {fault}");
        }
        (None, [w]) => {
            let _ = writeln!(s, "Winner: {w}");
        }
        (None, []) => {
            let _ = writeln!(s, "No winner");
        }
        (None, ws) => {
            let _ = writeln!(s, "Tie: {}", ws.join(", "));
        }
    }
    s.push_str(&report::ban_table(&r.bans()));
    let _ = match f.diverged_at {
        None => writeln!(s, "\nThe fork is the original game: every answer the same."),
        Some(step) => writeln!(s, "\nThe fork differs from the original from step {step} (`arena replay` shows both)."),
    };
    s
}

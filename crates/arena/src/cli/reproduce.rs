//! `arena replay --player NAME=PATH [--server URL]`: a recorded game (a replay file, a stored game, or a
//! game on a remote arena) played again with your component in NAME's seat against the record; says
//! whether it answers as the game was played, or where it first does not.

use super::game::{load_players, sandbox};
use anyhow::{Context, bail};
use arena_service::packages;
use arena_service::tournaments::report;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// What to reproduce with: the seat's player and component (`NAME=PATH`), the arena the game is on.
pub struct Reproduce<'a> {
    pub player: &'a str,
    pub server: Option<&'a str>,
    pub json: bool,
}

/// The game's record with what it was played with, and the package to play it with.
struct Source {
    file: report::ReplayFile,
    package: PathBuf,
    /// A download's folder, removed when done.
    _downloaded: Option<tempfile::TempDir>,
}

pub async fn run(data: &Path, which: &str, how: Reproduce<'_>, cache: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let Some((name, path)) = how.player.split_once('=').filter(|(n, p)| !n.is_empty() && !p.is_empty()) else {
        bail!("--player {}: give the seat's player and your component as NAME=PATH", how.player);
    };
    let source = match how.server {
        Some(server) => download(server, which).await?,
        None => local(data, which)?,
    };
    let record = &source.file.record;
    let limits = source.file.limits.unwrap_or_default();
    let sandbox = Arc::new(sandbox(limits, arena_service::engine::CompileLimits::default(), cache)?);
    let options = packages::stored_options(&source.file.options)?;
    let what = format!("compiling the game's referee ({})", source.package.display());
    let game = super::progress::noting(&what, packages::open(sandbox, &source.package, &options)).await?;
    if let (Some(then), Some(now)) = (&source.file.referee, arena_core::Game::referee_hash(&game))
        && *then != now
    {
        bail!(
            "{which}: the game was played with the referee sha256 {then}, but {} holds {now}",
            source.package.display()
        );
    }
    let game = Arc::new(game);
    let entry = load_players(&game, &[format!("{name}={path}")]).await?.remove(0);
    let verdict = arena_service::fork::reproduce(&game, record, name, &entry.player)
        .await
        .map_err(|e| anyhow::anyhow!("{which}: {e}"))?;
    if how.json {
        let doc = serde_json::json!({"game": which, "player": name, "component": path,
            "identical": verdict.is_none(), "diverged": verdict});
        let mut out = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
    } else {
        match &verdict {
            None => println!(
                "{which}: identical to the {} game: {path} answered as {name} did, call for call",
                where_(how.server)
            ),
            Some(d) => {
                println!(
                    "{which}: {path} first answers otherwise than {name} at step {} (seat {}, `{}`)",
                    d.step, d.seat, d.call
                );
                println!("  it was asked:        {}", report::quoted_text(&d.request));
                println!("  the game recorded:   {}", d.recorded);
                println!("  it answered now:     {}", d.answered);
                println!("The game is not played on from there: the other seats' answers after it would be guesses.");
            }
        }
    }
    Ok(if verdict.is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn where_(server: Option<&str>) -> String {
    match server {
        Some(s) => format!("server's game ({s})"),
        None => "recorded game".into(),
    }
}

/// A replay file, or TOURNAMENT/GAME of the store in `data`, with its package (the store's copy by
/// its referee, or the package of its name).
fn local(data: &Path, which: &str) -> anyhow::Result<Source> {
    let file = super::replay::recorded(data, which)?;
    let find = packages::Find::KeptOrByName;
    let package = packages::by_referee(data, &file.game, file.referee.as_deref(), find)
        .map_err(|e| anyhow::anyhow!("{which}: {e}"))?;
    Ok(Source { file, package, _downloaded: None })
}

/// TOURNAMENT/GAME on the arena at `server`: its replay file and the package of its referee,
/// downloaded into a temporary folder.
async fn download(server: &str, which: &str) -> anyhow::Result<Source> {
    let (t, key) = super::replay::game_key(which)?;
    let dir = tempfile::tempdir().context("a temporary folder for the download")?;
    let jsonl = dir.path().join("game.jsonl");
    super::client::fetch_replay(server, (t, key), &jsonl).await?;
    let file = report::read_replay(&jsonl).map_err(|e| anyhow::anyhow!("{server} {which}: {e}"))?;
    let Some(referee) = file.referee.clone() else {
        bail!("{server} {which}: the replay file does not name its referee: the arena is too old to reproduce from");
    };
    let package = dir.path().join("package");
    super::client::fetch_kept_package(server, &referee, &package).await?;
    Ok(Source { file, package, _downloaded: Some(dir) })
}

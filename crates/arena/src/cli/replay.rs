//! `arena replay`: a stored game (or a replay file) re-run through the referee it was played with and
//! shown step by step, as JSON, as SVG drawings or as one HTML file that plays offline.

use super::flags::DataArgs;
use super::game::{runtime, sandbox};
use anyhow::{Context, bail};
use arena_service::packages;
use arena_service::store::Store;
use arena_service::tournaments::report;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: TOURNAMENT/GAME from the store (e.g. `3/R1-M2-G1`, as `arena tournaments` and a
    /// tournament's text name them), or a replay file written by `--replay-dir`.
    pub game: String,
    /// The stored record as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the referee's drawing after each step into this directory (start.svg,
    /// step-0001.svg, …), for games whose package draws.
    #[arg(long, value_name = "DIR")]
    pub svg_dir: Option<PathBuf>,
    /// Write one self-contained HTML file that plays the game step by step, offline (its public
    /// events only, as a spectator sees it).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Reproduce the game with your component in the seat of NAME (NAME=PATH): every other seat's
    /// recorded answers are handed to the referee, yours is asked every request its seat was asked.
    /// Says "identical" (exit 0) or the first step where it answered otherwise (exit 1).
    #[arg(long, value_name = "NAME=PATH")]
    pub player: Option<String>,
    /// The game is TOURNAMENT/GAME on the arena at this URL: its replay file (as a spectator sees it)
    /// and the package it was played with (by its referee's sha256) are downloaded. With --player.
    #[arg(long, value_name = "URL", requires = "player")]
    pub server: Option<String>,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub cache: super::flags::CacheArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = &a.player {
        let how = super::reproduce::Reproduce { player: p, server: a.server.as_deref(), json: a.json };
        return runtime()?.block_on(super::reproduce::run(&a.data.dir, &a.game, how, a.cache.dir()));
    }
    let out = ReplayOut { json: a.json, svg_dir: a.svg_dir.as_deref(), html: a.html.as_deref() };
    runtime()?.block_on(replay(&a.data.dir, &a.game, out))
}

/// How `arena replay` shows a game.
pub struct ReplayOut<'a> {
    pub json: bool,
    pub svg_dir: Option<&'a Path>,
    pub html: Option<&'a Path>,
}

/// `arena replay`: a stored game or a replay file, re-run through the game's referee on its record.
async fn replay(dir: &Path, which: &str, out: ReplayOut<'_>) -> anyhow::Result<ExitCode> {
    let ReplayOut { json, svg_dir, html } = out;
    let report::ReplayFile { game, options, record, referee, .. } = recorded(dir, which)?;
    if json {
        let doc = serde_json::json!({"game": game, "options": options, "record": record, "calls": record.replay,
            "board": record.board, "logs": record.logs, "events": record.events, "referee": referee});
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    let package = packages::by_referee(dir, &game, referee.as_deref(), packages::Find::KeptOrByName)
        .map_err(|e| anyhow::anyhow!("{which}: {e}"))?;
    // The referee is compiled as every component is: in a child under the compile limits, cached.
    let cache = super::flags::CacheArgs { cache_dir: None, no_cache: false }.dir();
    let limits = arena_core::Limits::default();
    let sandbox = std::sync::Arc::new(sandbox(limits, arena_service::engine::CompileLimits::default(), cache)?);
    let options = arena_service::packages::stored_options(&options)?;
    let o = arena_service::tournaments::replay(sandbox, (&game, &package), referee.as_deref(), &options, &record)
        .await
        .map_err(|e| anyhow::anyhow!("{which}: {e:#}"))?;
    eprintln!("(re-run through the referee sha256 {} in {})", &o.referee[..16], package.display());
    if let Some(out) = svg_dir {
        if !o.draws_svg {
            bail!("--svg-dir {}: {game} does not draw its positions (its referee exports no `svg`)", out.display());
        }
        std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
        for f in &o.frames {
            let name = if f.step == 0 { "start.svg".to_string() } else { format!("step-{:04}.svg", f.step) };
            if let Some(svg) = &f.svg {
                let path = out.join(name);
                std::fs::write(&path, svg).with_context(|| format!("{}: cannot write", path.display()))?;
            }
        }
    }
    if let Some(path) = html {
        let tournament =
            which.split_once('/').and_then(|(t, _)| t.parse().ok()).filter(|_| !Path::new(which).is_file());
        let data = arena_web::ReplayData::new(&game, tournament, &record, o.frames, vec![]);
        let data = arena_web::ReplayData { download: None, ..data };
        std::fs::write(path, arena_web::standalone_html(&data))
            .with_context(|| format!("{}: cannot write", path.display()))?;
        eprintln!("wrote {} (plays offline in a browser)", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", replay_text(&game, &record, &o.frames));
    Ok(ExitCode::SUCCESS)
}

/// The game `which` names: a replay file, or TOURNAMENT/GAME of the store in `dir` (with what its
/// tournament was played with).
pub(super) fn recorded(dir: &Path, which: &str) -> anyhow::Result<report::ReplayFile> {
    let path = Path::new(which);
    if path.is_file() {
        return report::read_replay(path).map_err(anyhow::Error::msg);
    }
    let (t, key) = game_key(which)?;
    let store = Store::open_to_read(dir)?;
    let row = store.tournament(t)?.with_context(|| format!("{}: there is no tournament {t}", dir.display()))?;
    let record = store
        .game(t, key)?
        .with_context(|| format!("{}: tournament {t} has no recorded game `{key}`", dir.display()))?;
    let s = row.settings;
    Ok(report::ReplayFile { game: row.game, options: s.options, referee: s.referee, limits: Some(s.limits), record })
}

/// TOURNAMENT/GAME (e.g. `3/R1-M2-G1`) as its tournament id and game key.
pub(super) fn game_key(which: &str) -> anyhow::Result<(i64, &str)> {
    let Some((t, key)) = which.split_once('/') else {
        bail!("{which}: neither a replay file nor TOURNAMENT/GAME (e.g. `3/R1-M2-G1`)");
    };
    let t: i64 = t.parse().with_context(|| format!("{which}: `{t}` is not a tournament id"))?;
    Ok((t, key))
}

/// A game step by step, as its referee re-ran it on the record: each call with its answer and fuel
/// (or the fault instead, with what the seat was asked and the last lines it printed), the public events it caused and the position after it, then the result.
pub fn replay_text(game: &str, g: &arena_service::tournaments::GameRecord, frames: &[arena_core::Frame]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{game} game {} (seed {}): {}", g.id, g.seed, g.players.join(" vs "));
    let mut last_view = String::new();
    for f in frames {
        if f.step == 0 {
            let _ = writeln!(s, "\nstart");
        } else {
            let _ = writeln!(s, "\nstep {}", f.step);
        }
        for c in &f.lines {
            let who = g.players.get(c.seat).map_or("?", String::as_str);
            match &c.fault {
                Some(fault) => {
                    if let Some(r) = &c.request {
                        let _ = writeln!(s, "  {who:<20} asked {:<10} {}", fault.call, report::quoted_text(r));
                    }
                    let _ = writeln!(s, "  {who:<20} FAULT {} in `{}`: {}", fault.kind, fault.call, fault.reason);
                    let words = arena_service::engine::last_lines(&c.output, false);
                    let _ = write!(s, "{}", report::last_words(&words, "    "));
                }
                None => {
                    let answer = if c.answer.is_null() { String::new() } else { c.answer.to_string() };
                    let _ = writeln!(s, "  {who:<20} {:<16} {answer:<28} fuel {}", c.call, report::thousands(c.fuel));
                }
            }
        }
        for e in f.events.iter().filter(|e| e.seen_by(None)) {
            let _ = writeln!(s, "  | {}", e.text);
        }
        if f.view != last_view {
            let _ = writeln!(s, "{}", f.view.trim_end());
            last_view = f.view.clone();
        }
    }
    let _ = writeln!(s, "\nResult:");
    for (i, p) in g.players.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {p:<20} score {:>4}  fuel {:>14} over {} calls",
            g.scores.get(i).copied().unwrap_or(0),
            report::thousands(g.fuel.get(i).copied().unwrap_or(0)),
            g.calls.get(i).copied().unwrap_or(0)
        );
    }
    let _ = match g.winners.as_slice() {
        [] => writeln!(s, "No winner"),
        [w] => writeln!(s, "Winner: {w}"),
        ws => writeln!(s, "Tie: {}", ws.join(", ")),
    };
    s
}

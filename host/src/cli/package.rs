//! Game packages on the command line. `arena play --game DIR`: one game, played through the package's
//! referee component, shown as the referee's public events, its final view, the winner and the bans (or
//! one JSON document). `arena tournament --game DIR` (any format) and `arena check --game DIR`, as for
//! the built-in games.

use super::args::{Command, PlayerArg, Source};
use crate::package::{Package, PackageGame};
use crate::sandbox::{CompileLimits, Limits};
use crate::tournament::{Ban, report};
use anyhow::bail;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// What `play` was asked for.
pub struct Play<'a> {
    pub dir: &'a Path,
    pub seed: u64,
    pub json: bool,
    pub players: &'a [String],
    /// `--option NAME=VALUE`, checked against the package's manifest.
    pub options: &'a [String],
    /// Show the game as this seat saw it (`None`: as a spectator).
    pub seat: Option<usize>,
}

/// The package in `dir` with its `options` set, in a sandbox that compiles in a child under `compile`
/// and caches in `cache`.
fn load(
    dir: &Path,
    options: &[String],
    limits: Limits,
    compile: CompileLimits,
    cache: Option<PathBuf>,
) -> anyhow::Result<Package> {
    let mut pkg = Package::load(Arc::new(super::sandbox(limits, compile, cache)?), dir)?;
    pkg.set_options(options)?;
    Ok(pkg)
}

/// `arena tournament --game DIR …` and `arena check --game DIR …`: the package as a `Game`, through the
/// same code as the built-in games (its sample players are its built-in opponents).
pub fn command(
    cmd: Command,
    dir: &Path,
    options: &[String],
    limits: Limits,
    compile: CompileLimits,
    cache: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async move {
        let game = PackageGame::new(load(dir, options, limits, compile, cache)?)?;
        super::command(Arc::new(game), limits, cmd).await
    })
}

pub fn play(p: Play<'_>, limits: Limits, compile: CompileLimits, cache: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let args = PlayerArg::parse_all(p.players)?;
    super::runtime()?.block_on(async move {
        let pkg = load(p.dir, p.options, limits, compile, cache)?;
        if let Some(s) = p.seat.filter(|&s| s >= args.len()) {
            bail!("--seat {s}: a game of {} players has seats 0 to {}", args.len(), args.len() - 1);
        }
        if !pkg.manifest.seats().contains(&args.len()) {
            bail!("a game of {} seats {:?} players, got {}", pkg.manifest.name, pkg.manifest.seats(), args.len());
        }
        let mut players = Vec::new();
        for a in &args {
            let Source::File(path) = &a.source else {
                bail!("{}: game packages have no built-in players yet; give component files", a.name);
            };
            players.push(pkg.load_player(&a.name, path)?);
        }
        let o = pkg.play(&players, p.seed, &Default::default()).await;
        let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
        let view = match p.seat {
            Some(s) => o.seat_views.get(s).cloned().unwrap_or_default(),
            None => o.view.clone(),
        };
        let who = |seat: usize| names.get(seat).copied().unwrap_or("?");
        if p.json {
            let faults: Vec<serde_json::Value> = o
                .faults
                .iter()
                .map(
                    |(s, f)| serde_json::json!({"player": who(*s), "kind": f.kind, "call": f.call, "reason": f.reason}),
                )
                .collect();
            let doc = serde_json::json!({
                "game": pkg.manifest.name,
                "package": {"dir": p.dir, "referee": pkg.hash},
                "seed": p.seed,
                "options": pkg.options(),
                "limits": limits,
                "players": names,
                "scores": o.scores,
                "winners": o.winners.iter().map(|&s| who(s)).collect::<Vec<_>>(),
                "faults": faults,
                "game_fault": o.game_fault,
                "fuel": o.fuel,
                "seat": p.seat,
                "events": o.events_for(p.seat).map(|e| &e.text).collect::<Vec<_>>(),
                "view": view,
            });
            println!("{}", serde_json::to_string_pretty(&doc)?);
            return Ok(ExitCode::SUCCESS);
        }
        println!("{} (package {}), seed {}\n", pkg.manifest.name, p.dir.display(), p.seed);
        // Spectators see public events only; a seat sees its own private ones too.
        if let Some(s) = p.seat {
            println!("as seen by seat {s} ({}):\n", who(s));
        }
        for e in o.events_for(p.seat) {
            println!("  {}", e.text);
        }
        println!("\n{view}\n");
        match (&o.game_fault, o.winners.as_slice()) {
            (Some(f), _) => println!("No result: the referee failed (game fault): {f}"),
            (None, [w]) => println!("Winner: {}", who(*w)),
            (None, []) => println!("No winner"),
            (None, ws) => println!("Tie: {}", ws.iter().map(|&w| who(w)).collect::<Vec<_>>().join(", ")),
        }
        let bans: Vec<Ban> = o.faults.iter().map(|(s, f)| Ban::new(who(*s), f, None)).collect();
        print!("{}", report::ban_table(&bans));
        Ok(ExitCode::SUCCESS)
    })
}

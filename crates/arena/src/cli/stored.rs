//! The commands that play with the store: `submit` (validate, then register a version),
//! `tournament --registered` (the registered players, every game recorded as it finishes) and `resume`
//! (an interrupted tournament finished from where it stopped).

use super::{print_result, progress_bar};
use anyhow::{Context, anyhow, bail};
use arena_core::Entry;
use arena_core::Limits;
use arena_match::LoadPlayers;
use arena_service::tournaments::{Ran, check_settings, run_stored as run_stored_in};
use arena_store::{Status, Store, StoredSettings, TournamentLock, Version, check_name};
use arena_tournament::{Format, Settings};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// What `arena submit` was given.
pub struct SubmitArgs<'a> {
    pub name: &'a str,
    pub file: &'a Path,
    pub max_size_mb: u64,
    pub seed: u64,
    pub data: &'a Path,
}

pub async fn submit<G: LoadPlayers>(game: Arc<G>, s: SubmitArgs<'_>) -> anyhow::Result<ExitCode> {
    let file = s.file;
    check_name(s.name).map_err(|e| anyhow!("{e}; nothing was stored"))?;
    let meta = std::fs::metadata(file).with_context(|| format!("{}: cannot read", file.display()))?;
    if !meta.is_file() {
        bail!("{}: not a file", file.display());
    }
    let cap = s.max_size_mb.saturating_mul(1 << 20);
    if meta.len() > cap {
        bail!(
            "{}: {} bytes is over the size cap of {} MiB (--max-size-mb); nothing was stored",
            file.display(),
            meta.len(),
            s.max_size_mb
        );
    }
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let label = file.display().to_string();
    let sub = arena_service::submit::Submission { name: s.name, bytes: &bytes, label: &label, seed: s.seed };
    let a = arena_service::submit::submit(game.clone(), s.data, sub, None).await?;
    let v = &a.version;
    if a.unchanged {
        println!(
            "{}: identical to {} version {} of {} ({}); nothing new was stored",
            file.display(),
            v.name,
            v.version,
            v.game,
            short(&v.hash)
        );
    } else {
        let o = &a.validation;
        println!(
            "Submitted {} version {} for {} ({} bytes, sha256 {}){}",
            v.name,
            v.version,
            v.game,
            v.size,
            short(&v.hash),
            if a.new_player { ", a new player" } else { "" }
        );
        println!(
            "  validation game against {} (seed {}): {} to {}, {} fuel over {} calls",
            o.opponent, o.seed, o.scores[0], o.scores[1], o.fuel, o.calls
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn short(hash: &str) -> &str {
    &hash[..hash.len().min(12)]
}

/// What `tournament --registered` was given besides the settings.
pub struct Registered<'a> {
    pub data: &'a Path,
    pub max_players: Option<usize>,
    pub json: bool,
    pub replay_dir: Option<&'a Path>,
}

pub async fn registered<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    settings: Settings,
    r: Registered<'_>,
) -> anyhow::Result<ExitCode> {
    let mut store = Store::open(r.data)?;
    let mut versions: Vec<Version> = store.players(Some(game.name()))?.into_iter().map(|p| p.latest).collect();
    if let Some(m) = r.max_players {
        versions.truncate(m);
    }
    if versions.len() < 2 {
        bail!(
            "{}: {} player(s) registered for {}; a tournament needs at least 2 (register some with `arena submit`)",
            r.data.display(),
            versions.len(),
            game.name()
        );
    }
    let format = (settings.format, settings.games_per_match);
    check_settings(game.name(), game.seats(), format, versions.len())
        .map_err(|why| anyhow!("{}: {why}", r.data.display()))?;
    // Loaded before the tournament is recorded, so a damaged store records nothing.
    let entries = arena_service::versions::load_versions(&game, &store.components_dir(), &versions).await?;
    let stored = StoredSettings { limits, options: game.options(), referee: game.referee_hash() };
    let id = store.create_tournament(
        game.name(),
        (settings.format, settings.games_per_match, settings.seed),
        &stored,
        &versions,
    )?;
    let lock = store.lock(id)?;
    eprintln!("Tournament {id}: {} registered players of {}, seed {}", versions.len(), game.name(), settings.seed);
    run_stored(game, store, (id, lock), entries, &versions, limits, settings, (r.json, r.replay_dir)).await
}

pub async fn resume<G: LoadPlayers>(game: Arc<G>, data: &Path, id: i64, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open(data)?;
    let row = store.tournament(id)?.with_context(|| format!("{}: there is no tournament {id}", data.display()))?;
    if row.status == Status::Finished {
        eprintln!("Tournament {id} is finished already; its result:");
        let result = store.result(id)?.with_context(|| format!("{}: tournament {id} has no result", data.display()))?;
        print_result(&result, json)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let (Some(then), Some(now)) = (&row.settings.referee, game.referee_hash())
        && *then != now
    {
        bail!(
            "{}: tournament {id} was played with {}'s referee sha256 {then}, but the package found now has \
             {now}: resuming would change the rules mid-tournament",
            data.display(),
            row.game
        );
    }
    let lock = store.lock(id)?;
    let versions = store.entrants(id)?;
    let entries = arena_service::versions::load_versions(&game, &store.components_dir(), &versions).await?;
    let limits = row.settings.limits;
    let format = row.format.format().with_context(|| format!("{}: tournament {id} is a ladder", data.display()))?;
    let settings = Settings::new(format, row.games_per_match, row.seed);
    eprintln!(
        "Resuming tournament {id} ({}, {} players): {} games were recorded before",
        row.game, row.players, row.games
    );
    run_stored(game, store, (id, lock), entries, &versions, limits, settings, (json, None)).await
}

/// Runs a stored tournament with its journal, then records its result (Ctrl-C leaves it to resume),
/// showing its progress and printing its result.
#[allow(clippy::too_many_arguments)]
async fn run_stored<G: LoadPlayers>(
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
    let _watch = super::watch(&game, &bar);
    let (observe, failed) = super::writing_replays(observe, replay_dir, (game.name(), limits, game.options()))?;
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
    super::replays_written(&failed)?;
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

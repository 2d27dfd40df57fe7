//! Opening a game package for a front end: a package's directory with its options (checked against
//! the manifest, then tried on the referee), and the package a stored tournament was played with (the
//! store's own copy, by its referee's sha256) with the options it was played with.

use anyhow::{Context, bail};
use arena_play::Package;
use arena_sandbox::Sandbox;
use arena_store::TournamentRow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

// What the front ends name of a game package (from `arena-play`).
pub use arena_play::{
    Fuzz, LoadPlayers, Manifest, PackageGame, keep, locate, search_path, seats_of, shipped, stored_options,
};

/// The package in `dir` as a game, with its `options` (`NAME=VALUE`) set: checked against the
/// manifest, then tried on the referee (which may refuse a combination the ranges let through). The
/// referee is compiled on the blocking pool.
pub async fn open(sandbox: Arc<Sandbox>, dir: &Path, options: &[String]) -> anyhow::Result<PackageGame> {
    let d = dir.to_path_buf();
    let mut pkg = tokio::task::spawn_blocking(move || Package::load(sandbox, &d)).await??;
    pkg.set_options(options)?;
    if let Err(why) = pkg.check_options().await {
        let given = if options.is_empty() { "its default options".to_string() } else { options.join(" ") };
        bail!("{}: {} does not start with {given}: {why}", dir.display(), pkg.manifest.name);
    }
    Ok(PackageGame::new(pkg)?)
}

/// Where a stored tournament's package is looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Find {
    /// The store's copy only: the exact referee the tournament was played with.
    Kept,
    /// The store's copy, or else a package of the same name found by name (a tournament stored before
    /// packages were kept; a replay file's game).
    KeptOrByName,
}

/// The package a stored tournament was played with, and its options as `NAME=VALUE` settings.
pub struct StoredPackage {
    pub dir: PathBuf,
    pub options: Vec<String>,
}

/// The package tournament `row` of the store in `data` was played with (see [`Find`]).
pub fn of_tournament(data: &Path, row: &TournamentRow, find: Find) -> anyhow::Result<StoredPackage> {
    let what = format!("{}: tournament {}", data.display(), row.id);
    let dir = by_referee(data, &row.game, row.settings.referee.as_deref(), find).with_context(|| what.clone())?;
    let options = arena_play::stored_options(&row.settings.options)
        .with_context(|| format!("{what}: unreadable game options"))?;
    Ok(StoredPackage { dir, options })
}

/// The store's copy of `game`'s package whose referee has sha256 `referee`, or (see [`Find`]) the
/// package found by the name `game`.
pub fn by_referee(data: &Path, game: &str, referee: Option<&str>, find: Find) -> anyhow::Result<PathBuf> {
    if let Some(dir) = arena_play::kept(data, referee) {
        return Ok(dir);
    }
    match find {
        Find::Kept => bail!("the package of {game} it was played with is not kept in the store"),
        Find::KeptOrByName => arena_play::locate(game).map_err(anyhow::Error::msg),
    }
}

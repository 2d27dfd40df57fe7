//! Players loaded for a game, however they were named: a built-in sample player, a component file, or
//! a registered version brought back from the store (checked to be the very file that was submitted).
//! Each distinct component is compiled once, in parallel on the blocking pool.

use anyhow::{Context, bail};
use arena_core::Entry;
use arena_play::LoadPlayers;
use arena_store::Version;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a player comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// One of the game's sample players, by name (`builtin:NAME`).
    Builtin(String),
    /// A component file (binary or text).
    File(PathBuf),
    /// A registered version, from the store's file of it.
    Version(Version, PathBuf),
}

/// Loads each `(name, source)` as an entry of `game`, in the order given.
pub async fn load<G: LoadPlayers>(
    game: &Arc<G>,
    players: Vec<(String, Source)>,
) -> anyhow::Result<Vec<Arc<Entry<G::Player>>>> {
    let loads: Vec<_> = players
        .into_iter()
        .map(|(name, source)| {
            let game = game.clone();
            tokio::task::spawn_blocking(move || load_one(&*game, name, source))
        })
        .collect();
    let mut entries = Vec::new();
    for l in loads {
        entries.push(Arc::new(l.await.context("loading a player")??));
    }
    Ok(entries)
}

fn load_one<G: LoadPlayers>(game: &G, name: String, source: Source) -> anyhow::Result<Entry<G::Player>> {
    match source {
        Source::Builtin(b) => {
            let player = game.builtin(&b).with_context(|| {
                if game.builtin_names().contains(&b) {
                    format!("builtin:{b}: {}'s sample player does not load (the error is above)", game.name())
                } else {
                    format!(
                        "builtin:{b}: no such built-in {} player (there are: {})",
                        game.name(),
                        game.builtin_names().join(", ")
                    )
                }
            })?;
            Ok(Entry { name, source: format!("builtin:{b}"), hash: None, player })
        }
        Source::File(path) => {
            let (loaded, player) = game.load(&path)?;
            Ok(Entry { name, source: path.display().to_string(), hash: Some(loaded.hash), player })
        }
        Source::Version(v, path) => {
            if !path.is_file() {
                bail!("{}: missing: {} version {} cannot be loaded", path.display(), v.name, v.version);
            }
            let (loaded, player) = game.load(&path)?;
            if loaded.hash != v.hash {
                bail!("{}: damaged (its sha256 is {}, not the one submitted)", path.display(), loaded.hash);
            }
            Ok(Entry { name, source: format!("{} v{}", v.name, v.version), hash: Some(v.hash), player })
        }
    }
}

/// Loads the stored components (in `components`) of `versions`, checking each file is the one submitted.
pub async fn load_versions<G: LoadPlayers>(
    game: &Arc<G>,
    components: &Path,
    versions: &[Version],
) -> anyhow::Result<Vec<Arc<Entry<G::Player>>>> {
    let players = versions
        .iter()
        .map(|v| (v.name.clone(), Source::Version(v.clone(), components.join(format!("{}.wasm", v.hash)))))
        .collect();
    load(game, players).await
}

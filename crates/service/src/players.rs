//! Registered players brought back from the store: each stored component loaded (through the compile
//! cache) and checked to be the very file that was submitted.

use anyhow::{Context, bail};
use arena_core::Entry;
use arena_match::LoadPlayers;
use arena_store::Version;
use std::sync::Arc;

/// Loads the stored components of `versions`, checking each file is the one submitted.
pub async fn load_versions<G: LoadPlayers>(
    game: &Arc<G>,
    components: &std::path::Path,
    versions: &[Version],
) -> anyhow::Result<Vec<Arc<Entry<G::Player>>>> {
    let loads: Vec<_> = versions
        .iter()
        .map(|v| {
            let (game, v, path) = (game.clone(), v.clone(), components.join(format!("{}.wasm", v.hash)));
            tokio::task::spawn_blocking(move || -> anyhow::Result<Entry<G::Player>> {
                if !path.is_file() {
                    bail!("{}: missing: {} version {} cannot be loaded", path.display(), v.name, v.version);
                }
                let (loaded, player) = game.load(&path)?;
                if loaded.hash != v.hash {
                    bail!("{}: damaged (its sha256 is {}, not the one submitted)", path.display(), loaded.hash);
                }
                Ok(Entry {
                    name: v.name.clone(),
                    source: format!("{} v{}", v.name, v.version),
                    hash: Some(v.hash),
                    player,
                })
            })
        })
        .collect();
    let mut entries = vec![];
    for l in loads {
        entries.push(Arc::new(l.await.context("loading a player")??));
    }
    Ok(entries)
}

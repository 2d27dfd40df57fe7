//! What a data directory keeps compiled: the components something here references (a stored version,
//! a package's referee or sample player, shipped or published); the rest is swept from the compile
//! cache, and what a refused publication compiled is forgotten.

use arena_core::DataDir;
use arena_sandbox::Sandbox;
use arena_store::{Store, StoreError};
use std::path::Path;

/// The sha256 of every component file (`.wasm`, `.wat`) under `dir`.
pub fn components_in(dir: &Path) -> Vec<String> {
    let files = arena_play::files_under(dir).unwrap_or_default();
    files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "wasm" || e == "wat"))
        .filter_map(|f| std::fs::read(dir.join(f)).ok())
        .map(|bytes| arena_core::sha256_hex(&bytes))
        .collect()
}

/// Removes from `sandbox`'s disk cache every compiled component nothing in the store at `data` or in
/// its packages (the shipped ones and those published there) references; how many it removed.
pub fn sweep(sandbox: &Sandbox, data: &Path) -> Result<usize, StoreError> {
    let mut keep = Store::open(data)?.component_hashes()?;
    let published = std::fs::read_dir(DataDir::new(data).packages())
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_else(|_| Vec::new());
    for dir in arena_play::shipped().into_iter().map(|(_, dir)| dir).chain(published) {
        keep.extend(components_in(&dir));
    }
    Ok(sandbox.sweep_cache(&keep))
}

//! What a data directory keeps compiled: the components something here references (a stored version,
//! a package's referee or sample player, shipped or published); the rest is swept from the compile
//! cache, and what a refused publication compiled is forgotten. A server may also warm its compile
//! cache at start with components whose code its uploads will share (see [`warm`]).

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
    Ok(sandbox.sweep_cache(&referenced(data)?))
}

/// The sha256 of every component the store at `data` or its packages reference.
fn referenced(data: &Path) -> Result<std::collections::HashSet<String>, StoreError> {
    let mut keep = Store::open(data)?.component_hashes()?;
    let published = std::fs::read_dir(DataDir::new(data).packages())
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_else(|_| Vec::new());
    for dir in arena_play::shipped().into_iter().map(|(_, dir)| dir).chain(published) {
        keep.extend(components_in(&dir));
    }
    Ok(keep)
}

/// Compiles the component `path` (any game's player or referee), as quick code and optimised, so that
/// the functions it shares with later uploads are in the compile cache: every Python player carries
/// the same CPython and every JavaScript player the same engine, so after one of them a server's
/// uploads compile only their own code (`arena serve --warm`). The component itself is not kept unless it is in `keep` (what the
/// server's store and packages reference). How long the compile took, or why it failed.
fn warm(
    sandbox: &Sandbox,
    keep: &std::collections::HashSet<String>,
    path: &Path,
) -> Result<std::time::Duration, String> {
    // Any import of WASI or of an `arena:` package: it is compiled, never instantiated.
    let spec = arena_sandbox::WorldSpec::new("any", "arena:", "any");
    let t = std::time::Instant::now();
    // The optimised code, then quick code (what validation games play: it is kept nowhere, but its
    // functions are, and the quick compiles of uploads share them from now on).
    let raw = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let loaded = sandbox.load_bytes(path, &raw, &spec).map_err(|e| e.to_string())?;
    sandbox.warm_quick(path, &raw).map_err(|e| e.to_string())?;
    let took = t.elapsed();
    if !keep.contains(&loaded.hash) {
        sandbox.forget(&loaded.hash);
    }
    Ok(took)
}

/// [`warm`] with each of `files` in turn, on a thread of its own (each compile runs in the compile
/// worker, within the compile limits), saying on standard error how each went. What the store at
/// `data` and its packages reference is read once, for them all.
pub fn warm_in_background(sandbox: std::sync::Arc<Sandbox>, data: &Path, files: &[std::path::PathBuf]) {
    if files.is_empty() {
        return;
    }
    let (data, files) = (data.to_path_buf(), files.to_vec());
    std::thread::spawn(move || {
        let keep = referenced(&data).map_err(|e| e.to_string());
        for file in files {
            let warmed = match &keep {
                Ok(keep) => warm(&sandbox, keep, &file),
                Err(e) => Err(e.clone()),
            };
            match warmed {
                Ok(took) => {
                    eprintln!("warmed the compile cache with {} in {:.1} s", file.display(), took.as_secs_f64())
                }
                Err(e) => eprintln!("--warm {}: not warmed: {e}", file.display()),
            }
        }
    });
}

/// Compiles the optimised code of the stored component `path` of `game` on the blocking pool, at the
/// lowest priority, holding `permit` until done: a version validated as quick code (see
/// [`arena_sandbox::Tier::Quick`]), so that its first game does not wait for the compile. Then, the
/// first time (`sandbox`, the game's, not warmed yet), its quick code again, its functions kept, for the quick
/// compiles of the next uploads to share (see [`Sandbox::warm_quick`]). A failure is only logged: its
/// first game's load compiles it again, and reports it.
pub fn compile_for_play<G: arena_play::LoadPlayers + 'static>(
    game: std::sync::Arc<G>,
    sandbox: std::sync::Arc<Sandbox>,
    path: std::path::PathBuf,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    tokio::task::spawn_blocking(move || {
        let raw = match std::fs::read(&path) {
            Ok(raw) => raw,
            Err(e) => {
                tracing::warn!("{}: cannot read it to compile its code for play: {e}", path.display());
                return;
            }
        };
        // At the lowest priority: the verdicts and games somebody waits for come first.
        arena_sandbox::in_background(|| {
            if let Err(e) = game.load_bytes(&path, &raw) {
                tracing::warn!("{}: its code for play did not compile: {e}", path.display());
            }
            // The first upload validated as quick code warms the quick compiles of the next ones: its
            // quick functions kept, they share them (an upload in the same language compiles only its own
            // code).
            if !sandbox.quick_functions_shared()
                && let Err(e) = sandbox.warm_quick(&path, &raw)
            {
                tracing::warn!("{}: its quick functions were not kept: {e}", path.display());
            }
        });
        drop(permit);
    });
}

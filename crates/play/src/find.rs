//! Finding game packages by name: where they are looked for (`$ARENA_GAMES`, `packages/` beside the
//! binary and above it), one by name or directory, every one found, and how many a game seats.

use super::Manifest;
use std::path::{Path, PathBuf};

/// Where shipped game packages are looked for, in order: each directory of `$ARENA_GAMES` (a
/// `:`-separated list), then `packages` beside the `arena` executable's directory (`target/packages`
/// for `target/debug/arena`), then `packages` in the executable's own directory.
pub fn search_path() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("ARENA_GAMES").map(|v| std::env::split_paths(&v).collect()).unwrap_or_default();
    if let Some(bin) = std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf)) {
        if let Some(up) = bin.parent() {
            dirs.push(up.join("packages"));
        }
        dirs.push(bin.join("packages"));
    }
    dirs.retain(|d| !d.as_os_str().is_empty());
    dirs
}

/// The directory of the game `game`: a package directory (with its game.toml) given as a path, or the
/// name of a package found on the [`search_path`].
pub fn locate(game: &str) -> Result<PathBuf, String> {
    let as_path = PathBuf::from(game);
    if as_path.join("game.toml").is_file() {
        return Ok(as_path);
    }
    let is_name = !game.is_empty() && game.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !is_name {
        return Err(format!("{game}: not a game package directory (no game.toml there)"));
    }
    let path = search_path();
    if let Some(dir) = path.iter().map(|d| d.join(game)).find(|d| d.join("game.toml").is_file()) {
        return Ok(dir);
    }
    let known: Vec<String> = shipped().into_iter().map(|(m, _)| m.name).collect();
    Err(format!(
        "no game `{game}`: known games are {} (looked in {}; a package directory works too)",
        if known.is_empty() { "none".to_string() } else { known.join(", ") },
        path.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
    ))
}

/// Every package on the search path whose manifest reads, by name (the first of a name wins), with
/// its directory.
pub fn shipped() -> Vec<(Manifest, PathBuf)> {
    let mut found: Vec<(Manifest, PathBuf)> = Vec::new();
    for dir in search_path() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        dirs.sort();
        for d in dirs {
            if let Ok(m) = Manifest::read(&d)
                && !found.iter().any(|(f, _)| f.name == m.name)
            {
                found.push((m, d));
            }
        }
    }
    found
}

/// How many seats a game found by name has, from its manifest alone (no engine needed).
pub fn seats_of(game: &str) -> Option<std::ops::RangeInclusive<usize>> {
    let dir = locate(game).ok()?;
    Manifest::read(&dir).ok().map(|m| m.seats())
}

//! The store's copies of game packages: a registered tournament plays with a copy kept under
//! `DATA/packages/<referee sha256>/`, so that resume and replay find the exact referee even after the
//! package is rebuilt; and a tournament's stored options back as `NAME=VALUE` settings.

use super::Manifest;
use anyhow::{Context, bail};
use arena_core::{DataDir, sha256_hex};
use std::path::{Path, PathBuf};

/// A tournament's stored options (`{"rows": 6}`) as `NAME=VALUE` settings.
pub fn stored_options(v: &serde_json::Value) -> anyhow::Result<Vec<String>> {
    if v.is_null() {
        return Ok(vec![]);
    }
    let map: std::collections::BTreeMap<String, i64> =
        serde_json::from_value(v.clone()).context("options must be a map of names to integers")?;
    Ok(map.into_iter().map(|(k, v)| format!("{k}={v}")).collect())
}

/// Keeps a copy of the package in `dir` in the results store, `DATA/packages/<referee sha256>/` (its
/// manifest, referee, sample players and WIT), and returns the copy: a registered tournament plays with
/// it, and `resume` and `replay` find the exact referee there even after the package is rebuilt.
pub fn keep(data: &Path, dir: &Path) -> anyhow::Result<PathBuf> {
    let m = Manifest::read(dir)?;
    let referee = dir.join(&m.referee);
    let bytes = std::fs::read(&referee).with_context(|| format!("{}: cannot read", referee.display()))?;
    let hash = sha256_hex(&bytes);
    let kept = DataDir::new(data).package(&hash);
    if kept.join("game.toml").is_file() {
        return Ok(kept);
    }
    let tmp = DataDir::new(data).packages().join(format!(".{hash}.{}", std::process::id()));
    let copy = || -> std::io::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        let mut files: Vec<PathBuf> = vec!["game.toml".into(), m.referee.clone()];
        files.extend(m.players.iter().cloned());
        for f in files {
            if f.is_absolute() || f.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
                return Err(std::io::Error::other(format!("{} is outside the package", f.display())));
            }
            let to = tmp.join(&f);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::copy(dir.join(&f), to)?;
        }
        copy_dir(&dir.join("wit"), &tmp.join("wit"))?;
        std::fs::rename(&tmp, &kept)
    };
    if let Err(e) = copy() {
        let _ = std::fs::remove_dir_all(&tmp);
        if kept.join("game.toml").is_file() {
            return Ok(kept);
        }
        bail!("{}: cannot keep a copy of the game package {}: {e}", data.display(), dir.display());
    }
    Ok(kept)
}

/// The copy of a package a tournament was played with, if the store keeps it.
pub fn kept(data: &Path, referee: Option<&str>) -> Option<PathBuf> {
    let hash = referee?;
    let dir = DataDir::new(data).package(hash);
    dir.join("game.toml").is_file().then_some(dir)
}

/// Copies a directory tree of plain files (a package's WIT; symbolic links are followed).
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    if !from.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let path = e.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(e.file_name()))?;
        } else {
            std::fs::copy(&path, to.join(e.file_name()))?;
        }
    }
    Ok(())
}

/// Every file under `dir`, as paths relative to it, sorted.
pub fn files_under(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)? {
            let path = e?.path();
            if path.is_dir() {
                todo.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                out.push(rel.to_path_buf());
            }
        }
    }
    out.sort();
    Ok(out)
}

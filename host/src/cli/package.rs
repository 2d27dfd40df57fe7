//! Game packages on the command line: loading the package a command names (its options set and its
//! sample players as the built-in opponents), `arena games`, and a stored tournament's options back as
//! `NAME=VALUE` settings.

use crate::package::{Manifest, Package, PackageGame};
use crate::sandbox::{Sandbox, sha256_hex};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The package in `dir` as a game, with its `options` (`NAME=VALUE`) set: checked against the
/// manifest, then tried on the referee (which may refuse a combination the ranges let through).
pub async fn load(sandbox: Arc<Sandbox>, dir: &Path, options: &[String]) -> anyhow::Result<PackageGame> {
    let mut pkg = Package::load(sandbox, dir)?;
    pkg.set_options(options)?;
    if let Err(why) = pkg.check_options().await {
        let given = if options.is_empty() { "its default options".to_string() } else { options.join(" ") };
        anyhow::bail!("{}: {} does not start with {given}: {why}", dir.display(), pkg.manifest.name);
    }
    Ok(PackageGame::new(pkg)?)
}

/// A tournament's stored options (`{"rows": 6}`) as `NAME=VALUE` settings.
pub fn stored_options(v: &serde_json::Value) -> anyhow::Result<Vec<String>> {
    if v.is_null() {
        return Ok(vec![]);
    }
    let map: std::collections::BTreeMap<String, i64> =
        serde_json::from_value(v.clone()).context("options must be a map of names to integers")?;
    Ok(map.into_iter().map(|(k, v)| format!("{k}={v}")).collect())
}

/// `arena games`: every package found by name.
pub fn games(json: bool) -> anyhow::Result<ExitCode> {
    let found = crate::package::shipped();
    let hash = |m: &Manifest, dir: &Path| -> String {
        std::fs::read(dir.join(&m.referee)).map(|b| sha256_hex(&b)).unwrap_or_else(|_| "missing".into())
    };
    if json {
        let list: Vec<serde_json::Value> = found
            .iter()
            .map(|(m, dir)| {
                serde_json::json!({"name": m.name, "description": m.description, "min_seats": m.min_seats,
                    "max_seats": m.max_seats, "options": m.options.iter().map(|(k, o)| (k.clone(),
                    serde_json::json!({"default": o.default, "min": o.min, "max": o.max, "description": o.description})))
                    .collect::<serde_json::Map<_, _>>(), "players": m.players, "referee": hash(m, dir), "dir": dir})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    if found.is_empty() {
        println!("no game packages found in {:?} (build them with `make players`)", crate::package::search_path());
        return Ok(ExitCode::SUCCESS);
    }
    for (m, dir) in &found {
        let seats = if m.min_seats == m.max_seats {
            format!("{} players", m.min_seats)
        } else {
            format!("{} to {} players", m.min_seats, m.max_seats)
        };
        println!("{:<12} {seats:<16} {}", m.name, m.description);
        for (k, o) in &m.options {
            println!("{:<12}   --option {k}=N   {} (default {}, {} to {})", "", o.description, o.default, o.min, o.max);
        }
        let samples: Vec<String> = m
            .players
            .iter()
            .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(|s| format!("builtin:{s}")))
            .collect();
        if !samples.is_empty() {
            println!("{:<12}   sample players: {}", "", samples.join(", "));
        }
        let hash = hash(m, dir);
        println!("{:<12}   referee sha256 {}  in {}", "", &hash[..16.min(hash.len())], dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Keeps a copy of the package in `dir` in the results store, `DATA/packages/<referee sha256>/` (its
/// manifest, referee, sample players and WIT), and returns the copy: a registered tournament plays with
/// it, and `resume` and `replay` find the exact referee there even after the package is rebuilt.
pub fn keep(data: &Path, dir: &Path) -> anyhow::Result<PathBuf> {
    let m = Manifest::read(dir)?;
    let referee = dir.join(&m.referee);
    let bytes = std::fs::read(&referee).with_context(|| format!("{}: cannot read", referee.display()))?;
    let hash = sha256_hex(&bytes);
    let kept = data.join("packages").join(&hash);
    if kept.join("game.toml").is_file() {
        return Ok(kept);
    }
    let tmp = data.join("packages").join(format!(".{hash}.{}", std::process::id()));
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
    let dir = data.join("packages").join(hash);
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

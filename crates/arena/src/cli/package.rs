//! Game packages on the command line: loading the package a command names (its options set and its
//! sample players as the built-in opponents), `arena games`, and a stored tournament's options back as
//! `NAME=VALUE` settings.

use arena_core::sha256_hex;
use arena_match::{Manifest, Package, PackageGame};
pub use arena_match::{keep, kept, stored_options};
use arena_sandbox::Sandbox;

use std::path::Path;
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

/// `arena games`: every package found by name.
pub fn games(json: bool) -> anyhow::Result<ExitCode> {
    let found = arena_match::shipped();
    let hash = |m: &Manifest, dir: &Path| -> String {
        std::fs::read(dir.join(&m.referee)).map(|b| sha256_hex(&b)).unwrap_or_else(|_| "missing".into())
    };
    if json {
        let list: Vec<serde_json::Value> = found
            .iter()
            .map(|(m, dir)| {
                let mut v = m.describe(&hash(m, dir));
                v["dir"] = serde_json::json!(dir);
                v
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    if found.is_empty() {
        println!("no game packages found in {:?} (build them with `make players`)", arena_match::search_path());
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

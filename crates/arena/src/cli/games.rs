//! `arena games`: every game package found by name, with its seats, options and sample players.

use arena_core::sha256_hex;
use arena_service::packages::Manifest;

use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long)]
    pub json: bool,
    /// The games a web arena (`arena serve`) at this URL offers, its published ones included.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    match &a.server {
        Some(url) => super::game::runtime()?.block_on(super::client::games(url, a.json)),
        None => games(a.json),
    }
}

/// `arena games`: every package found by name.
fn games(json: bool) -> anyhow::Result<ExitCode> {
    let found = arena_service::packages::shipped();
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
        println!(
            "no game packages found in {:?} (build them with `make players`)",
            arena_service::packages::search_path()
        );
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

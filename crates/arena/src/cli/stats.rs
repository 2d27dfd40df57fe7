//! `arena stats`: one player's tournaments, matches and games, faults, fuel, rating and head-to-head.

use super::flags::DataArgs;
use super::table::{show, system};
use anyhow::bail;
use arena_service::store::Store;
use arena_service::tournaments::report;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player's name (as `arena players` lists it).
    pub name: String,
    /// Only this game (a name may be registered for several).
    #[arg(long)]
    pub game: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub data: DataArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    stats(&a.data.dir, &a.name, a.game, a.json)
}

fn stats(dir: &Path, name: &str, game: Option<String>, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let games: Vec<String> = match &game {
        Some(g) => vec![g.clone()],
        None => store.games_of(name)?,
    };
    let mut found = vec![];
    for g in &games {
        if let Some(st) = store.stats(g, name, system(g))? {
            found.push(st);
        }
    }
    if found.is_empty() {
        let which = game.map(|g| format!(" for {g}")).unwrap_or_default();
        bail!("{}: no player `{name}` is registered{which}", dir.display());
    }
    if json {
        let v = if found.len() == 1 { serde_json::to_value(&found[0])? } else { serde_json::to_value(&found)? };
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    for st in found {
        println!("{} ({}), {} version(s), registered {}", st.name, st.game, st.versions, st.registered_at);
        println!("  tournaments  played {}, won {}", st.tournaments.played, st.tournaments.won);
        let rec = |r: &arena_service::store::Record| format!("won {}, lost {}, tied {}", r.won, r.lost, r.tied);
        println!("  matches      {}", rec(&st.matches));
        println!("  games        {}", rec(&st.games));
        let faults: Vec<String> = st.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!("  faults       {}", if faults.is_empty() { "none".to_string() } else { faults.join(", ") });
        println!(
            "  fuel         {} per decision ({} over {} decisions)",
            report::thousands(st.fuel.per_decision),
            report::thousands(st.fuel.total),
            st.fuel.decisions
        );
        println!("  rating       {} ({}, after {} games)", show(&st.rating), st.rating_system, st.rating_history.len());
        if !st.rating_history.is_empty() {
            let points: Vec<String> = st.rating_history.iter().map(|p| format!("{:.0}", p.rating.rating)).collect();
            let shown = if points.len() > 20 { &points[points.len() - 20..] } else { &points[..] };
            println!("  history      {}{}", if points.len() > 20 { "… " } else { "" }, shown.join(" → "));
        }
        if !st.head_to_head.is_empty() {
            println!("  head to head");
            for h in &st.head_to_head {
                println!("    vs {:<24} {}", h.opponent, rec(&h.games));
            }
        }
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

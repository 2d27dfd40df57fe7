//! `arena tournaments`: the tournaments in the store, oldest first.

use super::flags::DataArgs;
use arena_service::store::Store;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub data: DataArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    tournaments(&a.data.dir, a.json)
}

fn tournaments(dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let rows = store.tournaments()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("No tournaments in {}.", dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "  {:>4}  {:<10} {:<12} {:>7} {:>6}  {:<11}  {:<20}  winner",
        "id", "game", "format", "players", "games", "status", "started"
    );
    for t in rows {
        println!(
            "  {:>4}  {:<10} {:<12} {:>7} {:>6}  {:<11}  {:<20}  {}",
            t.id,
            t.game,
            t.kind.as_str(),
            t.players,
            t.games,
            t.status.as_str(),
            t.started_at,
            t.winner.as_deref().unwrap_or("-")
        );
    }
    Ok(ExitCode::SUCCESS)
}

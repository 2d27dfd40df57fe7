//! `arena players`: the registered players of every game (or one), with version, rating and record.

use super::flags::DataArgs;
use super::table::{system, table};
use arena_service::store::Store;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long)]
    pub game: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub data: DataArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    players(&a.data.dir, a.game, a.json)
}

fn players(dir: &Path, game: Option<String>, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let games: Vec<String> = match &game {
        Some(g) => vec![g.clone()],
        None => store.registered_games()?,
    };
    let mut all = serde_json::Map::new();
    let mut s = String::new();
    for g in games.iter().map(String::as_str) {
        let rows = store.leaderboard(g, system(g), false)?;
        if rows.is_empty() && game.is_none() {
            continue;
        }
        let _ = writeln!(s, "{g} ({} players, {} ratings)", rows.len(), system(g).name());
        table(&mut s, &rows, false);
        all.insert(g.to_string(), serde_json::to_value(&rows)?);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else if s.is_empty() {
        println!("No players are registered in {} (add one with `arena submit`).", dir.display());
    } else {
        print!("{s}");
    }
    Ok(ExitCode::SUCCESS)
}

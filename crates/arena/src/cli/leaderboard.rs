//! `arena leaderboard`: a game's registered players by rating, from the local store or a web arena.

use super::client;
use super::flags::DataArgs;
use super::game::runtime;
use super::table::{system, table};
use arena_service::store::{Leader, Store};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long)]
    pub game: String,
    #[arg(long)]
    pub json: bool,
    /// Read the leaderboard of a web arena (`arena serve`) at this URL instead of a local store.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    #[command(flatten)]
    pub data: DataArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    match &a.server {
        Some(url) => runtime()?.block_on(client::leaderboard(url, &a.game, a.json)),
        None => leaderboard(&a.data.dir, a.game, a.json),
    }
}

fn leaderboard(dir: &Path, game: String, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let g = game.as_str();
    let rows = store.leaderboard(g, system(g), true)?;
    print_leaderboard(g, &rows, json, &dir.display().to_string())
}

/// A leaderboard, from a local store or a web arena (`from` names it).
pub fn print_leaderboard(g: &str, rows: &[Leader], json: bool, from: &str) -> anyhow::Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else if rows.is_empty() {
        println!("No {g} players are registered in {from}.");
    } else {
        let mut s = String::new();
        let _ = writeln!(s, "{g} leaderboard ({} ratings, rating ± deviation)", system(g).name());
        table(&mut s, rows, true);
        print!("{s}");
    }
    Ok(ExitCode::SUCCESS)
}

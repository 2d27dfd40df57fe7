//! `arena publish`: packs a game package and publishes it to a web arena, where `arena check-game`
//! judges it; `arena fetch-game`: downloads the exact package an arena plays.

use super::client;
use super::game::runtime;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The web arena (`arena serve`) to publish to.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// Your account's token (`arena user add` on the server).
    #[arg(long, env = "ARENA_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The package's directory: its game.toml, referee and sample players (built), wit/ and templates/.
    pub dir: PathBuf,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    runtime()?.block_on(client::publish(&a.server, &a.token, &a.dir))
}

#[derive(clap::Args, Debug)]
pub struct FetchArgs {
    /// The web arena (`arena serve`) whose package to fetch.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The game's name on that arena.
    pub name: String,
    /// Where to put the package (default: ./NAME); it must not exist or be empty.
    pub dir: Option<PathBuf>,
}

pub fn fetch(a: FetchArgs) -> anyhow::Result<ExitCode> {
    let dir = a.dir.clone().unwrap_or_else(|| PathBuf::from(&a.name));
    runtime()?.block_on(client::fetch_game(&a.server, &a.name, &dir))
}

//! `arena fetch-player`: a version another player's owner offers as a sparring partner, downloaded from
//! a web arena (its sha256 checked against the server's list) to practise against locally.

use super::client;
use super::game::runtime;
use anyhow::bail;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The web arena (`arena serve`) to download from.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The game the player plays there.
    #[arg(long)]
    pub game: String,
    /// The player: NAME (its newest version offered for sparring) or NAME@VERSION.
    pub player: String,
    /// Where to write the component (default: ./NAME-vVERSION.wasm).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    let (name, version) = match a.player.split_once('@') {
        Some((n, v)) => {
            let v: u32 =
                v.trim_start_matches('v').parse().map_err(|_| anyhow::anyhow!("`{v}`: not a version number"))?;
            (n, Some(v))
        }
        None => (a.player.as_str(), None),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        bail!("`{name}`: not a player's name");
    }
    runtime()?.block_on(client::fetch_player(&a.server, (&a.game, name, version), a.out.as_deref()))
}

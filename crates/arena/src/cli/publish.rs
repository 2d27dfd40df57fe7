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
pub struct PackArgs {
    /// The package's directory: its game.toml, referee and sample players (built), wit/ and templates/.
    pub dir: PathBuf,
    /// The archive to write (default: NAME.tar.gz here, NAME being the game's).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `arena pack`: the archive `arena publish` sends, written to a file for the web's publish page.
pub fn pack(a: PackArgs) -> anyhow::Result<ExitCode> {
    use arena_service::archive::{pack_files, package_files};
    use std::io::Write;
    let manifest = arena_service::packages::Manifest::read(&a.dir)?;
    let out = a.out.unwrap_or_else(|| PathBuf::from(format!("{}.tar.gz", manifest.name)));
    let in_dir = |e: String| anyhow::anyhow!("{}: {e}", a.dir.display());
    let files = package_files(&a.dir).map_err(in_dir)?;
    let bytes = pack_files(&a.dir, &files).map_err(in_dir)?;
    // Never over another file: refused where it is created, not by a look before.
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&out).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => anyhow::anyhow!("{}: exists already; choose another --out", out.display()),
        _ => anyhow::anyhow!("{}: cannot write: {e}", out.display()),
    })?;
    if let Err(e) = file.write_all(&bytes) {
        let _ = std::fs::remove_file(&out);
        anyhow::bail!("{}: cannot write: {e}", out.display());
    }
    println!(
        "wrote {} ({} files, {} bytes): publish it on a web arena's /publish page, or with `arena publish`",
        out.display(),
        files.len(),
        bytes.len()
    );
    Ok(ExitCode::SUCCESS)
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
    runtime()?.block_on(client::fetch_game(&a.server, &a.name, &dir, true))
}

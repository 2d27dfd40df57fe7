//! `arena new-game`: a new game package for game authors, a tiny complete game that builds and runs.

use super::flags::GameLang;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long, value_enum, default_value = "rust")]
    pub lang: GameLang,
    /// The new package's directory (new or empty); its name is the game's.
    pub dir: PathBuf,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    super::new::write_game(a.lang, &a.dir)?;
    Ok(ExitCode::SUCCESS)
}

//! `arena backup` and `arena restore`: a consistent copy of a results store while it serves (a
//! tournament may be recording games), and a new data directory made from one, checked first.

use super::flags::DataArgs;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub data: DataArgs,
    /// The backup to write (a new file: a .tar.gz of the database and the files it names).
    pub file: PathBuf,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    let t = arena_service::backup::backup(&a.data.dir, &a.file)?;
    println!(
        "{}: a backup of {} ({} bytes): the database at one moment, {} components and {} game packages",
        t.file.display(),
        a.data.dir.display(),
        t.bytes,
        t.named.components.len(),
        t.named.packages.len()
    );
    println!("  arena restore {} --data NEW_DIR puts it back", t.file.display());
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// A backup written by `arena backup`.
    pub file: PathBuf,
    /// Where to restore it: a new or empty directory.
    #[command(flatten)]
    pub data: DataArgs,
}

pub fn restore(a: RestoreArgs) -> anyhow::Result<ExitCode> {
    let named = arena_service::backup::restore(&a.file, &a.data.dir)?;
    println!(
        "{}: restored from {} (its database checked, {} components and {} game packages with the sha256 they are named by)",
        a.data.dir.display(),
        a.file.display(),
        named.components.len(),
        named.packages.len()
    );
    Ok(ExitCode::SUCCESS)
}

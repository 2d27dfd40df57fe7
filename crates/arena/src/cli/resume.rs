//! `arena resume`: an interrupted tournament finished from where it stopped, with the package, limits
//! and options it was started with; games already recorded are not played again.

use super::flags::DataArgs;
use super::game::{Plays, Setup};
use super::progress::{print_result, run_stored};
use anyhow::Context;
use arena_core::{DataDir, Limits};
use arena_service::packages::LoadPlayers;
use arena_service::store::{Status, Store};
use arena_service::tournaments;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tournament's id (see `arena tournaments`).
    pub id: i64,
    #[arg(long)]
    pub json: bool,
    /// Have the remaining games played by workers over NATS JetStream (outcomes the interrupted
    /// run's workers left on the stream are taken, not played again).
    #[arg(long, value_name = "URL")]
    pub nats: Option<String>,
    #[command(flatten)]
    pub data: DataArgs,
    #[arg(long)]
    pub no_cache: bool,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    super::game::run(a)
}

impl Plays for Args {
    fn setup(&self) -> anyhow::Result<Setup> {
        // The game, its limits and its options are the ones the tournament was started with.
        let data = &self.data.dir;
        let r = tournaments::to_resume(&Store::open(data)?, data, self.id)?;
        Ok(Setup {
            dir: r.package.dir,
            limits: r.row.settings.limits,
            options: r.package.options,
            cache: if self.no_cache { None } else { Some(DataDir::new(data).compiled()) },
            compile: Default::default(),
            nats: self.nats.clone(),
            profiling: false,
        })
    }

    async fn with<G: LoadPlayers>(self, game: Arc<G>, _: Limits) -> anyhow::Result<ExitCode> {
        resume(game, &self.data.dir, self.id, self.json).await
    }
}

async fn resume<G: LoadPlayers>(game: Arc<G>, data: &Path, id: i64, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open(data)?;
    // The package was found by `setup`; here the row is read again, as it is now.
    let (row, settings) = tournaments::resumable(&store, data, id)?;
    if row.status == Status::Finished {
        eprintln!("Tournament {id} is finished already; its result:");
        let result = store.result(id)?.with_context(|| format!("{}: tournament {id} has no result", data.display()))?;
        print_result(&result, json)?;
        return Ok(ExitCode::SUCCESS);
    }
    tournaments::same_referee(&row, &*game).with_context(|| data.display().to_string())?;
    let lock = store.lock(id)?;
    let versions = store.entrants(id)?;
    let entries = arena_service::players::load_versions(&game, &store.components_dir(), &versions).await?;
    eprintln!(
        "Resuming tournament {id} ({}, {} players): {} games were recorded before",
        row.game, row.players, row.games
    );
    let limits = row.settings.limits;
    run_stored(game, store, (id, lock), entries, &versions, limits, settings, (json, None)).await
}

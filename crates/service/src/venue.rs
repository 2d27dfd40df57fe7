//! Where a game's games are played: here, or by workers over NATS JetStream. The one place that
//! decides it: every command and page that plays (a tournament, a resumed one, a ladder) hands its
//! work to [`play_on`], which gives it the game it should play with.

use arena_cluster::{Nats, RemoteGame};
use arena_core::{Game, Limits};
use arena_play::{LoadPlayers, PackageGame};
use std::path::Path;
use std::sync::Arc;

// What the command line names of the workers (from `arena-cluster`).
pub use arena_cluster::{WorkerConfig, Workers, work};

/// Where games are played.
#[derive(Clone)]
pub enum Venue {
    /// In this process.
    Here,
    /// By the workers listening on this NATS server; everything else (the tournament's logic, its
    /// store, what it prints) stays here.
    Workers(Box<Nats>),
}

impl Venue {
    /// Here without a URL; with one, the workers of the NATS server there (an error naming the URL
    /// when it does not answer).
    pub async fn connect(url: Option<&str>) -> anyhow::Result<Venue> {
        Ok(match url {
            None => Venue::Here,
            Some(url) => Venue::Workers(Box::new(Nats::connect(url).await?)),
        })
    }
}

/// Work that plays games: given the game to play them with, whichever [`Venue`] plays them.
pub trait WithGame {
    type Output;
    /// Does the work with `game`.
    #[allow(async_fn_in_trait)]
    async fn with<G: LoadPlayers + 'static>(self, game: Arc<G>) -> anyhow::Result<Self::Output>;
}

/// Does `work` with the package `game` (opened from `dir`, under `limits`), its games played at
/// `venue`.
pub async fn play_on<W: WithGame>(
    venue: &Venue,
    game: Arc<PackageGame>,
    dir: &Path,
    limits: Limits,
    work: W,
) -> anyhow::Result<W::Output> {
    match venue {
        Venue::Here => work.with(game).await,
        Venue::Workers(nats) => {
            // The workers open the package with every option spelled out, defaults included.
            let options = arena_play::stored_options(&game.options())?;
            let remote = RemoteGame::new((**nats).clone(), game, dir, &options, limits).await?;
            work.with(Arc::new(remote)).await
        }
    }
}

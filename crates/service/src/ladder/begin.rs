//! How a run of a game's ladder begins, for every front end: the stored ladder goes on with what it
//! was started with (its package's copy in the store, its limits and options), a new one starts from
//! the game's package (kept in the store) with the limits and options given; and its games are played
//! wherever the [`Venue`] says.

use super::{Event, LadderConfig, LadderRun, run};
use crate::packages::{self, Find};
use crate::tournaments::NewTournament;
use crate::venue::{Venue, WithGame, play_on};
use arena_core::Limits;
use arena_play::{LoadPlayers, PackageGame};
use arena_store::{Kind, Store, TournamentLock, TournamentRow, User};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a run of a ladder plays with.
pub struct Begin {
    /// The package's directory: the stored ladder's copy, or the game's package kept in the store.
    pub dir: PathBuf,
    /// The game's options, `NAME=VALUE`.
    pub options: Vec<String>,
    pub limits: Limits,
    /// The stored ladder it goes on with; none for a new one.
    pub row: Option<TournamentRow>,
}

/// How a run of the ladder of the game `name` (its package in `dir`) begins, in the store at `data`:
/// the stored ladder's package copy, limits and options when the game has a ladder; otherwise `dir`'s
/// package kept in the store, with `limits` and `options`.
pub fn begin(
    store: &Store,
    data: &Path,
    name: &str,
    dir: &Path,
    limits: Limits,
    options: &[String],
) -> anyhow::Result<Begin> {
    Ok(match store.ladder_of(name)? {
        Some(row) => {
            let p = packages::of_tournament(data, &row, Find::Kept)?;
            Begin { dir: p.dir, options: p.options, limits: row.settings.limits, row: Some(row) }
        }
        None => Begin { dir: arena_play::keep(data, dir)?, options: options.to_vec(), limits, row: None },
    })
}

/// Stores a new ladder of `game` (seed `seed`, started by `by`), locked for the caller.
pub fn create(
    store: &mut Store,
    game: &PackageGame,
    seed: u64,
    limits: Limits,
    by: Option<&User>,
) -> arena_store::Result<(i64, TournamentLock)> {
    let t = NewTournament { kind: Kind::Ladder, games_per_match: 1, seed, versions: &[], limits, rated: true, by };
    crate::tournaments::create(store, game, t)
}

/// [`run`], its games played at `venue` with the package `game` opened from `dir` under `limits`.
pub async fn run_at(
    venue: &Venue,
    (game, dir, limits): (Arc<PackageGame>, &Path, Limits),
    store: &Store,
    id: i64,
    cfg: &LadderConfig,
    observe: impl Fn(Event<'_>),
    stop: impl Future<Output = ()>,
) -> anyhow::Result<LadderRun> {
    struct Work<'a, O, S> {
        store: &'a Store,
        id: i64,
        cfg: &'a LadderConfig,
        observe: O,
        stop: S,
    }
    impl<O: Fn(Event<'_>), S: Future<Output = ()>> WithGame for Work<'_, O, S> {
        type Output = LadderRun;
        async fn with<G: LoadPlayers + 'static>(self, game: Arc<G>) -> anyhow::Result<LadderRun> {
            run(game, self.store, self.id, self.cfg, self.observe, self.stop).await
        }
    }
    play_on(venue, game, dir, limits, Work { store, id, cfg, observe, stop }).await
}

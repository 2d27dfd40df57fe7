//! Forks of stored games, for an account (the web arena's forks): checked against the store (the seat
//! is the account's, the version is its player's, the referee is still kept), recorded as a tournament
//! of one game that is never rated, and played as a fork of the original by the tournament runner.

use super::{ForkError, check};
pub use crate::refusal::Refusal;
use crate::store::{ForkOf, Owner, Store, StoredSettings, TournamentLock, User, Version};
use crate::tournaments::{Ran, run_stored};
use arena_core::{Entry, Fault, Game, GameOutcome, GameSetup, TournamentInfo};
use arena_play::{LoadPlayers, PackageGame, PackagePlayer};
use arena_sandbox::{LoadError, Loaded, WorldSpec};
use arena_tournament::{Format, GameRecord, Settings};
use std::path::Path;
use std::sync::Arc;

impl From<ForkError> for Refusal {
    fn from(e: ForkError) -> Refusal {
        Refusal::Bad(e.to_string())
    }
}

/// A fork of a stored game, checked: the original tournament's game and settings, its record, the
/// versions that play it in seat order (the forked seat's the one asked for), the kept package's
/// directory, and what it forks.
pub struct Prepared {
    pub game: String,
    pub settings: StoredSettings,
    pub record: GameRecord,
    pub versions: Vec<Version>,
    pub package: std::path::PathBuf,
    pub of: ForkOf,
}

/// Checks that `user` may fork game `of.game` of tournament `of.tournament` at `of.step`, seat `of.seat`
/// played by version `version` (the latest when `None`) of the seat's player (`player`, when given,
/// must be that player).
pub fn prepare(
    store: &Store,
    data: &Path,
    user: &User,
    of: ForkOf,
    (player, version): (Option<&str>, Option<u32>),
) -> Result<Prepared, Refusal> {
    let t = of.tournament;
    let row = store.tournament(t)?.ok_or_else(|| Refusal::NotFound(format!("there is no tournament {t}")))?;
    let record = store
        .game(t, &of.game)?
        .ok_or_else(|| Refusal::NotFound(format!("tournament {t} has no game `{}`", of.game)))?;
    check(&record, of.step, of.seat)?;
    let name = record.players[of.seat].clone();
    if store.owner_of(&name)? != Owner::Account(user.clone()) {
        return Err(Refusal::Forbidden(format!(
            "seat {} is played by `{name}`, which is not yours: you fork your own seats only",
            of.seat
        )));
    }
    if let Some(p) = player.filter(|p| *p != name) {
        return Err(Refusal::Bad(format!(
            "`{p}` is not seat {}'s player (`{name}`): fork a seat with a version of its own player",
            of.seat
        )));
    }
    let chosen = match version {
        Some(n) => store
            .numbered_version(&row.game, &name, n)?
            .ok_or_else(|| Refusal::NotFound(format!("`{name}` has no version {n} of {}", row.game)))?,
        None => store
            .latest_version(&row.game, &name)?
            .ok_or_else(|| Refusal::NotFound(format!("`{name}` has no version of {}", row.game)))?,
    };
    let entrants = store.entrants(t)?;
    let mut versions = Vec::with_capacity(record.players.len());
    for (i, p) in record.players.iter().enumerate() {
        if i == of.seat {
            versions.push(chosen.clone());
            continue;
        }
        let v = entrants.iter().find(|v| v.name == *p).cloned();
        versions.push(v.ok_or_else(|| Refusal::Gone(format!("the version seat {i} (`{p}`) played is not stored")))?);
    }
    let package = crate::packages::by_referee(
        data,
        &row.game,
        row.settings.referee.as_deref(),
        crate::packages::Find::Kept,
    )
    .map_err(|_| {
        Refusal::Gone(format!(
            "the referee this game was played with (sha256 {}) is no longer kept on this server: the game cannot \
                 be played again",
            row.settings.referee.as_deref().unwrap_or("unknown")
        ))
    })?;
    let settings = StoredSettings { fork: Some(of.clone()), ..row.settings };
    Ok(Prepared { game: row.game, settings, record, versions, package, of })
}

/// Whether stored fork `row` has been played and, if so, the first step whose answers differ from the
/// original's (`None`: the same game).
pub fn diverged(store: &Store, row: &crate::store::TournamentRow) -> crate::store::Result<(bool, Option<u32>)> {
    let Some(of) = &row.settings.fork else { return Ok((false, None)) };
    // The listing holds results; the game itself is read with its course.
    let Some(key) = store.tournament_games(row.id)?.pop().map(|g| g.id) else { return Ok((false, None)) };
    let (Some(original), Some(forked)) = (store.game(of.tournament, &of.game)?, store.game(row.id, &key)?) else {
        return Ok((false, None));
    };
    Ok((true, super::diverged_at(&original.replay, &forked.replay)))
}

/// Records the fork `p` as a tournament of one game started by `user`, never rated, and locks it.
pub fn create(store: &mut Store, p: &Prepared, user: &User) -> crate::store::Result<(i64, TournamentLock)> {
    let what = (Format::Rounds, 1, p.record.seed);
    let id = store.create_tournament_as(&p.game, what, &p.settings, &p.versions, (false, Some(user)))?;
    Ok((id, store.lock(id)?))
}

/// Plays stored fork `id` (of `original`, as `of` says) with `game`, recording it as its one game.
pub async fn run(
    game: Arc<PackageGame>,
    store: &mut Store,
    id: i64,
    versions: &[Version],
    (original, of): (GameRecord, &ForkOf),
) -> anyhow::Result<Ran> {
    let fork = Arc::new(ForkGame { game, original: Arc::new(original), step: of.step });
    let entries = crate::players::load_versions(&fork, &store.components_dir(), versions).await?;
    let limits = store.tournament(id)?.map(|r| r.settings.limits).unwrap_or_default();
    let settings = Settings::new(Format::Rounds, 1, fork.original.seed);
    run_stored(fork, store, id, (entries, versions), limits, settings, std::future::pending()).await
}

/// A package whose one game is a fork of `original` from `step`: elimination rounds of the game's seats
/// play exactly one game, its entrants in seat order.
struct ForkGame {
    game: Arc<PackageGame>,
    original: Arc<GameRecord>,
    step: u32,
}

impl Game for ForkGame {
    type Player = Arc<PackagePlayer>;

    fn name(&self) -> &str {
        self.game.name()
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        let n = self.original.players.len();
        n..=n
    }

    fn builtin(&self, name: &str) -> Option<Self::Player> {
        self.game.builtin(name)
    }

    fn builtin_names(&self) -> &[String] {
        self.game.builtin_names()
    }

    fn options(&self) -> serde_json::Value {
        self.game.options()
    }

    fn draws_svg(&self) -> bool {
        self.game.draws_svg()
    }

    fn referee_hash(&self) -> Option<String> {
        self.game.referee_hash()
    }

    async fn tournament_start(&self, _: &Entry<Self::Player>, _: &TournamentInfo, _: u64) -> Option<Fault> {
        // The original's game is forked, not its tournament: nobody is told of one.
        None
    }

    async fn play(&self, setup: GameSetup<Self::Player>) -> GameOutcome {
        let o = &self.original;
        super::play(&self.game, o, self.step, &setup.players, (setup.id, setup.finals)).await
    }

    async fn tournament_end(&self, _: &Entry<Self::Player>, _: bool, _: u64) -> Option<Fault> {
        None
    }
}

impl LoadPlayers for ForkGame {
    fn spec(&self) -> &WorldSpec {
        self.game.spec()
    }

    fn load(&self, path: &Path) -> Result<(Loaded, Self::Player), LoadError> {
        self.game.load(path)
    }

    fn load_bytes(&self, path: &Path, bytes: &[u8]) -> Result<(Loaded, Self::Player), LoadError> {
        self.game.load_bytes(path, bytes)
    }

    fn forget(&self, hash: &str) {
        self.game.forget(hash);
    }
}

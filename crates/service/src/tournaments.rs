//! Stored tournaments as both front ends run them: their settings checked, their games played with a
//! journal (each game recorded as it finishes) until they end or are interrupted, and one stored game
//! re-run through the referee it was played with.

use anyhow::{anyhow, bail};
use arena_core::Frame;
use arena_core::{Entry, Game, Limits};
use arena_play::{LoadPlayers, Package};
use arena_sandbox::Sandbox;
use arena_store::{Kind, Store, StoredSettings, TournamentLock, User, Version};
use std::future::Future;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Arc;

// What the front ends name of a tournament (from `arena-tournament`).
pub use arena_tournament::{
    Format, GameFaultRow, GameRecord, MatchRecord, Observer, Progress, Settings, TournamentResult, hide_output,
    ratings, report, run,
};

/// The seed asked for, or one from the clock.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
    })
}

/// Whether a tournament of `format`, `games_per_match` games a match, can be played by `players`
/// players of `game` (which seats `seats` a game); the reason it cannot, if not.
pub fn check_settings(
    game: &str,
    seats: RangeInclusive<usize>,
    (format, games_per_match): (Format, u32),
    players: usize,
) -> Result<(), String> {
    arena_core::check_games_per_match(games_per_match)?;
    if format == Format::Knockout && games_per_match.is_multiple_of(2) {
        return Err(format!("a knockout's games per match must be odd (best of k), got {games_per_match}"));
    }
    if format != Format::Rounds && !seats.contains(&2) {
        return Err(format!("{game} is not a two-player game: play it in elimination rounds (`rounds`)"));
    }
    if players < 2 || (format == Format::Rounds && players < *seats.start()) {
        return Err(format!("{players} player(s) for {game}: too few for a tournament"));
    }
    Ok(())
}

/// The entrants of a tournament of every player registered for `game` (their latest versions, the
/// first `max` of them if given), checked with [`check_settings`] for the format asked: what both the
/// command line's `tournament --registered` and the web's admin form enter. Outside, a store that
/// fails; inside, the reason they cannot play, if they cannot.
pub fn registered_entrants(
    store: &Store,
    (game, seats): (&str, RangeInclusive<usize>),
    format: (Format, u32),
    max: Option<usize>,
) -> arena_store::Result<Result<Vec<Version>, String>> {
    let mut versions: Vec<Version> = store.players(Some(game))?.into_iter().map(|p| p.latest).collect();
    if let Some(m) = max {
        versions.truncate(m);
    }
    if versions.len() < 2 {
        return Ok(Err(format!("{} player(s) registered for {game}; a tournament needs at least 2", versions.len())));
    }
    Ok(check_settings(game, seats, format, versions.len()).map(|()| versions))
}

/// A stored tournament (or ladder) about to be recorded: what it is, who enters, under which limits, and who
/// started it (none: the command line's organiser). A scrimmage is not rated.
pub struct NewTournament<'a> {
    pub kind: Kind,
    pub games_per_match: u32,
    pub seed: u64,
    pub versions: &'a [Version],
    pub limits: Limits,
    pub rated: bool,
    pub by: Option<&'a User>,
}

/// Records a new tournament (or ladder) of `game` in `store`, with the game's options and the sha256 of
/// its referee as settings (a resume and a replay find that very package), and takes its lock: the
/// run that holds it is the one playing it.
pub fn create<G: Game>(
    store: &mut Store,
    game: &G,
    t: NewTournament<'_>,
) -> arena_store::Result<(i64, TournamentLock)> {
    let stored = StoredSettings { limits: t.limits, options: game.options(), referee: game.referee_hash(), fork: None };
    let what = (t.kind, t.games_per_match, t.seed);
    let id = store.create_tournament_as(game.name(), what, &stored, t.versions, (t.rated, t.by))?;
    Ok((id, store.lock(id)?))
}

/// How a stored tournament's run ended.
pub enum Ran {
    /// Played to its end; its result is stored.
    Finished(Box<TournamentResult>),
    /// Stopped by the interruption: `kept` games were recorded in this run, and the tournament is left
    /// to be resumed.
    Interrupted { kept: u64 },
}

/// The registered versions a stored tournament plays, and each loaded as an entry of the game.
pub type Entrants<'a, P> = (Vec<Arc<Entry<P>>>, &'a [Version]);

/// Plays stored tournament `id` of `versions` (loaded as `entries`), each game recorded in the store
/// as it finishes, until it ends (its result stored) or `interrupt` completes first.
pub async fn run_stored<G: LoadPlayers>(
    game: Arc<G>,
    store: &mut Store,
    id: i64,
    (entries, versions): Entrants<'_, G::Player>,
    limits: Limits,
    mut settings: Settings,
    interrupt: impl Future<Output = ()>,
) -> anyhow::Result<Ran> {
    let journal = store.journal(id, versions)?;
    settings.journal = Some(journal.clone());
    game.bind(&store.run_name(id)?);
    let result = tokio::select! {
        r = arena_tournament::run(game, entries, limits, &settings) => r,
        () = interrupt => {
            let kept = journal.finish().map_err(anyhow::Error::msg)?;
            return Ok(Ran::Interrupted { kept });
        }
    };
    journal.finish().map_err(|e| {
        anyhow!("{e}\nTournament {id} is not finished in the store; `arena resume {id}` finishes it once this is fixed")
    })?;
    store.finish_tournament(id, &result)?;
    Ok(Ran::Finished(Box::new(result)))
}

/// A recorded game re-run through its referee.
pub struct Replayed {
    /// After each step: what the referee was handed, the events it caused and the view that followed.
    pub frames: Vec<Frame>,
    /// The sha256 of the referee it was re-run through.
    pub referee: String,
    /// Whether the referee draws its positions as SVG.
    pub draws_svg: bool,
}

/// Re-runs `record`, a game of `game` played with `options` (`NAME=VALUE`), through the referee of the
/// package in `dir`, which must be the one it was played with when `referee` names it.
pub async fn replay(
    sandbox: Arc<Sandbox>,
    (game, dir): (&str, &Path),
    referee: Option<&str>,
    options: &[String],
    record: &GameRecord,
) -> anyhow::Result<Replayed> {
    let d = dir.to_path_buf();
    let mut pkg = tokio::task::spawn_blocking(move || Package::load(sandbox, &d)).await??;
    if let Some(then) = referee.filter(|r| *r != pkg.hash) {
        bail!(
            "the game was played with {game}'s referee sha256 {then}, but {} holds {}; its replay would not be \
             the game that was played",
            dir.display(),
            pkg.hash
        );
    }
    pkg.set_options(options)?;
    let o = pkg.replay(&record.players, record.seed, &record.so_far, &record.replay).await;
    if let Some(f) = &o.game_fault {
        bail!("the record does not replay through {game}'s referee: {f}");
    }
    Ok(Replayed { frames: o.frames, draws_svg: pkg.draws_svg(), referee: pkg.hash })
}

/// A stored tournament about to be resumed: its row, the package it was played with (the store's
/// copy, or for a tournament stored before packages were kept, the package of its name) with its
/// options, and its settings.
pub struct Resumption {
    pub row: arena_store::TournamentRow,
    pub package: crate::packages::StoredPackage,
    pub settings: Settings,
}

/// What resuming tournament `id` of the store at `data` plays with; a ladder is refused (it goes on
/// with `arena ladder`, or from its page).
pub fn to_resume(store: &Store, data: &Path, id: i64) -> anyhow::Result<Resumption> {
    let (row, settings) = resumable(store, data, id)?;
    let package = crate::packages::of_tournament(data, &row, crate::packages::Find::KeptOrByName)?;
    Ok(Resumption { row, package, settings })
}

/// Tournament `id` of the store at `data` and the settings it goes on with, without looking for its
/// package (see [`to_resume`]); a ladder is refused.
pub fn resumable(store: &Store, data: &Path, id: i64) -> anyhow::Result<(arena_store::TournamentRow, Settings)> {
    let row = store.tournament(id)?.ok_or_else(|| anyhow!("{}: there is no tournament {id}", data.display()))?;
    let Some(format) = row.kind.format() else {
        bail!(
            "{}: tournament {id} is the ladder of {}: `arena ladder --game {} --data {}` goes on with it",
            data.display(),
            row.game,
            row.game,
            data.display()
        );
    };
    if let Some(of) = &row.settings.fork {
        bail!(
            "{}: tournament {id} is a fork of game {} of tournament {}: it is not resumed; fork that game again",
            data.display(),
            of.game,
            of.tournament
        );
    }
    let settings = Settings::new(format, row.games_per_match, row.seed);
    Ok((row, settings))
}

/// Refuses to go on with a stored tournament (`row`) with a game whose referee is not the one it was
/// played with: that would change the rules mid-tournament.
pub fn same_referee(row: &arena_store::TournamentRow, game: &impl Game) -> anyhow::Result<()> {
    if let (Some(then), Some(now)) = (&row.settings.referee, game.referee_hash())
        && *then != now
    {
        bail!(
            "tournament {} was played with {}'s referee sha256 {then}, but the package found now has {now}: \
             resuming would change the rules mid-tournament",
            row.id,
            row.game
        );
    }
    Ok(())
}

/// [`run_stored`] with the games played at `venue` (the package `game`, opened from `dir`, under
/// `limits`), the components of `versions` loaded from the store first.
pub async fn play_stored_at(
    venue: &crate::venue::Venue,
    (game, dir, limits): (Arc<arena_play::PackageGame>, &Path, Limits),
    store: &mut Store,
    id: i64,
    versions: &[Version],
    settings: Settings,
    interrupt: impl Future<Output = ()>,
) -> anyhow::Result<Ran> {
    struct Work<'a, I> {
        store: &'a mut Store,
        id: i64,
        versions: &'a [Version],
        limits: Limits,
        settings: Settings,
        interrupt: I,
    }
    impl<I: Future<Output = ()>> crate::venue::WithGame for Work<'_, I> {
        type Output = Ran;
        async fn with<G: LoadPlayers + 'static>(self, game: Arc<G>) -> anyhow::Result<Ran> {
            let entries = crate::players::load_versions(&game, &self.store.components_dir(), self.versions).await?;
            let entrants = (entries, self.versions);
            run_stored(game, self.store, self.id, entrants, self.limits, self.settings, self.interrupt).await
        }
    }
    let work = Work { store, id, versions, limits, settings, interrupt };
    crate::venue::play_on(venue, game, dir, limits, work).await
}

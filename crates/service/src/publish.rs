//! Publishing a game package to an arena: a stranger's `.tar.gz`, unpacked with bounds into a scratch
//! folder of the data directory, loaded under the referee limits, put through the whole of `arena
//! check-game` (within a time budget), checked against every player already registered for the game
//! (each must still load against the new player world), and only then kept as
//! `packages/<referee sha256>/` and recorded as the next version of a name its publisher owns.
//! Refused at any step, nothing is kept.

use crate::archive::{self, Caps};
use crate::check_game::{self, Plan};
use arena_core::DataDir;
use arena_play::{LoadPlayers, Manifest};
use arena_sandbox::Sandbox;
use arena_store::{GameVersion, Store, StoreError, User};
use bytes::Bytes;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How a published package is judged.
#[derive(Debug, Clone)]
pub struct Rules {
    pub caps: Caps,
    /// The conformance run (`arena check-game`'s, 20 seeds by default).
    pub plan: Plan,
    /// The longest the conformance run may take.
    pub budget: Duration,
    /// Names that are the operator's (the packages the arena ships): nobody may publish them.
    pub reserved: Vec<String>,
}

impl Rules {
    pub fn new(reserved: Vec<String>) -> Rules {
        Rules {
            caps: archive::CAPS,
            plan: Plan { seeds: 20, first_seed: 1, parallel: 2, only: None },
            budget: Duration::from_secs(180),
            reserved,
        }
    }
}

/// A version published.
#[derive(Debug, Clone)]
pub struct Published {
    pub game: String,
    pub version: GameVersion,
    /// Where its package is kept.
    pub dir: PathBuf,
    /// Games the conformance run played.
    pub games_checked: usize,
    /// Registered players that were checked against it (and still load).
    pub players_kept: usize,
}

/// Why a package was refused; nothing was kept.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// The archive itself: its format, sizes, paths, entries.
    #[error("the archive: {0}; nothing was kept")]
    Archive(String),
    /// The manifest, the referee, the WIT, the options.
    #[error("{0}; nothing was kept")]
    Package(String),
    /// The conformance run's first failure, with what replays it.
    #[error(
        "{name} fails `arena check-game`: {why} (seed {seed}; play it again: arena check-game DIR {flags}); nothing was kept"
    )]
    Check { name: String, seed: u64, why: String, flags: String },
    /// The conformance run took longer than the budget.
    #[error("{name}: `arena check-game` took longer than {secs} s here; nothing was kept")]
    TooSlow { name: String, secs: u64 },
    /// Registered players that would no longer load.
    #[error(
        "the new version of {name} would drop registered players that no longer load against its player world: \
         {players}; publish it under a new name; nothing was kept"
    )]
    Incompatible { name: String, players: String },
    /// A name the operator keeps.
    #[error("`{0}` is one of this arena's own games: publish yours under another name; nothing was kept")]
    Reserved(String),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
}

/// Publishes the package in `bytes` (a `.tar.gz`) to the store in `data` as `by`.
pub async fn publish(
    sandbox: Arc<Sandbox>,
    data: &Path,
    bytes: Bytes,
    by: &User,
    rules: &Rules,
) -> Result<Published, Refused> {
    let packages = DataDir::new(data).packages();
    let internal = |e: &dyn std::fmt::Display| Refused::Internal(format!("{}: {e}", packages.display()));
    std::fs::create_dir_all(&packages).map_err(|e| internal(&e))?;
    // A scratch folder beside the kept packages (one rename keeps it), removed when dropped.
    let scratch = tempfile::Builder::new().prefix(".publish-").tempdir_in(&packages).map_err(|e| internal(&e))?;
    let (into, caps, size) = (scratch.path().to_path_buf(), rules.caps, bytes.len() as u64);
    tokio::task::spawn_blocking(move || archive::unpack(&bytes, &into, caps))
        .await
        .map_err(|e| internal(&e))?
        .map_err(Refused::Archive)?;
    // What a refused publication compiled (its referee, its sample players) is not kept: in memory or
    // on disk. A package published already as a version is that version's, and stays compiled.
    let components = crate::compiled::components_in(scratch.path());
    let r = checked_and_kept(sandbox.clone(), data, scratch, size, by, rules).await;
    if let Err(e) = &r
        && !matches!(e, Refused::Store(StoreError::AlreadyPublished { .. }))
    {
        for hash in &components {
            sandbox.forget(hash);
        }
    }
    r
}

/// The rest of [`publish`], once the archive is unpacked in `scratch`.
async fn checked_and_kept(
    sandbox: Arc<Sandbox>,
    data: &Path,
    scratch: tempfile::TempDir,
    size: u64,
    by: &User,
    rules: &Rules,
) -> Result<Published, Refused> {
    let manifest =
        Manifest::read(scratch.path()).map_err(|e| Refused::Package(strip(&e.to_string(), scratch.path())))?;
    let name = manifest.name.clone();
    if rules.reserved.contains(&name) {
        return Err(Refused::Reserved(name));
    }
    // A name somebody else owns is refused before anything is compiled.
    let store = Store::open(data)?;
    store.may_publish(&name, by)?;
    let game = crate::packages::open(sandbox, scratch.path(), &[])
        .await
        .map_err(|e| Refused::Package(strip(&format!("{e:#}"), scratch.path())))?;
    check_game::check_package(&game, &rules.plan).map_err(|e| Refused::Package(strip(&e, scratch.path())))?;
    // Nothing new is refused before the conformance run, not after it.
    let hash = game.package().hash.clone();
    // (Said early here; the store's constraint is what holds when two publish it at once.)
    if let Some(v) =
        store.published_game(&name)?.and_then(|g| g.versions.into_iter().last()).filter(|v| v.referee == hash)
    {
        return Err(Refused::Store(StoreError::AlreadyPublished { name, version: v.version, referee: hash }));
    }
    drop(store);
    let game = Arc::new(game);
    let played = match tokio::time::timeout(rules.budget, check_game::run(game.clone(), &rules.plan)).await {
        Err(_) => return Err(Refused::TooSlow { name, secs: rules.budget.as_secs() }),
        Ok(Err(f)) => {
            let why = strip(&f.why, scratch.path());
            return Err(Refused::Check { name, seed: f.case.seed, why, flags: f.case.flags() });
        }
        Ok(Ok(played)) => played,
    };
    let players_kept = still_load(&game, data, &name).await?;
    drop(game);
    let dir = keep(scratch, data, &hash, &name)?;
    let version = match Store::open(data).and_then(|mut s| s.publish_version(&name, &hash, size, by)) {
        Ok(v) => v,
        Err(e) => {
            // A package already published as a version is that version's (the same referee, the
            // same directory, kept by whichever publish made it): it stays.
            let published = matches!(e, arena_store::StoreError::AlreadyPublished { .. });
            if let Some(made) = dir.made.as_ref().filter(|_| !published) {
                let _ = std::fs::remove_dir_all(made);
            }
            return Err(e.into());
        }
    };
    Ok(Published { game: name, version, dir: dir.path, games_checked: played.len(), players_kept })
}

/// Every player registered for `name` (its latest version) loads against the new package; else the
/// refusal names each that does not, and why.
async fn still_load(game: &Arc<arena_play::PackageGame>, data: &Path, name: &str) -> Result<usize, Refused> {
    let store = Store::open(data)?;
    let registered = store.players(Some(name))?;
    let mut broken = Vec::new();
    for p in &registered {
        let path = store.component_path(&p.latest.hash);
        let (g, label) = (game.clone(), format!("{} version {}", p.latest.name, p.latest.version));
        let loaded = tokio::task::spawn_blocking(move || -> Result<(), String> {
            let bytes = std::fs::read(&path).map_err(|e| format!("its file cannot be read: {e}"))?;
            g.load_bytes(Path::new(&label), &bytes).map(|_| ()).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| Refused::Internal(e.to_string()))?;
        if let Err(why) = loaded {
            broken.push(format!("{} ({why})", p.latest.name));
        }
    }
    if broken.is_empty() {
        Ok(registered.len())
    } else {
        Err(Refused::Incompatible { name: name.into(), players: broken.join("; ") })
    }
}

/// Where a published package ended up, and the folder made for it (removed again if recording fails).
struct Kept {
    path: PathBuf,
    made: Option<PathBuf>,
}

/// Moves the checked package into `packages/<hash>/`. A folder already there with that referee is
/// the same referee kept before: of another game it is refused; of this game it is used as it is.
fn keep(scratch: tempfile::TempDir, data: &Path, hash: &str, name: &str) -> Result<Kept, Refused> {
    let to = DataDir::new(data).package(hash);
    if to.join("game.toml").is_file() {
        let there = Manifest::read(&to).map_err(|e| Refused::Internal(e.to_string()))?;
        if there.name != name {
            return Err(Refused::Package(format!(
                "its referee (sha256 {hash}) is the referee of the game `{}` already: a game has a referee of its own",
                there.name
            )));
        }
        return Ok(Kept { path: to, made: None });
    }
    let from = scratch.keep();
    std::fs::rename(&from, &to).map_err(|e| {
        let _ = std::fs::remove_dir_all(&from);
        Refused::Internal(format!("{}: cannot keep the package: {e}", to.display()))
    })?;
    Ok(Kept { path: to.clone(), made: Some(to) })
}

/// A message without the scratch folder's path (the publisher never saw it): `game.toml`, not
/// `/data/packages/.publish-x1y2/game.toml`.
fn strip(message: &str, scratch: &Path) -> String {
    message.replace(&format!("{}/", scratch.display()), "").replace(&scratch.display().to_string(), "the package")
}

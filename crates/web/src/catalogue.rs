//! The game catalogue: the packages this arena ships (found once, when the server starts) and the
//! games published to it (their latest versions, kept in the store, read again whenever one is
//! published, hidden or suspended here), found by name, and each game's rating system.

use super::error::WebError;
use arena_service::packages::Manifest;
use arena_service::store::{Listing, PublishedGame, Store};
use arena_service::tournaments::ratings::System;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// A game of the catalogue.
#[derive(Debug, Clone)]
pub struct Entry {
    pub manifest: Manifest,
    /// Its package: shipped, or the store's copy of its latest version.
    pub dir: PathBuf,
    /// sha256 of its referee.
    pub referee: String,
    /// Published here (not shipped): its owner, versions, listing and suspension.
    pub published: Option<PublishedGame>,
}

impl Entry {
    pub fn name(&self) -> &str {
        &self.manifest.name
    }

    /// Why no new player, tournament or scrimmage of it is taken now, if so.
    pub fn closed(&self) -> Option<String> {
        let p = self.published.as_ref()?;
        if p.listing == Listing::Removed {
            return Some(format!("the game {} was removed by the operator", p.name));
        }
        p.suspended.as_ref().map(|why| format!("the game {} is suspended: {why}", p.name))
    }

    /// The sample players, the built-in opponents, as `builtin:STEM`, the strongest first.
    pub fn samples(&self) -> Vec<String> {
        let m = &self.manifest;
        m.players.iter().filter_map(|p| p.file_stem()?.to_str().map(|s| format!("builtin:{s}"))).collect()
    }

    /// The component of the sample player `builtin:STEM`.
    pub fn sample_file(&self, builtin: &str) -> Option<PathBuf> {
        let stem = builtin.strip_prefix("builtin:")?;
        let file = self.manifest.players.iter().find(|p| p.file_stem().and_then(|s| s.to_str()) == Some(stem))?;
        Some(self.dir.join(file))
    }

    fn listed(&self) -> bool {
        self.published.as_ref().is_none_or(|p| p.listing == Listing::Listed)
    }
}

/// The arena's games.
pub struct Catalogue {
    data: PathBuf,
    shipped: Vec<Entry>,
    published: RwLock<Arc<Vec<Entry>>>,
}

/// How many of a published game's latest games are looked at, and how many of them may end in a game
/// fault before the game is suspended.
pub const SUSPEND_AFTER: (u32, u32) = (20, 5);

impl Catalogue {
    /// The shipped packages and the games published in the store at `data`.
    pub fn load(data: &Path) -> Catalogue {
        let shipped = arena_service::packages::shipped()
            .into_iter()
            .map(|(manifest, dir)| {
                let referee =
                    std::fs::read(dir.join(&manifest.referee)).map(|b| arena_core::sha256_hex(&b)).unwrap_or_default();
                Entry { manifest, dir, referee, published: None }
            })
            .collect();
        // A publication cut short by the server stopping leaves its scratch folder: nothing of it is kept.
        if let Ok(dirs) = std::fs::read_dir(arena_core::DataDir::new(data).packages()) {
            for d in dirs.filter_map(Result::ok) {
                if d.file_name().to_string_lossy().starts_with(".publish-") {
                    let _ = std::fs::remove_dir_all(d.path());
                }
            }
        }
        let c = Catalogue { data: data.to_path_buf(), shipped, published: RwLock::default() };
        if let Err(e) = Store::open_to_read(data).map(|s| c.refresh(&s)) {
            tracing::error!("reading the published games: {e}");
        }
        c
    }

    /// The names nobody may publish: the shipped games'.
    pub fn reserved(&self) -> Vec<String> {
        self.shipped.iter().map(|e| e.manifest.name.clone()).collect()
    }

    /// Reads the published games again from `store`.
    pub fn refresh(&self, store: &Store) {
        let games = match store.published_games() {
            Ok(g) => g,
            Err(e) => return tracing::error!("reading the published games: {e}"),
        };
        let entries = games
            .into_iter()
            .filter_map(|g| {
                let referee = g.latest()?.referee.clone();
                let dir = arena_core::DataDir::new(&self.data).package(&referee);
                let manifest = Manifest::read(&dir).ok()?;
                Some(Entry { manifest, dir, referee, published: Some(g) })
            })
            .collect();
        *self.published.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(entries);
    }

    fn published(&self) -> Arc<Vec<Entry>> {
        self.published.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The games on the arena's lists: the shipped ones, then the published ones listed.
    pub fn listed(&self) -> Vec<Entry> {
        let published = self.published();
        self.shipped.iter().chain(published.iter()).filter(|e| e.listed()).cloned().collect()
    }

    /// A game by name (a hidden, suspended or removed one too): a web request names a game only among
    /// these (never a path).
    pub fn find(&self, name: &str) -> Result<Entry, WebError> {
        let published = self.published();
        self.shipped
            .iter()
            .chain(published.iter())
            .find(|e| e.manifest.name == name)
            .cloned()
            .ok_or_else(|| WebError::not_found(format!("there is no game `{}` here", super::error::quoted(name))))
    }

    /// A game that takes new players, tournaments and scrimmages now: found, and neither removed nor
    /// suspended (403 saying why).
    pub fn open(&self, name: &str) -> Result<Entry, WebError> {
        let e = self.find(name)?;
        match e.closed() {
            Some(why) => Err(WebError::forbidden(why)),
            None => Ok(e),
        }
    }

    pub fn system(&self, game: &str) -> System {
        let seats = self.find(game).ok().map(|e| e.manifest.seats());
        System::for_seats(seats.unwrap_or(2..=2))
    }

    /// After games of `game` were played: a published game whose referee failed in more than
    /// [`SUSPEND_AFTER`]`.1` of its latest [`SUSPEND_AFTER`]`.0` games is suspended, saying so.
    pub fn judge(&self, store: &mut Store, game: &str) {
        let Ok(e) = self.find(game) else { return };
        if e.published.as_ref().is_none_or(|p| p.suspended.is_some()) {
            return;
        }
        let (n, k) = SUSPEND_AFTER;
        match store.recent_game_faults(game, n) {
            Ok((faulted, of)) if faulted > k => {
                let why = format!(
                    "its referee failed in {faulted} of its latest {of} games (more than {k} of {n} suspends a \
                     game); nobody was rated on those games. A new version lifts the suspension"
                );
                match store.suspend_game(game, &why) {
                    Ok(()) => self.refresh(store),
                    Err(e) => tracing::error!("suspending {game}: {e}"),
                }
            }
            Ok(_) => {}
            Err(e) => tracing::error!("counting {game}'s game faults: {e}"),
        }
    }
}

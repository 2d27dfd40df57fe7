//! Submitting a player: the one validation every submission goes through, from `arena submit` and from
//! the web arena's uploads alike — a component of the game's world that compiles under the compile
//! limits and plays one game against the game's strongest sample player without a fault — and then
//! its version stored (under the name's owner, for an account).

use arena_core::Fault;
use arena_core::{Entry, Game, GameSetup, MatchSoFar};
use arena_match::LoadPlayers;
use arena_store::{Store, StoreError, Submitted, User, check_name};
use arena_tournament::GameRecord;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file to submit as version of `name`.
pub struct Submission<'a> {
    pub name: &'a str,
    /// The file, as read (its hash is the version's).
    pub bytes: &'a [u8],
    /// Where it can be loaded from (a `.wat` file is read as text).
    pub path: &'a Path,
    /// How it is called in messages (its path, or an upload's file name).
    pub label: &'a str,
    /// Seed of the validation game.
    pub seed: u64,
}

/// A stored submission, with its validation game.
#[derive(Debug, Clone, Serialize)]
pub struct Accepted {
    #[serde(flatten)]
    pub version: arena_store::Version,
    pub new_player: bool,
    /// Identical to the latest version: nothing new was stored.
    pub unchanged: bool,
    pub imports: Vec<String>,
    pub validation: Validation,
}

/// The validation game: against which sample player, with which seed, and how it went.
#[derive(Debug, Clone, Serialize)]
pub struct Validation {
    pub opponent: String,
    pub seed: u64,
    pub scores: Vec<i64>,
    pub fuel: u64,
    pub calls: u32,
    /// The most fuel one call used.
    pub max_call_fuel: u64,
}

/// Why a submission was refused; nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("{0}; nothing was stored")]
    Name(String),
    #[error("{label}: {error}; nothing was stored")]
    Load { label: String, error: String },
    #[error(
        "{label}: failed its validation game against builtin:{opponent} (seed {seed}): {} in `{}`: {}; nothing was \
         stored (`arena check` shows more)",
        fault.kind, fault.call, fault.reason
    )]
    Validation { label: String, opponent: String, seed: u64, fault: Fault },
    #[error("{label}: the file changed while it was being submitted; nothing was stored")]
    Changed { label: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Game(String),
}

impl Refused {
    /// The fault that refused it, if a validation game did.
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Refused::Validation { fault, .. } => Some(fault),
            _ => None,
        }
    }
}

/// Validates `s` and stores it as the next version of its name in the store at `data` (by `by`, whose
/// name it must be or become).
pub async fn submit<G: LoadPlayers>(
    game: Arc<G>,
    data: &Path,
    s: Submission<'_>,
    by: Option<&User>,
) -> Result<Accepted, Refused> {
    check_name(s.name).map_err(Refused::Name)?;
    if let Some(user) = by {
        // Refused before anything is compiled; checked again when the version is stored.
        Store::open(data)?.owner_of(s.name)?.admits(s.name, user)?;
    }
    let (g, path) = (game.clone(), s.path.to_path_buf());
    let label = s.label.to_string();
    let (loaded, player) = tokio::task::spawn_blocking(move || g.load(&path))
        .await
        .map_err(|e| Refused::Load { label: label.clone(), error: e.to_string() })?
        .map_err(|e| Refused::Load { label: label.clone(), error: strip_path(&e.to_string(), s.path) })?;
    let hash = arena_core::sha256_hex(s.bytes);
    if hash != loaded.hash {
        return Err(Refused::Changed { label });
    }
    let me = Arc::new(Entry { name: s.name.to_string(), source: label.clone(), hash: Some(hash.clone()), player });
    let (best, o) = against_strongest(&*game, s.seed, me).await.map_err(Refused::Game)?;
    if let Some(f) = o.faults.iter().find(|f| f.player == s.name) {
        let fault = Fault { kind: f.kind, call: f.call.clone(), reason: f.reason.clone() };
        return Err(Refused::Validation { label, opponent: best.to_string(), seed: s.seed, fault });
    }
    let mut store = Store::open(data)?;
    let Submitted { version, new_player, unchanged } = store.add_version_as(game.name(), s.name, s.bytes, &hash, by)?;
    let max_call_fuel = o.replay.iter().filter(|c| c.seat == 0).map(|c| c.fuel).max().unwrap_or(0);
    Ok(Accepted {
        version,
        new_player,
        unchanged,
        imports: loaded.imports,
        validation: Validation {
            opponent: format!("builtin:{best}"),
            seed: s.seed,
            scores: o.scores.clone(),
            fuel: o.fuel[0],
            calls: o.calls[0],
            max_call_fuel,
        },
    })
}

/// An error about a temporary upload file, said of the upload instead (its path means nothing to
/// the person who sent it).
fn strip_path(error: &str, path: &Path) -> String {
    let p = path.display().to_string();
    error.strip_prefix(&format!("{p}: ")).unwrap_or(error).replace(&p, "the file")
}

/// One game of the players in the order given.
pub async fn one_game<G: Game>(game: &G, seed: u64, entries: Vec<Arc<Entry<G::Player>>>) -> GameRecord {
    let n = entries.len();
    let names = entries.iter().map(|e| e.name.clone()).collect();
    let so_far =
        MatchSoFar { game: 1, games_in_match: 1, wins: vec![0; n], match_no: 1, matches: 1, ..Default::default() };
    let outcome = game.play(GameSetup { id: "game".into(), seed, players: entries, so_far }).await;
    GameRecord::new("game".into(), (1, 1, 1), names, seed, outcome)
}

/// One game of `me` (seat 0) against the game's strongest built-in bot, as `check` and `submit` play
/// it. The bot is named `builtin:NAME`, which no player can be called (names have no `:`).
pub async fn against_strongest<G: Game>(
    game: &G,
    seed: u64,
    me: Arc<Entry<G::Player>>,
) -> Result<(&'static str, GameRecord), String> {
    let Some((best, player)) = game.builtin_names().first().and_then(|b| Some((*b, game.builtin(b)?))) else {
        return Err(format!(
            "{} has no sample player to play against (a package lists them in its game.toml)",
            game.name()
        ));
    };
    let opponent =
        Arc::new(Entry { name: format!("builtin:{best}"), source: format!("builtin:{best}"), hash: None, player });
    Ok((best, one_game(game, seed, vec![me, opponent]).await))
}

/// A file name for an upload's bytes in `dir`, keeping a `.wat` upload's extension (it is read as text).
pub fn upload_path(dir: &Path, file_name: &str) -> std::io::Result<PathBuf> {
    let ext = if file_name.ends_with(".wat") { "wat" } else { "wasm" };
    let id = arena_store::secret("").map_err(std::io::Error::other)?;
    Ok(dir.join(format!("upload-{}.{ext}", &id[..16])))
}

//! A package as a `Game` the tournaments run: every format (knockout, round robin, elimination rounds)
//! plays packaged games, and players hear a tournament start and end through the referee's
//! `tournament` export.

use super::{Announcement, Package, PackageError, PackagePlayer};
use arena_core::Fault;
use arena_core::{CallLine, Entry, Game, GameOutcome, GameSetup, TournamentInfo};
use arena_sandbox::{LoadError, Loaded, WorldSpec};
use std::path::Path;
use std::sync::Arc;

/// A loaded package, seen as a game: it owns its name, player world and sample names, and lets go of
/// them when dropped (a server opens a package for every publication, tournament and validation).
pub struct PackageGame {
    pkg: Package,
    spec: WorldSpec,
    /// The package's sample players, loaded (and checked) when first asked for, by name (their file
    /// stems), the strongest first.
    samples: Vec<std::sync::OnceLock<Option<Arc<PackagePlayer>>>>,
    sample_names: Vec<String>,
}

impl PackageGame {
    /// The package as a game, its sample players as its built-in opponents.
    pub fn new(pkg: Package) -> Result<PackageGame, PackageError> {
        let spec = pkg.player_spec();
        let mut samples = Vec::new();
        let mut sample_names = Vec::new();
        for file in &pkg.manifest.players {
            let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("player");
            samples.push(std::sync::OnceLock::new());
            sample_names.push(stem.to_string());
        }
        Ok(PackageGame { pkg, spec, samples, sample_names })
    }

    pub fn package(&self) -> &Package {
        &self.pkg
    }

    /// A package's refusal of a player, as a load error.
    fn load_error(&self, path: &Path, e: PackageError) -> LoadError {
        match e {
            PackageError::Load(e) => e,
            other => LoadError::WrongWorld {
                path: path.to_path_buf(),
                world: self.spec.world.to_string(),
                detail: other.to_string(),
            },
        }
    }
}

/// A game whose players are components this host loads: the game host's side of the `Game` seam (the
/// tournaments play games; loading a player is the game host's business, so no wasmtime type
/// reaches them).
pub trait LoadPlayers: Game {
    /// The world a player component implements.
    fn spec(&self) -> &WorldSpec;
    /// Loads, compiles and pre-instantiates a component, checking it implements the world.
    fn load(&self, path: &Path) -> Result<(Loaded, Self::Player), LoadError>;
    /// [`LoadPlayers::load`] of a file's bytes already read (an upload); `path` names it in errors.
    fn load_bytes(&self, path: &Path, bytes: &[u8]) -> Result<(Loaded, Self::Player), LoadError>;
    /// [`LoadPlayers::load_bytes`] for a validation game, whose verdict somebody waits for: where games
    /// are played here, a component not compiled yet is compiled as quick code and kept nowhere (see
    /// [`arena_sandbox::Tier::Quick`]); its optimised code is compiled by its first load after.
    fn load_to_validate(&self, path: &Path, bytes: &[u8]) -> Result<(Loaded, Self::Player), LoadError> {
        self.load_bytes(path, bytes)
    }
    /// Lets go of what loading the component whose sha256 is `hash` compiled, in memory and on disk (a
    /// refused upload leaves nothing compiled behind).
    fn forget(&self, hash: &str);
    /// `player`, profiled (see [`PackagePlayer::profiled`]): `None` where games are not played here.
    fn profiled(&self, _player: &Self::Player) -> Option<(Self::Player, arena_sandbox::ProfileSink)> {
        None
    }
}

impl LoadPlayers for PackageGame {
    fn spec(&self) -> &WorldSpec {
        &self.spec
    }

    fn load(&self, path: &Path) -> Result<(Loaded, Self::Player), LoadError> {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("player");
        self.pkg.load_player_with(name, path).map_err(|e| self.load_error(path, e))
    }

    fn load_bytes(&self, path: &Path, bytes: &[u8]) -> Result<(Loaded, Self::Player), LoadError> {
        self.load_bytes_as(path, bytes, arena_sandbox::Tier::Optimized)
    }

    fn load_to_validate(&self, path: &Path, bytes: &[u8]) -> Result<(Loaded, Self::Player), LoadError> {
        self.load_bytes_as(path, bytes, arena_sandbox::Tier::Quick)
    }

    fn forget(&self, hash: &str) {
        self.pkg.sandbox.forget(hash);
    }

    fn profiled(&self, player: &Self::Player) -> Option<(Self::Player, arena_sandbox::ProfileSink)> {
        Some(player.profiled())
    }
}

impl PackageGame {
    /// [`LoadPlayers::load_bytes`] at `tier` (see [`Package::load_player_bytes_as`]).
    fn load_bytes_as(
        &self,
        path: &Path,
        bytes: &[u8],
        tier: arena_sandbox::Tier,
    ) -> Result<(Loaded, Arc<PackagePlayer>), LoadError> {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("player");
        self.pkg.load_player_bytes_as(name, path, bytes, tier).map_err(|e| self.load_error(path, e))
    }

    /// A game of `setup` forked from `record` at step `from` (see [`Package::fork`]).
    pub async fn fork(&self, setup: GameSetup<Arc<PackagePlayer>>, record: &[CallLine], from: u32) -> GameOutcome {
        self.play_or_fork(setup, Some((record, from))).await
    }

    async fn play_or_fork(
        &self,
        setup: GameSetup<Arc<PackagePlayer>>,
        fork: Option<(&[CallLine], u32)>,
    ) -> GameOutcome {
        let players: Vec<Arc<PackagePlayer>> = setup.players.iter().map(|e| e.player.clone()).collect();
        let names: Vec<String> = setup.players.iter().map(|e| e.name.clone()).collect();
        let o = match fork {
            Some(f) => self.pkg.fork(&players, &names, (setup.seed, &setup.so_far), f, setup.finals).await,
            None => self.pkg.play_as(&players, &names, setup.seed, &setup.so_far, setup.finals).await,
        };
        let n = players.len();
        GameOutcome {
            scores: if o.scores.len() == n { o.scores } else { vec![0; n] },
            logs: if o.logs.len() == n { o.logs } else { vec![String::new(); n] },
            so_far: setup.so_far,
            ..o
        }
    }
}

impl Game for PackageGame {
    type Player = Arc<PackagePlayer>;

    fn name(&self) -> &str {
        &self.pkg.manifest.name
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.pkg.manifest.seats()
    }

    fn options(&self) -> serde_json::Value {
        serde_json::json!(self.pkg.options())
    }

    fn draws_svg(&self) -> bool {
        self.pkg.draws_svg()
    }

    fn referee_hash(&self) -> Option<String> {
        Some(self.pkg.hash.clone())
    }

    fn builtin(&self, name: &str) -> Option<Self::Player> {
        let i = self.sample_names.iter().position(|n| *n == name)?;
        self.samples[i]
            .get_or_init(|| {
                let path = self.pkg.dir.join(&self.pkg.manifest.players[i]);
                match self.pkg.load_player(name, &path) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        tracing::error!("the sample player {name} of {} does not load: {e}", self.name());
                        None
                    }
                }
            })
            .clone()
    }

    fn builtin_names(&self) -> &[String] {
        &self.sample_names
    }

    async fn tournament_start(&self, p: &Entry<Self::Player>, info: &TournamentInfo, seed: u64) -> Option<Fault> {
        let event =
            Announcement::Start { you: &info.you, players: &info.players, games_per_match: info.games_per_match };
        self.pkg.lifecycle(&p.player, event, seed).await
    }

    async fn play(&self, setup: GameSetup<Self::Player>) -> GameOutcome {
        self.play_or_fork(setup, None).await
    }

    async fn tournament_end(&self, p: &Entry<Self::Player>, won: bool, seed: u64) -> Option<Fault> {
        self.pkg.lifecycle(&p.player, Announcement::End { won }, seed).await
    }
}

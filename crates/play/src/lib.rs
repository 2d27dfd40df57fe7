//! Game packages (seed 004's game machine): a directory holding a manifest (`game.toml`), the game's
//! WIT and its referee component. The game host loads a package, checks that its referee's requests
//! and the players' exports agree, and drives the referee through the `arena:game` protocol, forwarding
//! typed values between it and the players as wasmtime's dynamic `Val`s: it knows no game.

mod answers;
mod exports;
mod find;
mod flat;
pub mod fuzz;
mod game;
mod keep;
mod lifecycle;
mod manifest;
mod play;
mod referee;
mod rules;
mod seat;
mod types;
pub mod values;
mod wit;

pub use answers::Divergence;
pub use find::{locate, search_path, seats_of, shipped};
pub use game::{LoadPlayers, PackageGame};
pub use keep::{files_under, keep, kept, stored_options};
pub use lifecycle::Announcement;
pub use manifest::{MAX_MANIFEST_BYTES, MAX_REFEREE_BYTES, Manifest};

use exports::{cases, check_export, draws, flat_step, lifecycle};
pub use fuzz::Fuzz;
pub use play::{RefereeCost, SVG_BYTES};
pub use wit::{MAX_WIT_BYTES, check_wit};

use arena_sandbox::{LoadError, PlayerState, Sandbox, WorldSpec};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wasmtime::component::types::{ComponentItem, Type};
use wasmtime::component::{InstancePre, Linker};

/// The most events one game may emit; a referee that emits more is at fault.
pub const MAX_EVENTS: usize = 100_000;
/// The most characters of an event kept (the rest is cut, saying how much).
pub const EVENT_CHARS: usize = 2_000;
/// The most characters of a view kept (a board drawn as text fits many times over).
pub const VIEW_CHARS: usize = 32_768;

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("{path}: {detail}")]
    Manifest { path: PathBuf, detail: String },
    #[error("{0}")]
    Load(#[from] LoadError),
    #[error("{path}: the referee does not fit the `arena:game` protocol: {detail}")]
    Referee { path: PathBuf, detail: String },
    #[error("{path}: not a player of {game}: {detail}")]
    Player { path: PathBuf, game: String, detail: String },
    #[error("{0}")]
    Option(String),
}

/// One request the referee may make: the player export it names, with the export's parameter (the
/// request's payload; a tuple is spread over several parameters) and result (the answer's payload).
#[derive(Debug, Clone)]
struct Case {
    name: String,
    param: Option<Type>,
    result: Option<Type>,
    /// The index of its case in the referee's `answer` variant (what the flat form writes), and the
    /// shape of its answer's payload when it has a flat form.
    answer_index: u32,
    answer_shape: Option<flat::Shape>,
}

impl Case {
    /// Whether the payload is a tuple the host spreads over the export's parameters.
    fn spread(&self) -> bool {
        matches!(self.param, Some(Type::Tuple(_)))
    }
}

/// A loaded game package.
pub struct Package {
    pub manifest: Manifest,
    pub dir: PathBuf,
    /// sha256 of the referee component.
    pub hash: String,
    sandbox: Arc<Sandbox>,
    referee: InstancePre<PlayerState>,
    cases: Vec<Case>,
    /// Whether the referee exports `tournament` (what to tell players when a tournament starts, ends).
    lifecycle: bool,
    /// Whether the referee exports `svg` (a drawing of the position).
    svg: bool,
    /// The referee's `step` in flat form (`arena:game/flat`), when it exports it and every request and
    /// answer has a flat form: the export, and the shape of the requests of a `next`
    /// (`list<tuple<u32, request>>`).
    flat: Option<(wasmtime::component::ComponentExportIndex, Arc<flat::Shape>)>,
    /// The interfaces the referee serves players (rule checkers).
    served: Vec<rules::Interface>,
    players: Linker<PlayerState>,
    /// The options every game is played with: the manifest's defaults unless set.
    options: std::collections::BTreeMap<String, i64>,
    /// Shelves of request values from finished games, for the next games' flat `next`s to refill
    /// (see `referee::Shelves`).
    shelves: referee::Shelves,
}

/// A player of a package, checked against the referee's requests.
pub struct PackagePlayer {
    pub name: String,
    pub hash: String,
    pre: InstancePre<PlayerState>,
    /// Where its seats add their samples, when it is profiled.
    profile: Option<arena_sandbox::ProfileSink>,
    /// Quick code (see [`arena_sandbox::Tier::Quick`]): its seats' deadlines are longer.
    pub quick: bool,
}

impl PackagePlayer {
    /// The same player, profiled: every seat it takes samples where its fuel goes into the sink
    /// returned (see [`arena_sandbox::Profile`]; the sandbox should tick faster: `Sandbox::profiling`).
    pub fn profiled(&self) -> (Arc<PackagePlayer>, arena_sandbox::ProfileSink) {
        let sink = arena_sandbox::ProfileSink::default();
        let p = PackagePlayer {
            name: self.name.clone(),
            hash: self.hash.clone(),
            pre: self.pre.clone(),
            profile: Some(sink.clone()),
            quick: self.quick,
        };
        (Arc::new(p), sink)
    }

    /// The pre-instantiated component (for measurements: games instantiate it themselves).
    pub fn pre(&self) -> &InstancePre<PlayerState> {
        &self.pre
    }
}

impl Package {
    /// Loads the package in `dir`: its manifest, and its referee, compiled within the sandbox's compile
    /// limits like any submitted component.
    pub fn load(sandbox: Arc<Sandbox>, dir: &Path) -> Result<Package, PackageError> {
        let manifest = Manifest::read(dir)?;
        let path = dir.join(&manifest.referee);
        let spec = WorldSpec {
            game: manifest.name.clone().into(),
            // The game's own types and `arena:game`; the linker refuses anything it does not define.
            package: "arena:".into(),
            world: format!("arena:{}/referee", manifest.name).into(),
        };
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size > manifest::MAX_REFEREE_BYTES {
            return Err(PackageError::Referee {
                path,
                detail: format!("{size} bytes; a referee may have at most {}", manifest::MAX_REFEREE_BYTES),
            });
        }
        let loaded = sandbox.load(&path, &spec)?;
        let referee_error = |detail: String| PackageError::Referee { path: path.clone(), detail };
        let (cases, request) = cases(sandbox.engine(), &loaded.component).map_err(referee_error)?;
        let flat = flat_step(&loaded.component, &cases, request).map_err(referee_error)?;
        // A referee imports nothing of Arena's (its events come back in what its calls answer): the linker
        // defines only what every component may import, and refuses anything else.
        let linker = sandbox.linker().map_err(|e| referee_error(e.to_string()))?;
        let referee = linker.instantiate_pre(&loaded.component).map_err(|e| referee_error(format!("{e:#}")))?;
        let lifecycle = lifecycle(sandbox.engine(), &loaded.component, &cases).map_err(referee_error)?;
        let svg = draws(sandbox.engine(), &loaded.component).map_err(referee_error)?;
        let served = rules::exported(sandbox.engine(), &loaded.component);
        let mut players = sandbox.linker().map_err(|e| referee_error(e.to_string()))?;
        rules::serve(&mut players, &sandbox, &loaded.component, &referee, &served).map_err(referee_error)?;
        let options = manifest.option_values(&[]).map_err(PackageError::Option)?;
        Ok(Package {
            manifest,
            dir: dir.to_path_buf(),
            hash: loaded.hash,
            sandbox,
            referee,
            cases,
            lifecycle,
            svg,
            flat,
            served,
            players,
            options,
            shelves: referee::Shelves::default(),
        })
    }

    /// Loads a player component and checks it answers every request the referee can make: an export
    /// of the request's name taking the request's payload and returning the answer's.
    pub fn load_player(&self, name: &str, path: &Path) -> Result<Arc<PackagePlayer>, PackageError> {
        self.load_player_with(name, path).map(|(_, p)| p)
    }

    /// The world a player of this package implements, and what it may import.
    pub fn player_spec(&self) -> WorldSpec {
        WorldSpec {
            game: self.manifest.name.clone().into(),
            package: format!("arena:{}", self.manifest.name).into(),
            world: format!("arena:{}/player", self.manifest.name).into(),
        }
    }

    /// [`Package::load_player`], with what is known about the component.
    pub fn load_player_with(
        &self,
        name: &str,
        path: &Path,
    ) -> Result<(arena_sandbox::Loaded, Arc<PackagePlayer>), PackageError> {
        let loaded = self.sandbox.load(path, &self.player_spec())?;
        self.check_player(name, path, loaded)
    }

    /// [`Package::load_player_with`] of a file's bytes already read (an upload); `path` names it in errors.
    pub fn load_player_bytes(
        &self,
        name: &str,
        path: &Path,
        bytes: &[u8],
    ) -> Result<(arena_sandbox::Loaded, Arc<PackagePlayer>), PackageError> {
        self.load_player_bytes_as(name, path, bytes, arena_sandbox::Tier::Optimized)
    }

    /// [`Package::load_player_bytes`] compiled at `tier` when the optimised code is not kept already:
    /// quick code, for a validation game (see [`arena_sandbox::Tier::Quick`]).
    pub fn load_player_bytes_as(
        &self,
        name: &str,
        path: &Path,
        bytes: &[u8],
        tier: arena_sandbox::Tier,
    ) -> Result<(arena_sandbox::Loaded, Arc<PackagePlayer>), PackageError> {
        let loaded = self.sandbox.load_bytes_as(path, bytes, &self.player_spec(), tier)?;
        self.check_player(name, path, loaded)
    }

    /// Checks a loaded component answers every request the referee can make, and pre-instantiates it.
    fn check_player(
        &self,
        name: &str,
        path: &Path,
        loaded: arena_sandbox::Loaded,
    ) -> Result<(arena_sandbox::Loaded, Arc<PackagePlayer>), PackageError> {
        let wrong = |detail: String| PackageError::Player {
            path: path.to_path_buf(),
            game: self.manifest.name.clone(),
            detail,
        };
        let engine = self.sandbox.engine();
        let exports: Vec<(String, ComponentItem)> =
            loaded.component.component_type().exports(engine).map(|(n, e)| (n.to_string(), e.ty)).collect();
        for case in &self.cases {
            let Some((_, ComponentItem::ComponentFunc(f))) = exports.iter().find(|(n, _)| *n == case.name) else {
                return Err(wrong(format!("it exports no function `{}`", case.name)));
            };
            check_export(f, case).map_err(wrong)?;
        }
        for (import, item) in loaded.component.component_type().imports(engine) {
            if import.starts_with("arena:") {
                rules::check_import(&self.served, import, &item.ty, engine).map_err(wrong)?;
            }
        }
        let pre = self.players.instantiate_pre(&loaded.component).map_err(|e| wrong(format!("{e:#}")))?;
        let quick = loaded.quick;
        let player =
            Arc::new(PackagePlayer { name: name.to_string(), hash: loaded.hash.clone(), pre, profile: None, quick });
        Ok((loaded, player))
    }

    /// Sets the game's options from `NAME=VALUE` strings, checked against the manifest.
    pub fn set_options(&mut self, raw: &[String]) -> Result<(), PackageError> {
        self.options = self.manifest.option_values(raw).map_err(PackageError::Option)?;
        Ok(())
    }

    /// The options games are played with.
    pub fn options(&self) -> &std::collections::BTreeMap<String, i64> {
        &self.options
    }

    /// Whether the game draws its positions as SVG.
    pub fn draws_svg(&self) -> bool {
        self.svg
    }

    /// The type of the answer to request `call` (`None`: no such request, or an answer without payload).
    pub fn answer_type(&self, call: &str) -> Option<Type> {
        self.cases.iter().find(|c| c.name == call).and_then(|c| c.result.clone())
    }

    /// The player exports the referee can call, by name.
    pub fn calls(&self) -> Vec<&str> {
        self.cases.iter().map(|c| c.name.as_str()).collect()
    }
}

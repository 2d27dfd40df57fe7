//! Loading a submitted file as a player component: read it, tell apart empty files, non-wasm, core
//! modules and components, compile it once, and refuse imports other than WASI and the game's own.

use super::{PlayerState, Sandbox};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use wasmtime::component::{Component, InstancePre, Linker};

/// What a game's world allows a component to import besides WASI.
#[derive(Debug, Clone)]
pub struct WorldSpec {
    /// The game's name, e.g. `yahtzee`.
    pub game: Cow<'static, str>,
    /// The WIT package whose interfaces the host provides, e.g. `arena:yahtzee`, or a namespace ending
    /// in `:` (`arena:`) for every package in it (a referee uses its game's package and `arena:game`).
    pub package: Cow<'static, str>,
    /// The world a component implements, e.g. `arena:yahtzee/player`.
    pub world: Cow<'static, str>,
}

impl WorldSpec {
    pub const fn new(game: &'static str, package: &'static str, world: &'static str) -> WorldSpec {
        WorldSpec { game: Cow::Borrowed(game), package: Cow::Borrowed(package), world: Cow::Borrowed(world) }
    }
}

/// A compiled component and what is known about it.
pub struct Loaded {
    pub path: PathBuf,
    pub component: Component,
    /// sha256 of the file's bytes, hex.
    pub hash: String,
    pub size: usize,
    pub imports: Vec<String>,
    pub exports: Vec<String>,
    /// Compiled now, or found compiled.
    pub compilation: super::Compilation,
    /// Quick code (see [`super::Tier::Quick`]): compiled for a validation game, or kept for a component
    /// too costly to optimise within the compile limits. Its seats get longer deadlines.
    pub quick: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: cannot read: {error}")]
    Read { path: PathBuf, error: std::io::Error },
    #[error("{path}: the file is empty")]
    Empty { path: PathBuf },
    #[error("{path}: not a WebAssembly file (no `\\0asm` header, and not WebAssembly text: {detail})")]
    NotWasm { path: PathBuf, detail: String },
    #[error(
        "{path}: this is a core WebAssembly module, not a component; build a component for the {world} world \
         (e.g. `cargo build --target wasm32-wasip2`, or `wasm-tools component new`)"
    )]
    CoreModule { path: PathBuf, world: String },
    #[error("{path}: not a valid component: {detail}")]
    Invalid { path: PathBuf, detail: String },
    #[error("{path}: {error}")]
    Compile { path: PathBuf, error: super::CompileError },
    #[error("{path}: imports `{import}`, which players may not use (only WASI and `{package}/…` are provided)")]
    ForbiddenImport { path: PathBuf, import: String, package: String },
    #[error(
        "{path}: this is a {theirs} player (it imports `{import}`), not a {ours} one: choose {theirs} (`--game \
         {theirs}` on the command line, the game {theirs} on the upload form)"
    )]
    OtherGame { path: PathBuf, import: String, theirs: String, ours: String },
    #[error("{path}: does not implement the {world} world: {detail}")]
    WrongWorld { path: PathBuf, world: String, detail: String },
}

const MAGIC: &[u8; 4] = b"\0asm";
const CORE_VERSION: [u8; 4] = [1, 0, 0, 0];

impl Sandbox {
    /// Reads and compiles `path` (binary or text format) and checks its imports against `spec`.
    pub fn load(&self, path: &Path, spec: &WorldSpec) -> Result<Loaded, LoadError> {
        let raw = std::fs::read(path).map_err(|error| LoadError::Read { path: path.to_path_buf(), error })?;
        self.load_bytes(path, &raw, spec)
    }

    /// [`Sandbox::load`] of a file's bytes already read (an upload): `path` names it in errors, and its
    /// hash is the hash of exactly these bytes.
    pub fn load_bytes(&self, path: &Path, raw: &[u8], spec: &WorldSpec) -> Result<Loaded, LoadError> {
        self.load_bytes_as(path, raw, spec, super::Tier::Optimized)
    }

    /// [`Sandbox::load_bytes`], compiling at `tier` when the optimised code is not kept already (see
    /// [`super::Tier::Quick`]: quick code compiled for a validation game is kept nowhere).
    pub fn load_bytes_as(
        &self,
        path: &Path,
        raw: &[u8],
        spec: &WorldSpec,
        tier: super::Tier,
    ) -> Result<Loaded, LoadError> {
        let p = || path.to_path_buf();
        if raw.is_empty() {
            return Err(LoadError::Empty { path: p() });
        }
        let hash = arena_core::sha256_hex(raw);
        let bytes = wasm_bytes(path, raw)?;
        if bytes.len() >= 8 && bytes[4..8] == CORE_VERSION {
            return Err(LoadError::CoreModule { path: p(), world: spec.world.to_string() });
        }
        // A player of another game of the same namespace is named as such before anything is compiled.
        if let Some((import, theirs)) = other_game(&bytes, &spec.package) {
            let ours = spec.package.split_once(':').map_or(&*spec.package, |(_, n)| n).to_string();
            return Err(LoadError::OtherGame { path: p(), import, theirs, ours });
        }
        // Quick code shares no functions until the sandbox is warmed for it: finding each function's
        // key (hashing it) and writing it cost a first compile more than they save it (an 18 MB Python
        // player: 6.9 s against 4.4 s; 3.2 s once CPython's functions are there).
        let shares = tier == super::Tier::Optimized || self.quick_functions_shared();
        let functions = self.cache.functions_dir().filter(|_| shares);
        let limits = &self.compile_limits;
        let compile = |t: super::Tier| {
            // Quick code compiled in place of optimised code (too costly) shares no functions.
            let functions = functions.as_deref().filter(|_| t == tier);
            super::compile::compile(self.engine(), &bytes, limits, &self.compiler, &self.compile_slots, functions, t)
        };
        let limits_key = format!("quick-{}s-{}mib", limits.cpu.as_secs(), limits.memory_bytes >> 20);
        let got = self.cache.get(self.engine(), &hash, tier, &limits_key, compile);
        let (component, compilation, quick) = got.map_err(|e| compile_error(path, e))?;
        let ty = component.component_type();
        let imports: Vec<String> = ty.imports(self.engine()).map(|(n, _)| n.to_string()).collect();
        let exports: Vec<String> = ty.exports(self.engine()).map(|(n, _)| n.to_string()).collect();
        // `arena:yahtzee` allows its interfaces; a namespace such as `arena:` allows every package in it.
        let own = if spec.package.ends_with(':') { spec.package.to_string() } else { format!("{}/", spec.package) };
        if let Some(bad) = imports.iter().find(|i| !i.starts_with("wasi:") && !i.starts_with(&own)) {
            return Err(LoadError::ForbiddenImport {
                path: p(),
                import: bad.clone(),
                package: spec.package.to_string(),
            });
        }
        Ok(Loaded { path: p(), component, hash, size: bytes.len(), imports, exports, compilation, quick })
    }

    /// Compiles `raw` (a component that loads) as quick code into the shared functions cache, whatever
    /// the compile cache holds of it already (its functions are wanted, not its code), then has later
    /// quick compiles share them: for a server warming its compile cache with a player of the language
    /// its uploads are in.
    pub fn warm_quick(&self, path: &Path, raw: &[u8]) -> Result<(), LoadError> {
        let bytes = wasm_bytes(path, raw)?;
        let (functions, limits, slots) = (self.cache.functions_dir(), &self.compile_limits, &self.compile_slots);
        let quick = super::Tier::Quick;
        super::compile::compile(self.engine(), &bytes, limits, &self.compiler, slots, functions.as_deref(), quick)
            .map_err(|e| compile_error(path, e))?;
        self.share_quick_functions();
        Ok(())
    }
}

/// `raw` as binary wasm: as it is, or compiled from the WebAssembly text format.
fn wasm_bytes<'r>(path: &Path, raw: &'r [u8]) -> Result<Cow<'r, [u8]>, LoadError> {
    if raw.starts_with(MAGIC) {
        return Ok(Cow::Borrowed(raw));
    }
    wat::parse_bytes(raw)
        .map_err(|e| LoadError::NotWasm { path: path.to_path_buf(), detail: first_line(&e.to_string()) })
}

/// A compile's failure as a load's: invalid input named as such.
fn compile_error(path: &Path, e: super::CompileError) -> LoadError {
    match e {
        super::CompileError::Invalid(detail) => LoadError::Invalid { path: path.to_path_buf(), detail },
        error => LoadError::Compile { path: path.to_path_buf(), error },
    }
}

/// The first of the component's own imports (not its inner modules' or components') from another package
/// of `package`'s namespace (`arena:yahtzee/types@0.1.0` for `arena:fish`), with that package's name.
fn other_game(bytes: &[u8], package: &str) -> Option<(String, String)> {
    use wasmtime::wasmparser::{Parser, Payload};
    let (namespace, _) = package.split_once(':')?;
    if package.ends_with(':') {
        return None;
    }
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.ok()? {
            Payload::Version { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(imports) if depth == 1 => {
                for import in imports.into_iter().flatten() {
                    let name = import.name.name;
                    let Some((ns, rest)) = name.split_once(':') else { continue };
                    let theirs = rest.split(['/', '@']).next().unwrap_or_default();
                    if ns == namespace && !theirs.is_empty() && format!("{ns}:{theirs}") != package {
                        return Some((name.to_string(), theirs.to_string()));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

impl LoadError {
    /// The component does not fit the world (a missing export, an import the linker cannot satisfy).
    pub fn wrong_world(path: &Path, spec: &WorldSpec, e: wasmtime::Error) -> LoadError {
        LoadError::WrongWorld { path: path.to_path_buf(), world: spec.world.to_string(), detail: format!("{e:#}") }
    }
}

impl Sandbox {
    /// Loads `path` and pre-instantiates it with `linker` (which holds WASI and the game's interfaces).
    pub fn load_world(
        &self,
        path: &Path,
        spec: &WorldSpec,
        linker: &Linker<PlayerState>,
    ) -> Result<(Loaded, InstancePre<PlayerState>), LoadError> {
        let loaded = self.load(path, spec)?;
        let pre = linker.instantiate_pre(&loaded.component).map_err(|e| LoadError::wrong_world(path, spec, e))?;
        Ok((loaded, pre))
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_string()
}

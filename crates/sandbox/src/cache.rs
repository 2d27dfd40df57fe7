//! Compiled components, kept so each is compiled once: in memory for the run, and on disk across runs,
//! keyed by the sha256 of the file and the engine's compatibility hash (a different wasmtime or engine
//! configuration never reads another's artifacts). Only artifacts this cache wrote are ever loaded.

use super::compile::{CompileError, Compiled, Tier};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};
use wasmtime::Engine;
use wasmtime::component::Component;

/// How a component was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compilation {
    /// Compiled now, taking this long.
    Compiled(Duration),
    /// Compiled now as quick code, taking this long, and not kept (see [`super::Tier::Quick`]).
    Quick(Duration),
    /// Already compiled in this run.
    InMemory,
    /// Loaded from the disk cache, taking this long.
    FromDisk(Duration),
}

/// The compiled code kept in memory by default: past it, the components used least recently are let go
/// of (a game that holds one keeps it until it ends; a later load reads it from disk again).
pub const MEMORY_BYTES: u64 = 512 << 20;

/// The most components kept in memory, whatever their size: each holds mappings and, when its memory
/// starts with data, a descriptor of its own, which the size of its code does not count (a server that
/// has seen a thousand small components would otherwise hold a thousand descriptors). Components in
/// use are held by whoever uses them; a later load of one let go of reads it from disk again.
pub const MEMORY_ENTRIES: usize = 64;

/// Compiled components in memory, bounded by the size of their code (and so the memory and the
/// mappings they hold), the least recently used let go of first.
#[derive(Default)]
struct Kept {
    by_hash: HashMap<String, Entry>,
    bytes: u64,
    /// A clock of uses, for the least recently used.
    tick: u64,
}

struct Entry {
    component: Component,
    bytes: u64,
    used: u64,
    /// Quick code, kept as the component was too costly to optimise.
    quick: bool,
}

/// What [`Cache::get`] hands out: the component, how it was obtained, and whether it is quick code.
pub(crate) type Got = (Component, Compilation, bool);

pub(crate) struct Cache {
    memory: Mutex<Kept>,
    /// The most code `memory` keeps, in bytes.
    memory_cap: u64,
    dir: Option<PathBuf>,
    engine_key: String,
    /// The components being compiled (optimised) now: a second load of one waits for the first's
    /// compile rather than compiling it again beside it.
    compiling: Mutex<HashSet<String>>,
    compiled: Condvar,
}

/// A component's compile claimed by one load; let go of (and the waiting loads woken) when dropped.
struct Claim<'a>(&'a Cache, &'a str);

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        self.0.compiling.lock().unwrap_or_else(|e| e.into_inner()).remove(self.1);
        self.0.compiled.notify_all();
    }
}

impl Cache {
    pub(crate) fn new(engine: &Engine, dir: Option<PathBuf>, memory_cap: u64) -> Cache {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut h);
        Cache {
            memory: Mutex::default(),
            memory_cap,
            dir,
            engine_key: format!("{:016x}", h.finish()),
            compiling: Mutex::default(),
            compiled: Condvar::new(),
        }
    }

    pub(crate) fn memory_cap(&self) -> u64 {
        self.memory_cap
    }

    /// How many components the memory holds, and the bytes of their code.
    pub(crate) fn in_memory(&self) -> (usize, u64) {
        let kept = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        (kept.by_hash.len(), kept.bytes)
    }

    /// Lets go of the component whose sha256 is `hash`, in memory and on disk (a refused upload leaves
    /// nothing compiled behind), its quick code kept for any limits too.
    pub(crate) fn forget(&self, hash: &str) {
        let mut kept = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = kept.by_hash.remove(hash) {
            kept.bytes -= e.bytes;
        }
        drop(kept);
        let Some(dir) = &self.dir else { return };
        let prefix = format!("{hash}-{}", self.engine_key);
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            if e.file_name().to_str().is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".cwasm")) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    /// Removes from the disk cache every compiled file whose component is not in `keep` (sha256s), and
    /// every one of another engine (with the functions compiled for another engine); how many compiled
    /// files it removed.
    pub(crate) fn sweep(&self, keep: &std::collections::HashSet<String>) -> usize {
        let Some(dir) = &self.dir else { return 0 };
        // Functions compiled for another engine are of no use to this one.
        for e in std::fs::read_dir(dir.join("functions")).into_iter().flatten().flatten() {
            if e.file_name().to_str() != Some(&self.engine_key) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
        let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
        let mut removed = 0;
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let Some(stem) = name.strip_suffix(".cwasm") else { continue };
            // `HASH-ENGINE`, or `HASH-ENGINE-LIMITS` for quick code kept (see `quick_file`).
            let mut parts = stem.splitn(3, '-');
            let (hash, engine) = (parts.next().unwrap_or(""), parts.next());
            let kept = engine == Some(&self.engine_key) && keep.contains(hash);
            if !kept && std::fs::remove_file(e.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Where compiles share their compiled functions (see `functions`): beside the components, for
    /// this engine's configuration only.
    pub(crate) fn functions_dir(&self) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join("functions").join(&self.engine_key))
    }

    fn file(&self, hash: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{hash}-{}.cwasm", self.engine_key)))
    }

    /// Where the quick code of a component too costly to optimise within the compile limits `limits`
    /// names is kept: a later load under the same limits plays it without trying to optimise it again;
    /// under other limits it tries again.
    fn quick_file(&self, hash: &str, limits: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{hash}-{}-{limits}.cwasm", self.engine_key)))
    }

    /// The component whose sha256 is `hash`, from memory, from disk, or compiled now by `compile` at
    /// `tier` (and then kept in both; a failed compile keeps nothing). Disk trouble never fails a load:
    /// it only costs a compilation. Asked for `Tier::Quick`, the optimised code is still taken where it
    /// is kept; quick code compiled now for it is handed out and kept nowhere. Asked for optimised code
    /// that is too costly to compile within the limits `limits` names, it compiles quick code (which
    /// spends the same fuel) and keeps that instead, in memory and on disk: a version accepted on its
    /// quick code can always be played, and pays the refused compile once, not at every load. If the
    /// quick compile fails too, the first refusal stands.
    pub(crate) fn get(
        &self,
        engine: &Engine,
        hash: &str,
        tier: Tier,
        limits: &str,
        compile: impl Fn(Tier) -> Result<Compiled, CompileError>,
    ) -> Result<Got, CompileError> {
        let claim = loop {
            {
                let mut kept = self.memory.lock().unwrap_or_else(|e| e.into_inner());
                kept.tick += 1;
                let tick = kept.tick;
                if let Some(e) = kept.by_hash.get_mut(hash) {
                    e.used = tick;
                    return Ok((e.component.clone(), Compilation::InMemory, e.quick));
                }
            }
            if tier == Tier::Quick {
                break None;
            }
            let mut compiling = self.compiling.lock().unwrap_or_else(|e| e.into_inner());
            if compiling.insert(hash.to_string()) {
                break Some(Claim(self, hash));
            }
            // Another load is compiling it: wait for it, then look again (its compile may have failed).
            while compiling.contains(hash) {
                compiling = self.compiled.wait(compiling).unwrap_or_else(|e| e.into_inner());
            }
        };
        for (file, quick) in [(self.file(hash), false), (self.quick_file(hash, limits), true)] {
            let Some(f) = file.filter(|f| f.is_file()) else { continue };
            let t = Instant::now();
            // SAFETY: the file is one this cache wrote with `Component::serialize` for an engine with
            // the same compatibility hash (it is in the name); a damaged or foreign file fails to
            // deserialize and is compiled afresh below.
            match unsafe { Component::deserialize_file(engine, &f) } {
                Ok(c) => {
                    self.remember(hash, &c, quick);
                    return Ok((c, Compilation::FromDisk(t.elapsed()), quick));
                }
                Err(e) => tracing::warn!("{}: unusable compile cache entry, compiling again: {e:#}", f.display()),
            }
        }
        let mut t = Instant::now();
        let ((c, artifact), quick) = match compile(tier) {
            Ok(got) if tier == Tier::Quick => return Ok((got.0, Compilation::Quick(t.elapsed()), true)),
            Ok(got) => (got, false),
            Err(CompileError::TooCostly(why)) if tier == Tier::Optimized => {
                t = Instant::now();
                let got = compile(Tier::Quick).map_err(|_| CompileError::TooCostly(why.clone()))?;
                tracing::warn!("{hash}: too costly to optimise ({why}); it plays quick code");
                (got, true)
            }
            Err(e) => return Err(e),
        };
        let took = t.elapsed();
        self.remember(hash, &c, quick);
        if let Some(f) = if quick { self.quick_file(hash, limits) } else { self.file(hash) } {
            let artifact = match artifact {
                Some(a) => Ok(a),
                None => c.serialize().map_err(std::io::Error::other),
            };
            if let Err(e) = artifact.and_then(|b| arena_core::write_atomically(&f, &b)) {
                tracing::warn!("{}: cannot write the compile cache: {e}", f.display());
            }
        }
        drop(claim);
        Ok((c, if quick { Compilation::Quick(took) } else { Compilation::Compiled(took) }, quick))
    }

    /// Keeps `c` in memory, letting go of the least recently used past the cap or past
    /// [`MEMORY_ENTRIES`] (one component larger than the cap is kept alone).
    fn remember(&self, hash: &str, c: &Component, quick: bool) {
        let range = c.image_range();
        let bytes = (range.end as usize).saturating_sub(range.start as usize) as u64;
        let mut kept = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        kept.tick += 1;
        let used = kept.tick;
        if let Some(old) = kept.by_hash.insert(hash.to_string(), Entry { component: c.clone(), bytes, used, quick }) {
            kept.bytes -= old.bytes;
        }
        kept.bytes += bytes;
        while (kept.bytes > self.memory_cap || kept.by_hash.len() > MEMORY_ENTRIES) && kept.by_hash.len() > 1 {
            let Some(oldest) =
                kept.by_hash.iter().filter(|(h, _)| *h != hash).min_by_key(|(_, e)| e.used).map(|(h, _)| h.clone())
            else {
                break;
            };
            if let Some(e) = kept.by_hash.remove(&oldest) {
                kept.bytes -= e.bytes;
            }
        }
    }
}

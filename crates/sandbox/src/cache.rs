//! Compiled components, kept so each is compiled once: in memory for the run, and on disk across runs,
//! keyed by the sha256 of the file and the engine's compatibility hash (a different wasmtime or engine
//! configuration never reads another's artifacts). Only artifacts this cache wrote are ever loaded.

use super::compile::{CompileError, Compiled};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use wasmtime::Engine;
use wasmtime::component::Component;

/// How a component was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compilation {
    /// Compiled now, taking this long.
    Compiled(Duration),
    /// Already compiled in this run.
    InMemory,
    /// Loaded from the disk cache, taking this long.
    FromDisk(Duration),
}

pub(crate) struct Cache {
    memory: Mutex<HashMap<String, Component>>,
    dir: Option<PathBuf>,
    engine_key: String,
}

impl Cache {
    pub(crate) fn new(engine: &Engine, dir: Option<PathBuf>) -> Cache {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut h);
        Cache { memory: Mutex::default(), dir, engine_key: format!("{:016x}", h.finish()) }
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn file(&self, hash: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{hash}-{}.cwasm", self.engine_key)))
    }

    /// The component whose sha256 is `hash`, from memory, from disk, or compiled now by `compile` (and
    /// then kept in both; a failed compile keeps nothing). Disk trouble never fails a load: it only
    /// costs a compilation.
    pub(crate) fn get(
        &self,
        engine: &Engine,
        hash: &str,
        compile: impl FnOnce() -> Result<Compiled, CompileError>,
    ) -> Result<(Component, Compilation), CompileError> {
        if let Some(c) = self.memory.lock().unwrap_or_else(|e| e.into_inner()).get(hash) {
            return Ok((c.clone(), Compilation::InMemory));
        }
        let file = self.file(hash);
        if let Some(f) = file.as_ref().filter(|f| f.is_file()) {
            let t = Instant::now();
            // SAFETY: the file is one this cache wrote with `Component::serialize` for an engine with
            // the same compatibility hash (it is in the name); a damaged or foreign file fails to
            // deserialize and is compiled afresh below.
            match unsafe { Component::deserialize_file(engine, f) } {
                Ok(c) => {
                    self.remember(hash, &c);
                    return Ok((c, Compilation::FromDisk(t.elapsed())));
                }
                Err(e) => tracing::warn!("{}: unusable compile cache entry, compiling again: {e:#}", f.display()),
            }
        }
        let t = Instant::now();
        let (c, artifact) = compile()?;
        let took = t.elapsed();
        self.remember(hash, &c);
        if let Some(f) = file {
            let artifact = match artifact {
                Some(a) => Ok(a),
                None => c.serialize().map_err(std::io::Error::other),
            };
            if let Err(e) = artifact.and_then(|b| arena_core::write_atomically(&f, &b)) {
                tracing::warn!("{}: cannot write the compile cache: {e}", f.display());
            }
        }
        Ok((c, Compilation::Compiled(took)))
    }

    fn remember(&self, hash: &str, c: &Component) {
        self.memory.lock().unwrap_or_else(|e| e.into_inner()).insert(hash.to_string(), c.clone());
    }
}

//! The data directory's layout, spelled in one place: the store's database, the submitted components,
//! the compile cache, the kept game packages and the tournaments' locks. Every layer that touches the
//! directory (the store, the game host, the workers, the front ends) asks this type for its paths.

use std::path::{Path, PathBuf};

/// A data directory (`--data DIR`; a worker's `--dir`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    pub fn new(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `arena.db`: players, versions, tournaments, games, accounts (the store's SQLite database).
    pub fn database(&self) -> PathBuf {
        self.root.join("arena.db")
    }

    /// `components/`: every submitted component, as `<sha256>.wasm`.
    pub fn components(&self) -> PathBuf {
        self.root.join("components")
    }

    /// `components/<sha256>.wasm`.
    pub fn component(&self, hash: &str) -> PathBuf {
        self.components().join(format!("{hash}.wasm"))
    }

    /// `compiled/`: the compile cache (native code for this machine's wasmtime, by component hash).
    pub fn compiled(&self) -> PathBuf {
        self.root.join("compiled")
    }

    /// `packages/`: copies of the game packages tournaments were played with, by referee sha256.
    pub fn packages(&self) -> PathBuf {
        self.root.join("packages")
    }

    /// `packages/<referee sha256>/`.
    pub fn package(&self, referee: &str) -> PathBuf {
        self.packages().join(referee)
    }

    /// `locks/`: one lock file per tournament being played.
    pub fn locks(&self) -> PathBuf {
        self.root.join("locks")
    }

    /// The directories a store needs, created if missing (the root first).
    pub fn store_dirs(&self) -> [PathBuf; 4] {
        [self.root.clone(), self.components(), self.compiled(), self.locks()]
    }

    /// The directories a worker needs.
    pub fn worker_dirs(&self) -> [PathBuf; 3] {
        [self.packages(), self.components(), self.compiled()]
    }
}

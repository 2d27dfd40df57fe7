//! The results store: a data directory holding one SQLite database (WAL, migrations that run by
//! themselves), the submitted components by content hash, and their compiled artifacts, so a submitted
//! player is compiled once, ever. Layout:
//!
//! ```text
//! DIR/arena.db                 players, versions, tournaments, games, faults (see `schema`)
//! DIR/components/<sha256>.wasm every submitted file, as submitted
//! DIR/compiled/                the compile cache (keyed by hash and engine)
//! DIR/locks/tournament-<id>.lock  held by the process running a tournament
//! ```

mod journal;
mod players;
mod schema;
mod stats;
mod tournaments;

pub use journal::StoreJournal;
pub use players::{PlayerRow, Submitted, Version, check_name};
pub use stats::{Leader, PlayerStats, Record};
pub use tournaments::{Status, StoredSettings, TournamentLock, TournamentRow};

use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// Everything that can go wrong with the store; each names the file or directory concerned.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: cannot use as the data directory: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Sql { path: PathBuf, source: rusqlite::Error },
    #[error(
        "{path}: written by a newer Arena (schema version {found}; this one knows up to {known}); \
         nothing was changed: use a newer arena, or another --data directory"
    )]
    NewerSchema { path: PathBuf, found: i64, known: i64 },
    #[error("{0}")]
    Invalid(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// An open data directory.
pub struct Store {
    dir: PathBuf,
    db: PathBuf,
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the store in `dir` and brings its schema up to date.
    pub fn open(dir: &Path) -> Result<Store> {
        for sub in ["", "components", "compiled", "locks"] {
            let d = dir.join(sub);
            std::fs::create_dir_all(&d).map_err(|source| StoreError::Dir { path: d.clone(), source })?;
        }
        let db = dir.join("arena.db");
        let conn = connect(&db)?;
        let mut store = Store { dir: dir.to_path_buf(), db, conn };
        schema::migrate(&mut store.conn).map_err(|e| store.err(e))?;
        Ok(store)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where compiled components are kept.
    pub fn compiled_dir(&self) -> PathBuf {
        self.dir.join("compiled")
    }

    /// Where the component with this sha256 is kept.
    pub fn component_path(&self, hash: &str) -> PathBuf {
        self.dir.join("components").join(format!("{hash}.wasm"))
    }

    fn err(&self, e: impl Into<schema::MigrateError>) -> StoreError {
        match e.into() {
            schema::MigrateError::Sql(source) => StoreError::Sql { path: self.db.clone(), source },
            schema::MigrateError::Newer { found, known } => {
                StoreError::NewerSchema { path: self.db.clone(), found, known }
            }
        }
    }

    fn sql(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sql { path: self.db.clone(), source }
    }
}

/// A connection with the store's settings: WAL (readers never wait for the writer, a crash never
/// leaves half a transaction), `synchronous = NORMAL` (a committed game survives the process being
/// killed), foreign keys on, and a wait rather than an error when another process is writing.
fn connect(db: &Path) -> Result<Connection> {
    let e = |source| StoreError::Sql { path: db.to_path_buf(), source };
    let conn = Connection::open(db).map_err(e)?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(e)?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(e)?;
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(e)?;
    conn.pragma_update(None, "foreign_keys", "ON").map_err(e)?;
    Ok(conn)
}

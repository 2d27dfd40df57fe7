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

mod accounts;
mod backup;
mod candidates;
mod competitions;
mod invites;
mod journal;
mod ladders;
mod listing;
mod pages;
mod players;
mod published;
mod schema;
mod stats;
mod tournaments;

pub use accounts::{Owner, Session, User, secret};
pub use backup::NamedFiles;
pub use candidates::{Candidate, NewCandidate};
pub use competitions::{Competition, DESCRIPTION_CHARS, NewCompetition, TITLE_CHARS, stamp};
pub use invites::{Invite, MAX_INVITE_SECS, MAX_USES};
pub use journal::StoreJournal;
pub use ladders::RecordIn;
pub use listing::FailureRow;
pub use pages::{GameAt, MAX_PAGE};
pub use players::{PlayerRow, Submitted, Version, check_name};
pub use published::{GameVersion, Listing, PublishedGame};
pub use stats::{Board, GameFaultAt, Leader, PlayerStats, Record, Tally};
pub use tournaments::{ForkOf, Kind, Status, StoredSettings, TournamentLock, TournamentRow};

use arena_core::DataDir;
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// Everything that can go wrong with the store; each names the file or directory concerned.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: cannot use as the data directory: {error}")]
    Dir { path: PathBuf, error: std::io::Error },
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("{path}: {error}")]
    Sql { path: PathBuf, error: rusqlite::Error },
    #[error(
        "{path}: cannot write: the store is read-only for this user (check the data directory's permissions); nothing was changed"
    )]
    ReadOnly { path: PathBuf },
    #[error("{path}: cannot write: the disk is full; what was written before is kept and consistent")]
    Full { path: PathBuf },
    #[error(
        "{path}: written by a newer Arena (schema version {found}; this one knows up to {known}); \
         nothing was changed: use a newer arena, or another --data directory"
    )]
    NewerSchema { path: PathBuf, found: i64, known: i64 },
    #[error("`{name}` belongs to {owner}: only its owner can upload versions of it; nothing was stored")]
    NotOwner { name: String, owner: String },
    #[error(
        "the game `{name}` belongs to account {owner}: only its owner can publish versions of it; nothing was kept"
    )]
    NotGameOwner { name: String, owner: String },
    #[error(
        "its referee is identical to {name} version {version}, the latest (sha256 {referee}): nothing new to \
         publish, nothing was kept; change the package to publish a new version"
    )]
    AlreadyPublished { name: String, version: u32, referee: String },
    #[error("{0}")]
    Invalid(String),
    /// What is asked clashes with what is under way (a candidate already being tested).
    #[error("{0}")]
    Conflict(String),
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
        let layout = DataDir::new(dir);
        for d in layout.store_dirs() {
            std::fs::create_dir_all(&d).map_err(|source| StoreError::Dir { path: d.clone(), error: source })?;
        }
        let db = layout.database();
        let conn = connect(&db)?;
        let mut store = Store { dir: dir.to_path_buf(), db, conn };
        schema::migrate(&mut store.conn).map_err(|e| store.err(e))?;
        Ok(store)
    }

    /// Opens the store for reading only. A store this user cannot write to (a read-only directory, a
    /// store owned by someone else) is read as an immutable file: what it holds as last written.
    /// Where there is no store yet, it reads as an empty one and nothing is created.
    pub fn open_to_read(dir: &Path) -> Result<Store> {
        let db = DataDir::new(dir).database();
        if !dir.exists() || (dir.is_dir() && !db.exists()) {
            let conn = Connection::open_in_memory().map_err(|error| sql_error(db.clone(), error))?;
            let mut store = Store { dir: dir.to_path_buf(), db, conn };
            schema::migrate(&mut store.conn).map_err(|e| store.err(e))?;
            return Ok(store);
        }
        match Store::open(dir) {
            Err(StoreError::ReadOnly { .. } | StoreError::Sql { .. }) if db.is_file() => {
                let path = db.clone();
                let e = |error| sql_error(path.clone(), error);
                let uri = format!("file:{}?immutable=1", db.display());
                let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
                let conn = Connection::open_with_flags(uri, flags).map_err(e)?;
                let store = Store { dir: dir.to_path_buf(), db, conn };
                let found: i64 = store.conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(e)?;
                if found != schema::VERSION {
                    let (path, known) = (store.db.clone(), schema::VERSION);
                    return Err(if found > known {
                        StoreError::NewerSchema { path, found, known }
                    } else {
                        StoreError::Invalid(format!(
                            "{}: read-only, and its schema (version {found}) needs an \
                            upgrade that cannot be written",
                            path.display()
                        ))
                    });
                }
                Ok(store)
            }
            other => other,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where compiled components are kept.
    pub fn compiled_dir(&self) -> PathBuf {
        self.layout().compiled()
    }

    /// Where submitted components are kept, as `<sha256>.wasm`.
    pub fn components_dir(&self) -> PathBuf {
        self.layout().components()
    }

    /// The sha256 of every stored version's component.
    pub fn component_hashes(&self) -> Result<std::collections::HashSet<String>> {
        let mut q = self.conn.prepare("SELECT DISTINCT hash FROM versions").map_err(|e| self.sql(e))?;
        let rows = q.query_map([], |r| r.get(0)).and_then(Iterator::collect);
        rows.map_err(|e| self.sql(e))
    }

    /// Whether some stored version (of any player) is the component with this sha256.
    pub fn has_component(&self, hash: &str) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM versions WHERE hash = ?1)
                 OR EXISTS (SELECT 1 FROM candidates WHERE hash = ?1)",
                [hash],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))
    }

    /// Where the component with this sha256 is kept.
    pub fn component_path(&self, hash: &str) -> PathBuf {
        self.layout().component(hash)
    }

    /// The data directory's layout.
    pub fn layout(&self) -> DataDir {
        DataDir::new(&self.dir)
    }

    fn err(&self, e: impl Into<schema::MigrateError>) -> StoreError {
        match e.into() {
            schema::MigrateError::Sql(source) => sql_error(self.db.clone(), source),
            schema::MigrateError::Newer { found, known } => {
                StoreError::NewerSchema { path: self.db.clone(), found, known }
            }
        }
    }

    fn sql(&self, source: rusqlite::Error) -> StoreError {
        sql_error(self.db.clone(), source)
    }
}

/// An SQLite error about the database at `path`; a refused write says the store is read-only.
fn sql_error(path: PathBuf, error: rusqlite::Error) -> StoreError {
    match error.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ReadOnly) => StoreError::ReadOnly { path },
        Some(rusqlite::ErrorCode::DiskFull) => StoreError::Full { path },
        _ => StoreError::Sql { path, error },
    }
}

/// A connection with the store's settings: WAL (readers never wait for the writer, a crash never
/// leaves half a transaction), `synchronous = NORMAL` (a committed game survives the process being
/// killed), foreign keys on, and a wait rather than an error when another process is writing.
fn connect(db: &Path) -> Result<Connection> {
    let e = |source| sql_error(db.to_path_buf(), source);
    let conn = Connection::open(db).map_err(e)?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(e)?;
    let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).map_err(e)?;
    if !mode.eq_ignore_ascii_case("wal") {
        conn.pragma_update(None, "journal_mode", "WAL").map_err(e)?;
    }
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(e)?;
    conn.pragma_update(None, "foreign_keys", "ON").map_err(e)?;
    Ok(conn)
}

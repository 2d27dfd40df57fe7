//! A consistent copy of the store's database while it serves (SQLite's online backup, in one step:
//! one read transaction, so writers go on and the copy is one moment of the store), and the files a
//! database names: the submitted components and the kept game packages.

use super::{Result, Store, StoreError};
use rusqlite::backup::{Backup, StepResult};
use std::path::Path;

/// The files a database names, by sha256: components (`components/<hash>.wasm`) and game packages
/// (`packages/<referee hash>/`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NamedFiles {
    pub components: Vec<String>,
    pub packages: Vec<String>,
}

impl Store {
    /// Copies the database to the new file `to`, as it is at one moment, while other connections
    /// keep writing.
    pub fn backup_to(&self, to: &Path) -> Result<()> {
        let e = |error| super::sql_error(to.to_path_buf(), error);
        if to.exists() {
            return Err(StoreError::Invalid(format!("{}: exists already; nothing was written", to.display())));
        }
        let mut dst = rusqlite::Connection::open(to).map_err(e)?;
        let done = {
            let backup = Backup::new(&self.conn, &mut dst).map_err(e)?;
            // All pages in one step: one read transaction of the source, so the copy is consistent.
            let mut done = false;
            for _ in 0..200 {
                if backup.step(-1).map_err(e)? == StepResult::Done {
                    done = true;
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            done
        };
        if !done {
            drop(dst);
            let _ = std::fs::remove_file(to);
            return Err(StoreError::Invalid(format!("{}: the store stayed busy; nothing was written", to.display())));
        }
        dst.pragma_update(None, "journal_mode", "DELETE").map_err(e)?;
        Ok(())
    }

    /// The components and packages this database names.
    pub fn named_files(&self) -> Result<NamedFiles> {
        let list = |sql: &str| -> Result<Vec<String>> {
            let mut q = self.conn.prepare(sql).map_err(|e| self.sql(e))?;
            q.query_map([], |r| r.get::<_, String>(0)).and_then(Iterator::collect).map_err(|e| self.sql(e))
        };
        Ok(NamedFiles {
            components: list("SELECT DISTINCT hash FROM versions ORDER BY hash")?,
            packages: list(
                "SELECT referee FROM (SELECT json_extract(settings, '$.referee') AS referee FROM tournaments
                 UNION SELECT referee FROM published_versions) WHERE referee IS NOT NULL ORDER BY referee",
            )?,
        })
    }

    /// SQLite's own check of the database file: `ok`, or what is wrong.
    pub fn integrity(&self) -> Result<String> {
        self.conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(|e| self.sql(e))
    }
}

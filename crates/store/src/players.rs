//! Registered players and their versions: names, content-addressed component files, and who is
//! registered for a game in the order they first came.

use super::{Result, Store, StoreError};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// Player names: one rule for every front end, [`arena_core::check_player_name`].
pub use arena_core::check_player_name as check_name;

/// One stored version of a player.
#[derive(Debug, Clone, Serialize)]
pub struct Version {
    #[serde(skip)]
    pub id: i64,
    #[serde(skip)]
    pub player_id: i64,
    pub game: String,
    pub name: String,
    pub version: u32,
    pub hash: String,
    pub size: u64,
    pub submitted_at: String,
}

/// What `add_version` did.
#[derive(Debug, Clone)]
pub struct Submitted {
    pub version: Version,
    /// The player was not registered before.
    pub new_player: bool,
    /// The file is identical to the latest version: nothing was stored.
    pub unchanged: bool,
}

/// A registered player with its latest version.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerRow {
    #[serde(flatten)]
    pub latest: Version,
    pub registered_at: String,
}

pub(super) const VERSION_COLUMNS: &str = "v.id, p.id, p.game, p.name, v.version, v.hash, v.size, v.submitted_at";

pub(super) fn version_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Version> {
    Ok(Version {
        id: r.get(0)?,
        player_id: r.get(1)?,
        game: r.get(2)?,
        name: r.get(3)?,
        version: r.get(4)?,
        hash: r.get(5)?,
        size: r.get::<_, i64>(6)? as u64,
        submitted_at: r.get(7)?,
    })
}

impl Store {
    /// The latest version of a player of `game`.
    pub fn latest_version(&self, game: &str, name: &str) -> Result<Option<Version>> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {VERSION_COLUMNS} FROM versions v JOIN players p ON p.id = v.player_id
                     WHERE p.game = ?1 AND p.name = ?2 ORDER BY v.version DESC LIMIT 1"
                ),
                params![game, name],
                version_row,
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Version `number` of a player of `game` (`None`: it has no such version).
    pub fn numbered_version(&self, game: &str, name: &str, number: u32) -> Result<Option<Version>> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {VERSION_COLUMNS} FROM versions v JOIN players p ON p.id = v.player_id
                     WHERE p.game = ?1 AND p.name = ?2 AND v.version = ?3"
                ),
                params![game, name, number],
                version_row,
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Stores a validated component as the next version of `name`: the file first (by content hash,
    /// written atomically), then the player (if new) and the version in one transaction. A file
    /// identical to the latest version stores nothing.
    pub fn add_version(&mut self, game: &str, name: &str, bytes: &[u8], hash: &str) -> Result<Submitted> {
        self.add_version_as(game, name, bytes, hash, None)
    }

    /// [`Store::add_version`] by an account: a name nobody used becomes the account's; a name another
    /// account (or the organiser, from the command line) owns is refused, checked in the transaction
    /// that stores the version (two accounts racing for a new name: the first wins).
    pub fn add_version_as(
        &mut self,
        game: &str,
        name: &str,
        bytes: &[u8],
        hash: &str,
        by: Option<&super::User>,
    ) -> Result<Submitted> {
        check_name(name).map_err(StoreError::Invalid)?;
        if let Some(latest) = self.latest_version(game, name)?
            && latest.hash == hash
        {
            // Nothing is written: the owner is checked here instead of in the storing transaction.
            if let Some(user) = by {
                self.owner_of(name)?.admits(name, user)?;
            }
            return Ok(Submitted { version: latest, new_player: false, unchanged: true });
        }
        let path = self.component_path(hash);
        let wrote = !path.is_file();
        if wrote {
            arena_core::write_atomically(&path, bytes)
                .map_err(|source| StoreError::Io { path: path.clone(), error: source })?;
        }
        let added = self.insert_version(game, name, bytes.len() as u64, hash, by);
        if added.is_err() && wrote {
            // Nothing stored: the file goes too.
            let _ = std::fs::remove_file(&path);
        }
        added
    }

    fn insert_version(
        &mut self,
        game: &str,
        name: &str,
        size: u64,
        hash: &str,
        by: Option<&super::User>,
    ) -> Result<Submitted> {
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(e)?;
        if let Some(user) = by {
            super::accounts::owner_of(&tx, name).map_err(e)?.admits(name, user)?;
        }
        let existing: Option<i64> = tx
            .query_row("SELECT id FROM players WHERE game = ?1 AND name = ?2", params![game, name], |r| r.get(0))
            .optional()
            .map_err(e)?;
        let player_id = match existing {
            Some(id) => id,
            None => {
                tx.execute(
                    "INSERT INTO players (game, name, owner) VALUES (?1, ?2, ?3)",
                    params![game, name, by.map(|u| u.id)],
                )
                .map_err(e)?;
                tx.last_insert_rowid()
            }
        };
        let version: u32 = tx
            .query_row("SELECT COALESCE(MAX(version), 0) + 1 FROM versions WHERE player_id = ?1", [player_id], |r| {
                r.get(0)
            })
            .map_err(e)?;
        tx.execute(
            "INSERT INTO versions (player_id, version, hash, size) VALUES (?1, ?2, ?3, ?4)",
            params![player_id, version, hash, size as i64],
        )
        .map_err(e)?;
        let id = tx.last_insert_rowid();
        let v = tx
            .query_row(
                &format!(
                    "SELECT {VERSION_COLUMNS} FROM versions v JOIN players p ON p.id = v.player_id WHERE v.id = ?1"
                ),
                [id],
                version_row,
            )
            .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(Submitted { version: v, new_player: existing.is_none(), unchanged: false })
    }

    /// A game's sample player stored as a version of `builtin:NAME` (a name no account can have: names
    /// have no `:`), owned by the organiser, so that a scrimmage can be played against it: it is on no
    /// list of registered players, so no tournament, ladder or leaderboard takes it in. The same file
    /// again stores nothing.
    pub fn builtin_version(&mut self, game: &str, name: &str, bytes: &[u8], hash: &str) -> Result<Version> {
        if !name.starts_with("builtin:") {
            return Err(StoreError::Invalid(format!("`{name}` is not a built-in player's name")));
        }
        if let Some(latest) = self.latest_version(game, name)?
            && latest.hash == hash
        {
            return Ok(latest);
        }
        let path = self.component_path(hash);
        if !path.is_file() {
            arena_core::write_atomically(&path, bytes)
                .map_err(|source| StoreError::Io { path: path.clone(), error: source })?;
        }
        Ok(self.insert_version(game, name, bytes.len() as u64, hash, None)?.version)
    }

    /// Registered players (of one game, or all), each with its latest version, in the order they
    /// first registered; a game's built-in players stored for scrimmages are not among them.
    pub fn players(&self, game: Option<&str>) -> Result<Vec<PlayerRow>> {
        let mut q = self
            .conn
            .prepare(&format!(
                "SELECT {VERSION_COLUMNS}, p.registered_at FROM players p
                 JOIN versions v ON v.player_id = p.id
                 AND v.version = (SELECT MAX(version) FROM versions WHERE player_id = p.id)
                 WHERE (?1 IS NULL OR p.game = ?1) AND p.name NOT LIKE 'builtin:%' ORDER BY p.id"
            ))
            .map_err(|e| self.sql(e))?;
        q.query_map([game], |r| Ok(PlayerRow { latest: version_row(r)?, registered_at: r.get(8)? }))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))
    }

    /// How many players are registered for each game (those [`Store::players`] lists), by game.
    pub fn players_per_game(&self) -> Result<std::collections::HashMap<String, usize>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT p.game, COUNT(*) FROM players p
                 WHERE p.name NOT LIKE 'builtin:%' AND EXISTS (SELECT 1 FROM versions v WHERE v.player_id = p.id)
                 GROUP BY p.game",
            )
            .map_err(|e| self.sql(e))?;
        q.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))
    }

    /// A version by its id.
    pub fn version(&self, id: i64) -> Result<Version> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {VERSION_COLUMNS} FROM versions v JOIN players p ON p.id = v.player_id WHERE v.id = ?1"
                ),
                [id],
                version_row,
            )
            .map_err(|e| self.sql(e))
    }

    /// The games a player name is registered for.
    pub fn games_of(&self, name: &str) -> Result<Vec<String>> {
        let mut q =
            self.conn.prepare("SELECT game FROM players WHERE name = ?1 ORDER BY id").map_err(|e| self.sql(e))?;
        q.query_map([name], |r| r.get(0)).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }

    /// Every game some player is registered for, by name.
    pub fn registered_games(&self) -> Result<Vec<String>> {
        let mut q = self.conn.prepare("SELECT DISTINCT game FROM players ORDER BY game").map_err(|e| self.sql(e))?;
        q.query_map([], |r| r.get(0)).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }
}

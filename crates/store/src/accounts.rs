//! Accounts of the web arena: users with a secret token (only its sha256 is stored, so a stolen
//! database signs nobody in), browser sessions (their id's sha256 and a CSRF token), and who owns a
//! player name.

use super::{Result, Store, StoreError};
use arena_core::sha256_hex;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// A signed-in account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    #[serde(skip)]
    pub id: i64,
    pub name: String,
    pub admin: bool,
}

/// A browser session: its user and the token every form it posts must carry.
#[derive(Debug, Clone)]
pub struct Session {
    pub user: User,
    pub csrf: String,
}

/// Who may upload versions of a player name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// Nobody has used the name yet.
    Free,
    /// The account that first submitted it.
    Account(User),
    /// It was submitted from the command line (by whoever runs the arena).
    Organiser,
}

impl Owner {
    /// Whether `user` may upload versions of `name`, which this owns: refused, saying whose it is,
    /// unless it is free or the user's own account's.
    pub fn admits(&self, name: &str, user: &User) -> Result<()> {
        let owner = match self {
            Owner::Free => return Ok(()),
            Owner::Account(u) if u.id == user.id => return Ok(()),
            Owner::Account(u) => format!("account {}", u.name),
            Owner::Organiser => "the organiser".into(),
        };
        Err(StoreError::NotOwner { name: name.into(), owner })
    }
}

/// A secret of 256 random bits, hex; `prefix` tells a person what it is.
pub fn secret(prefix: &str) -> Result<String> {
    arena_core::secret(prefix).map_err(|e| StoreError::Invalid(format!("no randomness for a secret: {e}")))
}

pub(super) fn user_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
    Ok(User { id: r.get(0)?, name: r.get(1)?, admin: r.get::<_, i64>(2)? != 0 })
}

impl Store {
    /// Adds an account and returns it with its token, which is shown once and never stored.
    pub fn add_user(&mut self, name: &str, admin: bool) -> Result<(User, String)> {
        super::check_name(name).map_err(|e| StoreError::Invalid(e.replace("player name", "user name")))?;
        let token = secret("arena_")?;
        let taken: bool = self
            .conn
            .query_row("SELECT COUNT(*) FROM users WHERE name = ?1", [name], |r| r.get::<_, i64>(0))
            .map_err(|e| self.sql(e))?
            > 0;
        if taken {
            return Err(StoreError::Invalid(format!(
                "{}: there is a user `{name}` already; nothing was changed",
                self.db.display()
            )));
        }
        self.conn
            .execute(
                "INSERT INTO users (name, token_hash, admin) VALUES (?1, ?2, ?3)",
                params![name, sha256_hex(token.as_bytes()), admin as i64],
            )
            .map_err(|e| self.sql(e))?;
        Ok((User { id: self.conn.last_insert_rowid(), name: name.to_string(), admin }, token))
    }

    /// The account a token belongs to.
    pub fn user_by_token(&self, token: &str) -> Result<Option<User>> {
        if token.len() > 200 {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT id, name, admin FROM users WHERE token_hash = ?1 AND disabled = 0",
                [sha256_hex(token.as_bytes())],
                user_row,
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    pub fn users(&self) -> Result<Vec<User>> {
        let mut q = self.conn.prepare("SELECT id, name, admin FROM users ORDER BY id").map_err(|e| self.sql(e))?;
        q.query_map([], user_row).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }

    /// Every account with whether it is disabled.
    pub fn accounts(&self) -> Result<Vec<(User, bool)>> {
        let mut q =
            self.conn.prepare("SELECT id, name, admin, disabled FROM users ORDER BY id").map_err(|e| self.sql(e))?;
        q.query_map([], |r| Ok((user_row(r)?, r.get::<_, i64>(3)? != 0)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))
    }

    /// Opens a session of `user` for `ttl_secs`: its id (for the cookie; only its hash is stored) and
    /// its CSRF token.
    pub fn open_session(&mut self, user: &User, ttl_secs: i64) -> Result<(String, String)> {
        let (id, csrf) = (secret("")?, secret("")?);
        let e = |x| super::sql_error(self.db.clone(), x);
        self.conn.execute("DELETE FROM sessions WHERE expires_at < ?1", [arena_core::unix_now()]).map_err(e)?;
        self.conn
            .execute(
                "INSERT INTO sessions (hash, user_id, csrf, expires_at) VALUES (?1, ?2, ?3, ?4)",
                params![sha256_hex(id.as_bytes()), user.id, csrf, arena_core::unix_now() + ttl_secs],
            )
            .map_err(e)?;
        Ok((id, csrf))
    }

    /// The live session with this id.
    pub fn session(&self, id: &str) -> Result<Option<Session>> {
        if id.len() > 200 {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT u.id, u.name, u.admin, s.csrf FROM sessions s JOIN users u ON u.id = s.user_id
                 WHERE s.hash = ?1 AND s.expires_at >= ?2 AND u.disabled = 0",
                params![sha256_hex(id.as_bytes()), arena_core::unix_now()],
                |r| Ok(Session { user: user_row(r)?, csrf: r.get(3)? }),
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    pub fn close_session(&mut self, id: &str) -> Result<()> {
        self.conn
            .execute("DELETE FROM sessions WHERE hash = ?1", [sha256_hex(id.as_bytes())])
            .map_err(|e| self.sql(e))?;
        Ok(())
    }

    /// Who owns a player name (in any game: a name is one person's everywhere).
    pub fn owner_of(&self, name: &str) -> Result<Owner> {
        owner_of(&self.conn, name).map_err(|e| self.sql(e))
    }

    /// The player names `user` owns, with their games.
    pub fn owned_by(&self, user: &User) -> Result<Vec<(String, String)>> {
        let mut q = self
            .conn
            .prepare("SELECT game, name FROM players WHERE owner = ?1 ORDER BY game, name")
            .map_err(|e| self.sql(e))?;
        q.query_map([user.id], |r| Ok((r.get(0)?, r.get(1)?))).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }
}

pub(super) fn owner_of(conn: &rusqlite::Connection, name: &str) -> rusqlite::Result<Owner> {
    let rows: Vec<Option<i64>> = conn
        .prepare("SELECT owner FROM players WHERE name = ?1 ORDER BY id")?
        .query_map([name], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    match rows.first() {
        None => Ok(Owner::Free),
        Some(None) => Ok(Owner::Organiser),
        Some(Some(id)) => {
            conn.query_row("SELECT id, name, admin FROM users WHERE id = ?1", [id], user_row).map(Owner::Account)
        }
    }
}

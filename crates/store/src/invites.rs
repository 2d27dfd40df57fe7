//! Accounts without a shell: invitations (a code, of which only the sha256 is kept, good for some
//! sign-ups until it expires), signing up with one, replacing a token (the old one stops working at
//! once, and every session with it), signing out everywhere, and disabling an account (its players
//! stay; it signs in and uploads no more).

use super::{Result, Store, StoreError, User};
use arena_core::{sha256_hex, unix_now as now};
use rusqlite::{OptionalExtension, params};

/// The most sign-ups one invitation may allow, and the longest it may last.
pub const MAX_USES: u32 = 1000;
pub const MAX_INVITE_SECS: i64 = 366 * 24 * 3600;

/// An invitation as a sign-up finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invite {
    /// Good for `uses_left` more sign-ups, of admins if `admin`.
    Open {
        admin: bool,
        uses_left: u32,
    },
    Expired,
    UsedUp,
    /// No invitation has this code.
    Unknown,
}

impl Invite {
    /// Why a sign-up with it is refused, if it is.
    pub fn refusal(&self) -> Option<&'static str> {
        match self {
            Invite::Open { .. } => None,
            Invite::Expired => Some("this invitation has expired: ask for a new one"),
            Invite::UsedUp => Some("this invitation has been used as often as it may: ask for a new one"),
            Invite::Unknown => Some("there is no such invitation: check the link"),
        }
    }
}

fn find(conn: &rusqlite::Connection, code: &str) -> rusqlite::Result<(Invite, Option<i64>)> {
    if code.is_empty() || code.len() > 200 {
        return Ok((Invite::Unknown, None));
    }
    let row: Option<(i64, i64, u32, i64)> = conn
        .query_row(
            "SELECT id, admin, uses_left, expires_at FROM invites WHERE code_hash = ?1",
            [sha256_hex(code.as_bytes())],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    Ok(match row {
        None => (Invite::Unknown, None),
        Some((id, _, _, expires)) if expires < now() => (Invite::Expired, Some(id)),
        Some((id, _, 0, _)) => (Invite::UsedUp, Some(id)),
        Some((id, admin, uses_left, _)) => (Invite::Open { admin: admin != 0, uses_left }, Some(id)),
    })
}

impl Store {
    /// Makes an invitation for `uses` sign-ups (of admins if `admin`) for `secs` seconds; its code,
    /// shown once (only its hash is kept).
    pub fn create_invite(&mut self, admin: bool, uses: u32, secs: i64, by: Option<&User>) -> Result<String> {
        if !(1..=MAX_USES).contains(&uses) {
            return Err(StoreError::Invalid(format!("an invitation allows 1 to {MAX_USES} sign-ups, not {uses}")));
        }
        if !(1..=MAX_INVITE_SECS).contains(&secs) {
            return Err(StoreError::Invalid(format!("an invitation lasts 1 s to 366 days, not {secs} s")));
        }
        let code = super::secret("inv_")?;
        self.conn
            .execute(
                "INSERT INTO invites (code_hash, admin, uses_left, expires_at, created_by) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![sha256_hex(code.as_bytes()), admin as i64, uses, now() + secs, by.map(|u| u.id)],
            )
            .map_err(|e| self.sql(e))?;
        Ok(code)
    }

    /// The invitation with this code, as a sign-up would find it.
    pub fn invite(&self, code: &str) -> Result<Invite> {
        find(&self.conn, code).map(|(i, _)| i).map_err(|e| self.sql(e))
    }

    /// Signs up `name` with the invitation `code`: the account and its token (shown once), the
    /// invitation used once, in one transaction (two sign-ups racing for its last use: one wins).
    pub fn sign_up(&mut self, code: &str, name: &str) -> Result<(User, String)> {
        super::check_name(name).map_err(|e| StoreError::Invalid(e.replace("player name", "user name")))?;
        let db = self.db.clone();
        let e = |x| super::sql_error(db.clone(), x);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(e)?;
        let (invite, id) = find(&tx, code).map_err(e)?;
        let Invite::Open { admin, .. } = invite else {
            return Err(StoreError::Invalid(invite.refusal().unwrap_or_default().to_string()));
        };
        let taken: i64 = tx.query_row("SELECT COUNT(*) FROM users WHERE name = ?1", [name], |r| r.get(0)).map_err(e)?;
        if taken > 0 {
            return Err(StoreError::Invalid(format!("there is an account `{name}` already: choose another name")));
        }
        let token = super::secret("arena_")?;
        tx.execute(
            "INSERT INTO users (name, token_hash, admin) VALUES (?1, ?2, ?3)",
            params![name, sha256_hex(token.as_bytes()), admin as i64],
        )
        .map_err(e)?;
        let user = User { id: tx.last_insert_rowid(), name: name.to_string(), admin };
        tx.execute("UPDATE invites SET uses_left = uses_left - 1 WHERE id = ?1", [id]).map_err(e)?;
        tx.commit().map_err(e)?;
        Ok((user, token))
    }

    /// Gives `user` a new token (shown once): the old one stops working at once, and every session
    /// opened with it is closed.
    pub fn replace_token(&mut self, user: &User) -> Result<String> {
        let token = super::secret("arena_")?;
        let db = self.db.clone();
        let e = |x| super::sql_error(db.clone(), x);
        let tx = self.conn.transaction().map_err(e)?;
        tx.execute("UPDATE users SET token_hash = ?1 WHERE id = ?2", params![sha256_hex(token.as_bytes()), user.id])
            .map_err(e)?;
        tx.execute("DELETE FROM sessions WHERE user_id = ?1", [user.id]).map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(token)
    }

    /// Closes every session of `user`.
    pub fn sign_out_everywhere(&mut self, user: &User) -> Result<()> {
        self.conn.execute("DELETE FROM sessions WHERE user_id = ?1", [user.id]).map_err(|e| self.sql(e))?;
        Ok(())
    }

    /// Disables (or enables again) the account `name`: disabled, it signs in and uploads no more (its
    /// sessions are closed), and its players stay.
    pub fn set_disabled(&mut self, name: &str, disabled: bool) -> Result<User> {
        let db = self.db.clone();
        let e = |x| super::sql_error(db.clone(), x);
        let tx = self.conn.transaction().map_err(e)?;
        let user = tx
            .query_row("SELECT id, name, admin FROM users WHERE name = ?1", [name], super::accounts::user_row)
            .optional()
            .map_err(e)?
            .ok_or_else(|| StoreError::Invalid(format!("there is no account `{name}`; nothing was changed")))?;
        tx.execute("UPDATE users SET disabled = ?1 WHERE id = ?2", params![disabled as i64, user.id]).map_err(e)?;
        if disabled {
            tx.execute("DELETE FROM sessions WHERE user_id = ?1", [user.id]).map_err(e)?;
        }
        tx.commit().map_err(e)?;
        Ok(user)
    }
}

//! Games published to the web arena: who owns each name (the account that first published it), its
//! versions (a referee each, kept under `packages/<referee sha256>/`), whether the operator lists,
//! hides or removes it, and whether it is suspended because its referee keeps failing.

use super::{Result, Store, StoreError, User};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// How the operator shows a published game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Listing {
    /// On the games page and in `/api/games`.
    Listed,
    /// Playable and reachable by its page, but on no list.
    Hidden,
    /// Offered no more: no uploads, no tournaments; its stored tournaments stay readable.
    Removed,
}

impl Listing {
    pub fn as_str(self) -> &'static str {
        match self {
            Listing::Listed => "listed",
            Listing::Hidden => "hidden",
            Listing::Removed => "removed",
        }
    }

    pub fn parse(s: &str) -> Option<Listing> {
        [Listing::Listed, Listing::Hidden, Listing::Removed].into_iter().find(|l| l.as_str() == s)
    }
}

/// One published version of a game.
#[derive(Debug, Clone, Serialize)]
pub struct GameVersion {
    pub version: u32,
    /// sha256 of its referee: its package is `packages/<referee>/`.
    pub referee: String,
    /// Bytes of the archive it was published as.
    pub size: u64,
    pub published_by: String,
    pub published_at: String,
}

/// A published game with its versions, the latest last.
#[derive(Debug, Clone, Serialize)]
pub struct PublishedGame {
    pub name: String,
    pub owner: String,
    #[serde(skip)]
    pub owner_id: i64,
    pub listing: Listing,
    /// Why the arena stopped playing it (its referee kept failing), until a new version is published.
    pub suspended: Option<String>,
    pub versions: Vec<GameVersion>,
}

impl PublishedGame {
    pub fn latest(&self) -> Option<&GameVersion> {
        self.versions.last()
    }
}

impl Store {
    /// Every published game (the removed ones too), by name.
    pub fn published_games(&self) -> Result<Vec<PublishedGame>> {
        self.published_where(None)
    }

    /// A published game by name.
    pub fn published_game(&self, name: &str) -> Result<Option<PublishedGame>> {
        Ok(self.published_where(Some(name))?.pop())
    }

    /// The published games named `name`, or all, each with its versions.
    fn published_where(&self, name: Option<&str>) -> Result<Vec<PublishedGame>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT g.id, g.name, u.name, g.owner, g.status, g.suspended FROM published g
                 JOIN users u ON u.id = g.owner WHERE ?1 IS NULL OR g.name = ?1 ORDER BY g.name",
            )
            .map_err(|e| self.sql(e))?;
        let rows: Vec<(i64, PublishedGame)> = q
            .query_map([name], |r| {
                let status: String = r.get(4)?;
                Ok((
                    r.get(0)?,
                    PublishedGame {
                        name: r.get(1)?,
                        owner: r.get(2)?,
                        owner_id: r.get(3)?,
                        listing: Listing::parse(&status).unwrap_or(Listing::Hidden),
                        suspended: r.get(5)?,
                        versions: vec![],
                    },
                ))
            })
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        let mut v = self
            .conn
            .prepare(
                "SELECT v.version, v.referee, v.size, u.name, v.published_at FROM published_versions v
                 JOIN users u ON u.id = v.published_by WHERE v.game_id = ?1 ORDER BY v.version",
            )
            .map_err(|e| self.sql(e))?;
        rows.into_iter()
            .map(|(id, mut g)| {
                g.versions = v
                    .query_map([id], |r| {
                        Ok(GameVersion {
                            version: r.get(0)?,
                            referee: r.get(1)?,
                            size: r.get::<_, i64>(2)? as u64,
                            published_by: r.get(3)?,
                            published_at: r.get(4)?,
                        })
                    })
                    .and_then(Iterator::collect)
                    .map_err(|e| self.sql(e))?;
                Ok(g)
            })
            .collect()
    }

    /// Whether `user` may publish a version of `name`: it is free or the user's; refused saying whose.
    pub fn may_publish(&self, name: &str, user: &User) -> Result<()> {
        may_publish(&self.conn, name, user).map_err(|e| match e {
            Refusal::Sql(e) => self.sql(e),
            Refusal::Store(e) => e,
        })
    }

    /// Versions `user` published since `since_unix` (for the daily limit).
    pub fn published_since(&self, user: &User, since_unix: i64) -> Result<u32> {
        self.conn
            .query_row(
                "SELECT COUNT(*) FROM published_versions WHERE published_by = ?1 AND at_unix >= ?2",
                params![user.id, since_unix],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))
    }

    /// Records a new version of `name` with this referee (its package already kept), by `user`: the
    /// name becomes the user's if nobody published it; the owner is checked in the same transaction
    /// (two accounts racing for a name: the first wins). A new version lifts a suspension.
    pub fn publish_version(&mut self, name: &str, referee: &str, size: u64, user: &User) -> Result<GameVersion> {
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(e)?;
        may_publish(&tx, name, user).map_err(|r| match r {
            Refusal::Sql(s) => e(s),
            Refusal::Store(s) => s,
        })?;
        let id: Option<i64> =
            tx.query_row("SELECT id FROM published WHERE name = ?1", [name], |r| r.get(0)).optional().map_err(e)?;
        let id = match id {
            Some(id) => {
                tx.execute("UPDATE published SET suspended = NULL WHERE id = ?1", [id]).map_err(e)?;
                id
            }
            None => {
                tx.execute("INSERT INTO published (name, owner) VALUES (?1, ?2)", params![name, user.id]).map_err(e)?;
                tx.last_insert_rowid()
            }
        };
        // The version and the referee it follows are read by the insert itself, and the store refuses
        // a referee identical to the one it follows: two publishes of one package at once make one
        // version, and the other is refused, naming it.
        let inserted = tx.execute(
            "INSERT INTO published_versions (game_id, version, referee, size, published_by, follows)
             SELECT ?1, COALESCE(MAX(version), 0) + 1, ?2, ?3, ?4,
                    (SELECT referee FROM published_versions WHERE game_id = ?1 ORDER BY version DESC LIMIT 1)
               FROM published_versions WHERE game_id = ?1",
            params![id, referee, size as i64, user.id],
        );
        if let Err(rusqlite::Error::SqliteFailure(f, _)) = &inserted
            && f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_CHECK
        {
            let version: u32 = tx
                .query_row("SELECT MAX(version) FROM published_versions WHERE game_id = ?1", [id], |r| r.get(0))
                .map_err(e)?;
            return Err(StoreError::AlreadyPublished { name: name.into(), version, referee: referee.into() });
        }
        inserted.map_err(e)?;
        let (version, at): (u32, String) = tx
            .query_row(
                "SELECT version, published_at FROM published_versions WHERE id = ?1",
                [tx.last_insert_rowid()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(GameVersion { version, referee: referee.into(), size, published_by: user.name.clone(), published_at: at })
    }

    /// Lists, hides or removes a published game (the operator's choice).
    pub fn set_listing(&mut self, name: &str, listing: Listing) -> Result<()> {
        let n = self
            .conn
            .execute("UPDATE published SET status = ?1 WHERE name = ?2", params![listing.as_str(), name])
            .map_err(|e| self.sql(e))?;
        if n == 0 {
            return Err(StoreError::Invalid(format!("no published game `{name}`; nothing was changed")));
        }
        Ok(())
    }

    /// Suspends a published game, saying why (a new version lifts it).
    pub fn suspend_game(&mut self, name: &str, why: &str) -> Result<()> {
        self.conn
            .execute("UPDATE published SET suspended = ?1 WHERE name = ?2", params![why, name])
            .map_err(|e| self.sql(e))?;
        Ok(())
    }

    /// Of the latest `n` games of `game` recorded (any tournament), how many ended in a game fault, and
    /// how many there were.
    pub fn recent_game_faults(&self, game: &str, n: u32) -> Result<(u32, u32)> {
        self.conn
            .query_row(
                "SELECT COUNT(g.game_fault), COUNT(*) FROM (SELECT g.game_fault FROM games g
                 JOIN tournaments t ON t.id = g.tournament_id WHERE t.game = ?1 ORDER BY g.id DESC LIMIT ?2) g",
                params![game, n],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.sql(e))
    }
}

enum Refusal {
    Sql(rusqlite::Error),
    Store(StoreError),
}

fn may_publish(conn: &rusqlite::Connection, name: &str, user: &User) -> std::result::Result<(), Refusal> {
    let owner: Option<String> = conn
        .query_row(
            "SELECT u.name FROM published g JOIN users u ON u.id = g.owner WHERE g.name = ?1 AND g.owner != ?2",
            params![name, user.id],
            |r| r.get(0),
        )
        .optional()
        .map_err(Refusal::Sql)?;
    match owner {
        Some(owner) => Err(Refusal::Store(StoreError::NotGameOwner { name: name.into(), owner })),
        None => Ok(()),
    }
}

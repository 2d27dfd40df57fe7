//! Candidate versions: a component its owner asked to have judged against the version in use before it
//! becomes a version at all. Its evidence (mirrored pairs of games won, drawn and lost) is kept pair by
//! pair, so a test goes on where it stopped; an accepted candidate becomes the player's next version.

use super::{Result, Store, StoreError, User};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use std::path::Path;

/// How a candidate's test stands.
pub const STATUSES: [&str; 5] = ["testing", "accepted", "rejected", "undecided", "superseded"];

/// A stored candidate and its evidence so far.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub id: i64,
    #[serde(skip)]
    pub player_id: i64,
    pub game: String,
    pub name: String,
    /// The version it is judged against (its number), and that version's id.
    pub against: u32,
    #[serde(skip)]
    pub against_id: i64,
    pub hash: String,
    pub size: u64,
    #[serde(skip)]
    pub submitted_by: Option<i64>,
    pub submitted_at: String,
    pub seed: u64,
    /// The test's Elo bounds and error rates: `[elo0, elo1, alpha, beta]`.
    pub bounds: [f64; 4],
    /// The most games it may play.
    pub cap: u32,
    /// Mirrored pairs played (each two games).
    pub pairs: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games the referee failed: they count for nobody.
    pub void: u32,
    /// One of [`STATUSES`].
    pub status: String,
    pub decided_at: Option<String>,
    /// The version it became, when accepted.
    pub version: Option<u32>,
}

/// What a new candidate is and how it is to be judged.
pub struct NewCandidate<'a> {
    pub game: &'a str,
    pub name: &'a str,
    pub bytes: &'a [u8],
    pub hash: &'a str,
    pub seed: u64,
    pub bounds: [f64; 4],
    pub cap: u32,
}

const COLUMNS: &str = "c.id, c.player_id, p.game, p.name, a.version, c.against, c.hash, c.size, c.submitted_by,
    c.submitted_at, c.seed, c.elo0, c.elo1, c.alpha, c.beta, c.cap, c.pairs, c.wins, c.draws, c.losses, c.void,
    c.status, c.decided_at, (SELECT version FROM versions WHERE id = c.version_id)";
const FROM: &str = "FROM candidates c JOIN players p ON p.id = c.player_id JOIN versions a ON a.id = c.against";

fn candidate_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Candidate> {
    Ok(Candidate {
        id: r.get(0)?,
        player_id: r.get(1)?,
        game: r.get(2)?,
        name: r.get(3)?,
        against: r.get(4)?,
        against_id: r.get(5)?,
        hash: r.get(6)?,
        size: r.get::<_, i64>(7)? as u64,
        submitted_by: r.get(8)?,
        submitted_at: r.get(9)?,
        seed: r.get::<_, i64>(10)? as u64,
        bounds: [r.get(11)?, r.get(12)?, r.get(13)?, r.get(14)?],
        cap: r.get(15)?,
        pairs: r.get(16)?,
        wins: r.get(17)?,
        draws: r.get(18)?,
        losses: r.get(19)?,
        void: r.get(20)?,
        status: r.get(21)?,
        decided_at: r.get(22)?,
        version: r.get(23)?,
    })
}

/// Why a candidate (of sha256 `hash`) of `name` of `game` is refused now, if it is: the player has no
/// version to judge it against, the file is its latest version, or another candidate of it is being
/// tested. Otherwise the version it is judged against and the player (their ids).
fn admissible(conn: &rusqlite::Connection, db: &Path, (game, name, hash): (&str, &str, &str)) -> Result<(i64, i64)> {
    let e = |source| super::sql_error(db.to_path_buf(), source);
    let latest: Option<(i64, i64, String)> = conn
        .query_row(
            "SELECT v.id, p.id, v.hash FROM versions v JOIN players p ON p.id = v.player_id
             WHERE p.game = ?1 AND p.name = ?2 ORDER BY v.version DESC LIMIT 1",
            params![game, name],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .map_err(e)?;
    let Some((against, player, latest_hash)) = latest else {
        return Err(StoreError::Invalid(format!(
            "`{name}` has no version of {game} to judge a candidate against: upload its first version as a plain \
             upload; nothing was stored"
        )));
    };
    if latest_hash == hash {
        return Err(StoreError::Invalid(format!(
            "the file is `{name}`'s latest version already: nothing to judge; nothing was stored"
        )));
    }
    let testing: Option<i64> = conn
        .query_row("SELECT id FROM candidates WHERE player_id = ?1 AND status = 'testing'", [player], |r| r.get(0))
        .optional()
        .map_err(e)?;
    if let Some(other) = testing {
        return Err(StoreError::Conflict(format!(
            "candidate {other} of `{name}` is being tested: wait for its verdict before sending another; nothing \
             was stored"
        )));
    }
    Ok((against, player))
}

impl Store {
    /// Refuses, before anything is played, a candidate (of sha256 `hash`) of `name` of `game` that
    /// [`Store::add_candidate`] would refuse whatever its games: the player has no version yet, the file
    /// is its latest version, or another candidate of it is being tested.
    pub fn candidate_admissible(&self, game: &str, name: &str, hash: &str) -> Result<()> {
        admissible(&self.conn, &self.db, (game, name, hash)).map(|_| ())
    }

    /// Stores `c` as a candidate of `by`'s player, to be judged against its latest version: the file
    /// first (by content hash), then the row. Refused when the name is not `by`'s, when the player has
    /// no version to judge against, when another candidate of it is being tested, or when the file is
    /// its latest version.
    pub fn add_candidate(&mut self, c: &NewCandidate<'_>, by: &User) -> Result<Candidate> {
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let path = self.component_path(c.hash);
        let wrote = !path.is_file();
        if wrote {
            arena_core::write_atomically(&path, c.bytes)
                .map_err(|source| StoreError::Io { path: path.clone(), error: source })?;
        }
        let added = (|| {
            let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(e)?;
            super::accounts::owner_of(&tx, c.name).map_err(e)?.admits(c.name, by)?;
            let (against, player) = admissible(&tx, &db, (c.game, c.name, c.hash))?;
            tx.execute(
                "INSERT INTO candidates (player_id, against, hash, size, submitted_by, seed, elo0, elo1, alpha, beta,
                 cap) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    player,
                    against,
                    c.hash,
                    c.bytes.len() as i64,
                    by.id,
                    c.seed as i64,
                    c.bounds[0],
                    c.bounds[1],
                    c.bounds[2],
                    c.bounds[3],
                    c.cap
                ],
            )
            .map_err(e)?;
            let id = tx.last_insert_rowid();
            tx.commit().map_err(e)?;
            Ok(id)
        })();
        match added {
            Ok(id) => self.candidate(id)?.ok_or_else(|| StoreError::Invalid(format!("candidate {id} vanished"))),
            Err(err) => {
                if wrote && !self.has_component(c.hash).unwrap_or(true) {
                    // Nothing stored: the file goes too.
                    let _ = std::fs::remove_file(&path);
                }
                Err(err)
            }
        }
    }

    /// Candidate `id`.
    pub fn candidate(&self, id: i64) -> Result<Option<Candidate>> {
        self.conn
            .query_row(&format!("SELECT {COLUMNS} {FROM} WHERE c.id = ?1"), [id], candidate_row)
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// The latest `limit` candidates of a player of `game`, newest first.
    pub fn candidates_of(&self, game: &str, name: &str, limit: u32) -> Result<Vec<Candidate>> {
        let mut q = self
            .conn
            .prepare(&format!("SELECT {COLUMNS} {FROM} WHERE p.game = ?1 AND p.name = ?2 ORDER BY c.id DESC LIMIT ?3"))
            .map_err(|e| self.sql(e))?;
        q.query_map(params![game, name, limit], candidate_row).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }

    /// Every candidate still being tested, oldest first (a server that starts goes on with them).
    pub fn testing_candidates(&self) -> Result<Vec<Candidate>> {
        let mut q = self
            .conn
            .prepare(&format!("SELECT {COLUMNS} {FROM} WHERE c.status = 'testing' ORDER BY c.id"))
            .map_err(|e| self.sql(e))?;
        q.query_map([], candidate_row).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }

    /// Adds pair number `pair`'s games to candidate `id`'s evidence, once: a pair already counted (or a
    /// candidate no longer tested) changes nothing. Whether it was counted now.
    pub fn record_pair(&mut self, id: i64, pair: u32, [wins, draws, losses, void]: [u32; 4]) -> Result<bool> {
        let n = self
            .conn
            .execute(
                "UPDATE candidates SET pairs = pairs + 1, wins = wins + ?3, draws = draws + ?4, losses = losses + ?5,
                 void = void + ?6 WHERE id = ?1 AND pairs = ?2 AND status = 'testing'",
                params![id, pair, wins, draws, losses, void],
            )
            .map_err(|e| self.sql(e))?;
        Ok(n == 1)
    }

    /// Ends candidate `id`'s test with `status`. An accepted candidate becomes its player's next
    /// version in the same transaction, unless the player has had a newer version than the one it was
    /// judged against meanwhile: then it is `superseded`, and stored as nothing.
    pub fn decide_candidate(&mut self, id: i64, status: &str) -> Result<Candidate> {
        if !STATUSES[1..].contains(&status) {
            return Err(StoreError::Invalid(format!("`{status}` is not a verdict")));
        }
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(e)?;
        let (player, against, hash, size, testing): (i64, i64, String, i64, bool) = tx
            .query_row(
                "SELECT player_id, against, hash, size, status = 'testing' FROM candidates WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .map_err(e)?;
        if testing {
            let latest: i64 = tx
                .query_row(
                    "SELECT id FROM versions WHERE player_id = ?1 ORDER BY version DESC LIMIT 1",
                    [player],
                    |r| r.get(0),
                )
                .map_err(e)?;
            let mut status = status;
            let mut version_id: Option<i64> = None;
            if latest != against && status != "superseded" {
                status = "superseded";
            } else if status == "accepted" {
                tx.execute(
                    "INSERT INTO versions (player_id, version, hash, size)
                     SELECT ?1, COALESCE(MAX(version), 0) + 1, ?2, ?3 FROM versions WHERE player_id = ?1",
                    params![player, hash, size],
                )
                .map_err(e)?;
                version_id = Some(tx.last_insert_rowid());
            }
            tx.execute(
                "UPDATE candidates SET status = ?2, version_id = ?3,
                 decided_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
                params![id, status, version_id],
            )
            .map_err(e)?;
        }
        tx.commit().map_err(e)?;
        self.candidate(id)?.ok_or_else(|| StoreError::Invalid(format!("candidate {id} vanished")))
    }
}

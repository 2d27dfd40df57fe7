//! Competitions: a game's submissions until a deadline, then a final of every player's last version
//! submitted before it. The final is recorded with the competition's `final_id` in one transaction,
//! so it is created once however many processes (or restarts) reach the deadline.

use super::tournaments::{Kind, StoredSettings, insert_tournament};
use super::{Result, Store, StoreError, User, Version};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// The longest title and description.
pub const TITLE_CHARS: usize = 120;
pub const DESCRIPTION_CHARS: usize = 4000;

/// A competition as stored.
#[derive(Debug, Clone, Serialize)]
pub struct Competition {
    pub id: i64,
    pub game: String,
    pub title: String,
    pub description: String,
    /// Unix seconds: submissions close then, and the final starts.
    pub deadline: i64,
    pub format: String,
    pub games_per_match: u32,
    pub seed: u64,
    /// The final, once it was recorded.
    pub final_id: Option<i64>,
    /// The top places the final is played on until they are decided (0: the final is played once).
    pub decide: u32,
    /// The most games the final's legs may play in all, when `decide` is set.
    pub final_games: u32,
}

/// What a new competition is.
pub struct NewCompetition<'a> {
    pub game: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub deadline: i64,
    pub format: Kind,
    pub games_per_match: u32,
    pub seed: u64,
    /// See [`Competition::decide`] and [`Competition::final_games`].
    pub decide: u32,
    pub final_games: u32,
}

const COLUMNS: &str =
    "id, game, title, description, deadline, format, games_per_match, seed, final_id, decide, final_games";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Competition> {
    Ok(Competition {
        id: r.get(0)?,
        game: r.get(1)?,
        title: r.get(2)?,
        description: r.get(3)?,
        deadline: r.get(4)?,
        format: r.get(5)?,
        games_per_match: r.get(6)?,
        seed: r.get::<_, i64>(7)? as u64,
        final_id: r.get(8)?,
        decide: r.get(9)?,
        final_games: r.get(10)?,
    })
}

/// The deadline as the store writes times (`2026-11-25T12:00:00Z`): versions submitted before it
/// compare below it as text.
pub fn stamp(unix: i64) -> String {
    let days = unix.div_euclid(86400);
    let secs = unix.rem_euclid(86400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

impl Store {
    /// Records a competition; its id.
    pub fn create_competition(&mut self, c: &NewCompetition<'_>, by: &User) -> Result<i64> {
        if c.title.trim().is_empty() || c.title.chars().count() > TITLE_CHARS {
            return Err(StoreError::Invalid(format!("a title is 1 to {TITLE_CHARS} characters")));
        }
        if c.description.chars().count() > DESCRIPTION_CHARS {
            return Err(StoreError::Invalid(format!("a description is at most {DESCRIPTION_CHARS} characters")));
        }
        self.conn
            .execute(
                "INSERT INTO competitions (game, title, description, deadline, format, games_per_match, seed, created_by,
                 decide, final_games) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    c.game,
                    c.title.trim(),
                    c.description,
                    c.deadline,
                    c.format.as_str(),
                    c.games_per_match,
                    c.seed as i64,
                    by.id,
                    c.decide,
                    c.final_games
                ],
            )
            .map_err(|e| self.sql(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn competition(&self, id: i64) -> Result<Option<Competition>> {
        self.conn
            .query_row(&format!("SELECT {COLUMNS} FROM competitions WHERE id = ?1"), [id], row)
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Every competition, newest first.
    pub fn competitions(&self) -> Result<Vec<Competition>> {
        let mut q = self
            .conn
            .prepare(&format!("SELECT {COLUMNS} FROM competitions ORDER BY id DESC"))
            .map_err(|e| self.sql(e))?;
        q.query_map([], row).and_then(Iterator::collect).map_err(|e| self.sql(e))
    }

    /// The competition of `game` whose deadline has passed by `now`, the latest, if any: its game
    /// takes no more submissions.
    pub fn closed_competition(&self, game: &str, now: i64) -> Result<Option<Competition>> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {COLUMNS} FROM competitions WHERE game = ?1 AND deadline <= ?2 ORDER BY deadline DESC LIMIT 1"
                ),
                params![game, now],
                row,
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Every player's last version of `game` submitted before `deadline`, in the order they registered.
    pub fn versions_before(&self, game: &str, deadline: i64) -> Result<Vec<Version>> {
        let before = stamp(deadline);
        let mut q = self
            .conn
            .prepare(&format!(
                "SELECT {} FROM versions v JOIN players p ON p.id = v.player_id
                 WHERE p.game = ?1 AND p.name NOT LIKE 'builtin:%' AND v.submitted_at < ?2
                 AND v.version = (SELECT MAX(version) FROM versions w WHERE w.player_id = p.id AND w.submitted_at < ?2)
                 ORDER BY p.id",
                super::players::VERSION_COLUMNS
            ))
            .map_err(|e| self.sql(e))?;
        q.query_map(params![game, before], super::players::version_row)
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))
    }

    /// Records competition `id`'s final of `entrants` and sets its `final_id`, in one transaction:
    /// `None` if a final was recorded already (by this process or another).
    pub fn create_final(&mut self, id: i64, settings: &StoredSettings, entrants: &[Version]) -> Result<Option<i64>> {
        self.create_leg(id, 1, None, settings, entrants)
    }

    /// Records leg `leg` (from 2) of competition `id`'s final, from `seed`, with the first leg's
    /// entrants and settings, in one transaction: `None` if that leg was recorded already.
    pub fn create_final_leg(&mut self, id: i64, leg: u32, seed: u64) -> Result<Option<i64>> {
        let first = self
            .competition(id)?
            .and_then(|c| c.final_id)
            .ok_or_else(|| StoreError::Invalid(format!("competition {id} has no final to play on")))?;
        let row = self.tournament(first)?.ok_or_else(|| StoreError::Invalid(format!("no tournament {first}")))?;
        let entrants = self.entrants(first)?;
        self.create_leg(id, leg, Some(seed), &row.settings, &entrants)
    }

    fn create_leg(
        &mut self,
        id: i64,
        leg: u32,
        seed: Option<u64>,
        settings: &StoredSettings,
        entrants: &[Version],
    ) -> Result<Option<i64>> {
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let settings = serde_json::to_string(settings).map_err(|x| StoreError::Invalid(x.to_string()))?;
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(e)?;
        let c = tx
            .query_row(&format!("SELECT {COLUMNS} FROM competitions WHERE id = ?1"), [id], row)
            .optional()
            .map_err(e)?
            .ok_or_else(|| StoreError::Invalid(format!("there is no competition {id}")))?;
        let recorded = if leg == 1 {
            c.final_id.is_some()
        } else {
            tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM final_legs WHERE competition_id = ?1 AND leg = ?2)",
                params![id, leg],
                |r| r.get(0),
            )
            .map_err(e)?
        };
        if recorded {
            return Ok(None);
        }
        let format = Kind::parse(&c.format).ok_or_else(|| StoreError::Invalid(format!("format {}", c.format)))?;
        let created_by: Option<i64> =
            tx.query_row("SELECT created_by FROM competitions WHERE id = ?1", [id], |r| r.get(0)).map_err(e)?;
        let by = match created_by {
            Some(uid) => tx
                .query_row("SELECT id, name, admin FROM users WHERE id = ?1", [uid], super::accounts::user_row)
                .optional()
                .map_err(e)?,
            None => None,
        };
        let what = (format, c.games_per_match, seed.unwrap_or(c.seed));
        let t = insert_tournament(&tx, &c.game, what, &settings, entrants, (true, by.as_ref())).map_err(e)?;
        if leg == 1 {
            tx.execute("UPDATE competitions SET final_id = ?1 WHERE id = ?2", params![t, id]).map_err(e)?;
        } else {
            tx.execute(
                "INSERT INTO final_legs (competition_id, leg, tournament_id) VALUES (?1, ?2, ?3)",
                params![id, leg, t],
            )
            .map_err(e)?;
        }
        tx.commit().map_err(e)?;
        Ok(Some(t))
    }

    /// The tournaments of competition `id`'s final, leg by leg (none before its final is recorded).
    pub fn final_legs(&self, id: i64) -> Result<Vec<i64>> {
        let Some(first) = self.competition(id)?.and_then(|c| c.final_id) else { return Ok(vec![]) };
        let mut q = self
            .conn
            .prepare("SELECT tournament_id FROM final_legs WHERE competition_id = ?1 ORDER BY leg")
            .map_err(|e| self.sql(e))?;
        let more: Vec<i64> = q.query_map([id], |r| r.get(0)).and_then(Iterator::collect).map_err(|e| self.sql(e))?;
        Ok(std::iter::once(first).chain(more).collect())
    }
}

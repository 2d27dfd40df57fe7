//! What the web arena lists besides the statistics: a player's versions and every failure with its
//! game and why, and a tournament's games and matches as they are recorded (a running tournament's too).

use super::{Result, Store, StoreError, Version};
use arena_tournament::{GameRecord, MatchRecord};
use rusqlite::params;
use serde::Serialize;

/// One failure of a player: in a game, or at a tournament's start or end.
#[derive(Debug, Clone, Serialize)]
pub struct FailureRow {
    pub tournament: i64,
    /// The game's id in its tournament; none for a failure at a tournament's start or end.
    pub game: Option<String>,
    pub version: u32,
    pub kind: String,
    pub call: String,
    pub reason: String,
    /// An unrated game (a scrimmage).
    pub scrimmage: bool,
    /// The last lines the player printed before it (its owner's to read).
    pub last_words: String,
    /// The step of its game it came in, when the game's calls were kept.
    pub step: Option<u32>,
}

impl Store {
    /// Every version of a player, newest first.
    pub fn versions_of(&self, game: &str, name: &str) -> Result<Vec<Version>> {
        let mut q = self
            .conn
            .prepare(&format!(
                "SELECT {} FROM versions v JOIN players p ON p.id = v.player_id
                 WHERE p.game = ?1 AND p.name = ?2 ORDER BY v.version DESC",
                super::players::VERSION_COLUMNS
            ))
            .map_err(|e| self.sql(e))?;
        q.query_map(params![game, name], super::players::version_row)
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))
    }

    /// The versions of a player of `game` its owner offers as sparring partners, newest first.
    pub fn sparring_versions(&self, game: &str, name: &str) -> Result<Vec<Version>> {
        let mut q = self
            .conn
            .prepare(&format!(
                "SELECT {} FROM versions v JOIN players p ON p.id = v.player_id
                 WHERE p.game = ?1 AND p.name = ?2 AND v.sparring = 1 ORDER BY v.version DESC",
                super::players::VERSION_COLUMNS
            ))
            .map_err(|e| self.sql(e))?;
        q.query_map(params![game, name], super::players::version_row)
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))
    }

    /// Offers version `number` of player `name` of `game` as a sparring partner (or withdraws it);
    /// `false` when there is no such version.
    pub fn set_sparring(&mut self, game: &str, name: &str, number: u32, offered: bool) -> Result<bool> {
        let n = self
            .conn
            .execute(
                "UPDATE versions SET sparring = ?4 WHERE version = ?3
                 AND player_id = (SELECT id FROM players WHERE game = ?1 AND name = ?2)",
                params![game, name, number, offered],
            )
            .map_err(|e| self.sql(e))?;
        Ok(n == 1)
    }

    /// Every failure of a player, newest first, with the version that failed.
    pub fn failures_of(&self, game: &str, name: &str) -> Result<Vec<FailureRow>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT f.tournament_id, g.key, f.kind, f.call, f.reason, t.rated, f.last_words, f.step,
                    COALESCE(
                      (SELECT v.version FROM game_players gp JOIN versions v ON v.id = gp.version_id
                       WHERE gp.game_id = f.game_id AND gp.player_id = f.player_id LIMIT 1),
                      (SELECT v.version FROM entrants e JOIN versions v ON v.id = e.version_id
                       WHERE e.tournament_id = f.tournament_id AND v.player_id = f.player_id LIMIT 1), 0)
                 FROM faults f JOIN players p ON p.id = f.player_id
                 JOIN tournaments t ON t.id = f.tournament_id
                 LEFT JOIN games g ON g.id = f.game_id
                 WHERE p.game = ?1 AND p.name = ?2 ORDER BY f.id DESC",
            )
            .map_err(|e| self.sql(e))?;
        q.query_map(params![game, name], |r| {
            Ok(FailureRow {
                tournament: r.get(0)?,
                game: r.get(1)?,
                kind: r.get(2)?,
                call: r.get(3)?,
                reason: r.get(4)?,
                scrimmage: r.get::<_, i64>(5)? == 0,
                last_words: r.get(6)?,
                step: r.get(7)?,
                version: r.get(8)?,
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.sql(e))
    }

    /// The games a tournament has recorded so far (their results, not their replays), in play order.
    pub fn tournament_games(&self, id: i64) -> Result<Vec<GameRecord>> {
        self.records(
            id,
            "SELECT record FROM games WHERE tournament_id = ?1 ORDER BY round, match_no, number, id",
            "game",
        )
    }

    /// The players of tournament `id` banned outside any game (at its start or its end), with
    /// their faults, in slot order.
    pub fn lifecycle_bans(&self, id: i64) -> Result<Vec<(String, arena_core::Fault)>> {
        let mut q = self
            .conn
            .prepare_cached(
                "SELECT e.name, l.fault FROM lifecycle l
                 JOIN entrants e ON e.tournament_id = l.tournament_id AND e.slot = l.slot
                 WHERE l.tournament_id = ?1 AND l.fault IS NOT NULL ORDER BY l.slot, l.call",
            )
            .map_err(|e| self.sql(e))?;
        let rows: Vec<(String, String)> =
            q.query_map([id], |r| Ok((r.get(0)?, r.get(1)?))).and_then(Iterator::collect).map_err(|e| self.sql(e))?;
        rows.into_iter()
            .map(|(name, f)| {
                let f = serde_json::from_str(&f).map_err(|x| {
                    StoreError::Invalid(format!("{}: tournament {id}: unreadable fault: {x}", self.db.display()))
                })?;
                Ok((name, f))
            })
            .collect()
    }

    /// The matches a tournament has decided so far.
    pub fn tournament_matches(&self, id: i64) -> Result<Vec<MatchRecord>> {
        self.records(id, "SELECT record FROM matches WHERE tournament_id = ?1 ORDER BY round, match_no", "match")
    }

    /// The JSON records `sql` selects for tournament `id`, read back.
    pub(super) fn records<T: serde::de::DeserializeOwned>(&self, id: i64, sql: &str, what: &str) -> Result<Vec<T>> {
        let mut q = self.conn.prepare(sql).map_err(|e| self.sql(e))?;
        let rows: Vec<String> = q.query_map([id], |r| r.get(0)).and_then(Iterator::collect).map_err(|e| self.sql(e))?;
        rows.iter()
            .map(|j| {
                serde_json::from_str(j).map_err(|x| {
                    StoreError::Invalid(format!("{}: tournament {id}: unreadable {what}: {x}", self.db.display()))
                })
            })
            .collect()
    }

    /// How far a tournament is: games and matches recorded and whether it is finished (what live
    /// pages poll, and what their cache is keyed by).
    pub fn progress(&self, id: i64) -> Result<(u32, u32, bool)> {
        self.conn
            .query_row(
                "SELECT (SELECT COUNT(*) FROM games WHERE tournament_id = ?1),
                        (SELECT COUNT(*) FROM matches WHERE tournament_id = ?1)
                          + (SELECT COUNT(*) FROM lifecycle WHERE tournament_id = ?1 AND fault IS NOT NULL),
                        status = 'finished'
                 FROM tournaments WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(|e| self.sql(e))
    }

    /// Changes whenever anything a leaderboard is computed from changes: a game, a version, a
    /// tournament or a ban recorded (cheap: maxima of primary keys and two small counts).
    pub fn generation(&self) -> Result<(i64, i64, i64, i64)> {
        self.conn
            .query_row(
                "SELECT (SELECT IFNULL(MAX(id), 0) FROM games), (SELECT IFNULL(MAX(id), 0) FROM versions),
                        (SELECT COUNT(*) FROM lifecycle), (SELECT IFNULL(MAX(id), 0) FROM tournaments)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .map_err(|e| self.sql(e))
    }
}

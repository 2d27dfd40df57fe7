//! Pages of the store by cursor, for the API and the pages that list without end: a tournament's
//! games in the order they were played, a player's games newest first, tournaments newest first. A
//! cursor is the last row's id; each page is one index range, as cheap in a tournament of 500,000
//! games as in one of 500.

use super::{Result, Store, StoreError};
use arena_tournament::GameRecord;
use rusqlite::params;

/// The most rows one page may hold.
pub const MAX_PAGE: usize = 500;

/// A stored game as a page lists it: its record (without replay, logs or events), and per seat the
/// version that played and its owner (none for a seat no registered version played).
#[derive(Debug, Clone)]
pub struct GameAt {
    /// The game's row id: the cursor of the page it ends.
    pub cursor: i64,
    pub tournament: i64,
    pub game: String,
    pub finished_at: String,
    pub record: GameRecord,
    /// Per seat: (version, owner).
    pub seats: Vec<(Option<u32>, Option<String>)>,
}

impl Store {
    /// Whether tournament `id` exists (without counting anything).
    pub fn tournament_exists(&self, id: i64) -> Result<bool> {
        let mut q = self.conn.prepare_cached("SELECT 1 FROM tournaments WHERE id = ?1").map_err(|e| self.sql(e))?;
        q.exists([id]).map_err(|e| self.sql(e))
    }

    /// Up to `limit` games of tournament `id` after the game whose cursor is `after`, as played.
    pub fn tournament_games_page(&self, id: i64, after: Option<i64>, limit: usize) -> Result<Vec<GameAt>> {
        self.games_page(
            "SELECT g.id, g.tournament_id, t.game, g.finished_at, g.record FROM games g
             JOIN tournaments t ON t.id = g.tournament_id
             WHERE g.tournament_id = ?1 AND g.id > ?2 ORDER BY g.id LIMIT ?3",
            params![id, after.unwrap_or(0), limit.min(MAX_PAGE) as i64],
        )
    }

    /// Up to `limit` games that player `name` played (any game it is registered for, any version),
    /// newest first, after the game whose cursor is `after`.
    pub fn player_games_page(&self, name: &str, after: Option<i64>, limit: usize) -> Result<Vec<GameAt>> {
        self.games_page(
            "SELECT g.id, g.tournament_id, t.game, g.finished_at, g.record FROM games g
             JOIN tournaments t ON t.id = g.tournament_id
             WHERE g.id IN (SELECT gp.game_id FROM players p
                            JOIN game_players gp INDEXED BY game_players_by_player_game ON gp.player_id = p.id
                            WHERE p.name = ?1 AND gp.game_id < ?2 ORDER BY gp.game_id DESC LIMIT ?3)
             ORDER BY g.id DESC",
            params![name, after.unwrap_or(i64::MAX), limit.min(MAX_PAGE) as i64],
        )
    }

    fn games_page(&self, sql: &str, p: impl rusqlite::Params) -> Result<Vec<GameAt>> {
        let mut q = self.conn.prepare_cached(sql).map_err(|e| self.sql(e))?;
        let rows: Vec<(i64, i64, String, String, String)> = q
            .query_map(p, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        let mut seats = self
            .conn
            .prepare_cached(
                "SELECT gp.seat, v.version, u.name FROM game_players gp
                 JOIN versions v ON v.id = gp.version_id JOIN players p ON p.id = gp.player_id
                 LEFT JOIN users u ON u.id = p.owner WHERE gp.game_id = ?1",
            )
            .map_err(|e| self.sql(e))?;
        rows.into_iter()
            .map(|(cursor, tournament, game, finished_at, record)| {
                let record: GameRecord = serde_json::from_str(&record).map_err(|x| {
                    StoreError::Invalid(format!("{}: game {cursor}: unreadable record: {x}", self.db.display()))
                })?;
                let mut by_seat = vec![(None, None); record.players.len()];
                let found: Vec<(usize, u32, Option<String>)> = seats
                    .query_map([cursor], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?, r.get(2)?)))
                    .and_then(Iterator::collect)
                    .map_err(|e| self.sql(e))?;
                for (seat, version, owner) in found {
                    if let Some(s) = by_seat.get_mut(seat) {
                        *s = (Some(version), owner);
                    }
                }
                Ok(GameAt { cursor, tournament, game, finished_at, record, seats: by_seat })
            })
            .collect()
    }
}

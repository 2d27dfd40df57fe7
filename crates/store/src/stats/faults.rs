//! Games that ended in a game fault, and what was recorded since a point (for `/metrics`).

use super::super::{Result, Store};
use std::collections::HashMap;

impl Store {
    /// The games of `game` that ended in a game fault (its package's referee failed; nobody is rated on
    /// them): how many, and the latest `n`, newest first.
    pub fn game_faults(&self, game: &str, n: usize) -> Result<(i64, Vec<GameFaultAt>)> {
        let count: i64 = self
            .conn
            .query_row(
                "SELECT COUNT(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id
                 WHERE t.game = ?1 AND g.game_fault IS NOT NULL",
                [game],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))?;
        let mut q = self
            .conn
            .prepare(&format!(
                "SELECT g.tournament_id, g.key, g.game_fault FROM games g INDEXED BY games_faulted
                 JOIN tournaments t ON t.id = g.tournament_id
                 WHERE t.game = ?1 AND g.game_fault IS NOT NULL ORDER BY g.id DESC LIMIT {n}"
            ))
            .map_err(|e| self.sql(e))?;
        let rows: Vec<(i64, String, String)> = q
            .query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        let latest = rows
            .into_iter()
            .map(|(tournament, key, fault)| {
                let f: Option<arena_core::Fault> = serde_json::from_str(&fault).ok();
                GameFaultAt {
                    tournament,
                    game: key,
                    call: f.as_ref().map(|f| f.call.clone()).unwrap_or_default(),
                    reason: f.map(|f| f.reason).unwrap_or(fault),
                }
            })
            .collect();
        Ok((count, latest))
    }
}

/// A stored game that ended in a game fault.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameFaultAt {
    pub tournament: i64,
    pub game: String,
    /// The referee's call that failed, and why.
    pub call: String,
    pub reason: String,
}

/// What was recorded since a point: games and game faults by game, bans by kind, and the point
/// reached (for `/metrics`, which counts each row once).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// (game, games recorded, of which ended in a game fault).
    pub games: Vec<(String, u64, u64)>,
    /// (fault kind, bans).
    pub bans: Vec<(String, u64)>,
    /// The last game and fault ids counted.
    pub upto: (i64, i64),
}

impl Store {
    /// Games, game faults and bans recorded after the point `since` (the last game and fault ids
    /// already counted): each a range of the ids, read once.
    pub fn tally_since(&self, since: (i64, i64)) -> Result<Tally> {
        let e = |x| self.sql(x);
        let upto: (i64, i64) = self
            .conn
            .query_row(
                "SELECT (SELECT IFNULL(MAX(id), 0) FROM games), (SELECT IFNULL(MAX(id), 0) FROM faults)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(e)?;
        let by_game = |sql: &str| -> Result<HashMap<String, u64>> {
            let mut q = self.conn.prepare(sql).map_err(e)?;
            q.query_map(rusqlite::params![since.0, upto.0], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))
                .and_then(Iterator::collect)
                .map_err(e)
        };
        let played = by_game(
            "SELECT t.game, COUNT(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id
             WHERE g.id > ?1 AND g.id <= ?2 GROUP BY t.game",
        )?;
        let faulted = by_game(
            "SELECT t.game, COUNT(*) FROM games g INDEXED BY games_faulted JOIN tournaments t ON t.id = g.tournament_id
             WHERE g.game_fault IS NOT NULL AND g.id > ?1 AND g.id <= ?2 GROUP BY t.game",
        )?;
        let mut games: Vec<(String, u64, u64)> =
            played.into_iter().map(|(g, n)| (g.clone(), n, faulted.get(&g).copied().unwrap_or(0))).collect();
        games.sort();
        let mut q = self
            .conn
            .prepare("SELECT kind, COUNT(*) FROM faults WHERE id > ?1 AND id <= ?2 GROUP BY kind ORDER BY kind")
            .map_err(e)?;
        let bans = q
            .query_map(rusqlite::params![since.1, upto.1], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))
            .and_then(Iterator::collect)
            .map_err(e)?;
        Ok(Tally { games, bans, upto })
    }
}

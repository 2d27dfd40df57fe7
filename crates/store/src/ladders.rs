//! A game's ladder in the store: one unfinished tournament of format `ladder` per game, whose games
//! go on being added (numbered on from the last), whose entrants grow as new versions arrive, and
//! whose faults, per version, decide who is benched.

use super::{Result, Store};
use std::collections::{HashMap, VecDeque};

/// Whether the game of game-player row `gp` (in tournament `?1`) ended in a failure of the rule checker
/// during that seat's own call: the game's record names its player `fault_by` (found among the
/// tournament's faulted games, through their index).
const CHECKER_HIT: &str = "gp.game_id IN (SELECT f.id FROM games f INDEXED BY games_faulted
                                   WHERE f.tournament_id = ?1 AND f.game_fault IS NOT NULL
                                     AND json_extract(f.record, '$.fault_by')
                                         = json_extract(f.record, '$.players[' || gp.seat || ']'))";

/// A player's record in one tournament: name, [games, won, lost, tied], total score, games faulted.
pub type RecordIn = (String, [u32; 4], i64, u32);

impl Store {
    /// The ladder of `game` that has not been closed, if there is one.
    pub fn ladder_of(&self, game: &str) -> Result<Option<super::TournamentRow>> {
        let id: Option<i64> = self
            .conn
            .query_row(
                "SELECT MAX(id) FROM tournaments WHERE game = ?1 AND format = ?2 AND status != 'finished'",
                rusqlite::params![game, super::Kind::Ladder.as_str()],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))?;
        match id {
            Some(id) => self.tournament(id),
            None => Ok(None),
        }
    }

    /// The number the next game of ladder `id` takes (its games are numbered from 1, never twice).
    pub fn next_number(&self, id: i64) -> Result<u32> {
        self.conn
            .query_row("SELECT COALESCE(MAX(match_no), 0) + 1 FROM games WHERE tournament_id = ?1", [id], |r| r.get(0))
            .map_err(|e| self.sql(e))
    }

    /// The latest `n` games of tournament `id`, oldest first (a ladder's page shows these, not all).
    pub fn latest_games(&self, id: i64, n: u32) -> Result<Vec<arena_tournament::GameRecord>> {
        let sql = format!(
            "SELECT record FROM (SELECT record, round, match_no, number, id FROM games WHERE tournament_id = ?1
             ORDER BY round DESC, match_no DESC, number DESC, id DESC LIMIT {n})
             ORDER BY round, match_no, number, id"
        );
        self.records(id, &sql, "game")
    }

    /// Each player's record in tournament `id`, counted by the database: name, games, won, lost,
    /// tied, total score, games with a fault.
    pub fn records_in(&self, id: i64) -> Result<Vec<RecordIn>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT p.name, COUNT(*), SUM(gp.result = 'won'), SUM(gp.result = 'lost'), SUM(gp.result = 'tied'),
                        SUM(gp.score), SUM(gp.faulted)
                 FROM games g JOIN game_players gp ON gp.game_id = g.id JOIN players p ON p.id = gp.player_id
                 WHERE g.tournament_id = ?1
                   AND g.id NOT IN (SELECT f.id FROM games f INDEXED BY games_faulted
                                    WHERE f.tournament_id = ?1 AND f.game_fault IS NOT NULL)
                 GROUP BY p.name ORDER BY p.name",
            )
            .map_err(|e| self.sql(e))?;
        let rows = q
            .query_map([id], |r| Ok((r.get(0)?, [r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?], r.get(5)?, r.get(6)?)))
            .and_then(Iterator::collect);
        rows.map_err(|e| self.sql(e))
    }

    /// Of each version's latest `window` games of tournament `id`, whether the game's rule checker
    /// failed during its own calls (the game's record names it `fault_by`), the latest last.
    pub fn checker_faults_by_version(&self, id: i64, window: usize) -> Result<HashMap<i64, VecDeque<bool>>> {
        let sql = format!(
            "SELECT version_id, hit FROM (
               SELECT gp.version_id, gp.game_id, {CHECKER_HIT} AS hit,
                      ROW_NUMBER() OVER (PARTITION BY gp.version_id ORDER BY gp.game_id DESC) AS nth
                 FROM game_players gp JOIN games g ON g.id = gp.game_id
                WHERE g.tournament_id = ?1)
              WHERE nth <= ?2 ORDER BY version_id, game_id"
        );
        let mut q = self.conn.prepare(&sql).map_err(|e| self.sql(e))?;
        let rows: Vec<(i64, bool)> = q
            .query_map(rusqlite::params![id, window as i64], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        let mut out: HashMap<i64, VecDeque<bool>> = HashMap::new();
        for (version, hit) in rows {
            out.entry(version).or_default().push_back(hit);
        }
        Ok(out)
    }

    /// [`Store::checker_faults_by_version`] for one version (of player `player`) alone: how many of its
    /// latest `window` games of tournament `id` the rule checker failed in during its calls (read
    /// through the player's own games, not the whole tournament's).
    pub fn checker_faults_of(&self, id: i64, (player, version): (i64, i64), window: usize) -> Result<u32> {
        let sql = format!(
            "SELECT COALESCE(SUM(hit), 0) FROM (
               SELECT {CHECKER_HIT} AS hit
                 FROM game_players gp JOIN games g ON g.id = gp.game_id
                WHERE gp.player_id = ?2 AND gp.version_id = ?3 AND g.tournament_id = ?1
                ORDER BY gp.game_id DESC LIMIT ?4)"
        );
        self.conn
            .query_row(&sql, rusqlite::params![id, player, version, window as i64], |r| r.get(0))
            .map_err(|e| self.sql(e))
    }

    /// Faults in games of tournament `id`, by version.
    pub fn faults_by_version(&self, id: i64) -> Result<HashMap<i64, u32>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT gp.version_id, COUNT(*) FROM faults f
                 JOIN game_players gp ON gp.game_id = f.game_id AND gp.player_id = f.player_id
                 WHERE f.tournament_id = ?1 GROUP BY gp.version_id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = q.query_map([id], |r| Ok((r.get(0)?, r.get(1)?))).and_then(Iterator::collect);
        rows.map_err(|e| self.sql(e))
    }

    /// Games of tournament `id` each pair of versions played together (a game of more seats counts for
    /// every pair in it), keyed by the two version ids, the smaller first. Games whose referee failed
    /// count for nobody, here as in the ratings.
    pub fn pair_games(&self, id: i64) -> Result<HashMap<(i64, i64), u32>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT a.version_id, b.version_id, COUNT(*) FROM games g
                 JOIN game_players a ON a.game_id = g.id
                 JOIN game_players b ON b.game_id = g.id AND a.version_id < b.version_id
                 WHERE g.tournament_id = ?1 AND g.game_fault IS NULL
                 GROUP BY a.version_id, b.version_id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = q.query_map([id], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?))).and_then(Iterator::collect);
        rows.map_err(|e| self.sql(e))
    }
}

//! What the store knows about players: records, faults, fuel, ratings (computed from the stored games
//! in the rating order: a tournament's games in its own order when it finishes, so they never count a
//! game twice and are the same however its games finished; a ladder's as they are recorded; kept up
//! to date game by game in a [`Board`]), and head-to-head results.

use super::{Result, Store};
use arena_tournament::MatchRecord;
use arena_tournament::ratings::{Rating, Ratings, System};
use rusqlite::params;
use serde::Serialize;
use std::collections::BTreeMap;

mod board;
mod faults;
use board::Point;
pub use board::{Board, HISTORY};
pub use faults::{GameFaultAt, Tally};

/// Won, lost, tied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Record {
    pub won: u32,
    pub lost: u32,
    pub tied: u32,
}

impl Record {
    fn add(&mut self, result: &str) {
        match result {
            "won" => self.won += 1,
            "tied" => self.tied += 1,
            _ => self.lost += 1,
        }
    }
}

/// A player's line in the leaderboard (and in `arena players`).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Leader {
    pub name: String,
    pub version: u32,
    pub rating: Rating,
    pub games: Record,
    pub faults: u32,
    pub submitted_at: String,
    /// The places its rating's interval allows among the board's players (best, worst; see
    /// `ratings::rank_ranges`): one place when its interval overlaps nobody's.
    #[serde(default)]
    pub rank_range: (u32, u32),
}

/// A rating after one game.
#[derive(Debug, Clone, Serialize)]
pub struct RatingPoint {
    pub tournament: i64,
    pub game: String,
    #[serde(flatten)]
    pub rating: Rating,
}

#[derive(Debug, Clone, Serialize)]
pub struct HeadToHead {
    pub opponent: String,
    /// Games against this opponent, from this player's side (in games of more than two, a better place
    /// than the opponent's is a win).
    #[serde(flatten)]
    pub games: Record,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Tournaments {
    pub played: u32,
    pub won: u32,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Fuel {
    pub total: u64,
    pub decisions: u64,
    pub per_decision: u64,
}

/// Everything `arena stats` shows about one player of one game.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerStats {
    pub game: String,
    pub name: String,
    pub versions: u32,
    pub registered_at: String,
    pub tournaments: Tournaments,
    pub matches: Record,
    pub games: Record,
    pub faults: BTreeMap<String, u32>,
    pub fuel: Fuel,
    pub rating_system: &'static str,
    pub rating: Rating,
    pub rating_history: Vec<RatingPoint>,
    pub head_to_head: Vec<HeadToHead>,
}

impl Store {
    /// Every player's rating in `game` after every stored rated game (by player id).
    pub fn ratings(&self, game: &str, system: System) -> Result<Ratings> {
        let tx = self.conn.unchecked_transaction().map_err(|e| self.sql(e))?;
        let mut board = Board::new(system);
        self.catch_up(game, &mut board)?;
        board.now.apply(&self.running_rows(game)?, |_, _, _| ());
        tx.finish().map_err(|e| self.sql(e))?;
        Ok(board.now.ratings)
    }

    /// Every registered player of `game` with rating and record; by rating, best first, when `by_rating`,
    /// else in the order they registered. Computed from every stored game: [`Store::leaders`] with a
    /// [`Board`] kept between calls reads only what is new.
    pub fn leaderboard(&self, game: &str, system: System, by_rating: bool) -> Result<Vec<Leader>> {
        self.leaders(game, &mut Board::new(system), by_rating)
    }

    /// The leaderboard of `game`: `board` brought up to date (reading only what the store gained since
    /// it was last), with the games of tournaments still running on top; all read at one instant.
    pub fn leaders(&self, game: &str, board: &mut Board, by_rating: bool) -> Result<Vec<Leader>> {
        let tx = self.conn.unchecked_transaction().map_err(|e| self.sql(e))?;
        self.catch_up(game, board)?;
        let running = self.running_rows(game)?;
        let players = self.players(Some(game))?;
        tx.finish().map_err(|e| self.sql(e))?;
        let now = board.with_running(&running, |_, _, _| ());
        let mut out: Vec<Leader> = players
            .into_iter()
            .map(|p| Leader {
                rating: now.ratings.get(p.latest.player_id),
                games: now.records.get(&p.latest.player_id).copied().unwrap_or_default(),
                faults: board.faults.get(&p.latest.player_id).copied().unwrap_or(0),
                name: p.latest.name,
                version: p.latest.version,
                submitted_at: p.latest.submitted_at,
                rank_range: (0, 0),
            })
            .collect();
        let ratings: Vec<_> = out.iter().map(|l| l.rating).collect();
        for (l, r) in out.iter_mut().zip(arena_tournament::ratings::rank_ranges(&ratings)) {
            l.rank_range = r;
        }
        if by_rating {
            out.sort_by(|a, b| b.rating.rating.total_cmp(&a.rating.rating).then_with(|| a.name.cmp(&b.name)));
        }
        Ok(out)
    }

    /// The statistics of player `name` of `game`, if it is registered (its rating history: the latest
    /// [`HISTORY`] points). Computed from every stored game: [`Store::player_stats`] with a [`Board`]
    /// kept between calls reads only what is new.
    pub fn stats(&self, game: &str, name: &str, system: System) -> Result<Option<PlayerStats>> {
        self.player_stats(game, name, &mut Board::new(system))
    }

    /// The statistics of player `name` of `game`: `board` brought up to date, with the games of
    /// tournaments still running on top; its record, fuel and head to head from its own games.
    pub fn player_stats(&self, game: &str, name: &str, board: &mut Board) -> Result<Option<PlayerStats>> {
        self.player_stats_from(game, name, move || board)
    }

    /// [`Store::player_stats`] with the board taken from `board()` (a lock's guard, say) only while it
    /// is brought up to date and read, and given back before the player's own games are read.
    pub fn player_stats_from<B: std::ops::DerefMut<Target = Board>>(
        &self,
        game: &str,
        name: &str,
        board: impl FnOnce() -> B,
    ) -> Result<Option<PlayerStats>> {
        // The board is taken before the read transaction's first read: whoever brought it up to date
        // did so from a snapshot no newer than this one, so it is never ahead of what is read here
        // (a tournament it has sealed is not counted again as running).
        let held = board();
        let tx = self.conn.unchecked_transaction().map_err(|e| self.sql(e))?;
        let Some(latest) = self.latest_version(game, name)? else { return Ok(None) };
        let me = latest.player_id;
        let e = |x| self.sql(x);
        let running = self.running_rows(game)?;
        let (rating, mut history, rating_system) = {
            let mut board = held;
            self.catch_up(game, &mut board)?;
            let mut history: Vec<Point> =
                board.history.get(&me).map(|h| h.iter().cloned().collect()).unwrap_or_default();
            let rating = board
                .with_running(&running, |p, g, r| {
                    if p == me {
                        history.push(Point::of(g, r));
                    }
                })
                .ratings
                .get(me);
            (rating, history, board.system().name())
        };
        let history = history.split_off(history.len().saturating_sub(HISTORY));
        let mut key = self.conn.prepare("SELECT key FROM games WHERE id = ?1").map_err(e)?;
        let mut rating_history = Vec::with_capacity(history.len());
        for p in history {
            let game = match p.game_id {
                Some(id) if p.key.is_empty() => key.query_row([id], |r| r.get(0)).map_err(e)?,
                _ => p.key,
            };
            rating_history.push(RatingPoint { tournament: p.tournament, game, rating: p.rating });
        }
        let registered_at: String =
            self.conn.query_row("SELECT registered_at FROM players WHERE id = ?1", [me], |r| r.get(0)).map_err(e)?;
        let played: u32 = self
            .conn
            .query_row(
                "SELECT COUNT(DISTINCT e.tournament_id) FROM entrants e JOIN versions v ON v.id = e.version_id
                 JOIN tournaments t ON t.id = e.tournament_id WHERE v.player_id = ?1 AND t.rated = 1",
                [me],
                |r| r.get(0),
            )
            .map_err(e)?;
        let won: u32 = self
            .conn
            .query_row(
                "SELECT COUNT(*) FROM tournaments WHERE game = ?1 AND status = 'finished' AND winner = ?2 AND rated = 1",
                params![game, name],
                |r| r.get(0),
            )
            .map_err(e)?;

        let mut matches = Record::default();
        let mut q = self
            .conn
            .prepare(
                "SELECT m.record FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                 JOIN entrants en ON en.tournament_id = t.id JOIN versions v ON v.id = en.version_id
                 WHERE t.game = ?1 AND v.player_id = ?2 AND t.rated = 1 ORDER BY m.tournament_id, m.round, m.match_no",
            )
            .map_err(e)?;
        let records: Vec<String> =
            q.query_map(params![game, me], |r| r.get(0)).and_then(Iterator::collect).map_err(e)?;
        for m in records.iter().filter_map(|j| serde_json::from_str::<MatchRecord>(j).ok()) {
            let [Some(a), Some(b)] = &m.players else { continue };
            if a != name && b != name {
                continue;
            }
            match &m.winner {
                Some(w) if w == name => matches.won += 1,
                Some(_) => matches.lost += 1,
                None => matches.tied += 1,
            }
        }

        let mut faults = BTreeMap::new();
        let mut q =
            self.conn.prepare("SELECT kind, COUNT(*) FROM faults WHERE player_id = ?1 GROUP BY kind").map_err(e)?;
        let rows: Vec<(String, u32)> =
            q.query_map([me], |r| Ok((r.get(0)?, r.get(1)?))).and_then(Iterator::collect).map_err(e)?;
        faults.extend(rows);

        let (record, mut fuel, h2h) = self.own_games(game, me)?;
        fuel.per_decision = fuel.total.checked_div(fuel.decisions).unwrap_or(0);
        let versions: u32 =
            self.conn.query_row("SELECT COUNT(*) FROM versions WHERE player_id = ?1", [me], |r| r.get(0)).map_err(e)?;
        drop(key);
        tx.finish().map_err(e)?;
        Ok(Some(PlayerStats {
            game: game.to_string(),
            name: name.to_string(),
            versions,
            registered_at,
            tournaments: Tournaments { played, won },
            matches,
            games: record,
            faults,
            fuel,
            rating_system,
            rating,
            rating_history,
            head_to_head: h2h.into_iter().map(|(opponent, games)| HeadToHead { opponent, games }).collect(),
        }))
    }
}

impl Store {
    /// Player `me`'s record, fuel and head to head in `game`'s rated games (not those that ended in a
    /// game fault), read from its own games (in a game where it held several seats, from the first).
    fn own_games(&self, game: &str, me: i64) -> Result<(Record, Fuel, BTreeMap<String, Record>)> {
        let e = |x| self.sql(x);
        let mut q = self
            .conn
            .prepare(
                "SELECT gp.game_id, gp.seat, gp.result, gp.fuel, gp.calls, gp.place, o.place, po.name
                 FROM game_players gp INDEXED BY game_players_by_player_game
                 JOIN games g ON g.id = gp.game_id JOIN tournaments t ON t.id = g.tournament_id
                 LEFT JOIN game_players o ON o.game_id = gp.game_id AND o.player_id != gp.player_id
                 LEFT JOIN players po ON po.id = o.player_id
                 WHERE gp.player_id = ?1 AND t.game = ?2 AND t.rated = 1
                   AND gp.game_id NOT IN (SELECT f.id FROM games f INDEXED BY games_faulted WHERE f.game_fault IS NOT NULL)
                 ORDER BY gp.game_id, gp.seat, o.seat",
            )
            .map_err(e)?;
        let (mut record, mut fuel, mut h2h) = (Record::default(), Fuel::default(), BTreeMap::<String, Record>::new());
        let mut mine: Option<(i64, i64)> = None;
        let mut rows = q.query(params![me, game]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            let (id, seat): (i64, i64) = (r.get(0).map_err(e)?, r.get(1).map_err(e)?);
            if mine.is_none_or(|(g, _)| g != id) {
                mine = Some((id, seat));
                record.add(&r.get::<_, String>(2).map_err(e)?);
                fuel.total += r.get::<_, i64>(3).map_err(e)?.max(0) as u64;
                fuel.decisions += r.get::<_, i64>(4).map_err(e)?.max(0) as u64;
            }
            if mine != Some((id, seat)) {
                continue;
            }
            let (place, theirs, opponent): (u32, Option<u32>, Option<String>) =
                (r.get(5).map_err(e)?, r.get(6).map_err(e)?, r.get(7).map_err(e)?);
            let (Some(theirs), Some(opponent)) = (theirs, opponent) else { continue };
            let h = h2h.entry(opponent).or_default();
            match place.cmp(&theirs) {
                std::cmp::Ordering::Less => h.won += 1,
                std::cmp::Ordering::Greater => h.lost += 1,
                std::cmp::Ordering::Equal => h.tied += 1,
            }
        }
        Ok((record, fuel, h2h))
    }
}

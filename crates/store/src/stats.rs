//! What the store knows about players: records, faults, fuel, ratings (computed from the stored games
//! in their fixed order, so they never count a game twice and are the same however games finished),
//! and head-to-head results.

use super::{Result, Store};
use arena_tournament::MatchRecord;
use arena_tournament::ratings::{Rating, Ratings, System};
use rusqlite::params;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

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

struct SeatRow {
    player: i64,
    name: String,
    place: u32,
    result: String,
    fuel: i64,
    calls: i64,
}

struct GameRow {
    tournament: i64,
    key: String,
    seats: Vec<SeatRow>,
    /// A ban outside any game (its one seat is the banned player): rated as a loss, not a game.
    forfeit: bool,
    /// Phase within the tournament (0 start bans, 1 games, 2 end bans), then slot.
    order: (u8, i64),
}

/// Ratings after every stored game of a game, and each player's history.
struct Rated {
    ratings: Ratings,
    history: HashMap<i64, Vec<RatingPoint>>,
}

impl Store {
    /// Every stored game of `game` in rated tournaments (scrimmages are not) in rating order: tournament,
    /// round, match, game number; with the
    /// bans at a tournament's start before its games and those at its end after them.
    fn game_rows(&self, game: &str) -> Result<Vec<GameRow>> {
        let mut rows = self.played_rows(game)?;
        let mut q = self
            .conn
            .prepare(
                "SELECT l.tournament_id, l.call, l.slot, v.player_id, p.name FROM lifecycle l
                 JOIN tournaments t ON t.id = l.tournament_id
                 JOIN entrants e ON e.tournament_id = l.tournament_id AND e.slot = l.slot
                 JOIN versions v ON v.id = e.version_id JOIN players p ON p.id = v.player_id
                 WHERE t.game = ?1 AND t.rated = 1 AND l.fault IS NOT NULL ORDER BY l.tournament_id, l.slot",
            )
            .map_err(|e| self.sql(e))?;
        let bans: Vec<(i64, String, i64, i64, String)> = q
            .query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        for (tournament, call, slot, player, name) in bans {
            // Start bans go before the tournament's games, end bans after them.
            let phase = if call == arena_tournament::Lifecycle::End.as_str() { 2 } else { 0 };
            let seat = SeatRow { player, name, place: 0, result: "lost".into(), fuel: 0, calls: 0 };
            rows.push(GameRow { tournament, key: call, seats: vec![seat], forfeit: true, order: (phase, slot) });
        }
        // Stable: played games keep their order.
        rows.sort_by_key(|g| (g.tournament, g.order.0));
        Ok(rows)
    }

    /// (Games with a game fault are left out through their index: their column comes after the
    /// records and replays, which a test of it on every row would read.)
    fn played_rows(&self, game: &str) -> Result<Vec<GameRow>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT g.id, g.tournament_id, g.key, gp.player_id, p.name, gp.place, gp.result, gp.fuel, gp.calls
                 FROM games g JOIN tournaments t ON t.id = g.tournament_id
                 JOIN game_players gp ON gp.game_id = g.id JOIN players p ON p.id = gp.player_id
                 WHERE t.game = ?1 AND t.rated = 1
                   AND g.id NOT IN (SELECT f.id FROM games f INDEXED BY games_faulted WHERE f.game_fault IS NOT NULL)
                 ORDER BY g.tournament_id, g.round, g.match_no, g.number, gp.seat",
            )
            .map_err(|e| self.sql(e))?;
        let mut rows = q.query([game]).map_err(|e| self.sql(e))?;
        let mut out: Vec<GameRow> = vec![];
        let mut last = None;
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let read = || -> rusqlite::Result<(i64, i64, String, SeatRow)> {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    SeatRow {
                        player: r.get(3)?,
                        name: r.get(4)?,
                        place: r.get(5)?,
                        result: r.get(6)?,
                        fuel: r.get(7)?,
                        calls: r.get(8)?,
                    },
                ))
            };
            let (id, tournament, key, seat) = read().map_err(|e| self.sql(e))?;
            if last != Some(id) {
                out.push(GameRow { tournament, key, seats: vec![], forfeit: false, order: (1, 0) });
                last = Some(id);
            }
            if let Some(g) = out.last_mut() {
                g.seats.push(seat);
            }
        }
        Ok(out)
    }

    fn rate(&self, system: System, games: &[GameRow]) -> Rated {
        let mut ratings = Ratings::new(system);
        let mut history: HashMap<i64, Vec<RatingPoint>> = HashMap::new();
        for g in games {
            let players: Vec<i64> = g.seats.iter().map(|s| s.player).collect();
            let places: Vec<u32> = g.seats.iter().map(|s| s.place).collect();
            let after = if g.forfeit {
                players.iter().map(|&p| ratings.forfeit(p)).collect()
            } else {
                ratings.update(&players, &places)
            };
            for (p, r) in players.iter().zip(after) {
                history.entry(*p).or_default().push(RatingPoint {
                    tournament: g.tournament,
                    game: g.key.clone(),
                    rating: r,
                });
            }
        }
        Rated { ratings, history }
    }

    fn fault_counts(&self, game: &str) -> Result<HashMap<i64, u32>> {
        let mut q = self
            .conn
            .prepare(
                "SELECT f.player_id, COUNT(*) FROM faults f JOIN players p ON p.id = f.player_id
                 WHERE p.game = ?1 GROUP BY f.player_id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = q.query_map([game], |r| Ok((r.get(0)?, r.get(1)?))).and_then(Iterator::collect);
        rows.map_err(|e| self.sql(e))
    }

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

    /// Every player's rating in `game` after every stored rated game (by player id).
    pub fn ratings(&self, game: &str, system: System) -> Result<Ratings> {
        Ok(self.rate(system, &self.game_rows(game)?).ratings)
    }

    /// Every registered player of `game` with rating and record; by rating, best first, when `by_rating`,
    /// else in the order they registered.
    pub fn leaderboard(&self, game: &str, system: System, by_rating: bool) -> Result<Vec<Leader>> {
        let games = self.game_rows(game)?;
        let rated = self.rate(system, &games);
        let mut records: HashMap<i64, Record> = HashMap::new();
        for g in games.iter().filter(|g| !g.forfeit) {
            for s in &g.seats {
                records.entry(s.player).or_default().add(&s.result);
            }
        }
        let faults = self.fault_counts(game)?;
        let mut out: Vec<Leader> = self
            .players(Some(game))?
            .into_iter()
            .map(|p| Leader {
                rating: rated.ratings.get(p.latest.player_id),
                games: records.get(&p.latest.player_id).copied().unwrap_or_default(),
                faults: faults.get(&p.latest.player_id).copied().unwrap_or(0),
                name: p.latest.name,
                version: p.latest.version,
                submitted_at: p.latest.submitted_at,
            })
            .collect();
        if by_rating {
            out.sort_by(|a, b| b.rating.rating.total_cmp(&a.rating.rating).then_with(|| a.name.cmp(&b.name)));
        }
        Ok(out)
    }

    /// The statistics of player `name` of `game`, if it is registered.
    pub fn stats(&self, game: &str, name: &str, system: System) -> Result<Option<PlayerStats>> {
        let Some(latest) = self.latest_version(game, name)? else { return Ok(None) };
        let me = latest.player_id;
        let e = |x| self.sql(x);
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

        let games = self.game_rows(game)?;
        let mut record = Record::default();
        let mut fuel = Fuel::default();
        let mut h2h: BTreeMap<String, Record> = BTreeMap::new();
        for g in games.iter().filter(|g| !g.forfeit) {
            let Some(mine) = g.seats.iter().find(|s| s.player == me) else { continue };
            record.add(&mine.result);
            fuel.total += mine.fuel.max(0) as u64;
            fuel.decisions += mine.calls.max(0) as u64;
            for other in g.seats.iter().filter(|s| s.player != me) {
                let r = h2h.entry(other.name.clone()).or_default();
                match mine.place.cmp(&other.place) {
                    std::cmp::Ordering::Less => r.won += 1,
                    std::cmp::Ordering::Greater => r.lost += 1,
                    std::cmp::Ordering::Equal => r.tied += 1,
                }
            }
        }
        fuel.per_decision = fuel.total.checked_div(fuel.decisions).unwrap_or(0);
        let mut rated = self.rate(system, &games);
        let versions: u32 =
            self.conn.query_row("SELECT COUNT(*) FROM versions WHERE player_id = ?1", [me], |r| r.get(0)).map_err(e)?;
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
            rating_system: system.name(),
            rating: rated.ratings.get(me),
            rating_history: rated.history.remove(&me).unwrap_or_default(),
            head_to_head: h2h.into_iter().map(|(opponent, games)| HeadToHead { opponent, games }).collect(),
        }))
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

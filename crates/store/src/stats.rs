//! What the store knows about players: records, faults, fuel, ratings (computed from the stored games
//! in the rating order: a tournament's games in its own order when it finishes, so they never count a
//! game twice and are the same however its games finished; a ladder's as they are recorded; kept up
//! to date game by game in a [`Board`]), and head-to-head results.

use super::{Result, Store};
use arena_tournament::MatchRecord;
use arena_tournament::ratings::{Rating, Ratings, System};
use rusqlite::params;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};

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
    place: u32,
    result: String,
}

struct GameRow {
    tournament: i64,
    /// The game's id (none for a ban); its key is read only where it is shown.
    game_id: Option<i64>,
    key: String,
    seats: Vec<SeatRow>,
    /// A ban outside any game (its one seat is the banned player): rated as a loss, not a game.
    forfeit: bool,
}

impl SeatRow {
    /// A seat from the three columns from `at` on: player id, place, result.
    fn read(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SeatRow> {
        Ok(SeatRow { player: r.get(at)?, place: r.get(at + 1)?, result: r.get(at + 2)? })
    }

    /// The one seat of a ban outside any game: a loss.
    fn banned(player: i64) -> SeatRow {
        SeatRow { player, place: 0, result: "lost".into() }
    }
}

/// A game's ratings, records and fault counts as of the rating order's `seq`, brought up to date by
/// reading only what was added since (each game touches only its players): what keeps a leaderboard
/// of a million games answering at once. Games of tournaments still running are not in it; a
/// leaderboard adds them on top (they take their place when their tournament finishes).
pub struct Board {
    seq: i64,
    now: Standing,
    /// Each player's latest rating points (at most [`HISTORY`]).
    history: HashMap<i64, VecDeque<Point>>,
    fault_id: i64,
    faults: HashMap<i64, u32>,
}

/// A player's history keeps its latest this many rating points (the chart on its page).
pub const HISTORY: usize = 1000;

/// Every player's rating and record.
#[derive(Clone)]
struct Standing {
    ratings: Ratings,
    records: HashMap<i64, Record>,
}

/// A rating after one game, its key read when shown.
#[derive(Clone)]
struct Point {
    tournament: i64,
    game_id: Option<i64>,
    key: String,
    rating: Rating,
}

impl Standing {
    /// Rates `games` in order; `point` is given each seat's player and rating after each game.
    fn apply(&mut self, games: &[GameRow], mut point: impl FnMut(i64, &GameRow, Rating)) {
        for g in games {
            let players: Vec<i64> = g.seats.iter().map(|s| s.player).collect();
            if g.forfeit {
                for p in players {
                    let r = self.ratings.forfeit(p);
                    point(p, g, r);
                }
                continue;
            }
            let places: Vec<u32> = g.seats.iter().map(|s| s.place).collect();
            for (p, r) in players.iter().zip(self.ratings.update(&players, &places)) {
                point(*p, g, r);
            }
            for s in &g.seats {
                self.records.entry(s.player).or_default().add(&s.result);
            }
        }
    }
}

impl Point {
    fn of(g: &GameRow, rating: Rating) -> Point {
        Point { tournament: g.tournament, game_id: g.game_id, key: g.key.clone(), rating }
    }
}

impl Board {
    pub fn new(system: System) -> Board {
        Board {
            seq: 0,
            now: Standing { ratings: Ratings::new(system), records: HashMap::new() },
            history: HashMap::new(),
            fault_id: 0,
            faults: HashMap::new(),
        }
    }

    pub fn system(&self) -> System {
        self.now.ratings.system()
    }

    /// Its standing with `running` (tournaments still running) rated on top, on a copy when there are
    /// any; `point` is given each of their seats' players and ratings.
    fn with_running(&self, running: &[GameRow], point: impl FnMut(i64, &GameRow, Rating)) -> Cow<'_, Standing> {
        if running.is_empty() {
            return Cow::Borrowed(&self.now);
        }
        let mut now = self.now.clone();
        now.apply(running, point);
        Cow::Owned(now)
    }

    fn apply(&mut self, games: &[GameRow]) {
        let history = &mut self.history;
        self.now.apply(games, |p, g, r| {
            let h = history.entry(p).or_default();
            if h.len() == HISTORY {
                h.pop_front();
            }
            h.push_back(Point::of(g, r));
        });
    }
}

impl Store {
    /// The games and bans of `game` in the rating order after `seq`, in that order, and the last seq
    /// read (the games' keys are left empty: reading them reads the games' rows).
    fn ordered_rows(&self, game: &str, seq: i64) -> Result<(i64, Vec<GameRow>)> {
        let e = |x| self.sql(x);
        let mut q = self
            .conn
            .prepare(
                "SELECT r.seq, r.tournament_id, r.game_id, gp.player_id, gp.place, gp.result
                 FROM rating_order r JOIN tournaments t ON t.id = r.tournament_id
                 JOIN game_players gp ON gp.game_id = r.game_id
                 WHERE r.seq > ?2 AND t.game = ?1 ORDER BY r.seq, gp.seat",
            )
            .map_err(e)?;
        let mut rows: Vec<(i64, GameRow)> = vec![];
        let mut read = q.query(params![game, seq]).map_err(e)?;
        while let Some(r) = read.next().map_err(e)? {
            let (at, seat) = (r.get(0).map_err(e)?, SeatRow::read(r, 3).map_err(e)?);
            match rows.last_mut() {
                Some((s, g)) if *s == at => g.seats.push(seat),
                _ => {
                    let (tournament, game_id) = (r.get(1).map_err(e)?, Some(r.get(2).map_err(e)?));
                    let key = String::new();
                    rows.push((at, GameRow { tournament, game_id, key, seats: vec![seat], forfeit: false }))
                }
            }
        }
        let mut q = self
            .conn
            .prepare(
                "SELECT r.seq, r.tournament_id, r.call, v.player_id FROM rating_order r
                 JOIN tournaments t ON t.id = r.tournament_id
                 JOIN entrants en ON en.tournament_id = r.tournament_id AND en.slot = r.slot
                 JOIN versions v ON v.id = en.version_id
                 WHERE r.seq > ?2 AND r.game_id IS NULL AND t.game = ?1 ORDER BY r.seq",
            )
            .map_err(e)?;
        let bans: Vec<(i64, GameRow)> = q
            .query_map(params![game, seq], |r| {
                let seat = SeatRow::banned(r.get(3)?);
                let game =
                    GameRow { tournament: r.get(1)?, game_id: None, key: r.get(2)?, seats: vec![seat], forfeit: true };
                Ok((r.get(0)?, game))
            })
            .and_then(Iterator::collect)
            .map_err(e)?;
        rows.extend(bans);
        rows.sort_by_key(|(at, _)| *at);
        let last = rows.last().map_or(seq, |(at, _)| *at);
        Ok((last, rows.into_iter().map(|(_, g)| g).collect()))
    }

    /// The games and bans of `game`'s rated tournaments still running (or interrupted), which take
    /// their place in the rating order when they finish: by tournament, in each one's order.
    fn running_rows(&self, game: &str) -> Result<Vec<GameRow>> {
        let e = |x| self.sql(x);
        let mut q = self
            .conn
            .prepare(
                "SELECT x.tid, COALESCE(g.key, x.call), gp.player_id, gp.place, gp.result, v.player_id, x.gid, x.slot
                 FROM rateable x
                 LEFT JOIN games g ON g.id = x.gid
                 LEFT JOIN game_players gp ON gp.game_id = x.gid
                 LEFT JOIN entrants en ON x.gid IS NULL AND en.tournament_id = x.tid AND en.slot = x.slot
                 LEFT JOIN versions v ON v.id = en.version_id
                 WHERE x.game = ?1 AND x.status = 'running' AND x.format != 'ladder'
                 ORDER BY x.tid, x.phase, x.a, x.b, x.c, x.d, gp.seat",
            )
            .map_err(e)?;
        let mut out: Vec<GameRow> = vec![];
        // A game or ban: its tournament, and its game or slot.
        type Unit = (i64, Option<i64>, Option<i64>);
        let mut last: Option<Unit> = None;
        let mut read = q.query([game]).map_err(e)?;
        while let Some(r) = read.next().map_err(e)? {
            let row = || -> rusqlite::Result<(Unit, String, SeatRow, bool)> {
                let (tournament, gid, slot): (i64, Option<i64>, Option<i64>) = (r.get(0)?, r.get(6)?, r.get(7)?);
                let forfeit = gid.is_none();
                let seat = if forfeit { SeatRow::banned(r.get(5)?) } else { SeatRow::read(r, 2)? };
                Ok(((tournament, gid, slot), r.get(1)?, seat, forfeit))
            };
            let (id, key, seat, forfeit) = row().map_err(e)?;
            if last != Some(id) {
                out.push(GameRow { tournament: id.0, game_id: id.1, key, seats: vec![], forfeit });
                last = Some(id);
            }
            if let Some(g) = out.last_mut() {
                g.seats.push(seat);
            }
        }
        Ok(out)
    }

    /// Brings `board` up to date with what the rating order and the faults of `game` gained since.
    fn catch_up(&self, game: &str, board: &mut Board) -> Result<()> {
        let (seq, rows) = self.ordered_rows(game, board.seq)?;
        board.apply(&rows);
        board.seq = seq;
        let mut q = self
            .conn
            .prepare(
                "SELECT f.player_id, COUNT(*), MAX(f.id) FROM faults f JOIN players p ON p.id = f.player_id
                 WHERE f.id > ?2 AND p.game = ?1 GROUP BY f.player_id",
            )
            .map_err(|e| self.sql(e))?;
        let counts: Vec<(i64, u32, i64)> = q
            .query_map(params![game, board.fault_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        for (player, n, last) in counts {
            *board.faults.entry(player).or_default() += n;
            board.fault_id = board.fault_id.max(last);
        }
        Ok(())
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
            })
            .collect();
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

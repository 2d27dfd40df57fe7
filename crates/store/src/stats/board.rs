//! A game's ratings, records and fault counts kept up to date game by game ([`Board`]), read from the
//! games and bans in the rating order.

use super::super::{Result, Store};
use super::Record;
use arena_tournament::ratings::{Rating, Ratings, System};
use rusqlite::params;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

pub(super) struct SeatRow {
    pub(super) player: i64,
    pub(super) place: u32,
    pub(super) result: String,
}

pub(super) struct GameRow {
    pub(super) tournament: i64,
    /// The game's id (none for a ban); its key is read only where it is shown.
    pub(super) game_id: Option<i64>,
    pub(super) key: String,
    pub(super) seats: Vec<SeatRow>,
    /// A ban outside any game (its one seat is the banned player): rated as a loss, not a game.
    pub(super) forfeit: bool,
}

impl SeatRow {
    /// A seat from the three columns from `at` on: player id, place, result.
    pub(super) fn read(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SeatRow> {
        Ok(SeatRow { player: r.get(at)?, place: r.get(at + 1)?, result: r.get(at + 2)? })
    }

    /// The one seat of a ban outside any game: a loss.
    pub(super) fn banned(player: i64) -> SeatRow {
        SeatRow { player, place: 0, result: "lost".into() }
    }
}

/// A game's ratings, records and fault counts as of the rating order's `seq`, brought up to date by
/// reading only what was added since (each game touches only its players): what keeps a leaderboard
/// of a million games answering at once. Games of tournaments still running are not in it; a
/// leaderboard adds them on top (they take their place when their tournament finishes).
pub struct Board {
    pub(super) seq: i64,
    pub(super) now: Standing,
    /// Each player's latest rating points (at most [`HISTORY`]).
    pub(super) history: HashMap<i64, VecDeque<Point>>,
    pub(super) fault_id: i64,
    pub(super) faults: HashMap<i64, u32>,
}

/// A player's history keeps its latest this many rating points (the chart on its page).
pub const HISTORY: usize = 1000;

/// Every player's rating and record.
#[derive(Clone)]
pub(super) struct Standing {
    pub(super) ratings: Ratings,
    pub(super) records: HashMap<i64, Record>,
}

/// A rating after one game, its key read when shown.
#[derive(Clone)]
pub(super) struct Point {
    pub(super) tournament: i64,
    pub(super) game_id: Option<i64>,
    pub(super) key: String,
    pub(super) rating: Rating,
}

impl Standing {
    /// Rates `games` in order; `point` is given each seat's player and rating after each game.
    pub(super) fn apply(&mut self, games: &[GameRow], mut point: impl FnMut(i64, &GameRow, Rating)) {
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
    pub(super) fn of(g: &GameRow, rating: Rating) -> Point {
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
    pub(super) fn with_running(
        &self,
        running: &[GameRow],
        point: impl FnMut(i64, &GameRow, Rating),
    ) -> Cow<'_, Standing> {
        if running.is_empty() {
            return Cow::Borrowed(&self.now);
        }
        let mut now = self.now.clone();
        now.apply(running, point);
        Cow::Owned(now)
    }

    pub(super) fn apply(&mut self, games: &[GameRow]) {
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
    pub(super) fn ordered_rows(&self, game: &str, seq: i64) -> Result<(i64, Vec<GameRow>)> {
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
    pub(super) fn running_rows(&self, game: &str) -> Result<Vec<GameRow>> {
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
    pub(super) fn catch_up(&self, game: &str, board: &mut Board) -> Result<()> {
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
}

//! Stored tournaments: created with their settings and entrants (the exact versions that play), run
//! under a lock file that tells a running tournament from an interrupted one, finished with their
//! result; and the games they recorded, for replays.

use super::{Result, Store, StoreError, Version};
use arena_core::Limits;
use arena_tournament::{Format, GameRecord, TournamentResult};
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::fs::File;

/// What a stored tournament needs besides its players to be run again: limits and game options.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredSettings {
    pub limits: Limits,
    /// The game's options, as its package declares them.
    #[serde(default)]
    pub options: serde_json::Value,
    /// sha256 of the game package's referee the tournament is played with (resume and replay insist
    /// on the same one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<String>,
    /// The game this tournament forks (a fork is a tournament of one game, never rated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<ForkOf>,
}

/// What a fork forks: a stored game (tournament and key), played again from `step` with seat `seat`
/// played by another version of its player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkOf {
    pub tournament: i64,
    pub game: String,
    pub step: u32,
    pub seat: usize,
}

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A process is running it now.
    Running,
    /// Its process stopped before the end (Ctrl-C, kill, power loss): `arena resume` finishes it.
    Interrupted,
    Finished,
    /// A ladder between runs (it has no end: `arena ladder` goes on with it).
    Stopped,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Interrupted => "interrupted",
            Status::Finished => "finished",
            Status::Stopped => "stopped",
        }
    }
}

/// What a stored tournament is: one of the formats ([`Format`]), played to an end, or a ladder, rated
/// games without end (`arena ladder`). Stored, and shown in JSON as its `format`, by name: to a
/// user a ladder is one more format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(into = "&'static str")]
pub enum Kind {
    Tournament(Format),
    Ladder,
}

impl Kind {
    /// Its name in the store and in JSON: a format's (`knockout`, `round-robin`, `rounds`) or `ladder`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Tournament(f) => f.as_str(),
            Kind::Ladder => "ladder",
        }
    }

    /// The kind of this name.
    pub fn parse(name: &str) -> Option<Kind> {
        if name == "ladder" {
            return Some(Kind::Ladder);
        }
        serde_json::from_value(serde_json::Value::String(name.to_string())).ok().map(Kind::Tournament)
    }

    /// The tournament's format; none for a ladder.
    pub fn format(self) -> Option<Format> {
        match self {
            Kind::Tournament(f) => Some(f),
            Kind::Ladder => None,
        }
    }
}

impl From<Format> for Kind {
    fn from(f: Format) -> Kind {
        Kind::Tournament(f)
    }
}

impl From<Kind> for &'static str {
    fn from(k: Kind) -> &'static str {
        k.as_str()
    }
}

/// A tournament as the store lists it.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentRow {
    pub id: i64,
    pub game: String,
    /// A format's tournament or a ladder (`format` in JSON, where a ladder is one more format).
    #[serde(rename = "format")]
    pub kind: Kind,
    pub games_per_match: u32,
    pub seed: u64,
    pub status: Status,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub winner: Option<String>,
    pub players: u32,
    /// Games recorded so far.
    pub games: u32,
    /// Whether its games count for ratings (a scrimmage's do not).
    pub rated: bool,
    /// The account that started it from the web arena.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_by: Option<String>,
    #[serde(skip)]
    pub settings: StoredSettings,
}

/// A tournaments row as read: id, game, format, k, seed, status, started, finished, winner, settings,
/// entrants, games.
type RawRow = (
    i64,
    String,
    String,
    u32,
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
    String,
    u32,
    u32,
    (bool, Option<String>),
);

/// Held while a process runs a tournament; the operating system lets go of it when the process dies,
/// however it dies.
pub struct TournamentLock {
    _file: File,
}

impl Store {
    /// Records a new tournament and its entrants (slot order), status running.
    pub fn create_tournament(
        &mut self,
        game: &str,
        (format, games_per_match, seed): (impl Into<Kind>, u32, u64),
        settings: &StoredSettings,
        entrants: &[Version],
    ) -> Result<i64> {
        self.create_tournament_as(game, (format.into(), games_per_match, seed), settings, entrants, (true, None))
    }

    /// [`Store::create_tournament`], rated or not (a scrimmage is played and shown, never rated), started
    /// by an account or from the command line.
    pub fn create_tournament_as(
        &mut self,
        game: &str,
        (format, games_per_match, seed): (impl Into<Kind>, u32, u64),
        settings: &StoredSettings,
        entrants: &[Version],
        (rated, by): (bool, Option<&super::User>),
    ) -> Result<i64> {
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let settings = serde_json::to_string(settings).map_err(|x| StoreError::Invalid(x.to_string()))?;
        let tx = self.conn.transaction().map_err(e)?;
        let what = (format.into(), games_per_match, seed);
        let id = insert_tournament(&tx, game, what, &settings, entrants, (rated, by)).map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(id)
    }

    /// Takes the lock of tournament `id`, or says which process is running it.
    pub fn lock(&self, id: i64) -> Result<TournamentLock> {
        let path = self.lock_path(id);
        let io = |source| StoreError::Io { path: path.clone(), error: source };
        let file = File::options().create(true).truncate(false).write(true).open(&path).map_err(io)?;
        match file.try_lock() {
            Ok(()) => Ok(TournamentLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Invalid(format!(
                "tournament {id} is being run by another arena process right now ({} is locked)",
                path.display()
            ))),
            Err(std::fs::TryLockError::Error(source)) => Err(io(source)),
        }
    }

    fn lock_path(&self, id: i64) -> std::path::PathBuf {
        self.layout().locks().join(format!("tournament-{id}.lock"))
    }

    /// Whether some process holds the lock of tournament `id`.
    fn is_locked(&self, id: i64) -> bool {
        match File::options().write(true).open(self.lock_path(id)) {
            Ok(f) => matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)),
            Err(_) => false,
        }
    }

    /// Marks tournament `id` finished with its result; a rated tournament's games and bans take their
    /// place in the rating order now, in its own order (so its ratings are the same however its games
    /// finished).
    pub fn finish_tournament(&mut self, id: i64, result: &TournamentResult) -> Result<()> {
        let json = serde_json::to_string(result).map_err(|x| StoreError::Invalid(x.to_string()))?;
        let db = self.db.clone();
        let e = |source| super::sql_error(db.clone(), source);
        let tx = self.conn.transaction().map_err(e)?;
        tx.execute(
            "UPDATE tournaments SET status = 'finished', winner = ?2, result = ?3,
             finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
            params![id, result.winner, json],
        )
        .map_err(e)?;
        tx.execute(
            "INSERT INTO rating_order (tournament_id, game_id, slot, call)
             SELECT tid, gid, slot, call FROM rateable
              WHERE tid = ?1 AND format != 'ladder'
                AND NOT EXISTS (SELECT 1 FROM rating_order WHERE tournament_id = ?1)
              ORDER BY phase, a, b, c, d",
            [id],
        )
        .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(())
    }

    /// Every tournament, oldest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentRow>> {
        self.tournament_rows(None, None)
    }

    /// What names tournament `id` of this store among every store's runs, the same each time it is
    /// resumed (games played elsewhere are found again by it): the store's place, the id and when the
    /// tournament started.
    pub fn run_name(&self, id: i64) -> Result<String> {
        let started: String = self
            .conn
            .query_row("SELECT started_at FROM tournaments WHERE id = ?1", [id], |r| r.get(0))
            .map_err(|e| self.sql(e))?;
        let dir = self.dir.canonicalize().unwrap_or_else(|_| self.dir.clone());
        Ok(format!("{}\n{id}\n{started}", dir.display()))
    }

    pub fn tournament(&self, id: i64) -> Result<Option<TournamentRow>> {
        Ok(self.tournament_rows(Some(id), None)?.pop())
    }

    /// Up to `limit` tournaments, newest first, after the one whose id is `after`.
    pub fn tournaments_page(&self, after: Option<i64>, limit: usize) -> Result<Vec<TournamentRow>> {
        self.tournament_rows(None, Some((after.unwrap_or(i64::MAX), limit.min(super::MAX_PAGE))))
    }

    /// One tournament, a page of them newest first (before an id, how many), or all oldest first.
    fn tournament_rows(&self, id: Option<i64>, page: Option<(i64, usize)>) -> Result<Vec<TournamentRow>> {
        let (before, limit, order) = match page {
            Some((before, limit)) => (before, limit as i64, "DESC"),
            None => (i64::MAX, -1, "ASC"),
        };
        let mut q = self
            .conn
            .prepare_cached(&format!(
                "SELECT t.id, t.game, t.format, t.games_per_match, t.seed, t.status, t.started_at, t.finished_at,
                        t.winner, t.settings,
                        (SELECT COUNT(*) FROM entrants WHERE tournament_id = t.id),
                        (SELECT COUNT(*) FROM games WHERE tournament_id = t.id),
                        t.rated, (SELECT name FROM users WHERE id = t.started_by)
                 FROM tournaments t WHERE (?1 IS NULL OR t.id = ?1) AND t.id < ?2 ORDER BY t.id {order} LIMIT ?3",
            ))
            .map_err(|e| self.sql(e))?;
        let raw: Vec<RawRow> = q
            .query_map(params![id, before, limit], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                    r.get(11)?,
                    (r.get::<_, i64>(12)? != 0, r.get(13)?),
                ))
            })
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        raw.into_iter()
            .map(
                |(
                    id,
                    game,
                    format,
                    k,
                    seed,
                    status,
                    started_at,
                    finished_at,
                    winner,
                    settings,
                    players,
                    games,
                    who,
                )| {
                    let bad =
                        |what: &str| StoreError::Invalid(format!("{}: tournament {id}: {what}", self.db.display()));
                    let format = Kind::parse(&format).ok_or_else(|| bad("unknown format"))?;
                    let settings: StoredSettings =
                        serde_json::from_str(&settings).map_err(|x| bad(&format!("unreadable settings: {x}")))?;
                    let status = match status.as_str() {
                        "finished" => Status::Finished,
                        _ if self.is_locked(id) => Status::Running,
                        _ if format == Kind::Ladder => Status::Stopped,
                        _ => Status::Interrupted,
                    };
                    Ok(TournamentRow {
                        id,
                        game,
                        kind: format,
                        games_per_match: k,
                        seed: seed as u64,
                        status,
                        started_at,
                        finished_at,
                        winner,
                        players,
                        games,
                        rated: who.0,
                        started_by: who.1,
                        settings,
                    })
                },
            )
            .collect()
    }

    /// The versions that play in tournament `id`, in slot order.
    pub fn entrants(&self, id: i64) -> Result<Vec<Version>> {
        let mut q = self
            .conn
            .prepare("SELECT version_id FROM entrants WHERE tournament_id = ?1 ORDER BY slot")
            .map_err(|e| self.sql(e))?;
        let ids: Vec<i64> = q.query_map([id], |r| r.get(0)).and_then(Iterator::collect).map_err(|e| self.sql(e))?;
        ids.into_iter().map(|v| self.version(v)).collect()
    }

    /// The stored result of a finished tournament.
    pub fn result(&self, id: i64) -> Result<Option<TournamentResult>> {
        let json: Option<Option<String>> = self
            .conn
            .query_row("SELECT result FROM tournaments WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .map_err(|e| self.sql(e))?;
        match json.flatten() {
            None => Ok(None),
            Some(j) => {
                let mut r: TournamentResult = serde_json::from_str(&j).map_err(|x| {
                    StoreError::Invalid(format!("{}: tournament {id}: unreadable result: {x}", self.db.display()))
                })?;
                // A result stored before a faulted game counted for nobody names no winner of it now
                // (the games' own records were corrected by migration 9).
                for g in &mut r.games {
                    g.void_if_faulted();
                }
                Ok(Some(r))
            }
        }
    }

    /// A recorded game with its replay (calls, final board, logs), by tournament and game id.
    pub fn game(&self, tournament: i64, key: &str) -> Result<Option<GameRecord>> {
        let row: Option<(String, String)> = self
            .conn
            .query_row(
                "SELECT record, replay FROM games WHERE tournament_id = ?1 AND key = ?2",
                params![tournament, key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        row.map(|(record, replay)| super::journal::restore(&record, &replay))
            .transpose()
            .map_err(|x| StoreError::Invalid(format!("{}: game {tournament}/{key}: {x}", self.db.display())))
    }
}

/// Inserts a tournament (status running) and its entrants in `tx`; its id.
pub(super) fn insert_tournament(
    tx: &rusqlite::Transaction<'_>,
    game: &str,
    (format, games_per_match, seed): (Kind, u32, u64),
    settings: &str,
    entrants: &[Version],
    (rated, by): (bool, Option<&super::User>),
) -> rusqlite::Result<i64> {
    tx.execute(
        "INSERT INTO tournaments (game, format, games_per_match, seed, settings, status, rated, started_by)
         VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7)",
        params![game, format.as_str(), games_per_match, seed as i64, settings, rated as i64, by.map(|u| u.id)],
    )?;
    let id = tx.last_insert_rowid();
    for (slot, v) in entrants.iter().enumerate() {
        tx.execute(
            "INSERT INTO entrants (tournament_id, slot, version_id, name) VALUES (?1, ?2, ?3, ?4)",
            params![id, slot as i64, v.id, v.name],
        )?;
    }
    Ok(id)
}

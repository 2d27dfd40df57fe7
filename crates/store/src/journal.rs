//! The store as a tournament's journal: every finished game, match and lifecycle call is written as it
//! happens by one writer thread (batched, one transaction per batch, so a game is either wholly stored
//! or not at all), and a resumed tournament is given back everything its earlier runs recorded.

use super::{Result, Store, StoreError, Version};
use arena_core::Fault;
use arena_tournament::{GameRecord, Journal, Lifecycle, MatchRecord};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// What a game's `replay` column holds besides the record itself.
#[derive(Serialize, Deserialize)]
struct Replay {
    calls: Vec<arena_core::CallLine>,
    board: String,
    logs: Vec<String>,
    /// The match the game was played in (a replay tells the referee again).
    #[serde(default)]
    so_far: arena_core::MatchSoFar,
    /// What the referee emitted, with its audience.
    #[serde(default)]
    events: Vec<arena_core::Event>,
    /// The referee's drawing of the final position, if the record has one (a tournament's games have
    /// none since their replays draw every step: see `arena_core::Finals`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    svg: Option<String>,
    /// The last lines each seat that faulted printed (its owner's, as its log is).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    last_words: Vec<String>,
}

/// A game record from its two stored columns.
pub(super) fn restore(record: &str, replay: &str) -> std::result::Result<GameRecord, serde_json::Error> {
    let mut g: GameRecord = serde_json::from_str(record)?;
    let r: Replay = serde_json::from_str(replay)?;
    g.replay = r.calls;
    g.board = r.board;
    g.logs = r.logs;
    g.so_far = r.so_far;
    g.events = r.events;
    g.svg = r.svg;
    g.last_words = r.last_words;
    Ok(g)
}

enum Write {
    /// A ladder's new entrant, in the next slot.
    Enter(Version, usize),
    Game(Box<GameRecord>),
    Lifecycle(Lifecycle, usize, Option<Fault>),
    Match(Box<MatchRecord>),
}

/// A tournament's journal in the store.
pub struct StoreJournal {
    done: Mutex<HashMap<String, GameRecord>>,
    /// How many games earlier runs recorded.
    restored: usize,
    calls: HashMap<(Lifecycle, usize), Option<Fault>>,
    tx: Mutex<Option<Sender<Write>>>,
    writer: Mutex<Option<std::thread::JoinHandle<std::result::Result<u64, String>>>>,
}

/// Who plays in a tournament, as the writer needs to know them.
struct Entrants {
    tournament: i64,
    /// By name: (player id, version id).
    by_name: HashMap<String, (i64, i64)>,
    ids: Vec<(i64, i64)>,
    /// A rated ladder: each game takes its place in the rating order as it is recorded (a tournament's
    /// take theirs when it finishes).
    rated_each: bool,
}

impl Store {
    /// The journal of tournament `id`, holding what earlier runs recorded; `entrants` in slot order.
    pub fn journal(&self, id: i64, entrants: &[Version]) -> Result<Arc<StoreJournal>> {
        self.journal_of(id, entrants, true)
    }

    /// A ladder's journal: it writes, and gives nothing back (a ladder goes on with new games; its
    /// hundreds of thousands of earlier ones stay in the store).
    pub fn ladder_journal(&self, id: i64, entrants: &[Version]) -> Result<Arc<StoreJournal>> {
        self.journal_of(id, entrants, false)
    }

    fn journal_of(&self, id: i64, entrants: &[Version], give_back: bool) -> Result<Arc<StoreJournal>> {
        let mut done = HashMap::new();
        let mut q = self
            .conn
            .prepare("SELECT key, record, replay FROM games WHERE tournament_id = ?1 AND ?2")
            .map_err(|e| self.sql(e))?;
        let rows: Vec<(String, String, String)> = q
            .query_map(params![id, give_back], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        for (key, record, replay) in rows {
            let g = restore(&record, &replay).map_err(|x| {
                StoreError::Invalid(format!("{}: game {id}/{key} cannot be read back: {x}", self.db.display()))
            })?;
            done.insert(key, g);
        }
        let mut calls = HashMap::new();
        let mut q = self
            .conn
            .prepare("SELECT call, slot, fault FROM lifecycle WHERE tournament_id = ?1")
            .map_err(|e| self.sql(e))?;
        let rows: Vec<(String, i64, Option<String>)> = q
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(Iterator::collect)
            .map_err(|e| self.sql(e))?;
        for (call, slot, fault) in rows {
            let call = if call == Lifecycle::Start.as_str() { Lifecycle::Start } else { Lifecycle::End };
            let fault = fault.map(|f| serde_json::from_str::<Fault>(&f)).transpose().map_err(|x| {
                StoreError::Invalid(format!("{}: tournament {id}: unreadable fault: {x}", self.db.display()))
            })?;
            calls.insert((call, slot as usize), fault);
        }
        let rated_each: bool = self
            .conn
            .query_row("SELECT format = 'ladder' AND rated = 1 FROM tournaments WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .map_err(|e| self.sql(e))?
            .unwrap_or(false);
        let who = Entrants {
            rated_each,
            tournament: id,
            by_name: entrants.iter().map(|v| (v.name.clone(), (v.player_id, v.id))).collect(),
            ids: entrants.iter().map(|v| (v.player_id, v.id)).collect(),
        };
        let conn = super::connect(&self.db)?;
        let (tx, rx) = channel();
        let db = self.db.clone();
        let writer = std::thread::Builder::new()
            .name(format!("store-writer-{id}"))
            .spawn(move || write_all(conn, db, who, rx))
            .map_err(|source| StoreError::Io { path: self.db.clone(), error: source })?;
        let restored = done.len();
        Ok(Arc::new(StoreJournal {
            done: Mutex::new(done),
            restored,
            calls,
            tx: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
        }))
    }
}

impl StoreJournal {
    /// Games recorded by earlier runs.
    pub fn restored(&self) -> usize {
        self.restored
    }

    fn send(&self, w: Write) {
        if let Some(tx) = self.tx.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            // The writer only stops early after an error, which `finish` reports.
            let _ = tx.send(w);
        }
    }

    /// A ladder's new entrant `v`, playing from now on under its name, in `slot` (the next one).
    pub fn enter(&self, v: &Version, slot: usize) {
        self.send(Write::Enter(v.clone(), slot));
    }

    /// Waits until everything sent is written; the number of games written, or why writing stopped.
    pub fn finish(&self) -> std::result::Result<u64, String> {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
        match self.writer.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(h) => h.join().unwrap_or_else(|_| Err("the store writer stopped unexpectedly".into())),
            None => Ok(0),
        }
    }
}

impl Journal for StoreJournal {
    fn played(&self, id: &str) -> Option<GameRecord> {
        // Asked once a game: given back and let go of.
        self.done.lock().unwrap_or_else(|e| e.into_inner()).remove(id)
    }

    fn game(&self, record: &GameRecord) {
        self.send(Write::Game(Box::new(record.clone())));
    }

    fn lifecycle(&self, call: Lifecycle, slot: usize) -> Option<Option<Fault>> {
        self.calls.get(&(call, slot)).cloned()
    }

    fn record_lifecycle(&self, call: Lifecycle, slot: usize, fault: Option<&Fault>) {
        self.send(Write::Lifecycle(call, slot, fault.cloned()));
    }

    fn matched(&self, record: &MatchRecord) {
        self.send(Write::Match(Box::new(record.clone())));
    }
}

/// The writer thread: takes whatever is queued, writes it in one transaction, repeats until the
/// journal is finished. After an error it writes nothing more (the tournament can be resumed).
fn write_all(
    mut conn: Connection,
    db: PathBuf,
    mut who: Entrants,
    rx: Receiver<Write>,
) -> std::result::Result<u64, String> {
    let mut games = 0u64;
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let written = (|| -> rusqlite::Result<u64> {
            let tx = conn.transaction()?;
            let mut n = 0;
            for w in &batch {
                n += write_one(&tx, &mut who, w)?;
            }
            tx.commit()?;
            Ok(n)
        })();
        match written {
            Ok(n) => games += n,
            Err(e) => return Err(format!("cannot record results: {}", super::sql_error(db, e))),
        }
    }
    Ok(games)
}

fn write_one(tx: &rusqlite::Transaction<'_>, who: &mut Entrants, w: &Write) -> rusqlite::Result<u64> {
    let t = who.tournament;
    match w {
        Write::Enter(v, slot) => {
            tx.execute(
                "INSERT OR REPLACE INTO entrants (tournament_id, slot, version_id, name) VALUES (?1, ?2, ?3, ?4)",
                params![t, *slot as i64, v.id, v.name],
            )?;
            who.by_name.insert(v.name.clone(), (v.player_id, v.id));
            if who.ids.len() <= *slot {
                who.ids.resize(*slot + 1, (0, 0));
            }
            who.ids[*slot] = (v.player_id, v.id);
            Ok(0)
        }
        Write::Game(g) => {
            let replay = Replay {
                calls: g.replay.clone(),
                board: g.board.clone(),
                logs: g.logs.clone(),
                so_far: g.so_far.clone(),
                events: g.events.clone(),
                svg: g.svg.clone(),
                last_words: g.last_words.clone(),
            };
            tx.execute(
                "INSERT INTO games (tournament_id, key, round, match_no, number, seed, record, replay, game_fault)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    t,
                    g.id,
                    g.round,
                    g.match_no,
                    g.number,
                    g.seed as i64,
                    json(&**g),
                    json(&replay),
                    g.game_fault.as_ref().map(json)
                ],
            )?;
            let game_id = tx.last_insert_rowid();
            if who.rated_each && g.game_fault.is_none() {
                tx.execute("INSERT INTO rating_order (tournament_id, game_id) VALUES (?1, ?2)", params![t, game_id])?;
            }
            let (faulted, winners, places) = (g.faulted(), g.winning_seats(), g.places());
            for (seat, name) in g.players.iter().enumerate() {
                let Some(&(player, version)) = who.by_name.get(name) else { continue };
                let result = if !winners.contains(&seat) {
                    "lost"
                } else if winners.len() == 1 {
                    "won"
                } else {
                    "tied"
                };
                tx.execute(
                    "INSERT INTO game_players (game_id, seat, player_id, version_id, score, place, result, fuel,
                     calls, faulted) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    params![
                        game_id,
                        seat as i64,
                        player,
                        version,
                        g.scores.get(seat).copied().unwrap_or(0),
                        places[seat],
                        result,
                        g.fuel.get(seat).copied().unwrap_or(0) as i64,
                        g.calls.get(seat).copied().unwrap_or(0),
                        faulted[seat],
                    ],
                )?;
            }
            for b in g.bans() {
                if let Some(&(player, _)) = who.by_name.get(&b.player) {
                    let step = g.seat_of(&b.player).and_then(|s| g.fault_line(s)).map(|c| c.turn);
                    tx.execute(
                        "INSERT INTO faults (tournament_id, player_id, game_id, kind, call, reason, last_words, step)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                        params![t, player, game_id, b.kind.as_str(), b.call, b.reason, b.output, step],
                    )?;
                }
            }
            Ok(1)
        }
        Write::Lifecycle(call, slot, fault) => {
            tx.execute(
                "INSERT OR REPLACE INTO lifecycle (tournament_id, call, slot, fault) VALUES (?1, ?2, ?3, ?4)",
                params![t, call.as_str(), *slot as i64, fault.as_ref().map(json)],
            )?;
            if let (Some(f), Some(&(player, _))) = (fault, who.ids.get(*slot)) {
                tx.execute(
                    "INSERT INTO faults (tournament_id, player_id, game_id, kind, call, reason)
                     VALUES (?1, ?2, NULL, ?3, ?4, ?5)",
                    params![t, player, f.kind.as_str(), f.call, f.reason],
                )?;
            }
            Ok(0)
        }
        Write::Match(m) => {
            tx.execute(
                "INSERT OR REPLACE INTO matches (tournament_id, round, match_no, record) VALUES (?1, ?2, ?3, ?4)",
                params![t, m.round, m.match_no, json(&**m)],
            )?;
            Ok(0)
        }
    }
}

/// A value as stored JSON (serializing these types cannot fail: no maps with non-string keys).
fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

//! What every format shares: telling players the tournament starts and ends (a failure there is a ban
//! like any other), playing one game under the in-flight limit, and awaiting spawned work in order.

use super::{Ban, GameRecord, Journal, Lifecycle, Observer, PlayerInfo, Progress, Settings, TournamentResult};
use arena_core::seed::derive;
use arena_core::{Entry, Finals, Game, GameSetup, MatchSoFar, TournamentInfo};
use arena_core::{Fault, PlayerFault};
use std::sync::Arc;
use tokio::sync::Semaphore;

pub use arena_core::GAMES_IN_FLIGHT;

/// What playing a game needs, cheap to clone into tasks.
pub struct Table<G: Game> {
    pub game: Arc<G>,
    pub entries: Arc<Vec<Arc<Entry<G::Player>>>>,
    pub names: Arc<Vec<String>>,
    /// Games under way at once (the game's [`Game::games_in_flight`]).
    pub permits: Arc<Semaphore>,
    pub seed: u64,
    pub progress: Option<Observer>,
    pub journal: Option<Arc<dyn Journal>>,
    /// What each game keeps besides its result: the course and the board when a journal or an
    /// observer reads them ([`Settings::course`]), else nothing.
    pub finals: Finals,
}

impl<G: Game> Clone for Table<G> {
    fn clone(&self) -> Self {
        Table {
            game: self.game.clone(),
            entries: self.entries.clone(),
            names: self.names.clone(),
            permits: self.permits.clone(),
            seed: self.seed,
            progress: self.progress.clone(),
            journal: self.journal.clone(),
            finals: self.finals,
        }
    }
}

impl<G: Game> Table<G> {
    /// Plays one game of `seated` (entry indices, seat order), under the in-flight limit, and reports it.
    pub async fn play(&self, seated: &[usize], (round, m, number): (u32, u32, u32), so_far: MatchSoFar) -> GameRecord {
        let players: Vec<_> = seated.iter().map(|&i| self.entries[i].clone()).collect();
        let names: Vec<String> = seated.iter().map(|&i| self.names[i].clone()).collect();
        let id = game_id(round, m, number);
        if let Some(mut record) = self.journal.as_ref().and_then(|j| j.played(&id)) {
            // Played before an interruption: taken as it was, not played again.
            if let Some(p) = &self.progress {
                p(Progress::Game(&record));
            }
            record.lighten();
            return record;
        }
        let seed = derive(self.seed, &[u64::from(round), u64::from(m), u64::from(number)]);
        let outcome = {
            let _permit = self.permits.acquire().await;
            self.game.play(GameSetup { id: id.clone(), seed, players, so_far, finals: self.finals }).await
        };
        let mut record = GameRecord::new(id, (round, m, number), names, seed, outcome);
        if let Some(j) = &self.journal {
            j.game(&record);
        }
        if let Some(p) = &self.progress {
            p(Progress::Game(&record));
        }
        // Replays are written by the observers above, as games finish; the result keeps the rest.
        record.lighten();
        record
    }

    /// Game `number` of a two-player series between `pair` (slot order; slot 0 starts the odd games),
    /// told the series so far (`rec`'s wins and ties, the `earlier` scores in slot order).
    pub async fn series_game(
        &self,
        pair: [usize; 2],
        (round, m, number): (u32, u32, u32),
        rec: &super::MatchRecord,
        earlier: &[[i64; 2]],
        (k, match_no, matches): (u32, u32, u32),
    ) -> SeriesGame {
        // Its number within the series (a knockout match played again numbers its games on, and
        // starts its series over).
        let nth = earlier.len() as u32 + 1;
        let order = if nth % 2 == 1 { [0, 1] } else { [1, 0] };
        let seated = order.map(|j| pair[j]);
        let so_far = MatchSoFar {
            game: nth,
            games_in_match: k,
            wins: order.iter().map(|&j| rec.wins[j]).collect(),
            ties: rec.ties,
            earlier: earlier.iter().map(|e| order.iter().map(|&j| e[j]).collect()).collect(),
            match_no,
            matches,
        };
        let record = self.play(&seated, (round, m, number), so_far).await;
        // A game that faulted counts for nobody: no score towards the match, no win (its players'
        // own faults in it still stand: each was judged on its own answer).
        let counts = record.counts();
        let mut score = [0i64; 2];
        if counts {
            for (seat, &j) in order.iter().enumerate() {
                score[j] = record.scores.get(seat).copied().unwrap_or(0);
            }
        }
        let failed = pair.map(|i| record.faults.iter().any(|f| f.player == self.names[i]));
        let won = pair.map(|i| counts && record.winners.contains(&self.names[i]));
        SeriesGame { record, score, failed, won, counts }
    }

    pub fn report(&self, p: Progress<'_>) {
        if let (Progress::Match(m), Some(j)) = (&p, &self.journal) {
            j.matched(m);
        }
        if let Some(o) = &self.progress {
            o(p);
        }
    }
}

/// One game of a series, in slot order.
pub struct SeriesGame {
    pub record: GameRecord,
    pub score: [i64; 2],
    pub failed: [bool; 2],
    pub won: [bool; 2],
    /// The game has a result (it did not end in a game fault).
    pub counts: bool,
}

/// The players of one tournament and what is known about their standing.
pub struct Roster<G: Game> {
    pub table: Table<G>,
    pub names: Vec<String>,
    pub banned: Vec<Ban>,
    pub is_banned: Vec<bool>,
}

impl<G: Game> Roster<G> {
    pub fn new(game: Arc<G>, entries: Vec<Arc<Entry<G::Player>>>, s: &Settings) -> Roster<G> {
        let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
        let in_flight = game.games_in_flight().max(1);
        Roster {
            table: Table {
                game,
                entries: Arc::new(entries),
                names: Arc::new(names.clone()),
                permits: Arc::new(Semaphore::new(in_flight)),
                seed: s.seed,
                progress: s.progress.clone(),
                journal: s.journal.clone(),
                finals: if s.course || s.journal.is_some() { Finals::Board } else { Finals::Result },
            },
            is_banned: vec![false; names.len()],
            names,
            banned: vec![],
        }
    }

    pub fn ban(&mut self, i: usize, f: &Fault, game: Option<&str>) {
        self.banned_for(i, Ban::new(&self.names[i], f, game));
    }

    /// Bans entry `i` with `ban`, unless it is banned already (its first fault stands).
    fn banned_for(&mut self, i: usize, ban: Ban) {
        if !self.is_banned[i] {
            self.banned.push(ban);
            self.is_banned[i] = true;
        }
    }

    /// Players in good standing, in entry order.
    pub fn alive(&self) -> Vec<usize> {
        (0..self.names.len()).filter(|&i| !self.is_banned[i]).collect()
    }

    /// `tournament-start` to everyone at once; failures are bans, in entry order.
    pub async fn start(&mut self, games_per_match: u32) {
        let t = &self.table;
        // Lifecycle calls are made here, wherever the games are played.
        let permits = Arc::new(Semaphore::new(GAMES_IN_FLIGHT));
        let starts: Vec<_> = (0..self.names.len())
            .map(|i| {
                let (g, e, permits) = (t.game.clone(), t.entries[i].clone(), permits.clone());
                let info = TournamentInfo { you: self.names[i].clone(), players: self.names.clone(), games_per_match };
                let seed = derive(t.seed, &[0, i as u64]);
                let journal = t.journal.clone();
                tokio::spawn(async move {
                    lifecycle(journal, Lifecycle::Start, i, async {
                        let _permit = permits.acquire_owned().await;
                        g.tournament_start(&e, &info, seed).await
                    })
                    .await
                })
            })
            .collect();
        for (i, f) in join_in_order(starts).await.into_iter().enumerate() {
            if let Some(f) = f {
                self.ban(i, &f, None);
            }
        }
    }

    /// `tournament-end(won)` to every player in good standing; failures are bans.
    pub async fn end(&mut self, won: impl Fn(usize) -> bool) {
        let t = &self.table;
        let permits = Arc::new(Semaphore::new(GAMES_IN_FLIGHT));
        let ends: Vec<_> = self
            .alive()
            .into_iter()
            .map(|i| {
                let (g, e, permits) = (t.game.clone(), t.entries[i].clone(), permits.clone());
                let seed = derive(t.seed, &[u64::MAX, i as u64]);
                let won = won(i);
                let journal = t.journal.clone();
                tokio::spawn(async move {
                    let f = lifecycle(journal, Lifecycle::End, i, async {
                        let _permit = permits.acquire_owned().await;
                        g.tournament_end(&e, won, seed).await
                    })
                    .await;
                    (i, f)
                })
            })
            .collect();
        for (i, f) in join_in_order(ends).await {
            if let Some(f) = f {
                self.ban(i, &f, None);
            }
        }
    }

    /// Everyone who failed in `record` (by entry), with the fault, in the order they failed.
    pub fn faulted<'a>(&self, record: &'a GameRecord) -> Vec<(usize, &'a PlayerFault)> {
        record.faults.iter().filter_map(|f| Some((self.names.iter().position(|n| *n == f.player)?, f))).collect()
    }

    /// Bans everyone who failed in `record`, in the order they failed.
    pub fn ban_faults(&mut self, record: &GameRecord) {
        for ban in record.bans() {
            if let Some(i) = self.names.iter().position(|n| *n == ban.player) {
                self.banned_for(i, ban);
            }
        }
    }

    /// The result, once the format has decided the ranking and played everything.
    pub fn result(
        self,
        s: &Settings,
        limits: arena_core::Limits,
        ranking: Vec<Vec<String>>,
        matches: Vec<super::MatchRecord>,
        games: Vec<GameRecord>,
    ) -> TournamentResult {
        let winner = ranking.first().filter(|p| p.len() == 1).map(|p| p[0].clone());
        TournamentResult {
            game: self.table.game.name().to_string(),
            format: s.format,
            seed: s.seed,
            games_per_match: s.games_per_match,
            limits,
            players: self
                .table
                .entries
                .iter()
                .map(|e| PlayerInfo { name: e.name.clone(), source: e.source.clone(), hash: e.hash.clone() })
                .collect(),
            winner,
            ranking,
            banned: self.banned,
            matches,
            game_faults: super::GameFaultRow::of(&games),
            games,
        }
    }
}

/// A lifecycle call's outcome: as an earlier run recorded it, or made now and recorded.
async fn lifecycle(
    journal: Option<Arc<dyn Journal>>,
    call: Lifecycle,
    slot: usize,
    make: impl std::future::Future<Output = Option<Fault>>,
) -> Option<Fault> {
    if let Some(done) = journal.as_ref().and_then(|j| j.lifecycle(call, slot)) {
        return done;
    }
    let f = make.await;
    if let Some(j) = &journal {
        j.record_lifecycle(call, slot, f.as_ref());
    }
    f
}

pub fn game_id(round: u32, m: u32, number: u32) -> String {
    format!("R{round}-M{m}-G{number}")
}

/// Groups players by a key, best (highest) first, leaving out banned ones: the ranking's places.
pub fn places(names: &[String], is_banned: &[bool], key: impl Fn(usize) -> i64) -> Vec<Vec<String>> {
    let mut order: Vec<usize> = (0..names.len()).filter(|&i| !is_banned[i]).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(key(i)));
    let mut out: Vec<Vec<String>> = vec![];
    let mut last = None;
    for i in order {
        let k = key(i);
        if last == Some(k) {
            out.last_mut().expect("a place exists").push(names[i].clone());
        } else {
            out.push(vec![names[i].clone()]);
            last = Some(k);
        }
    }
    out
}

/// Awaits spawned tasks in order. A task that panicked is a bug in Arena, not in a player: it is
/// reported loudly rather than hidden.
pub async fn join_in_order<T>(handles: impl IntoIterator<Item = tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::new();
    for h in handles {
        match h.await {
            Ok(v) => out.push(v),
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
    out
}

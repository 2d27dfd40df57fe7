//! The ladder: rated games without end among a game's registered players, as Halite's and Kaggle's
//! are. It is stored as one tournament of format `ladder` per game, so the leaderboard, the stats, the
//! web pages and replays count and show its games like any other. Pairing (`pairing`) follows the
//! ratings, which are updated as each game finishes; a player's new version takes its place once the
//! old one's games in flight are over; a version that keeps faulting is benched until its next
//! version; a pair of versions that has played [`SETTLE`] games together is not drawn again, so a
//! ladder whose every pair is settled waits for a new version instead of replaying known results.
//! Stopping (Ctrl-C, or after a number of games) leaves the ladder to go on next time, with its games
//! numbered on.

use arena_tournament::pairing;

use arena_core::PlayerFault;
use arena_core::seed::derive;
use arena_core::{Entry, Finals, GameSetup, MatchSoFar};
use arena_play::LoadPlayers;
use arena_store::{Store, Version};
use arena_tournament::ratings::{Ratings, System};
use arena_tournament::{GameRecord, Journal};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;
use tokio::task::JoinSet;

mod begin;
mod config;
pub use begin::{Begin, begin, create, run_at};
pub use config::{CHECKER_FAULTS, CHECKER_WINDOW, LadderConfig, MAX_FAULTS, MAX_PARALLEL, SETTLE};

/// What happened, for the caller to show.
pub enum Event<'a> {
    /// A game finished (and was written to the store).
    Game(&'a GameRecord),
    /// A version joined the ladder.
    Entered(&'a Version),
    /// A version plays no more: it faulted `max_faults` times, the last one this.
    Benched(&'a Version, &'a PlayerFault),
    /// A version plays no more: the game's rule checker failed during its own calls in this many of
    /// its latest [`CHECKER_WINDOW`] games (each a game fault, counted for nobody: a player feeding a
    /// known checker bug would turn its losses into no-results).
    BenchedForChecker(&'a Version, u32),
    /// A version benched in an earlier run (this many faults) stays out.
    StaysBenched(&'a Version, u32),
    /// Too few players can play; the ladder waits for submissions.
    Waiting(usize),
    /// Every pair of the versions that can play has played this many games together: the ladder
    /// waits for a new version.
    Settled(u32),
}

/// How a run of the ladder ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The number of games asked for was played.
    Played,
    /// Told to stop; the games in flight were abandoned (nothing of them is stored).
    Interrupted,
    /// Every pair of versions was settled before the games asked for were played.
    Settled,
}

/// What a run did.
pub struct LadderRun {
    pub stop: Stop,
    /// Games written to the store in this run.
    pub written: u64,
    /// Versions benched in this run.
    pub benched: usize,
}

/// One version in the ladder (an entrant of its tournament).
struct Slot<P> {
    version: Version,
    entry: Option<Arc<Entry<P>>>,
    busy: u32,
    faults: u32,
    /// Of its latest games (at most [`CHECKER_WINDOW`]), whether the game's rule checker failed during
    /// its own calls, the latest last.
    checker: std::collections::VecDeque<bool>,
    /// Its player's latest version, not benched.
    playing: bool,
    /// Its component could not be loaded (not tried again).
    broken: bool,
    /// That it stays benched was said.
    told: bool,
}

/// Everything a run holds.
struct Ladder<'a, G: LoadPlayers> {
    game: Arc<G>,
    store: &'a Store,
    id: i64,
    seed: u64,
    cfg: &'a LadderConfig,
    slots: Vec<Slot<G::Player>>,
    ratings: Ratings,
    journal: Arc<arena_store::StoreJournal>,
    /// Games each pair of versions has played together (those in flight included), by version ids.
    pairs: HashMap<(i64, i64), u32>,
}

/// The key of a pair of versions in [`Ladder::pairs`].
fn pair(a: i64, b: i64) -> (i64, i64) {
    (a.min(b), a.max(b))
}

/// Runs ladder `id` of `store` (its seed and entrants stored there) until `cfg.games` are played or
/// `stop` completes; `observe` is told what happens.
pub async fn run<G: LoadPlayers>(
    game: Arc<G>,
    store: &Store,
    id: i64,
    cfg: &LadderConfig,
    observe: impl Fn(Event<'_>),
    stop: impl Future<Output = ()>,
) -> anyhow::Result<LadderRun> {
    let row = store.tournament(id)?.ok_or_else(|| anyhow::anyhow!("there is no tournament {id}"))?;
    let entrants = store.entrants(id)?;
    let faults = store.faults_by_version(id)?;
    let mut checker = store.checker_faults_by_version(id, CHECKER_WINDOW)?;
    let journal = store.ladder_journal(id, &entrants)?;
    game.bind(&store.run_name(id)?);
    let slots = entrants
        .into_iter()
        .map(|v| Slot {
            faults: faults.get(&v.id).copied().unwrap_or(0),
            checker: checker.remove(&v.id).unwrap_or_default(),
            version: v,
            entry: None,
            busy: 0,
            playing: false,
            broken: false,
            told: false,
        })
        .collect();
    let ratings = store.ratings(game.name(), System::for_seats(game.seats()))?;
    let pairs = store.pair_games(id)?;
    let mut l = Ladder { game, store, id, seed: row.seed, cfg, slots, ratings, journal, pairs };
    let result = l.play(&observe, stop).await;
    let written = l.journal.finish().map_err(anyhow::Error::msg);
    let (stop, benched) = result?;
    Ok(LadderRun { stop, written: written?, benched })
}

impl<P> Slot<P> {
    /// Of its latest games, those in which the game's rule checker failed during its own calls.
    fn checker_faults(&self) -> u32 {
        self.checker.iter().filter(|&&c| c).count() as u32
    }
}

type Played = (Vec<usize>, GameRecord);

impl<G: LoadPlayers> Ladder<'_, G> {
    async fn play(
        &mut self,
        observe: &impl Fn(Event<'_>),
        stop: impl Future<Output = ()>,
    ) -> anyhow::Result<(Stop, usize)> {
        let seats = (*self.game.seats().start()).max(2);
        let mut number = self.store.next_number(self.id)?;
        let mut dispatched = 0u64;
        let mut benched = 0;
        let mut waiting_told = false;
        let mut settled_told = false;
        let mut in_flight: JoinSet<Played> = JoinSet::new();
        let mut poll = tokio::time::interval(self.cfg.poll);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(stop);
        self.refresh(observe).await?;
        loop {
            let wanted = |d: u64| self.cfg.games.is_none_or(|g| d < g);
            let mut settled = false;
            while in_flight.len() < self.cfg.parallel.max(1) && wanted(dispatched) {
                let open: Vec<usize> = (0..self.slots.len()).filter(|&i| self.slots[i].playing).collect();
                if open.len() < seats {
                    if !waiting_told && in_flight.is_empty() {
                        observe(Event::Waiting(open.len()));
                        waiting_told = true;
                    }
                    break;
                }
                waiting_told = false;
                let candidates: Vec<pairing::Candidate> = open
                    .iter()
                    .map(|&i| pairing::Candidate {
                        rating: self.ratings.get(self.slots[i].version.player_id),
                        busy: self.slots[i].busy,
                    })
                    .collect();
                let (settle, pairs) = (self.cfg.settle, &self.pairs);
                let versions: Vec<i64> = open.iter().map(|&i| self.slots[i].version.id).collect();
                let apart = |a: usize, b: usize| {
                    settle == 0 || pairs.get(&pair(versions[a], versions[b])).copied().unwrap_or(0) < settle
                };
                let game = (self.seed, u64::from(number));
                let Some(picked) = pairing::pick_where(&candidates, seats, self.cfg.explore, game, apart) else {
                    settled = true;
                    if !settled_told {
                        observe(Event::Settled(settle));
                        settled_told = true;
                    }
                    break;
                };
                settled_told = false;
                let seated: Vec<usize> = picked.into_iter().map(|k| open[k]).collect();
                self.count(&seated, 1);
                let mut players = vec![];
                for &i in &seated {
                    self.slots[i].busy += 1;
                    players.extend(self.slots[i].entry.clone());
                }
                let game = self.game.clone();
                let seed = derive(self.seed, &[1, u64::from(number), 1]);
                let n = number;
                in_flight.spawn(async move {
                    let id = arena_tournament::game_id(1, n, 1);
                    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
                    let so_far = MatchSoFar {
                        game: 1,
                        games_in_match: 1,
                        wins: vec![0; players.len()],
                        ties: 0,
                        earlier: vec![],
                        match_no: n,
                        matches: 0,
                    };
                    let outcome =
                        game.play(GameSetup { id: id.clone(), seed, players, so_far, finals: Finals::Board }).await;
                    (seated, GameRecord::new(id, (1, n, 1), names, seed, outcome))
                });
                number += 1;
                dispatched += 1;
            }
            if in_flight.is_empty() && !wanted(dispatched) {
                return Ok((Stop::Played, benched));
            }
            if in_flight.is_empty() && settled && self.cfg.games.is_some() {
                return Ok((Stop::Settled, benched));
            }
            tokio::select! {
                _ = &mut stop => return Ok((Stop::Interrupted, benched)),
                Some(done) = in_flight.join_next(), if !in_flight.is_empty() => match done {
                    Ok((seated, record)) => benched += self.finished(&seated, record, observe),
                    Err(e) => tracing::warn!("a ladder game stopped: {e}"),
                },
                _ = poll.tick() => self.refresh(observe).await?,
            }
        }
    }

    /// Adds `by` to the games of every pair of versions among `seated`.
    fn count(&mut self, seated: &[usize], by: i32) {
        for (k, &a) in seated.iter().enumerate() {
            for &b in &seated[k + 1..] {
                let n = self.pairs.entry(pair(self.slots[a].version.id, self.slots[b].version.id)).or_default();
                *n = n.saturating_add_signed(by);
            }
        }
    }

    /// A game is over: stored, rated, its faults counted. How many versions it benched.
    fn finished(&mut self, seated: &[usize], mut record: GameRecord, observe: &impl Fn(Event<'_>)) -> usize {
        self.journal.game(&record);
        observe(Event::Game(&record));
        // Rated as the store rates it, so the leaderboard agrees.
        // A game whose referee failed has no result: nobody is rated on it, nor any pair counted.
        if record.game_fault.is_none() {
            let ids: Vec<i64> = seated.iter().map(|&i| self.slots[i].version.player_id).collect();
            self.ratings.update(&ids, &record.places());
        } else {
            self.count(seated, -1);
        }
        let faulted = record.faulted();
        let mut benched = 0;
        for (seat, &i) in seated.iter().enumerate() {
            let slot = &mut self.slots[i];
            slot.busy = slot.busy.saturating_sub(1);
            let checker = record.fault_by.as_ref() == Some(&record.players[seat]);
            slot.checker.push_back(checker);
            if slot.checker.len() > CHECKER_WINDOW {
                slot.checker.pop_front();
            }
            let hits = slot.checker_faults();
            if checker && slot.playing && hits >= CHECKER_FAULTS {
                slot.playing = false;
                benched += 1;
                observe(Event::BenchedForChecker(&slot.version, hits));
                continue;
            }
            if !faulted[seat] {
                continue;
            }
            slot.faults += 1;
            if slot.playing && slot.faults >= self.cfg.max_faults {
                slot.playing = false;
                benched += 1;
                let f = record.faults.iter().find(|f| f.player == record.players[seat]);
                if let Some(f) = f {
                    observe(Event::Benched(&slot.version, f));
                }
            }
        }
        record.lighten();
        benched
    }

    /// Takes in what the store has now: each registered player's latest version plays (loaded when
    /// it first does); an older version stops being drawn and is replaced once its games in flight
    /// are over.
    async fn refresh(&mut self, observe: &impl Fn(Event<'_>)) -> anyhow::Result<()> {
        let latest: Vec<Version> = self.store.players(Some(self.game.name()))?.into_iter().map(|p| p.latest).collect();
        let by_player: HashMap<i64, i64> = latest.iter().map(|v| (v.player_id, v.id)).collect();
        let mut old_busy: HashSet<i64> = HashSet::new();
        for s in &mut self.slots {
            if by_player.get(&s.version.player_id) != Some(&s.version.id) {
                s.playing = false;
                s.entry = None;
                if s.busy > 0 {
                    old_busy.insert(s.version.player_id);
                }
            }
        }
        let mut to_load = vec![];
        for v in latest {
            if old_busy.contains(&v.player_id) {
                continue;
            }
            match self.slots.iter().position(|s| s.version.id == v.id) {
                Some(i) => {
                    let s = &mut self.slots[i];
                    if s.entry.is_some() || s.broken {
                        continue;
                    }
                    if s.faults < self.cfg.max_faults && s.checker_faults() < CHECKER_FAULTS {
                        to_load.push(i);
                    } else if !s.told {
                        s.told = true;
                        observe(Event::StaysBenched(&s.version, s.faults.max(s.checker_faults())));
                    }
                }
                None => {
                    let slot = self.slots.len();
                    self.journal.enter(&v, slot);
                    observe(Event::Entered(&v));
                    self.slots.push(Slot {
                        version: v,
                        entry: None,
                        busy: 0,
                        faults: 0,
                        checker: Default::default(),
                        playing: false,
                        broken: false,
                        told: false,
                    });
                    to_load.push(slot);
                }
            }
        }
        if to_load.is_empty() {
            return Ok(());
        }
        let versions: Vec<Version> = to_load.iter().map(|&i| self.slots[i].version.clone()).collect();
        let components = self.store.components_dir();
        // One at a time, so one damaged file keeps only its own version out.
        for (i, v) in to_load.into_iter().zip(versions) {
            match crate::players::load_versions(&self.game, &components, std::slice::from_ref(&v)).await {
                Ok(mut e) => {
                    self.slots[i].entry = e.pop();
                    self.slots[i].playing = self.slots[i].entry.is_some();
                }
                Err(e) => {
                    self.slots[i].broken = true;
                    tracing::warn!("{} version {} stays out of the ladder: {e:#}", v.name, v.version)
                }
            }
        }
        Ok(())
    }
}

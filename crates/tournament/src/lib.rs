//! Tournaments: formats that decide who plays whom, run games concurrently through a `Game`, and
//! collect a deterministic result (ranking, bans in the order they happened, every match and game).
//! Nothing here knows wasm: this crate depends on `arena_core` and not on the sandbox. Ratings and the
//! ladder's pairing live here too; running a ladder against the store is the service layer's.

mod common;
mod knockout;
pub mod pairing;
pub mod ratings;
pub mod report;
mod round_robin;
mod rounds;
pub mod sprt;

pub use common::{GAMES_IN_FLIGHT, game_id};
pub use knockout::knockout;
pub use round_robin::{round_robin, schedule};
pub use rounds::{rounds, split};

/// Runs a tournament of the format in `s`.
pub async fn run<G: arena_core::Game>(
    game: Arc<G>,
    entries: Vec<Arc<arena_core::Entry<G::Player>>>,
    limits: arena_core::Limits,
    s: &Settings,
) -> TournamentResult {
    match s.format {
        Format::Knockout => knockout(game, entries, limits, s).await,
        Format::RoundRobin => round_robin(game, entries, limits, s).await,
        Format::Rounds => rounds(game, entries, limits, s).await,
    }
}

use arena_core::{CallLine, GameOutcome, MatchSoFar};
use arena_core::{Fault, PlayerFault};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A tournament format: what `run` plays to an end. (A ladder, rated games without end, is the store's
/// other kind of stored tournament, `arena_store::Kind::Ladder`; the service layer plays it.) The one
/// name of a format everywhere: the command line's `--format`, the web's forms, JSON and the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// 2^m slots, byes for empty ones, best-of-k matches; the winner of each match advances.
    Knockout,
    /// Every pair plays a series of k games, alternating who starts; ranked by games won.
    RoundRobin,
    /// Elimination rounds of games as large as the game allows; the winners of each game advance.
    Rounds,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 3] = [Format::Knockout, Format::RoundRobin, Format::Rounds];

    /// The name on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Knockout => "knockout",
            Format::RoundRobin => "round-robin",
            Format::Rounds => "rounds",
        }
    }

    /// What it plays, in a line (the command line's help of each value).
    pub fn about(self) -> &'static str {
        match self {
            Format::Knockout => "2^m slots, byes for empty ones, best-of-k matches; the winner of each match advances",
            Format::RoundRobin => "Every pair plays a series of k games, alternating who starts; ranked by games won",
            Format::Rounds => {
                "Elimination rounds of games as large as the game allows; the winners of each game advance"
            }
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(name: &str) -> Result<Format, String> {
        Format::ALL.into_iter().find(|f| f.as_str() == name).ok_or_else(|| {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
            // The name comes from a stranger's form: quoted, and cut if long.
            format!("no format `{}`: one of {}", arena_core::quote_at(name, 40), names.join(", "))
        })
    }
}

/// What a tournament is run with.
#[derive(Clone)]
pub struct Settings {
    pub format: Format,
    /// k in best of k (odd).
    pub games_per_match: u32,
    pub seed: u64,
    /// Told of every finished game and match, in whatever order they finish (for progress bars).
    pub progress: Option<Observer>,
    /// Keeps every game and lifecycle call as it finishes, and gives back what an earlier, interrupted
    /// run of the same tournament already played.
    pub journal: Option<Arc<dyn Journal>>,
    /// Whether the observers read the course of each game (its answers, output, events and final
    /// view: they write replays). A tournament with neither this nor a journal plays its games for
    /// their results only ([`arena_core::Finals::Result`]). True unless said otherwise.
    pub course: bool,
}

impl Settings {
    pub fn new(format: Format, games_per_match: u32, seed: u64) -> Settings {
        Settings { format, games_per_match, seed, progress: None, journal: None, course: true }
    }
}

/// Where a tournament's progress is kept as it happens, so that an interrupted run finishes later
/// without playing again what it already played (the results store implements it). Because every
/// format is deterministic given the seed and the results of its games, a run that takes the games it
/// finds here instead of playing them reaches exactly the state the interrupted run was in.
pub trait Journal: Send + Sync {
    /// The game with this id, if an earlier run of this tournament finished it.
    fn played(&self, id: &str) -> Option<GameRecord>;
    /// A game just finished (not called for games given back by `played`).
    fn game(&self, record: &GameRecord);
    /// The outcome of a lifecycle call to the player in `slot`, if an earlier run made it:
    /// `Some(None)` when it succeeded, `Some(Some(fault))` when it failed.
    fn lifecycle(&self, call: Lifecycle, slot: usize) -> Option<Option<Fault>>;
    /// A lifecycle call just returned.
    fn record_lifecycle(&self, call: Lifecycle, slot: usize, fault: Option<&Fault>);
    /// A match (or series) just finished; told again, identically, when a resumed run reaches it.
    fn matched(&self, record: &MatchRecord);
}

/// The calls outside games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lifecycle {
    Start,
    End,
}

impl Lifecycle {
    pub fn as_str(self) -> &'static str {
        match self {
            Lifecycle::Start => "tournament-start",
            Lifecycle::End => "tournament-end",
        }
    }
}

/// A progress observer.
pub type Observer = Arc<dyn Fn(Progress<'_>) + Send + Sync>;

/// What a progress observer is told.
pub enum Progress<'a> {
    /// The tournament has this many matches (byes included).
    Matches(u64),
    Game(&'a GameRecord),
    Match(&'a MatchRecord),
    /// A round of an elimination-rounds tournament is over.
    Round(u32),
}

/// A player as the result lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub name: String,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

/// A banned player: its fault (who, why, on which call) and the game it happened in (none for the
/// lifecycle calls outside games).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ban {
    #[serde(flatten)]
    pub fault: PlayerFault,
    pub game: Option<String>,
    /// The last lines the player printed before its fault, for whoever runs the tournament (who owns
    /// every seat on the command line); never serialized, so never shown to anyone else.
    #[serde(skip)]
    pub output: String,
}

/// A ban is read as the player's fault it is (`b.player`, `b.kind`, …).
impl std::ops::Deref for Ban {
    type Target = PlayerFault;
    fn deref(&self) -> &PlayerFault {
        &self.fault
    }
}

/// One played game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRecord {
    pub id: String,
    pub round: u32,
    #[serde(rename = "match")]
    pub match_no: u32,
    pub number: u32,
    /// In seat order (the first moves first).
    pub players: Vec<String>,
    pub seed: u64,
    pub scores: Vec<i64>,
    /// The sole winner, or none on a tie (or if everyone was banned).
    pub winner: Option<String>,
    /// One name, several on a tie, none if everyone was banned.
    pub winners: Vec<String>,
    /// Fuel used per player, in seat order.
    pub fuel: Vec<u64>,
    /// Decisions (calls) made per player, in seat order.
    pub calls: Vec<u32>,
    pub faults: Vec<PlayerFault>,
    #[serde(skip)]
    pub replay: Vec<CallLine>,
    #[serde(skip)]
    pub board: String,
    /// What each player printed (bounded), in seat order; for replays.
    #[serde(skip)]
    pub logs: Vec<String>,
    /// The last lines each player that faulted printed, in seat order (see `GameOutcome::last_words`).
    #[serde(skip)]
    pub last_words: Vec<String>,
    /// The referee failed: the game has no result, and nobody was banned for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_fault: Option<Fault>,
    /// The player whose call the game fault came in (the game's rule checker failed during it): not
    /// banned for it, but counted (see the ladder's bench).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault_by: Option<String>,
    /// What the referee emitted, with its audience.
    #[serde(skip)]
    pub events: Vec<arena_core::Event>,
    /// The referee's final view for each seat.
    #[serde(skip)]
    pub seat_views: Vec<String>,
    /// The match the game was played in, as the referee was told (a replay tells it again).
    #[serde(skip)]
    pub so_far: MatchSoFar,
    /// The referee's drawing of the final position for spectators, and for each seat, if it draws (a
    /// tournament's games keep none: see [`arena_core::Finals`]).
    #[serde(skip)]
    pub svg: Option<String>,
    #[serde(skip)]
    pub seat_svgs: Vec<Option<String>>,
}

/// Clears what seats other than `seats` printed from their call lines, and what they were asked.
pub fn hide_output(lines: &mut [arena_core::CallLine], seats: &[usize]) {
    for l in lines.iter_mut().filter(|l| !seats.contains(&l.seat)) {
        l.output.clear();
        l.request = None;
    }
}

impl GameRecord {
    pub fn new(
        id: String,
        (round, match_no, number): (u32, u32, u32),
        players: Vec<String>,
        seed: u64,
        mut o: GameOutcome,
    ) -> GameRecord {
        let calls = o.answered_calls(players.len());
        let board = o.board();
        // However the outcome came (played here, by a worker, read from a record), a game that
        // faulted names no winner.
        o.void_if_faulted();
        GameRecord {
            id,
            round,
            match_no,
            number,
            seed,
            scores: o.scores,
            winner: match o.winners.as_slice() {
                [w] => Some(players[*w].clone()),
                _ => None,
            },
            winners: o.winners.iter().map(|&s| players[s].clone()).collect(),
            fuel: o.fuel,
            calls,
            faults: o.faults.iter().map(|(s, f)| PlayerFault::new(players[*s].clone(), f.clone())).collect(),
            replay: o.log,
            board,
            logs: o.logs,
            last_words: o.last_words,
            game_fault: o.game_fault,
            fault_by: o.fault_by.and_then(|s| players.get(s).cloned()),
            events: o.events,
            seat_views: o.seat_views,
            so_far: o.so_far,
            svg: o.svg,
            seat_svgs: o.seat_svgs,
            players,
        }
    }
}

impl GameRecord {
    /// The record as a viewer playing `seats` may see it (none: a spectator): the other seats' logs
    /// and per-call output cleared, events only those the viewer may see. Every view of a stored game
    /// for someone other than the operator goes through here.
    pub fn only_for(&mut self, seats: &[usize]) {
        for (s, log) in self.logs.iter_mut().enumerate().chain(self.last_words.iter_mut().enumerate()) {
            if !seats.contains(&s) {
                log.clear();
            }
        }
        hide_output(&mut self.replay, seats);
        self.events.retain(|e| e.seen_by_any(seats));
    }

    /// Whether the game counts for a result: one that ended in a game fault counts for nobody.
    pub fn counts(&self) -> bool {
        self.game_fault.is_none()
    }

    /// Takes the winners away from a game that faulted (a record stored before such a game counted
    /// for nobody may still name them).
    pub fn void_if_faulted(&mut self) {
        if !self.counts() {
            self.winner = None;
            self.winners.clear();
        }
    }

    /// The game's faults as bans, each with the last lines its player printed.
    pub fn bans(&self) -> Vec<Ban> {
        self.faults
            .iter()
            .map(|f| {
                let output = self.seat_of(&f.player).and_then(|s| self.last_words.get(s)).cloned().unwrap_or_default();
                Ban { fault: f.clone(), game: Some(self.id.clone()), output }
            })
            .collect()
    }

    /// The seat `player` played in this game.
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.players.iter().position(|p| p == player)
    }

    /// The call line where `seat` failed (with its step, and what it was asked), if the calls were kept.
    pub fn fault_line(&self, seat: usize) -> Option<&CallLine> {
        self.replay.iter().find(|c| c.seat == seat && c.fault.is_some())
    }

    /// Per seat, whether that seat faulted in the game.
    pub fn faulted(&self) -> Vec<bool> {
        self.players.iter().map(|p| self.faults.iter().any(|f| &f.player == p)).collect()
    }

    /// The seats that won (one, several on a tie, none).
    pub fn winning_seats(&self) -> Vec<usize> {
        self.winners.iter().filter_map(|w| self.players.iter().position(|p| p == w)).collect()
    }

    /// Each seat's place for the ratings ([`crate::ratings::places`]): the one computation the store
    /// records and a ladder rates by, so the two always agree.
    pub fn places(&self) -> Vec<u32> {
        crate::ratings::places(&self.scores, &self.winning_seats(), &self.faulted())
    }

    /// Lets go of what only a replay needs (the call log, final views, logs, events, drawings) once
    /// the journal, the progress observer and the replay files have seen it: a finished game then holds
    /// only what the tournament's logic and its result need, so memory does not grow with a game's
    /// length (a tournament of 500,000 games keeps about 0.3 KB of each).
    pub fn lighten(&mut self) {
        self.replay = Vec::new();
        self.board = String::new();
        self.logs = Vec::new();
        self.events = Vec::new();
        self.seat_views = Vec::new();
        self.svg = None;
        self.seat_svgs = Vec::new();
        self.so_far = MatchSoFar::default();
    }
}

/// One match of a knockout.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchRecord {
    pub round: u32,
    #[serde(rename = "match")]
    pub match_no: u32,
    /// The two slots: a player's name, or none for a bye or an empty place.
    pub players: [Option<String>; 2],
    /// Games won by each.
    pub wins: [u32; 2],
    pub ties: u32,
    pub winner: Option<String>,
    /// How it was decided: `played`, `bye`, `forfeit` (a player was banned), `tie-break`
    /// (sudden death), `total-score` or `slot` (see the tie rule).
    pub decided_by: String,
    pub games: Vec<String>,
}

/// Everything a tournament produced. Same inputs and seed → identical value.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TournamentResult {
    pub game: String,
    pub format: Format,
    pub seed: u64,
    pub games_per_match: u32,
    pub limits: arena_core::Limits,
    pub players: Vec<PlayerInfo>,
    pub winner: Option<String>,
    /// Places, best first; players sharing a place share a list. Banned players are not ranked.
    pub ranking: Vec<Vec<String>>,
    /// In the order they failed.
    pub banned: Vec<Ban>,
    pub matches: Vec<MatchRecord>,
    pub games: Vec<GameRecord>,
    /// The games that ended in a game fault (the game's referee failed: no result, nobody banned), in
    /// the order of `games`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub game_faults: Vec<GameFaultRow>,
}

/// A game that ended in a game fault: the package's referee failed on `call`, for `reason`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFaultRow {
    pub game: String,
    pub call: String,
    pub reason: String,
}

impl GameFaultRow {
    /// The rows of the `games` that ended in a game fault.
    pub fn of<'a>(games: impl IntoIterator<Item = &'a GameRecord>) -> Vec<GameFaultRow> {
        games
            .into_iter()
            .filter_map(|g| {
                let f = g.game_fault.as_ref()?;
                Some(GameFaultRow { game: g.id.clone(), call: f.call.clone(), reason: f.reason.clone() })
            })
            .collect()
    }
}

impl Ban {
    pub fn new(player: &str, f: &Fault, game: Option<&str>) -> Ban {
        Ban { fault: PlayerFault::new(player, f.clone()), game: game.map(str::to_string), output: String::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_shown_to_others_keeps_no_seats_output_request_or_last_words() {
        let mut fault_line = arena_core::CallLine::failed(1, 4, Fault::illegal("bid", "no such card"));
        fault_line.output = "my hand is 3 7 9".into();
        fault_line.request = Some(serde_json::json!({"hand": [3, 7, 9]}));
        let mut answer = arena_core::CallLine::new(0, "bid", 4, serde_json::json!(5), 10);
        answer.output = "thinking".into();
        let outcome = GameOutcome {
            scores: vec![1, 0],
            winners: vec![0],
            faults: vec![(1, Fault::illegal("bid", "no such card"))],
            fuel: vec![10, 0],
            log: vec![answer, fault_line],
            logs: vec!["thinking".into(), "my hand is 3 7 9".into()],
            last_words: vec![String::new(), "my hand is 3 7 9".into()],
            ..Default::default()
        };
        let record = GameRecord::new("G".into(), (1, 1, 1), vec!["a".into(), "b".into()], 1, outcome);
        assert_eq!(record.bans()[0].output, "my hand is 3 7 9", "the ban carries its last words");
        assert!(!serde_json::to_string(&record.bans()).unwrap().contains("hand"), "never in a ban's JSON");
        let mut theirs = record.clone();
        theirs.only_for(&[0]);
        let shown = format!("{:?}", (&theirs.replay, &theirs.logs, &theirs.last_words));
        assert!(!shown.contains("hand"), "seat 1's words or request shown to seat 0: {shown}");
        assert!(shown.contains("thinking"), "seat 0's own output is kept: {shown}");
        let mut own = record;
        own.only_for(&[1]);
        assert_eq!(own.replay[1].request, Some(serde_json::json!({"hand": [3, 7, 9]})));
        assert_eq!(own.last_words[1], "my hand is 3 7 9");
    }
}

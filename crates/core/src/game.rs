//! The game host's face to the tournaments: a `Game` plays one game between seated players and
//! reports an outcome; lifecycle calls tell players that a tournament starts and ends. The host knows
//! no game: every game is a package (`arena_play`), whose referee component plays it; loading a
//! player component is the game host's own business (`arena_play::LoadPlayers`).

use crate::{Event, Fault};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::sync::Arc;

/// A registered player of some game: its name, where it came from, and the game's handle to it.
pub struct Entry<P> {
    pub name: String,
    /// The file it was loaded from, or `builtin:NAME` for a native bot.
    pub source: String,
    /// sha256 of the file, for components.
    pub hash: Option<String>,
    pub player: P,
}

/// The match so far, in the seat order of the game about to be played.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSoFar {
    /// This game's number in the match, from 1.
    pub game: u32,
    pub games_in_match: u32,
    pub wins: Vec<u32>,
    pub ties: u32,
    /// Scores of the earlier games, each in this game's seat order.
    pub earlier: Vec<Vec<i64>>,
    /// This match's number in the tournament, from 1, of `matches` (0 when not known in advance).
    pub match_no: u32,
    pub matches: u32,
}

/// What the referee hands a game.
pub struct GameSetup<P> {
    pub id: String,
    pub seed: u64,
    /// In seat order; seat 0 moves first.
    pub players: Vec<Arc<Entry<P>>>,
    pub so_far: MatchSoFar,
    /// What the game keeps of its final position.
    pub finals: Finals,
}

/// What a game keeps besides its result (scores, winners, faults, fuel, and each call's seat, name,
/// turn, fuel and fault).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Finals {
    /// Nothing more: no answers, output, events or final view, for a game nobody will replay or show
    /// (a tournament with no store and no replay files). It is played exactly as the others, every
    /// referee call included; only what it hands back is smaller (a worker's outcome travels and is
    /// read at a fraction of the cost).
    Result,
    /// The course of the game (the answers, output and events: its replay) and the spectators' final
    /// view (the game's board): what stored tournaments and ladders keep, so that no game asks its
    /// referee for drawings and views nobody is shown (a replay draws every step again when it is
    /// watched).
    #[default]
    Board,
    /// Also the spectators' final drawing, and each seat's final view and drawing: for showing one game
    /// (`arena play --seat`/`--svg`, `arena check-game`).
    All,
}

/// One call as the replay records it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallLine {
    pub seat: usize,
    pub call: std::borrow::Cow<'static, str>,
    /// The turn (or move number) the call belongs to; 0 for calls outside turns.
    pub turn: u32,
    pub answer: serde_json::Value,
    pub fuel: u64,
    /// The seat failed here instead of answering (a fault, or an answer the referee refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
    /// How long the call took on the clock, in microseconds (0: not measured). For people reading a
    /// replay; never part of a result (which is the same on any machine).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub micros: u64,
    /// What the seat printed during the call (its part of the seat's bounded log). Private to the
    /// seat's owner: every view for anyone else goes through `GameRecord::only_for`, which clears it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output: String,
    /// What the seat was asked, on a line where it failed (its arguments, quoted as answers are):
    /// private to the seat's owner as its output is, and cleared with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<serde_json::Value>,
}

/// What a call line takes in a game's record besides its answer and output, as its record bound counts.
pub const LINE_BYTES: usize = 64;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The same call, answered the same way: its time on the clock and what the player printed are not
/// part of the game.
impl PartialEq for CallLine {
    fn eq(&self, o: &CallLine) -> bool {
        (self.seat, &self.call, self.turn, &self.answer, self.fuel, &self.fault)
            == (o.seat, &o.call, o.turn, &o.answer, o.fuel, &o.fault)
    }
}

impl CallLine {
    /// A call line whose answer is cut to a small bound (a replay quotes, it does not copy).
    pub fn new(
        seat: usize,
        call: impl Into<std::borrow::Cow<'static, str>>,
        turn: u32,
        answer: serde_json::Value,
        fuel: u64,
    ) -> CallLine {
        CallLine {
            seat,
            call: call.into(),
            turn,
            answer: crate::quote_json(answer),
            fuel,
            request: None,
            fault: None,
            micros: 0,
            output: String::new(),
        }
    }

    /// [`CallLine::new`], and about how many bytes the line takes in the game's record (its answer as
    /// JSON text, and a fixed share for the rest): what a game's record bound counts.
    pub fn measured(
        seat: usize,
        call: impl Into<std::borrow::Cow<'static, str>>,
        turn: u32,
        answer: serde_json::Value,
        fuel: u64,
    ) -> (CallLine, usize) {
        let (answer, len) = crate::quote_json_measured(answer);
        let line = CallLine {
            seat,
            call: call.into(),
            turn,
            answer,
            fuel,
            fault: None,
            micros: 0,
            output: String::new(),
            request: None,
        };
        (line, len + LINE_BYTES)
    }

    /// Seat `seat` failed in step `turn`.
    pub fn failed(seat: usize, turn: u32, fault: Fault) -> CallLine {
        CallLine {
            seat,
            call: fault.call.clone().into(),
            turn,
            answer: serde_json::Value::Null,
            fuel: 0,
            fault: Some(fault),
            micros: 0,
            output: String::new(),
            request: None,
        }
    }
}

/// How a game went: made by the game host (a package's referee), carried up to the tournaments (and
/// sent whole from a worker to the coordinator, so serializable). A tournament's `GameRecord` is this,
/// by player name.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GameOutcome {
    /// Per seat.
    pub scores: Vec<i64>,
    /// Seats that won: one, several on a tie, none if every player was banned.
    pub winners: Vec<usize>,
    /// Faults in the order they happened, with the seat that failed.
    pub faults: Vec<(usize, Fault)>,
    /// Fuel used per seat.
    pub fuel: Vec<u64>,
    /// What the referee was handed, in order: every answer (as JSON) and every fault, each with the step
    /// (from 1) it belongs to. A replay feeds it to the referee again.
    pub log: Vec<CallLine>,
    /// The referee's view of the final position, for spectators (score cards, a board).
    pub view: String,
    /// What each seat printed (bounded), for replays.
    pub logs: Vec<String>,
    /// Per seat, the last lines a seat that faulted printed (its own words under its fault; empty for
    /// the others, and no list at all when nobody faulted). Kept for a result too, and its owner's only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last_words: Vec<String>,
    /// What the referee emitted, with its audience.
    pub events: Vec<Event>,
    /// The referee's view of the final position for each seat (it may show what that seat alone sees);
    /// empty unless the game was played for [`Finals::All`].
    pub seat_views: Vec<String>,
    /// The referee failed: the game has no result, and nobody is banned for it.
    pub game_fault: Option<Fault>,
    /// The seat whose call the game fault came in (the game's rule checker failed during it), if any:
    /// not that seat's fault, but counted for it, so that nobody turns losses into no-results by
    /// feeding a known checker bug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault_by: Option<usize>,
    /// The match the game was played in, as the referee was told (a replay tells it again).
    pub so_far: MatchSoFar,
    /// The referee's drawing of the final position for spectators, and for each seat, if it draws and
    /// the game was played for [`Finals::All`].
    pub svg: Option<String>,
    pub seat_svgs: Vec<Option<String>>,
    /// A replay's course: after each step, what it handed the referee, the events it caused and the
    /// view that followed (empty when the game was played live).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// Per seat, the answered calls that `log` no longer lists: a game kept for its result only
    /// ([`Finals::Result`]) drops its log and keeps this count of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unlisted_calls: Vec<u32>,
}

impl GameOutcome {
    /// The events `seat` may see (`None`: a spectator, who sees public events only).
    pub fn events_for(&self, seat: Option<usize>) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(move |e| e.seen_by(seat))
    }

    /// Keeps only what a result needs ([`Finals::Result`]): the log goes (the number of answered
    /// calls of each seat stays, in `unlisted_calls`), and so do the players' logs, the events, and
    /// the final views and drawings.
    pub fn keep_result_only(&mut self) {
        let seats = self.log.iter().map(|l| l.seat + 1).max().unwrap_or(0).max(self.unlisted_calls.len());
        self.unlisted_calls = self.answered_calls(seats);
        self.log = Vec::new();
        self.view = String::new();
        self.logs = Vec::new();
        self.events = Vec::new();
        self.seat_views = Vec::new();
        self.svg = None;
        self.seat_svgs = Vec::new();
        self.frames = Vec::new();
    }

    /// Whether the game counts: one that ended in a game fault counts for nobody, whenever the fault
    /// came (before its outcome or after it, in `events`, `view`, a drawing): no winner, no place, no
    /// match win, no standing or rating change. Its record keeps what happened for the viewer.
    pub fn counts(&self) -> bool {
        self.game_fault.is_none()
    }

    /// Takes the winners away from a game that faulted (see [`GameOutcome::counts`]); the scores stay
    /// in the record as what the referee said, and nothing reads them for a result.
    pub fn void_if_faulted(&mut self) {
        if !self.counts() {
            self.winners.clear();
        }
    }

    /// How many calls each of `seats` answered (those the log lists and those it no longer does).
    pub fn answered_calls(&self, seats: usize) -> Vec<u32> {
        let mut calls = vec![0u32; seats];
        for c in self.log.iter().filter(|c| c.fault.is_none()) {
            if let Some(n) = calls.get_mut(c.seat) {
                *n += 1;
            }
        }
        for (n, more) in calls.iter_mut().zip(&self.unlisted_calls) {
            *n += more;
        }
        calls
    }

    /// Every answered call: (seat, call, fuel).
    pub fn calls(&self) -> Vec<(usize, &str, u64)> {
        self.log.iter().filter(|c| c.fault.is_none()).map(|c| (c.seat, c.call.as_ref(), c.fuel)).collect()
    }

    /// The final position as a record shows it: the view, and the referee's failure if it failed.
    pub fn board(&self) -> String {
        match &self.game_fault {
            Some(f) => format!("{}\ngame fault (the referee failed, nobody is banned): {f}", self.view),
            None => self.view.clone(),
        }
    }
}

/// One step of a replay: the record's lines of that step, the events they caused, the view after.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Frame {
    pub step: u32,
    pub lines: Vec<CallLine>,
    pub events: Vec<Event>,
    pub view: String,
    /// The referee's drawing after the step, if it draws.
    pub svg: Option<String>,
}

/// Information every player gets when a tournament starts.
#[derive(Debug, Clone)]
pub struct TournamentInfo {
    pub you: String,
    pub players: Vec<String>,
    pub games_per_match: u32,
}

/// Games (and lifecycle calls) a tournament plays here at once: enough to keep every core busy, few
/// enough that the pooling allocator always has room, so a big tournament never makes a player fail for
/// the host's sake.
pub const GAMES_IN_FLIGHT: usize = 64;

/// A game the tournaments can run.
pub trait Game: Send + Sync + 'static {
    /// The game's handle to one player (a pre-instantiated component, or a native bot).
    type Player: Send + Sync + 'static;

    fn name(&self) -> &str;
    /// How many players one game seats.
    fn seats(&self) -> std::ops::RangeInclusive<usize>;
    /// The native bots built into the host, by name (`builtin:NAME` on the command line).
    fn builtin(&self, name: &str) -> Option<Self::Player>;
    /// Their names; the first is the strongest (the opponent `arena check` plays against).
    fn builtin_names(&self) -> &[String];
    /// The game's options as settings to store and replay with; none by default.
    fn options(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// Whether the game draws its positions as SVG.
    fn draws_svg(&self) -> bool {
        false
    }
    /// What identifies the game's rules exactly (a package's referee hash), if anything.
    fn referee_hash(&self) -> Option<String> {
        None
    }
    /// Names the run the coming games belong to (a stored tournament, the same name when it is
    /// resumed): a game played elsewhere finds there the outcomes an interrupted run left behind.
    fn bind(&self, _run: &str) {}
    /// A line on who plays the games, for a progress display (games played elsewhere: how many workers
    /// are at it, and what to do when none is); `None` for games played here.
    fn status(&self) -> Option<String> {
        None
    }
    /// How many of its games a tournament keeps under way at once: [`GAMES_IN_FLIGHT`] for games
    /// played here; more for games played elsewhere, which hold no instance here.
    fn games_in_flight(&self) -> usize {
        GAMES_IN_FLIGHT
    }
    fn tournament_start(
        &self,
        p: &Entry<Self::Player>,
        info: &TournamentInfo,
        seed: u64,
    ) -> impl Future<Output = Option<Fault>> + Send;
    fn play(&self, setup: GameSetup<Self::Player>) -> impl Future<Output = GameOutcome> + Send;
    fn tournament_end(
        &self,
        p: &Entry<Self::Player>,
        won: bool,
        seed: u64,
    ) -> impl Future<Output = Option<Fault>> + Send;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outcome_kept_for_its_result_only_still_counts_each_seats_answered_calls() {
        let mut o = GameOutcome { scores: vec![1, 0], fuel: vec![5, 7], view: "board".into(), ..Default::default() };
        o.logs = vec!["said".into(), String::new()];
        o.events = vec![Event { to: None, text: "moved".into() }];
        for (seat, turn) in [(0, 1), (1, 2), (0, 3), (1, 4)] {
            o.log.push(CallLine::new(seat, "take-turn", turn, serde_json::json!({"n": turn}), 10));
        }
        // The last call failed: a fault, not an answer.
        o.log[3].fault = Some(Fault::new(crate::FaultKind::Illegal, "take-turn", "no such heap"));
        let before = o.answered_calls(2);
        assert_eq!(before, [2, 1]);
        o.keep_result_only();
        assert!(o.log.is_empty() && o.logs.is_empty() && o.events.is_empty() && o.view.is_empty());
        assert_eq!(o.answered_calls(2), before);
        assert_eq!((o.scores.clone(), o.fuel.clone()), (vec![1, 0], vec![5, 7]));
        // Twice is once; and through JSON, as a worker's outcome travels.
        o.keep_result_only();
        let back: GameOutcome = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(back.answered_calls(2), before);
        // A seat past the list counts nothing rather than panicking.
        assert_eq!(back.answered_calls(1), [2]);
    }
}

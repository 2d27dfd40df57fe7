//! The `arena:game` protocol as a Rust trait: a game is a state machine that starts from a setup,
//! names the requests outstanding, applies answers, hears of bans and gives its outcome and its views.
//! [`export_referee!`](crate::export_referee) owns everything else a referee component repeats: the
//! game's slot, the events handed to the host after each call, the conversions of the protocol's types
//! and the exports that only forward.

/// Who an event is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum To {
    All,
    Seat(u32),
    Seats(Vec<u32>),
}

/// The game's events, kept (in order) until the host takes them.
#[derive(Debug, Default)]
pub struct Events(Vec<(To, String)>);

impl Events {
    /// An event for everyone, spectators included.
    pub fn all(&mut self, text: impl Into<String>) {
        self.0.push((To::All, text.into()));
    }

    /// An event for one seat alone.
    pub fn seat(&mut self, seat: u32, text: impl Into<String>) {
        self.0.push((To::Seat(seat), text.into()));
    }

    /// An event for a few seats (not spectators).
    pub fn seats(&mut self, seats: Vec<u32>, text: impl Into<String>) {
        self.0.push((To::Seats(seats), text.into()));
    }

    pub fn push(&mut self, to: To, text: impl Into<String>) {
        self.0.push((to, text.into()));
    }

    /// The events so far, oldest first, leaving none.
    pub fn take(&mut self) -> Vec<(To, String)> {
        std::mem::take(&mut self.0)
    }

    /// The oldest `n` events (or all, when there are fewer), leaving the rest.
    pub fn take_first(&mut self, n: usize) -> Vec<(To, String)> {
        if self.0.len() <= n {
            return self.take();
        }
        self.0.drain(..n).collect()
    }
}

/// The most events a referee hands the host in one `events()` call (it calls again for more).
pub const EVENTS_A_CALL: usize = 256;

/// How a player failed, as the host classified it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    Illegal,
    Crash,
    Fuel,
    Timeout,
    Memory,
}

impl FaultKind {
    /// In words: `illegal`, `crash`, `out of fuel`, `timeout`, `out of memory`.
    pub fn words(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal",
            FaultKind::Crash => "crash",
            FaultKind::Fuel => "out of fuel",
            FaultKind::Timeout => "timeout",
            FaultKind::Memory => "out of memory",
        }
    }
}

/// A seat's fault: its kind, the export that failed, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub call: String,
    pub reason: String,
}

/// The match a game belongs to, in this game's seat order (see `arena:game`'s `match-state`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MatchState {
    pub game: u32,
    pub games_in_match: u32,
    pub wins: Vec<u32>,
    pub ties: u32,
    pub earlier: Vec<Vec<i64>>,
    pub number: u32,
    pub matches: u32,
}

/// What a game starts from: the players' names in seat order, the seed (the referee's only source of
/// chance), the package's options as given, and the match so far.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Setup {
    pub names: Vec<String>,
    pub seed: u64,
    pub options: Vec<(String, String)>,
    pub match_state: MatchState,
}

impl Setup {
    /// Option `name` read as a `T`: `None` when absent, an error naming it when it does not parse.
    pub fn option<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.options.iter().find(|(k, _)| k == name) {
            None => Ok(None),
            Some((_, v)) => v.parse().map(Some).map_err(|_| format!("option `{name}`: `{v}` is not a valid value")),
        }
    }
}

/// How a game ended: a score per seat, and the winning seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub scores: Vec<i64>,
    pub winners: Vec<u32>,
}

/// What every player hears when a tournament starts, or that it ended (and whether it won).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TournamentEvent {
    Start { you: String, players: Vec<String>, games_per_match: u32 },
    End(bool),
}

/// A game's referee: its state machine. `Request` and `Answer` are the game's own `request` and
/// `answer` variants, as its WIT bindings generate them.
pub trait Referee: Sized {
    type Request;
    type Answer;

    /// The game from `setup`, or why it cannot start (the game then ends as a game fault).
    fn start(setup: Setup, events: &mut Events) -> Result<Self, String>;
    /// The seats that must act now and what each is asked; none once the game is over. Called at any
    /// time: it must say exactly what is still outstanding.
    fn requests(&self) -> Vec<(u32, Self::Request)>;
    /// What `seat` alone is asked now, if anything (a step asks it after each answer about the seats
    /// still to answer). The default looks through [`Referee::requests`]; a game whose requests cost
    /// something to build may answer for one seat without building the others'.
    fn request(&self, seat: u32) -> Option<Self::Request> {
        self.requests().into_iter().find(|(s, _)| *s == seat).map(|(_, r)| r)
    }
    /// `seat`'s answer; an `Err` refuses it, with the reason the seat is banned for (and must change
    /// nothing).
    fn apply(&mut self, seat: u32, answer: Self::Answer, events: &mut Events) -> Result<(), String>;
    /// `seat` faulted and is never asked again; it may come at any time, after the end too.
    fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events);
    /// Scores and winners once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The position as text, for `seat` or (`None`) for spectators.
    fn view(&self, seat: Option<u32>) -> String;
    /// The position as an SVG document (exported with `export_referee!(…, svg)`).
    fn svg(&self, _seat: Option<u32>) -> Option<String> {
        None
    }
    /// What to call on a player when a tournament starts or ends (exported with
    /// `export_referee!(…, tournament)`).
    fn tournament(_event: TournamentEvent) -> Option<Self::Request> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_keep_their_order_and_audience() {
        let mut e = Events::default();
        e.all("one");
        e.seat(1, "two");
        e.seats(vec![0, 1], "three");
        let taken = e.take();
        assert_eq!(
            taken,
            vec![(To::All, "one".into()), (To::Seat(1), "two".into()), (To::Seats(vec![0, 1]), "three".into())]
        );
        assert!(e.take().is_empty(), "each event is handed over once");
        for k in 0..5 {
            e.all(k.to_string());
        }
        assert_eq!(e.take_first(3).iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>(), ["0", "1", "2"]);
        assert_eq!(e.take_first(3).iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>(), ["3", "4"]);
        assert!(e.take_first(3).is_empty());
    }

    #[test]
    fn options_are_read_or_refused_by_name() {
        let setup =
            Setup { options: vec![("rounds".into(), "7".into()), ("mode".into(), "x".into())], ..Setup::default() };
        assert_eq!(setup.option::<u32>("rounds"), Ok(Some(7)));
        assert_eq!(setup.option::<u32>("absent"), Ok(None));
        assert!(setup.option::<u32>("mode").unwrap_err().contains("option `mode`"));
        assert_eq!(FaultKind::Fuel.words(), "out of fuel");
    }
}

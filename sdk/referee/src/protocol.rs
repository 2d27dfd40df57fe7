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

/// The game's events, kept (in order) until the host takes them: their texts one after another in
/// one buffer, and each event's audience and length, so that telling an event allocates nothing of its
/// own and the host takes many in one string.
#[derive(Debug, Default)]
pub struct Events {
    text: String,
    told: Vec<(To, u32)>,
}

impl Events {
    /// An event for everyone, spectators included.
    pub fn all(&mut self, text: impl AsRef<str>) {
        self.tell(To::All, &[text.as_ref()]);
    }

    /// An event for one seat alone.
    pub fn seat(&mut self, seat: u32, text: impl AsRef<str>) {
        self.tell(To::Seat(seat), &[text.as_ref()]);
    }

    /// An event for a few seats (not spectators).
    pub fn seats(&mut self, seats: Vec<u32>, text: impl AsRef<str>) {
        self.tell(To::Seats(seats), &[text.as_ref()]);
    }

    pub fn push(&mut self, to: To, text: impl AsRef<str>) {
        self.tell(to, &[text.as_ref()]);
    }

    /// An event whose text is `parts` one after another, written straight into the buffer.
    pub fn tell(&mut self, to: To, parts: &[&str]) {
        let before = self.text.len();
        for part in parts {
            self.text.push_str(part);
        }
        self.told.push((to, (self.text.len() - before) as u32));
    }

    /// How many events are kept.
    pub fn len(&self) -> usize {
        self.told.len()
    }

    pub fn is_empty(&self) -> bool {
        self.told.is_empty()
    }

    /// The events so far, oldest first, leaving none.
    pub fn take(&mut self) -> Vec<(To, String)> {
        let (text, told) = self.hand_over(usize::MAX, usize::MAX);
        let mut at = 0;
        told.into_iter()
            .map(|(to, len)| {
                let end = at + len as usize;
                let t = text[at..end].to_string();
                at = end;
                (to, t)
            })
            .collect()
    }

    /// The oldest events, as many as `events` and as fit in `bytes` of text (always one, however
    /// long), leaving the rest: their texts one after another, and each one's audience and length.
    pub fn hand_over(&mut self, events: usize, bytes: usize) -> (String, Vec<(To, u32)>) {
        let (mut n, mut end) = (0, 0usize);
        for (_, len) in self.told.iter().take(events) {
            let next = end + *len as usize;
            if n > 0 && next > bytes {
                break;
            }
            (n, end) = (n + 1, next);
        }
        if n == self.told.len() {
            return (std::mem::take(&mut self.text), std::mem::take(&mut self.told));
        }
        let rest = self.text.split_off(end);
        (std::mem::replace(&mut self.text, rest), self.told.drain(..n).collect())
    }
}

/// The most events a referee hands the host in one `events()` call, and the most bytes of their texts
/// (it calls again for more).
pub const EVENTS_A_CALL: usize = 4096;
pub const EVENT_BYTES_A_CALL: usize = 256 << 10;

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
    /// A number that changes whenever an answer may have changed what another seat is asked, or
    /// `None` (the default): then a step builds the requests of the seats still to answer before and
    /// after each answer, to compare them. A game whose seats answer at once without seeing each
    /// other's answers (secret bids, simultaneous moves) can give the round, so that a step builds no
    /// request to compare. It may change more often than needed (the host then hands the remaining
    /// answers back in another step), never less.
    fn asked_stamp(&self) -> Option<u64> {
        None
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
        e.tell(To::Seat(0), &["é", "", "5"]);
        assert_eq!(e.hand_over(3, usize::MAX), ("012".to_string(), vec![(To::All, 1), (To::All, 1), (To::All, 1)]));
        assert_eq!(e.len(), 3);
        assert_eq!(e.hand_over(9, 1), ("3".to_string(), vec![(To::All, 1)]), "as many as fit in the bytes");
        assert_eq!(e.hand_over(9, 0), ("4".to_string(), vec![(To::All, 1)]), "always one, however long");
        assert_eq!(e.hand_over(9, 9), ("é5".to_string(), vec![(To::Seat(0), 3)]), "lengths in bytes");
        assert_eq!(e.hand_over(9, 9), (String::new(), vec![]));
        assert!(e.is_empty());
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

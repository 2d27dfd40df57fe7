//! What a referee emits during a game, and for whom: every seat, some seats, or spectators too.

/// The seats an event is for: one or two held in place (most private events are for one seat), so
/// that keeping such an event allocates nothing for its audience. Serialized as a list.
pub type Seats = smallvec::SmallVec<[u32; 2]>;

/// An event a referee emitted, for an audience of seats (`None`: everyone).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// The seats it is for; `None` for everyone (spectators included).
    pub to: Option<Seats>,
    pub text: String,
}

impl Event {
    /// Whether `seat` may see it (`None`: a spectator, who sees public events only).
    pub fn seen_by(&self, seat: Option<usize>) -> bool {
        match (&self.to, seat) {
            (None, _) => true,
            (Some(to), Some(s)) => u32::try_from(s).is_ok_and(|s| to.contains(&s)),
            (Some(_), None) => false,
        }
    }

    /// Whether a viewer playing `seats` (none: a spectator) may see it.
    pub fn seen_by_any(&self, seats: &[usize]) -> bool {
        self.seen_by(None) || seats.iter().any(|&s| self.seen_by(Some(s)))
    }
}

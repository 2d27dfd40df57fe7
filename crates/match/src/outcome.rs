//! What one game of a package comes to: its outcome, and a replay's course step by step.

use arena_core::CallLine;
use arena_core::Event;
use arena_core::Fault;
use serde::Serialize;

/// How a game of a package went.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PackageOutcome {
    /// Per seat.
    pub scores: Vec<i64>,
    /// Seats that won.
    pub winners: Vec<usize>,
    /// Players' faults in the order they happened, with the seat that failed.
    pub faults: Vec<(usize, Fault)>,
    /// The referee failed: the game has no result, and nobody is banned for it.
    pub game_fault: Option<Fault>,
    /// What the referee emitted, with its audience.
    pub events: Vec<Event>,
    /// Fuel used per seat.
    pub fuel: Vec<u64>,
    /// What the referee was handed, in order: every answer (as JSON) and every fault, each with the
    /// step (from 1) it belongs to. A replay feeds it to the referee again.
    pub log: Vec<CallLine>,
    /// A replay's course: after each step, what it handed the referee, the events it caused and the
    /// view that followed (empty when the game was played live).
    pub frames: Vec<Frame>,
    /// The referee's view of the final position, for spectators.
    pub view: String,
    /// Its view for each seat, which may show what that seat alone may see.
    pub seat_views: Vec<String>,
    /// What each seat printed (bounded).
    pub logs: Vec<String>,
    /// The referee's drawing of the final position for spectators, if it draws (its `svg` export).
    pub svg: Option<String>,
    /// Its drawing for each seat (empty when it does not draw).
    pub seat_svgs: Vec<Option<String>>,
}

/// One step of a replay: the record's lines of that step, the events they caused, the view after.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Frame {
    pub step: u32,
    pub lines: Vec<CallLine>,
    pub events: Vec<Event>,
    pub view: String,
    /// The referee's drawing after the step, if it draws.
    pub svg: Option<String>,
}

impl PackageOutcome {
    /// The events `seat` may see (`None`: a spectator, who sees public events only).
    pub fn events_for(&self, seat: Option<usize>) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(move |e| e.seen_by(seat))
    }

    /// Every answered call: (seat, call, fuel).
    pub fn calls(&self) -> Vec<(usize, &str, u64)> {
        self.log.iter().filter(|c| c.fault.is_none()).map(|c| (c.seat, c.call.as_ref(), c.fuel)).collect()
    }
}

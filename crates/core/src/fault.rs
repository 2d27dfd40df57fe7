//! The shared vocabulary of player failure: every way a player can fail becomes one `Fault`, recorded
//! for that player, and the tournament goes on.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a player failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// The rules refused the answer, or the answer was malformed.
    Illegal,
    /// A trap: panic, `unreachable`, stack overflow, out-of-bounds access, failed instantiation.
    Crash,
    /// The call used up its fuel budget.
    Fuel,
    /// The call ran past its wall-clock deadline.
    Timeout,
    /// The player asked for more linear memory (or tables, or instances) than its cap.
    Memory,
}

impl FaultKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal",
            FaultKind::Crash => "crash",
            FaultKind::Fuel => "fuel",
            FaultKind::Timeout => "timeout",
            FaultKind::Memory => "memory",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One player failure: its kind, a human reason, and the call it failed on (`keep`, `game-start`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    pub reason: String,
    pub call: String,
}

/// A fault and the player it is blamed on, as a game record lists it. A ban is one too (with the game it
/// happened in, `arena_tournament::Ban`); a referee's fault is a `Fault` alone, blamed on nobody.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerFault {
    pub player: String,
    #[serde(flatten)]
    pub fault: Fault,
}

impl PlayerFault {
    pub fn new(player: impl Into<String>, fault: Fault) -> PlayerFault {
        PlayerFault { player: player.into(), fault }
    }
}

/// A player's fault is read as the fault it is (`f.kind`, `f.call`, `f.reason`).
impl std::ops::Deref for PlayerFault {
    type Target = Fault;
    fn deref(&self) -> &Fault {
        &self.fault
    }
}

impl Fault {
    /// A fault whose reason is cut to a small bound: reasons often quote what a player sent.
    pub fn new(kind: FaultKind, call: impl Into<String>, reason: impl Into<String>) -> Fault {
        Fault { kind, reason: crate::quote(&reason.into()), call: call.into() }
    }

    pub fn illegal(call: impl Into<String>, reason: impl Into<String>) -> Fault {
        Fault::new(FaultKind::Illegal, call, reason)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in `{}`: {}", self.kind, self.call, self.reason)
    }
}

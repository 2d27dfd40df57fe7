//! Arena's referee kit: what every game's referee needs besides its own rules, written once. A referee
//! builds with it for `wasm32-wasip2` (no dependency, no host type): the [`Referee`] trait is the
//! `arena:game` protocol as a state machine, [`export_referee!`] its component exports, `rng` the one
//! source of chance a referee has (drawn from the game's seed), `svg` drawings no player's name can
//! break.

mod export;
mod protocol;
pub mod rng;
pub mod svg;

#[doc(hidden)]
pub use postcard as __postcard;

pub use protocol::{
    EVENT_BYTES_A_CALL, EVENTS_A_CALL, Events, Fault, FaultKind, MatchState, Outcome, Referee, Setup, To,
    TournamentEvent,
};

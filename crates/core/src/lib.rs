//! The words every layer of Arena shares, and nothing that runs code: faults and their kinds, the
//! seeds every game derives from the tournament's, a player's limits, what a referee emits, how
//! player data is quoted, and the `Game` seam the tournaments play through. No wasmtime type is
//! here, so the tournaments (which depend on this crate and not on the sandbox) cannot name one.

pub mod clock;
pub mod data_dir;
pub mod event;
pub mod fault;
pub mod files;
pub mod game;
pub mod limits;
pub mod quote;
pub mod seed;
pub mod values;

pub use clock::{duration_secs, duration_text, seats_text, unix_now};
pub use data_dir::DataDir;
pub use event::{Event, Seats};
pub use fault::{Fault, FaultKind, PlayerFault};
pub use files::{secret, sha256_hex, write_atomically};
pub use game::{
    CallLine, Entry, Finals, Frame, GAMES_IN_FLIGHT, Game, GameOutcome, GameSetup, LINE_BYTES, MatchSoFar,
    TournamentInfo,
};
pub use limits::Limits;
pub use quote::{QUOTE_CHARS, bytes_text, quote, quote_at, quote_json, quote_json_measured};
pub use values::{
    MAX_GAMES_PER_MATCH, MAX_NAME, check_games_per_match, check_player_name, parse_games_per_match, parse_seed,
};

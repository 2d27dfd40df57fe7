//! Shared glue for Rust Goofspiel players: the guest bindings of the `arena:goofspiel/player` world
//! (generated once, here), the conversion of a WIT state to `goofspiel_bots::View`, WASI randomness,
//! and `player!`, which exports a strategy written against the `View`. Only compiled for wasm32.
#![cfg(target_arch = "wasm32")]

#[allow(clippy::too_many_arguments)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../../wit",
        world: "arena:goofspiel/player",
        pub_export_macro: true,
        default_bindings_module: "goofspiel_guest::bindings",
    });
}

/// `wasi:random/random`, which the random player draws from (the host seeds it from the game's seed:
/// a game stays reproducible). Its WIT is written out whole, as the WASI adapter's copy must match it.
mod wasi_random {
    wit_bindgen::generate!({
        inline: "
            package wasi:random@0.2.6;
            interface random {
                get-random-bytes: func(len: u64) -> list<u8>;
                get-random-u64: func() -> u64;
            }
            world imports {
                import random;
            }
        ",
        world: "wasi:random/imports",
    });
}

pub use bindings::arena::goofspiel::types as wit;
use goofspiel_bots::{Round, View};

/// A random 64-bit value from WASI.
pub fn random_u64() -> u64 {
    wasi_random::wasi::random::random::get_random_u64()
}

/// The bots' view of a WIT state (what native bots get, so strategies run unchanged), taking its lists
/// as they are: nothing is copied, so a bid allocates no more than its arguments did.
pub fn view(s: wit::State) -> View {
    View {
        you: s.you,
        seats: s.seats,
        round: s.round,
        prize: s.prize,
        carried: s.carried,
        hand: s.hand,
        scores: s.scores,
        playing: s.playing,
        history: s
            .history
            .into_iter()
            .map(|r| Round { prize: r.prize, carried: r.carried, bids: r.bids, winner: r.winner })
            .collect(),
    }
}

/// Exports a player whose `bid` is the given function of `&View`. The misbehaving sample players add
/// a hook: `bid` sees the WIT state first and may answer instead (`Some(card)`), or misbehave.
#[macro_export]
macro_rules! player {
    ($bid:path) => {
        $crate::player!($bid, bid: |_: &$crate::wit::State| None);
    };
    ($bid:path, bid: $hook:expr) => {
        struct Player;
        impl $crate::bindings::Guest for Player {
            fn bid(s: $crate::wit::State) -> u8 {
                let hook: fn(&$crate::wit::State) -> Option<u8> = $hook;
                hook(&s).unwrap_or_else(|| $bid(&$crate::view(s)))
            }
        }
        $crate::bindings::export!(Player with_types_in $crate::bindings);
    };
}

pub use misbehave::{hoard, spin};

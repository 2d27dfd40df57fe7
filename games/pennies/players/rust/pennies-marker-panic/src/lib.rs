//! A test player for the privacy of output: as seat 1 only, from round 2 on, it panics with a marker
//! in its panic message. As seat 0 it plays heads quietly. Its marker may reach its owner only.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:pennies/player" });

struct MarkerPanic;

impl Guest for MarkerPanic {
    fn choose(round: Round) -> bool {
        if round.you == 1 && round.number >= 2 {
            panic!("MARKER-PANIC-c41d: a secret in a panic message");
        }
        true
    }
}

export!(MarkerPanic);

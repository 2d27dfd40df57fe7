//! A test player for the privacy of output: as seat 1 only, from round 2 on, it prints a marker
//! (something it might have read and want to leak) and then traps (wasm `unreachable`). As seat 0
//! it plays heads quietly. Its marker may reach its owner only.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:pennies/player" });

struct MarkerTrap;

impl Guest for MarkerTrap {
    fn choose(round: Round) -> bool {
        if round.you == 1 && round.number >= 2 {
            println!("MARKER-TRAP-7f3a: a secret this player printed");
            core::arch::wasm32::unreachable();
        }
        true
    }
}

export!(MarkerTrap);

//! A matching-pennies player that shows heads in odd rounds and tails in even ones.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:pennies/player" });

struct Alternate;

impl Guest for Alternate {
    fn choose(round: Round) -> bool {
        round.number % 2 == 1
    }
}

export!(Alternate);

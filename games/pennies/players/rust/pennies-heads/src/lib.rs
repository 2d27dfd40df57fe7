//! A matching-pennies player that always shows heads.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:pennies/player" });

struct Heads;

impl Guest for Heads {
    fn choose(_: Round) -> bool {
        true
    }
}

export!(Heads);

//! A misbehaving Nim player: takes more stones than the first heap has.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:nim/player" });

struct Cheat;

impl Guest for Cheat {
    fn take_turn(state: State) -> Take {
        Take { heap: 0, count: state.heaps.first().copied().unwrap_or(0) + 1 }
    }
}

export!(Cheat);

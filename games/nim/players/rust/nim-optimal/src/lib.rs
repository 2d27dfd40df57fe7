//! The optimal Nim player: moves to a position whose nim-sum (the xor of the heaps) is zero when it can,
//! else takes one stone from the largest heap.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:nim/player" });

struct Optimal;

impl Guest for Optimal {
    fn take_turn(state: State) -> Take {
        let sum = state.heaps.iter().fold(0, |a, h| a ^ h);
        if sum != 0
            && let Some((i, h)) = state.heaps.iter().enumerate().find(|(_, h)| *h ^ sum < **h)
        {
            return Take { heap: i as u32, count: h - (h ^ sum) };
        }
        let i = state.heaps.iter().enumerate().max_by_key(|(_, h)| **h).map_or(0, |(i, _)| i);
        Take { heap: i as u32, count: 1 }
    }
}

export!(Optimal);

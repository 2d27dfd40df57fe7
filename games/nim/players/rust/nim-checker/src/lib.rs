//! A test player of Nim for the tests of a failing rule checker: before each move it asks the broken
//! test referee's rule checker `arena:nim/test-rules#stones` how many stones are left (that checker
//! traps when there are 10 or fewer), then takes one stone from the largest heap.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({
    path: "../../../wit",
    inline: "package arena:nim-checked@0.1.0;
             world player-checked { include arena:nim/player@0.1.0; import arena:nim/test-rules@0.1.0; }",
    world: "arena:nim-checked/player-checked",
    generate_all,
});

struct Checker;

impl Guest for Checker {
    fn take_turn(state: State) -> Take {
        let _left = arena::nim::test_rules::stones(&state.heaps);
        let i = state.heaps.iter().enumerate().max_by_key(|(_, h)| **h).map_or(0, |(i, _)| i);
        Take { heap: i as u32, count: 1 }
    }
}

export!(Checker);

//! A deliberately broken Nim referee, for the tests of game faults: it asks seats in turn and traps
//! when it is handed its second answer. A game it referees ends as a game fault; nobody is banned. With
//! the option `events=N` it first emits N events of `event-chars` characters each (1,000 unless that
//! option is set): a flood of events.
#![cfg(target_arch = "wasm32")]
// The generated lowering of the setup record takes many flat arguments.
#![allow(clippy::too_many_arguments)]

wit_bindgen::generate!({ path: "../../wit", world: "arena:nim/referee", generate_all });

use arena::nim::types::State;
use std::cell::Cell;

thread_local! {
    static APPLIED: Cell<u32> = const { Cell::new(0) };
}

struct Broken;

impl Guest for Broken {
    fn start(setup: Setup) -> Result<(), String> {
        let option = |name: &str| setup.options.iter().find(|(k, _)| k == name).and_then(|(_, v)| v.parse().ok());
        let flood = option("events").unwrap_or(0);
        let text = "x".repeat(option("event-chars").unwrap_or(1000));
        for _ in 0..flood {
            arena::game::events::emit(&arena::game::types::Audience::All, &text);
        }
        Ok(())
    }
    fn requests() -> Vec<(u32, Request)> {
        let seat = APPLIED.get() % 2;
        vec![(seat, Request::TakeTurn(State { heaps: vec![3, 4, 5], you: seat }))]
    }
    fn apply(_: u32, _: Answer) -> Result<(), String> {
        APPLIED.set(APPLIED.get() + 1);
        if APPLIED.get() == 2 {
            panic!("the broken referee gives up");
        }
        Ok(())
    }
    fn banned(_: u32, _: Fault) {}
    fn outcome() -> Option<Outcome> {
        None
    }
    fn view(_: Option<u32>) -> String {
        String::new()
    }
}

export!(Broken);

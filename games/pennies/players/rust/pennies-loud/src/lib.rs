//! A test player for the web arena: it plays like pennies-alternate, but every round it prints HTML
//! and a script into its log, which every page must show as text and never run.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ path: "../../../wit", world: "arena:pennies/player" });

struct Loud;

impl Guest for Loud {
    fn choose(round: Round) -> bool {
        eprintln!("round {}: <script>alert('log')</script><b>bold</b> & <img src=x onerror=alert(1)>", round.number);
        round.number % 2 == 1
    }
}

export!(Loud);

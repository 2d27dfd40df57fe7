//! A misbehaving player for the test suite: smart until round 5, where it panics.
#![cfg(target_arch = "wasm32")]

goofspiel_guest::player!(goofspiel_bots::smart::bid, bid: |s| {
    if s.round >= 5 {
        panic!("goofspiel-panic gives up");
    }
    None
});

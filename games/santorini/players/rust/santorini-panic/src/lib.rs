//! A misbehaving player for the test suite: minimax until its fourth turn, where it panics.
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(santorini_bots::minimax::place, santorini_bots::minimax::take_turn, turn: |s| {
    if santorini_guest::my_turn(s) >= 4 {
        panic!("santorini-panic gives up");
    }
    None
});

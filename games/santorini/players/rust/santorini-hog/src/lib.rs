//! A misbehaving player for the test suite: minimax until its second turn, where it reserves memory
//! until the cap stops it.
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(santorini_bots::minimax::place, santorini_bots::minimax::take_turn, turn: |s| {
    (santorini_guest::my_turn(s) >= 2).then(|| santorini_guest::hoard())
});

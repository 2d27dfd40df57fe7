//! A misbehaving player for the test suite: minimax until its third turn, which never returns.
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(santorini_bots::minimax::place, santorini_bots::minimax::take_turn, turn: |s| {
    (santorini_guest::my_turn(s) >= 3).then(|| santorini_guest::spin())
});

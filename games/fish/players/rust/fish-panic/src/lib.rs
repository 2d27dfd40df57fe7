//! A misbehaving player for the test suite: greedy until it has 4 fish or more, then it panics.
#![cfg(target_arch = "wasm32")]

fish_guest::player!(fish_bots::greedy::place, fish_bots::greedy::take_turn, turn: |s| {
    if fish_guest::my_fish(s) >= 4 {
        panic!("fish-panic gives up");
    }
    None
});

//! A misbehaving player for the test suite: greedy until it has collected some fish, then it traps on
//! its next move (a crash mid-game, after it has fish that still count).
#![cfg(target_arch = "wasm32")]

fish_guest::player!(fish_bots::greedy::place, fish_bots::greedy::take_turn, turn: |s| {
    if fish_guest::my_fish(s) > 0 {
        core::arch::wasm32::unreachable()
    }
    None
});

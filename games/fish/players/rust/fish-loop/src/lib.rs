//! A misbehaving player for the test suite: greedy until it has some fish, then a move that never returns.
#![cfg(target_arch = "wasm32")]

fish_guest::player!(fish_bots::greedy::place, fish_bots::greedy::take_turn, turn: |s| (fish_guest::my_fish(s) > 0).then(|| fish_guest::spin()));

//! A misbehaving player for the test suite: at its first move it reserves memory until the cap stops it.
#![cfg(target_arch = "wasm32")]

fish_guest::player!(fish_bots::greedy::place, fish_bots::greedy::take_turn, turn: |_| fish_guest::hoard());

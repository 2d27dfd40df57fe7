//! The greedy sample Fish player as a component (greedy with a short look-ahead).
#![cfg(target_arch = "wasm32")]

fish_guest::player!(fish_bots::greedy::place, fish_bots::greedy::take_turn);

//! The random sample Fish player as a component.
#![cfg(target_arch = "wasm32")]

fish_guest::player!(fish_bots::random::place, fish_bots::random::take_turn);

//! The random sample Santorini player as a component.
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(santorini_bots::random::place, santorini_bots::random::take_turn);

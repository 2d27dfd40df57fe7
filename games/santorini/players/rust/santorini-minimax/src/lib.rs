//! The minimax sample Santorini player as a component (alpha-beta on the shared rules code).
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(santorini_bots::minimax::place, santorini_bots::minimax::take_turn);

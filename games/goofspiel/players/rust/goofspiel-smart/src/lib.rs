//! The smart sample Goofspiel player as a component (card matching, sure wins, lost causes).
#![cfg(target_arch = "wasm32")]

goofspiel_guest::player!(goofspiel_bots::smart::bid);

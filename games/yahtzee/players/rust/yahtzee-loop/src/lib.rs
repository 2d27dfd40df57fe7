//! A misbehaving player for the test suite: greedy until turn 3, where `keep` spins forever. Fuel (or,
//! with a huge fuel budget, the deadline) must stop it and ban it.
#![cfg(target_arch = "wasm32")]

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, keep: |s| (s.turn == 3).then(|| yahtzee_guest::spin()));

//! A misbehaving player for the test suite: greedy until turn 2, where `keep` reserves memory until the
//! memory cap stops it.
#![cfg(target_arch = "wasm32")]

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, keep: |s| (s.turn == 2).then(|| yahtzee_guest::hoard()));

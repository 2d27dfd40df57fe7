//! A misbehaving player for the test suite: greedy until turn 5, where `choose` panics (a trap).
#![cfg(target_arch = "wasm32")]

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, choose: |s| {
    if s.turn == 5 {
        panic!("yahtzee-panic gives up on turn {}", s.turn);
    }
    None
});

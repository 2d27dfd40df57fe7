//! A misbehaving player for the test suite: greedy until turn 2, where `keep` sleeps for a minute. A
//! sleep is a blocking host call that burns no fuel: only the wall-clock backstop can end it.
#![cfg(target_arch = "wasm32")]

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, keep: |s| {
    if s.turn == 2 {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
    None
});

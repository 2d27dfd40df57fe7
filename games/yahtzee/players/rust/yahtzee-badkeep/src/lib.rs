//! A misbehaving player for the test suite: greedy, except that on turn 2 it keeps a die value that is
//! not showing (the rules must refuse it: you can only keep dice you have).
#![cfg(target_arch = "wasm32")]

use yahtzee_guest::wit::TurnState;

fn an_absent_die(s: &TurnState) -> Option<Vec<u8>> {
    if s.turn != 2 {
        return None;
    }
    // Five dice cannot show all six values.
    (1..=6).find(|d| !s.dice.contains(d)).map(|d| vec![d])
}

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, keep: an_absent_die);

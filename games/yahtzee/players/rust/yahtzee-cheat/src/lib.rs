//! A misbehaving player for the test suite: greedy, except that on turn 4 it scores again in the first
//! box it already used (the rules must refuse it).
#![cfg(target_arch = "wasm32")]

use yahtzee_guest::wit::{Category, TurnState};

fn a_used_box(s: &TurnState) -> Option<Category> {
    if s.turn != 4 {
        return None;
    }
    let v = yahtzee_guest::view(s);
    yahtzee_rules::Category::ALL.into_iter().find(|c| !v.mine.is_open(*c)).map(yahtzee_guest::to_wit)
}

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, choose: a_used_box);

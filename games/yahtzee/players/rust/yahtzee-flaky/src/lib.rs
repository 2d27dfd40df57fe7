//! A player that misbehaves in most games, not all, for the ladder's tests: greedy, except that at the
//! first `keep` of turn 2 it keeps a die value that is not showing unless the dice add up to 12 or
//! less (about one game in ten). Its validation game passes for some seeds, so it can be registered
//! and then fault in the ladder.
#![cfg(target_arch = "wasm32")]

use yahtzee_guest::wit::TurnState;

fn mostly_an_absent_die(s: &TurnState) -> Option<Vec<u8>> {
    let sum: u32 = s.dice.iter().map(|&d| u32::from(d)).sum();
    if s.turn != 2 || s.rolls_left != 2 || sum <= 12 {
        return None;
    }
    // Five dice cannot show all six values.
    (1..=6).find(|d| !s.dice.contains(d)).map(|d| vec![d])
}

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose, keep: mostly_an_absent_die);

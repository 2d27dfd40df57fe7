//! The greedy sample player as a component: exports `yahtzee_bots::greedy` through the shared glue.
#![cfg(target_arch = "wasm32")]

yahtzee_guest::player!(yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose);

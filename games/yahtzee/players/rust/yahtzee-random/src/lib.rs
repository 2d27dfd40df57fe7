//! The random sample player as a component: exports `yahtzee_bots::random` through the shared glue.
#![cfg(target_arch = "wasm32")]

yahtzee_guest::player!(yahtzee_bots::random::keep, yahtzee_bots::random::choose);

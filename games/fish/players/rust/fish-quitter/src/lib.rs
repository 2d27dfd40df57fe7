//! A misbehaving player for the test suite: plays greedily, but traps when told the tournament is over
//! (it fails only in a lifecycle call).
#![cfg(target_arch = "wasm32")]

fish_guest::player!(
    fish_bots::greedy::place,
    fish_bots::greedy::take_turn,
    turn: |_| None,
    end: |_| core::arch::wasm32::unreachable()
);

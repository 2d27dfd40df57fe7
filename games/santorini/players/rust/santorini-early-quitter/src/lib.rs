//! A misbehaving player for the test suite: plays minimax, but traps when told the tournament is
//! starting (it fails in a lifecycle call before any game; `santorini-quitter` fails in the last one).
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(
    santorini_bots::minimax::place,
    santorini_bots::minimax::take_turn,
    start: |_, _| core::arch::wasm32::unreachable()
);

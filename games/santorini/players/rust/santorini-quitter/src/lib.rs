//! A misbehaving player for the test suite: plays minimax well, but traps when told the tournament is
//! over (it fails only in a lifecycle call).
#![cfg(target_arch = "wasm32")]

santorini_guest::player!(
    santorini_bots::minimax::place,
    santorini_bots::minimax::take_turn,
    turn: |_| None,
    end: |_| core::arch::wasm32::unreachable()
);

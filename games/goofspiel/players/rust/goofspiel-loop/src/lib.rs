//! A misbehaving player for the test suite: smart in round 1, then a bid that never returns.
#![cfg(target_arch = "wasm32")]

goofspiel_guest::player!(goofspiel_bots::smart::bid, bid: |s| (s.round >= 2).then(|| goofspiel_guest::spin()));

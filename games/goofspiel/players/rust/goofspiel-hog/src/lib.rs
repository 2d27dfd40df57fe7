//! A misbehaving player for the test suite: smart until round 3, where it reserves memory until the
//! cap stops it.
#![cfg(target_arch = "wasm32")]

goofspiel_guest::player!(goofspiel_bots::smart::bid, bid: |s| (s.round >= 3).then(|| goofspiel_guest::hoard()));

//! A misbehaving player for the test suite: smart in rounds 1 and 2, then it bids again the card it
//! spent in round 1 (the rules must refuse it).
#![cfg(target_arch = "wasm32")]

use goofspiel_guest::wit::State;

fn a_spent_card(s: &State) -> Option<u8> {
    if s.round < 3 {
        return None;
    }
    *s.history.first()?.bids.get(s.you as usize)?
}

goofspiel_guest::player!(goofspiel_bots::smart::bid, bid: a_spent_card);

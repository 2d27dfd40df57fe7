//! The random sample Goofspiel player as a component: a uniformly random card of its hand, drawn from
//! WASI random (which the host seeds from the game's seed, so a game stays reproducible).
#![cfg(target_arch = "wasm32")]

fn bid(view: &goofspiel_bots::View) -> u8 {
    goofspiel_bots::random::bid(view, goofspiel_guest::random_u64())
}

goofspiel_guest::player!(bid);

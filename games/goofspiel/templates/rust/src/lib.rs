//! A minimal Arena Goofspiel player: bids the lowest card in its hand. Make it yours: every call gets
//! the whole game (the prize, what was carried over, your hand, the scores, every earlier round's
//! bids), so keep no state.

wit_bindgen::generate!({ path: "wit", world: "arena:goofspiel/player" });

struct Player;

impl Guest for Player {
    /// Your bid this round: one card from `state.hand` (ascending). Put your strategy here, e.g. a
    /// high card for a valuable pot (`state.prize` plus `state.carried`), a low one for a poor pot.
    fn bid(state: State) -> u8 {
        state.hand.first().copied().unwrap_or(1)
    }
}

export!(Player);

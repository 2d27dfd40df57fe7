//! The random sample Santorini player as a component. It also shows the rule checker at work: before
//! answering, it asks the host (`arena:santorini/rules`, a little fuel a call) whether its answer is legal, and
//! panics if the host and the shared rules code ever disagree.
#![cfg(target_arch = "wasm32")]

use santorini_guest::bindings::arena::santorini::rules;
use santorini_guest::bindings::{Guest, export};
use santorini_guest::wit::{Cell, GameInfo, State, Turn};
use santorini_guest::{to_wit_cell, to_wit_turn, view};

struct Player;

impl Guest for Player {
    fn tournament_start(_: String, _: Vec<String>) {}
    fn match_start(_: String, _: u32, _: u32) {}
    fn game_start(_: GameInfo) {}
    fn place(s: State) -> Cell {
        let at = to_wit_cell(santorini_bots::random::place(&view(&s)));
        assert!(rules::is_legal_place(&s, at), "the host refuses placing on {at:?}");
        at
    }
    fn take_turn(s: State) -> Turn {
        let turn = to_wit_turn(santorini_bots::random::take_turn(&view(&s)));
        assert!(rules::is_legal_turn(&s, turn), "the host refuses {turn:?}");
        assert!(rules::legal_turns(&s).contains(&turn), "the host's legal turns miss {turn:?}");
        turn
    }
    fn game_over(_: bool) {}
    fn tournament_end(_: bool) {}
}

export!(Player);

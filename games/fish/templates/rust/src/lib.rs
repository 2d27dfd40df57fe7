//! A minimal Arena Fish player: places and moves where the host's rule checker says first. Make it
//! yours: every call gets the whole game, so keep no state.

wit_bindgen::generate!({ path: "wit", world: "arena:fish/player" });

use arena::fish::rules;

struct Player;

impl Guest for Player {
    fn start() {}
    fn play_as(_colour: Colour) {}
    fn play_with(_others: Vec<Colour>) {}
    fn setup(state: State) -> Pos {
        rules::legal_placements(&state).into_iter().next().unwrap_or(Pos { row: 0, col: 0 })
    }
    fn take_turn(state: State, _actions: Vec<Action>) -> Step {
        let first = rules::legal_moves(&state).into_iter().next();
        first.unwrap_or(Step { from: Pos { row: 0, col: 0 }, to: Pos { row: 0, col: 0 } })
    }
    fn end(_won: bool) {}
}

export!(Player);

//! A minimal Arena Santorini player: places on the first free cell and plays the first legal turn the
//! host's rule checker lists. Make it yours: every call gets the whole game, so keep no state.

wit_bindgen::generate!({ path: "wit", world: "arena:santorini/player" });

use arena::santorini::rules;

struct Player;

impl Guest for Player {
    fn tournament_start(_you: String, _players: Vec<String>) {}
    fn match_start(_opponent: String, _number: u32, _total: u32) {}
    fn game_start(_info: GameInfo) {}
    fn place(state: State) -> Cell {
        let cells = (0..25u8).map(|i| Cell { row: i / 5, col: i % 5 });
        cells.clone().find(|c| rules::is_legal_place(&state, *c)).unwrap_or(Cell { row: 0, col: 0 })
    }
    fn take_turn(state: State) -> Turn {
        let turns = rules::legal_turns(&state);
        turns.into_iter().next().unwrap_or(Turn { worker: 0, to: Cell { row: 0, col: 0 }, build: None })
    }
    fn game_over(_won: bool) {}
    fn tournament_end(_won: bool) {}
}

export!(Player);

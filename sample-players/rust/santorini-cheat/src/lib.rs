//! A misbehaving player for the test suite: minimax until its third turn, where it moves a worker two rows away (the rules must refuse it).
#![cfg(target_arch = "wasm32")]

use santorini_guest::bindings::{Guest, export};
use santorini_guest::wit::{Cell, GameInfo, State, Turn};
use santorini_guest::{to_wit_cell, to_wit_turn, view};

/// How many turns this player has taken in the game so far (from the board: one level per turn).
#[allow(dead_code)]
fn my_turns(s: &State) -> u32 {
    let levels: u32 = s.heights.iter().map(|&h| u32::from(h)).sum();
    (levels + 1 - u32::from(s.you)) / 2 + 1
}

struct Player;

impl Guest for Player {
    fn tournament_start(_: String, _: Vec<String>) {}
    fn game_start(_: GameInfo) {}
    fn place(s: State) -> Cell {
        to_wit_cell(santorini_bots::minimax::place(&view(&s)))
    }
    fn take_turn(s: State) -> Turn {
        if my_turns(&s) >= 3 {
            let me = usize::from(s.you) * 2;
            if let Some(Some(at)) = s.workers.get(me) {
                let row = if at.row >= 2 { at.row - 2 } else { at.row + 2 };
                return Turn {
                    worker: 0,
                    to: Cell { row, col: at.col },
                    build: Some(Cell { row: at.row, col: at.col }),
                };
            }
        }
        to_wit_turn(santorini_bots::minimax::take_turn(&view(&s)))
    }
    fn game_over(_: bool) {}
    fn tournament_end(_: bool) {}
}

export!(Player);

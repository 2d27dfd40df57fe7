//! A misbehaving player for the test suite: minimax until its third turn, which never returns.
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
            let mut x: u64 = 1;
            loop {
                x = core::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        to_wit_turn(santorini_bots::minimax::take_turn(&view(&s)))
    }
    fn game_over(_: bool) {}
    fn tournament_end(_: bool) {}
}

export!(Player);

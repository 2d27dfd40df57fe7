//! A misbehaving player for the test suite: greedy until it has some fish, then it moves a penguin onto
//! a hole (the rules must refuse it).
#![cfg(target_arch = "wasm32")]

use fish_guest::wit::{Pos, State, Step};

fn onto_a_hole(s: &State) -> Option<Step> {
    if fish_guest::my_fish(s) == 0 {
        return None;
    }
    let cols = usize::from(s.board.cols);
    let hole = s.board.tiles.iter().position(|&t| t == 0)?;
    let from = *s.seats[s.turn as usize].penguins.first()?;
    Some(Step { from, to: Pos { row: (hole / cols) as u8, col: (hole % cols) as u8 } })
}

fish_guest::player!(fish_bots::greedy::place, fish_bots::greedy::take_turn, turn: onto_a_hole);

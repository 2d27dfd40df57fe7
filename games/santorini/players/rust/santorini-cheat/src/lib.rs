//! A misbehaving player for the test suite: minimax until its third turn, where it moves a worker two
//! rows away (the rules must refuse it).
#![cfg(target_arch = "wasm32")]

use santorini_guest::wit::{Cell, State, Turn};

fn two_rows_away(s: &State) -> Option<Turn> {
    if santorini_guest::my_turn(s) < 3 {
        return None;
    }
    let at = (*s.workers.get(usize::from(s.you) * 2)?)?;
    let row = if at.row >= 2 { at.row - 2 } else { at.row + 2 };
    Some(Turn { worker: 0, to: Cell { row, col: at.col }, build: Some(at) })
}

santorini_guest::player!(santorini_bots::minimax::place, santorini_bots::minimax::take_turn, turn: two_rows_away);

//! A misbehaving player for the test suite: at its first move it reserves memory until the cap stops it.
#![cfg(target_arch = "wasm32")]

use fish_guest::bindings::{Guest, export};
use fish_guest::wit::{Action, Colour, Pos, State, Step};
use fish_guest::{to_wit_pos, to_wit_step, view};

/// The fish this player has collected so far (every move it makes collects at least one).
#[allow(dead_code)]
fn fish(s: &State) -> u32 {
    s.seats.get(s.turn as usize).map_or(0, |p| p.fish)
}

struct Player;

impl Guest for Player {
    fn start() {}
    fn play_as(_: Colour) {}
    fn play_with(_: Vec<Colour>) {}
    fn setup(s: State) -> Pos {
        to_wit_pos(fish_bots::greedy::place(&view(&s, &[])))
    }
    fn take_turn(s: State, a: Vec<Action>) -> Step {
        if !s.seats.is_empty() {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                let mut block = Vec::<u8>::with_capacity(1 << 20);
                block.push(7);
                hoard.push(core::hint::black_box(block));
            }
        }
        to_wit_step(fish_bots::greedy::take_turn(&view(&s, &a)))
    }
    fn end(_: bool) {}
}

export!(Player);

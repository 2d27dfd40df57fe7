//! A misbehaving player for the test suite: greedy until turn 3, where `keep` spins forever. Fuel
//! (or, with a huge fuel budget, the deadline) must stop it and ban it.
#![cfg(target_arch = "wasm32")]
use yahtzee_guest::bindings::{Guest, export};
use yahtzee_guest::wit::{Category, GameInfo, TournamentInfo, TurnState};
use yahtzee_guest::{to_wit, view};

struct Player;

impl Guest for Player {
    fn tournament_start(_: TournamentInfo) {}
    fn game_start(_: GameInfo) {}
    fn keep(s: TurnState) -> Vec<u8> {
        if s.turn == 3 {
            let mut x: u64 = 1;
            loop {
                x = core::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        yahtzee_bots::greedy::keep(&view(&s))
    }
    fn choose(s: TurnState) -> Category {
        to_wit(yahtzee_bots::greedy::choose(&view(&s)))
    }
    fn tournament_end(_: bool) {}
}

export!(Player);

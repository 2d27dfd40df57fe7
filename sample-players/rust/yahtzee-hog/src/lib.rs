//! A misbehaving player for the test suite: greedy until turn 2, where `keep` reserves 1 MiB after
//! 1 MiB of memory (without touching it, so it burns little fuel) until the memory cap stops it.
#![cfg(target_arch = "wasm32")]
use yahtzee_guest::bindings::{Guest, export};
use yahtzee_guest::wit::{Category, GameInfo, TournamentInfo, TurnState};
use yahtzee_guest::{to_wit, view};

struct Player;

impl Guest for Player {
    fn tournament_start(_: TournamentInfo) {}
    fn game_start(_: GameInfo) {}
    fn keep(s: TurnState) -> Vec<u8> {
        if s.turn == 2 {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                let mut block = Vec::<u8>::with_capacity(1 << 20);
                block.push(7);
                hoard.push(core::hint::black_box(block));
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

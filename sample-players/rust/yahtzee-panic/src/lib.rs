//! A misbehaving player for the test suite: greedy until turn 5, where `choose` panics (a trap).
#![cfg(target_arch = "wasm32")]
use yahtzee_guest::bindings::{Guest, export};
use yahtzee_guest::wit::{Category, GameInfo, TournamentInfo, TurnState};
use yahtzee_guest::{to_wit, view};

struct Player;

impl Guest for Player {
    fn tournament_start(_: TournamentInfo) {}
    fn game_start(_: GameInfo) {}
    fn keep(s: TurnState) -> Vec<u8> {
        yahtzee_bots::greedy::keep(&view(&s))
    }
    fn choose(s: TurnState) -> Category {
        if s.turn == 5 {
            panic!("yahtzee-panic gives up on turn {}", s.turn);
        }
        to_wit(yahtzee_bots::greedy::choose(&view(&s)))
    }
    fn tournament_end(_: bool) {}
}

export!(Player);

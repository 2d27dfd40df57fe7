//! A misbehaving player for the test suite: greedy until turn 2, where `keep` sleeps for a minute. A
//! sleep is a blocking host call that burns no fuel: only the wall-clock deadline can end it.
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
            std::thread::sleep(std::time::Duration::from_secs(60));
        }
        yahtzee_bots::greedy::keep(&view(&s))
    }
    fn choose(s: TurnState) -> Category {
        to_wit(yahtzee_bots::greedy::choose(&view(&s)))
    }
    fn tournament_end(_: bool) {}
}

export!(Player);

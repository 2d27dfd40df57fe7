//! A misbehaving player for the test suite: greedy, except that on turn 4 it scores again in the first
//! box it already used (the rules must refuse it).
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
        let v = view(&s);
        if s.turn == 4 {
            if let Some(used) = yahtzee_rules::Category::ALL.into_iter().find(|c| !v.mine.is_open(*c)) {
                return to_wit(used);
            }
        }
        to_wit(yahtzee_bots::greedy::choose(&v))
    }
    fn tournament_end(_: bool) {}
}

export!(Player);

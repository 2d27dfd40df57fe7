//! Nim's referee: heaps drawn from the game's seed, seats alternate, a take must remove one or more
//! stones from a heap that has them, and whoever takes the last stone wins; a seat that faults forfeits.
//! A state machine the host drives through the `arena:nim/referee` world.
#![cfg(target_arch = "wasm32")]
// The generated lowering of the setup record takes many flat arguments.
#![allow(clippy::too_many_arguments)]

wit_bindgen::generate!({ path: "../wit", world: "arena:nim/referee", generate_all });

use arena::game::events::emit;
use arena::game::types::Audience;
use arena::nim::types::{State, Take};
use std::cell::RefCell;

#[derive(Default)]
struct Game {
    heaps: Vec<u32>,
    seats: usize,
    /// The seat to move.
    turn: usize,
    /// Who took the last stone, or who is left when the other faulted.
    winner: Option<usize>,
}

thread_local! {
    static GAME: RefCell<Game> = RefCell::new(Game::default());
}

/// SplitMix64: the seed is the referee's only source of chance.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn heaps_text(heaps: &[u32]) -> String {
    heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

struct Referee;

impl Guest for Referee {
    fn start(setup: Setup) -> Result<(), String> {
        if setup.names.len() != 2 {
            return Err(format!("Nim seats 2 players, not {}", setup.names.len()));
        }
        let mut r = mix(setup.seed);
        let count = 3 + (r % 3) as usize;
        let heaps = (0..count)
            .map(|_| {
                r = mix(r);
                1 + (r % 7) as u32
            })
            .collect::<Vec<_>>();
        emit(&Audience::All, &format!("heaps {}", heaps_text(&heaps)));
        GAME.with_borrow_mut(|g| *g = Game { heaps, seats: 2, turn: 0, winner: None });
        Ok(())
    }

    fn requests() -> Vec<(u32, Request)> {
        GAME.with_borrow(|g| {
            if g.winner.is_some() {
                return vec![];
            }
            let state = State { heaps: g.heaps.clone(), you: g.turn as u32 };
            vec![(g.turn as u32, Request::TakeTurn(state))]
        })
    }

    fn apply(seat: u32, answer: Answer) -> Result<(), String> {
        GAME.with_borrow_mut(|g| {
            let Answer::TakeTurn(Take { heap, count }) = answer;
            if seat as usize != g.turn || g.winner.is_some() {
                return Err(format!("seat {seat} was not asked"));
            }
            let Some(stones) = g.heaps.get(heap as usize).copied() else {
                return Err(format!("there is no heap {heap} (there are {})", g.heaps.len()));
            };
            if count == 0 || count > stones {
                return Err(format!("cannot take {count} from heap {heap}, which has {stones}"));
            }
            g.heaps[heap as usize] -= count;
            emit(&Audience::All, &format!("seat {seat} takes {count} from heap {heap}: {}", heaps_text(&g.heaps)));
            if g.heaps.iter().all(|&h| h == 0) {
                g.winner = Some(g.turn);
            }
            g.turn = (g.turn + 1) % g.seats;
            Ok(())
        })
    }

    fn banned(seat: u32, fault: Fault) {
        GAME.with_borrow_mut(|g| {
            emit(&Audience::All, &format!("seat {seat} forfeits: {} in {}", fault.reason, fault.call));
            g.winner = Some(1 - seat.min(1) as usize);
        })
    }

    fn outcome() -> Option<Outcome> {
        GAME.with_borrow(|g| {
            let w = g.winner?;
            let scores = (0..g.seats).map(|s| i64::from(s == w)).collect();
            Some(Outcome { scores, winners: vec![w as u32] })
        })
    }

    fn view(seat: Option<u32>) -> String {
        GAME.with_borrow(|g| {
            let who = seat.map_or("spectator".to_string(), |s| format!("seat {s}"));
            format!("{who}: heaps {}, seat {} to move", heaps_text(&g.heaps), g.turn)
        })
    }
}

export!(Referee);

//! Nim's referee: heaps drawn from the game's seed, seats alternate, a take must remove one or more
//! stones from a heap that has them, and whoever takes the last stone wins; a seat that faults forfeits.
//! A state machine on the referee kit (`arena-referee`), exported as the `arena:nim/referee` world.
#![cfg(target_arch = "wasm32")]

// The generated lowering of the setup record takes many flat arguments.
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:nim/referee-flat", generate_all, additional_derives: [PartialEq, serde::Serialize, serde::Deserialize] });
}

use arena_referee::rng::SplitMix;
use arena_referee::{Events, Fault, Outcome, Referee, Setup};
use bindings::arena::nim::types::{State, Take};
use bindings::{Answer, Request};

struct Nim {
    heaps: Vec<u32>,
    /// The seat to move.
    turn: usize,
    /// Who took the last stone, or who is left when the other faulted.
    winner: Option<usize>,
}

fn heaps_text(heaps: &[u32]) -> String {
    heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

impl Referee for Nim {
    type Request = Request;
    type Answer = Answer;

    fn start(setup: Setup, events: &mut Events) -> Result<Nim, String> {
        if setup.names.len() != 2 {
            return Err(format!("Nim seats 2 players, not {}", setup.names.len()));
        }
        let mut r = SplitMix::new(setup.seed);
        let count = 3 + (r.draw() % 3) as usize;
        let heaps: Vec<u32> = (0..count).map(|_| 1 + (r.draw() % 7) as u32).collect();
        events.all(format!("heaps {}", heaps_text(&heaps)));
        Ok(Nim { heaps, turn: 0, winner: None })
    }

    fn requests(&self) -> Vec<(u32, Request)> {
        if self.winner.is_some() {
            return vec![];
        }
        let state = State { heaps: self.heaps.clone(), you: self.turn as u32 };
        vec![(self.turn as u32, Request::TakeTurn(state))]
    }

    fn apply(&mut self, seat: u32, answer: Answer, events: &mut Events) -> Result<(), String> {
        let Answer::TakeTurn(Take { heap, count }) = answer;
        if seat as usize != self.turn || self.winner.is_some() {
            return Err(format!("seat {seat} was not asked"));
        }
        let Some(stones) = self.heaps.get(heap as usize).copied() else {
            return Err(format!("there is no heap {heap} (there are {})", self.heaps.len()));
        };
        if count == 0 || count > stones {
            return Err(format!("cannot take {count} from heap {heap}, which has {stones}"));
        }
        self.heaps[heap as usize] -= count;
        events.all(format!("seat {seat} takes {count} from heap {heap}: {}", heaps_text(&self.heaps)));
        if self.heaps.iter().all(|&h| h == 0) {
            self.winner = Some(self.turn);
        }
        self.turn = (self.turn + 1) % 2;
        Ok(())
    }

    fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
        events.all(format!("seat {seat} forfeits: {} in {}", fault.reason, fault.call));
        self.winner = Some(1 - seat.min(1) as usize);
    }

    fn outcome(&self) -> Option<Outcome> {
        let w = self.winner?;
        let scores = (0..2).map(|s| i64::from(s == w)).collect();
        Some(Outcome { scores, winners: vec![w as u32] })
    }

    fn view(&self, seat: Option<u32>) -> String {
        let who = seat.map_or("spectator".to_string(), |s| format!("seat {s}"));
        format!("{who}: heaps {}, seat {} to move", heaps_text(&self.heaps), self.turn)
    }
}

arena_referee::export_referee!(NimReferee, Nim, flat);

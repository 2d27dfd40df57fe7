//! The matching-pennies referee: each round it asks both seats at once; each choice is told only to the
//! seat that made it (a unicast event) until both are in, then the round is revealed to everyone. A seat
//! that faults forfeits the game. A state machine on the referee kit (`arena-referee`).
#![cfg(target_arch = "wasm32")]

// The generated lowering of the setup record takes many flat arguments.
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "arena:pennies/referee-flat",
        generate_all,
        additional_derives: [PartialEq, serde::Serialize, serde::Deserialize],
    });
}

use arena_referee::{Events, Fault, Outcome, Referee, Setup, To};
use bindings::arena::pennies::types::Round;
use bindings::{Answer, Request};

/// Rounds a game, unless the `rounds` option says otherwise.
const ROUNDS: u32 = 5;

struct Pennies {
    rounds: u32,
    /// The round being played, from 1.
    round: u32,
    taken: [u32; 2],
    /// This round's choices, as they come in.
    choices: [Option<bool>; 2],
    forfeit: Option<usize>,
}

fn coin(heads: bool) -> &'static str {
    if heads { "heads" } else { "tails" }
}

impl Referee for Pennies {
    type Request = Request;
    type Answer = Answer;

    fn start(setup: Setup, events: &mut Events) -> Result<Pennies, String> {
        if setup.names.len() != 2 {
            return Err(format!("matching pennies seats 2 players, not {}", setup.names.len()));
        }
        let rounds = match setup.options.iter().find(|(k, _)| k == "rounds") {
            Some((_, v)) => v.parse().map_err(|_| format!("rounds must be a number, not {v}"))?,
            None => ROUNDS,
        };
        events.all(format!("{rounds} rounds; seat 0 takes a round when the coins match"));
        Ok(Pennies { rounds, round: 1, taken: [0; 2], choices: [None; 2], forfeit: None })
    }

    fn requests(&self) -> Vec<(u32, Request)> {
        (0..2).filter_map(|s| self.request(s).map(|r| (s, r))).collect()
    }

    fn request(&self, seat: u32) -> Option<Request> {
        if self.forfeit.is_some() || self.round > self.rounds || self.choices.get(seat as usize)?.is_some() {
            return None;
        }
        Some(Request::Choose(Round { number: self.round, of: self.rounds, you: seat, taken: self.taken.to_vec() }))
    }

    /// A choice is secret until the round closes: only a new round (or a forfeit, which comes
    /// through `banned`, not a step) changes what the other seat is asked.
    fn asked_stamp(&self) -> Option<u64> {
        Some(u64::from(self.round))
    }

    fn apply(&mut self, seat: u32, answer: Answer, events: &mut Events) -> Result<(), String> {
        let Answer::Choose(heads) = answer;
        let s = seat as usize;
        if s > 1 || self.choices[s].is_some() {
            return Err(format!("seat {seat} was not asked"));
        }
        self.choices[s] = Some(heads);
        let mut n = itoa::Buffer::new();
        let round = n.format(self.round);
        events.tell(To::Seat(seat), &["round ", round, ": you chose ", coin(heads)]);
        if let [Some(a), Some(b)] = self.choices {
            // The players (and not the spectators) hear that the round is closed (a varicast).
            events.tell(To::Seats(vec![0, 1]), &["round ", round, ": both choices are in"]);
            let winner = if a == b { 0 } else { 1 };
            self.taken[winner] += 1;
            let seat = ["seat 0", "seat 1"][winner];
            events.tell(To::All, &["round ", round, ": ", coin(a), " and ", coin(b), ", ", seat, " takes it"]);
            self.choices = [None, None];
            self.round += 1;
        }
        Ok(())
    }

    fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
        events.all(format!("seat {seat} forfeits: {}", fault.reason));
        self.forfeit = Some(seat.min(1) as usize);
    }

    fn outcome(&self) -> Option<Outcome> {
        let scores = self.taken.iter().map(|&t| i64::from(t)).collect();
        let winners = match self.forfeit {
            Some(f) => vec![1 - f as u32],
            None if self.round <= self.rounds => return None,
            None if self.taken[0] == self.taken[1] => vec![0, 1],
            None => vec![if self.taken[0] > self.taken[1] { 0 } else { 1 }],
        };
        Some(Outcome { scores, winners })
    }

    fn view(&self, seat: Option<u32>) -> String {
        let mine = seat
            .and_then(|s| self.choices.get(s as usize).copied().flatten())
            .map(|c| format!(", your choice this round: {}", coin(c)))
            .unwrap_or_default();
        format!("rounds taken: seat 0 {}, seat 1 {}{mine}", self.taken[0], self.taken[1])
    }
}

arena_referee::export_referee!(PenniesReferee, Pennies, flat);

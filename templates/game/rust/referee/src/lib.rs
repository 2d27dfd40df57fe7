//! {{name}}'s referee: a state machine the Arena host drives (see ../wit/deps/game/game.wit), written
//! on Arena's referee kit (`kit/`, the `Referee` trait): `start` deals the game from its seed,
//! `requests` says who must act and what they are asked, `apply` checks each answer with the rules
//! (refusing one bans that player as `illegal`), `banned` says what a ban means (here: the other seat
//! wins), `outcome` and `view` tell how it ended; `export_referee!` makes it a component. It runs
//! sandboxed, like the players: no clock, no files, randomness only from the seed.

// The generated lowering of the setup record takes many flat arguments.
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:{{name}}/referee-flat", generate_all, additional_derives: [PartialEq, serde::Serialize, serde::Deserialize] });
}

use arena_referee::{Events, Fault, Outcome, Referee, Setup};
use bindings::arena::{{crate}}::types::{State, Take};
use bindings::{Answer, Request};
use {{crate}}_rules::Position;

/// The game under way (the rules' `Position`, in a type of this crate's own to implement `Referee` on).
struct Table(Position);

impl Referee for Table {
    type Request = Request;
    type Answer = Answer;

    fn start(setup: Setup, events: &mut Events) -> Result<Table, String> {
        if setup.names.len() != 2 {
            return Err(format!("{{name}} seats 2 players, not {}", setup.names.len()));
        }
        let heaps = setup.option::<usize>("heaps")?.unwrap_or(3);
        let game = Position::new(setup.seed, heaps);
        events.all(format!("heaps {}", game.render()));
        Ok(Table(game))
    }

    fn requests(&self) -> Vec<(u32, Request)> {
        let Table(g) = self;
        if g.winner.is_some() {
            return vec![];
        }
        let state = State { heaps: g.heaps.clone(), you: g.turn as u32 };
        vec![(g.turn as u32, Request::TakeTurn(state))]
    }

    fn apply(&mut self, seat: u32, answer: Answer, events: &mut Events) -> Result<(), String> {
        let Answer::TakeTurn(Take { heap, count }) = answer;
        self.0.take(seat as usize, heap, count)?;
        events.all(format!("seat {seat} takes {count} from heap {heap}: {}", self.0.render()));
        Ok(())
    }

    fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
        events.all(format!("seat {seat} forfeits: {} in {}", fault.reason, fault.call));
        self.0.winner = Some(1 - seat.min(1) as usize);
    }

    fn outcome(&self) -> Option<Outcome> {
        let w = self.0.winner?;
        Some(Outcome { scores: (0..2).map(|s| i64::from(s == w)).collect(), winners: vec![w as u32] })
    }

    fn view(&self, _seat: Option<u32>) -> String {
        format!("heaps {}, seat {} to move", self.0.render(), self.0.turn)
    }
}

arena_referee::export_referee!(GameReferee, Table, flat);

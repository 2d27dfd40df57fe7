//! Goofspiel's referee component: the `arena:goofspiel/referee` world around the pure state machine in
//! [`game`] (tested natively); the bindings are compiled for wasm only.

pub mod draw;
pub mod game;

// The generated lowering of a `state` takes many flat arguments.
#[cfg(target_arch = "wasm32")]
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:goofspiel/referee-flat", generate_all, additional_derives: [PartialEq, serde::Serialize, serde::Deserialize] });
}

/// The state machine as the referee kit exports it.
#[cfg(target_arch = "wasm32")]
mod component {
    use super::bindings::arena::goofspiel::types as wit;
    use super::bindings::{Answer, Request};
    use super::game::{Ask, Table, To};
    use arena_referee::{Events, Fault, Outcome, Referee, Setup};
    use goofspiel_rules::Round;

    fn round(r: Round) -> wit::RoundResult {
        wit::RoundResult { prize: r.prize, carried: r.carried, bids: r.bids, winner: r.winner.map(|w| w as u32) }
    }

    fn state(a: Ask) -> wit::State {
        wit::State {
            you: a.you,
            seats: a.seats,
            round: a.round,
            prize: a.prize,
            carried: a.carried,
            hand: a.hand,
            scores: a.scores,
            playing: a.playing,
            history: a.history.into_iter().map(round).collect(),
        }
    }

    /// The game's new events, handed on.
    fn pass_on(g: &mut Table, events: &mut Events) {
        for e in g.take_events() {
            match e.to {
                To::All => events.all(e.text),
                To::Seat(s) => events.seat(s, e.text),
            }
        }
    }

    impl Referee for Table {
        type Request = Request;
        type Answer = Answer;

        fn start(setup: Setup, events: &mut Events) -> Result<Table, String> {
            let mut g = Table::start(setup.names, setup.seed, &setup.options)?;
            pass_on(&mut g, events);
            Ok(g)
        }

        fn requests(&self) -> Vec<(u32, Request)> {
            Table::requests(self).into_iter().map(|(seat, a)| (seat, Request::Bid(state(a)))).collect()
        }

        fn request(&self, seat: u32) -> Option<Request> {
            Table::request(self, seat).map(|a| Request::Bid(state(a)))
        }

        /// Bids are secret until the round is resolved: a bid changes only its own seat's hand, and
        /// only a resolved round (or a ban, which comes through `banned`, not a step) changes what
        /// the other seats are asked.
        fn asked_stamp(&self) -> Option<u64> {
            Some(self.rules.round() as u64)
        }

        fn apply(&mut self, seat: u32, answer: Answer, events: &mut Events) -> Result<(), String> {
            let Answer::Bid(card) = answer;
            let applied = Table::apply(self, seat, card);
            pass_on(self, events);
            applied
        }

        fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
            Table::banned(self, seat, &format!("{} in {}: {}", fault.kind.words(), fault.call, fault.reason));
            pass_on(self, events);
        }

        fn outcome(&self) -> Option<Outcome> {
            Table::outcome(self).map(|(scores, winners)| Outcome { scores, winners })
        }

        fn view(&self, seat: Option<u32>) -> String {
            Table::view(self, seat)
        }

        fn svg(&self, seat: Option<u32>) -> Option<String> {
            Some(crate::draw::svg(self, seat))
        }
    }

    arena_referee::export_referee!(GoofspielReferee, Table, svg, flat);
}

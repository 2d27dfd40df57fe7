//! Goofspiel's referee component: the `arena:goofspiel/referee` world around the pure state machine in
//! [`game`] (tested natively); the bindings are compiled for wasm only.

pub mod draw;
pub mod game;

// The generated lowering of a `state` takes many flat arguments.
#[cfg(target_arch = "wasm32")]
#[allow(clippy::too_many_arguments)]
mod component {
    wit_bindgen::generate!({ path: "../wit", world: "arena:goofspiel/referee", generate_all });

    use super::game::{Ask, Game, To};
    use arena::game::events::emit;
    use arena::game::types::{Audience, FaultKind};
    use arena::goofspiel::types as wit;
    use goofspiel_rules::Round;
    use std::cell::RefCell;

    thread_local! {
        static GAME: RefCell<Option<Game>> = const { RefCell::new(None) };
    }

    const NOT_STARTED: &str = "the game has not started";

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

    fn kind(k: FaultKind) -> &'static str {
        match k {
            FaultKind::Illegal => "illegal",
            FaultKind::Crash => "crash",
            FaultKind::Fuel => "out of fuel",
            FaultKind::Timeout => "timeout",
            FaultKind::Memory => "out of memory",
        }
    }

    /// Runs `f` on the game, if it has started, and hands its new events to the host.
    fn with_game<T>(f: impl FnOnce(&mut Game) -> T) -> Option<T> {
        GAME.with_borrow_mut(|g| {
            let g = g.as_mut()?;
            let out = f(g);
            for e in g.take_events() {
                let to = match e.to {
                    To::All => Audience::All,
                    To::Seat(s) => Audience::Seat(s),
                };
                emit(&to, &e.text);
            }
            Some(out)
        })
    }

    struct Referee;

    impl Guest for Referee {
        fn start(setup: Setup) -> Result<(), String> {
            if GAME.with_borrow(Option::is_some) {
                return Err("the game has already started".into());
            }
            let g = Game::start(setup.names, setup.seed, &setup.options)?;
            GAME.with_borrow_mut(|slot| *slot = Some(g));
            with_game(|_| ());
            Ok(())
        }

        fn requests() -> Vec<(u32, Request)> {
            GAME.with_borrow(|g| g.as_ref().map(Game::requests).unwrap_or_default())
                .into_iter()
                .map(|(seat, a)| (seat, Request::Bid(state(a))))
                .collect()
        }

        fn apply(seat: u32, answer: Answer) -> Result<(), String> {
            let Answer::Bid(card) = answer;
            with_game(|g| g.apply(seat, card)).unwrap_or_else(|| Err(NOT_STARTED.into()))
        }

        fn banned(seat: u32, fault: Fault) {
            with_game(|g| g.banned(seat, &format!("{} in {}: {}", kind(fault.kind), fault.call, fault.reason)));
        }

        fn outcome() -> Option<Outcome> {
            GAME.with_borrow(|g| g.as_ref()?.outcome()).map(|(scores, winners)| Outcome { scores, winners })
        }

        fn svg(seat: Option<u32>) -> Option<String> {
            GAME.with_borrow(|g| g.as_ref().map(|g| crate::draw::svg(g, seat)))
        }

        fn view(seat: Option<u32>) -> String {
            GAME.with_borrow(|g| g.as_ref().map_or_else(|| NOT_STARTED.to_string(), |g| g.view(seat)))
        }
    }

    export!(Referee);
}

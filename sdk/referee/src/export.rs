//! `export_referee!`: a referee component's exports, written once. The game crate generates its WIT
//! bindings in a module named `bindings` at its root and implements [`Referee`](crate::Referee); the
//! macro defines the exported struct, keeps the game in a thread-local slot, converts the protocol's
//! types, and answers each call that moves the game with its `turn`: the requests outstanding after
//! it and the events it caused, in order (one crossing a decision; a referee imports nothing of Arena's).

/// `export_referee!(Glue, Game)` exports `Game` (a [`Referee`](crate::Referee)) through a unit struct
/// `Glue` (name it to implement the rule-checker interfaces a game serves on it); add `svg` and/or
/// `tournament` when the game's referee world exports them: `export_referee!(Glue, Game, svg)`.
// `crate::bindings` is the calling game's bindings module, on purpose.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! export_referee {
    ($glue:ident, $game:ty $(, $optional:ident)* $(,)?) => {
        pub struct $glue;

        thread_local! {
            static __ARENA_GAME: ::std::cell::RefCell<Option<$game>> = const { ::std::cell::RefCell::new(None) };
        }

        /// What a call that moved the game answers: the requests outstanding now and its events, in
        /// order.
        fn __arena_next(game: &$game, events: &mut $crate::Events) -> crate::bindings::Next {
            use crate::bindings::arena::game::types::{Audience, Event};
            let events = events
                .take()
                .into_iter()
                .map(|(to, text)| Event {
                    to: match to {
                        $crate::To::All => Audience::All,
                        $crate::To::Seat(s) => Audience::Seat(s),
                        $crate::To::Seats(s) => Audience::Seats(s),
                    },
                    text,
                })
                .collect();
            crate::bindings::Next { requests: <$game as $crate::Referee>::requests(game), events }
        }

        impl crate::bindings::Guest for $glue {
            fn start(setup: crate::bindings::Setup) -> Result<crate::bindings::Next, String> {
                let m = setup.match_state;
                let setup = $crate::Setup {
                    names: setup.names,
                    seed: setup.seed,
                    options: setup.options,
                    match_state: $crate::MatchState {
                        game: m.game,
                        games_in_match: m.games_in_match,
                        wins: m.wins,
                        ties: m.ties,
                        earlier: m.earlier,
                        number: m.number,
                        matches: m.matches,
                    },
                };
                let mut events = $crate::Events::default();
                let game = <$game as $crate::Referee>::start(setup, &mut events)?;
                let turn = __arena_next(&game, &mut events);
                __ARENA_GAME.set(Some(game));
                Ok(turn)
            }

            fn apply(seat: u32, answer: crate::bindings::Answer) -> Result<crate::bindings::Next, String> {
                __ARENA_GAME.with_borrow_mut(|g| {
                    let g = g.as_mut().ok_or_else(|| format!("seat {seat} was not asked: the game has not started"))?;
                    let mut events = $crate::Events::default();
                    <$game as $crate::Referee>::apply(g, seat, answer, &mut events)?;
                    Ok(__arena_next(g, &mut events))
                })
            }

            fn banned(seat: u32, fault: crate::bindings::Fault) -> crate::bindings::Next {
                use crate::bindings::arena::game::types::FaultKind as K;
                let kind = match fault.kind {
                    K::Illegal => $crate::FaultKind::Illegal,
                    K::Crash => $crate::FaultKind::Crash,
                    K::Fuel => $crate::FaultKind::Fuel,
                    K::Timeout => $crate::FaultKind::Timeout,
                    K::Memory => $crate::FaultKind::Memory,
                };
                let fault = $crate::Fault { kind, call: fault.call, reason: fault.reason };
                __ARENA_GAME.with_borrow_mut(|g| match g.as_mut() {
                    Some(g) => {
                        let mut events = $crate::Events::default();
                        <$game as $crate::Referee>::banned(g, seat, fault, &mut events);
                        __arena_next(g, &mut events)
                    }
                    None => crate::bindings::Next { requests: Vec::new(), events: Vec::new() },
                })
            }

            fn outcome() -> Option<crate::bindings::Outcome> {
                let o = __ARENA_GAME.with_borrow(|g| g.as_ref().and_then(<$game as $crate::Referee>::outcome))?;
                Some(crate::bindings::Outcome { scores: o.scores, winners: o.winners })
            }

            fn view(seat: Option<u32>) -> String {
                __ARENA_GAME.with_borrow(|g| g.as_ref().map(|g| <$game as $crate::Referee>::view(g, seat)).unwrap_or_default())
            }

            $( $crate::__export_optional!($optional, $game); )*
        }

        crate::bindings::export!($glue with_types_in crate::bindings);
    };
}

/// The optional exports of [`export_referee!`].
#[doc(hidden)]
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! __export_optional {
    (svg, $game:ty) => {
        fn svg(seat: Option<u32>) -> Option<String> {
            __ARENA_GAME.with_borrow(|g| g.as_ref().and_then(|g| <$game as $crate::Referee>::svg(g, seat)))
        }
    };
    (tournament, $game:ty) => {
        fn tournament(event: crate::bindings::arena::game::types::TournamentEvent) -> Option<crate::bindings::Request> {
            use crate::bindings::arena::game::types::TournamentEvent as E;
            let event = match event {
                E::Start(i) => $crate::TournamentEvent::Start {
                    you: i.you,
                    players: i.players,
                    games_per_match: i.games_per_match,
                },
                E::End(won) => $crate::TournamentEvent::End(won),
            };
            <$game as $crate::Referee>::tournament(event)
        }
    };
}

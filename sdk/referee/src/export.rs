//! `export_referee!`: a referee component's exports, written once. The game crate generates its WIT
//! bindings in a module named `bindings` at its root and implements [`Referee`](crate::Referee); the
//! macro defines the exported struct, keeps the game in a thread-local slot, converts the protocol's
//! types, and hands each call's events to the host through `arena:game/events.emit`.

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

        /// Hands the events of a call to the host, in order.
        fn __arena_flush(events: &mut $crate::Events) {
            use crate::bindings::arena::game::types::Audience;
            for (to, text) in events.take() {
                let to = match to {
                    $crate::To::All => Audience::All,
                    $crate::To::Seat(s) => Audience::Seat(s),
                    $crate::To::Seats(s) => Audience::Seats(s),
                };
                crate::bindings::arena::game::events::emit(&to, &text);
            }
        }

        impl crate::bindings::Guest for $glue {
            fn start(setup: crate::bindings::Setup) -> Result<(), String> {
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
                let game = <$game as $crate::Referee>::start(setup, &mut events);
                __arena_flush(&mut events);
                __ARENA_GAME.set(Some(game?));
                Ok(())
            }

            fn requests() -> Vec<(u32, crate::bindings::Request)> {
                __ARENA_GAME.with_borrow(|g| g.as_ref().map(<$game as $crate::Referee>::requests).unwrap_or_default())
            }

            fn apply(seat: u32, answer: crate::bindings::Answer) -> Result<(), String> {
                __ARENA_GAME.with_borrow_mut(|g| {
                    let g = g.as_mut().ok_or_else(|| format!("seat {seat} was not asked: the game has not started"))?;
                    let mut events = $crate::Events::default();
                    let applied = <$game as $crate::Referee>::apply(g, seat, answer, &mut events);
                    __arena_flush(&mut events);
                    applied
                })
            }

            fn banned(seat: u32, fault: crate::bindings::Fault) {
                use crate::bindings::arena::game::types::FaultKind as K;
                let kind = match fault.kind {
                    K::Illegal => $crate::FaultKind::Illegal,
                    K::Crash => $crate::FaultKind::Crash,
                    K::Fuel => $crate::FaultKind::Fuel,
                    K::Timeout => $crate::FaultKind::Timeout,
                    K::Memory => $crate::FaultKind::Memory,
                };
                let fault = $crate::Fault { kind, call: fault.call, reason: fault.reason };
                __ARENA_GAME.with_borrow_mut(|g| {
                    if let Some(g) = g.as_mut() {
                        let mut events = $crate::Events::default();
                        <$game as $crate::Referee>::banned(g, seat, fault, &mut events);
                        __arena_flush(&mut events);
                    }
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

//! `export_referee!`: a referee component's exports, written once. The game crate generates its WIT
//! bindings in a module named `bindings` at its root and implements [`Referee`](crate::Referee); the
//! macro defines the exported struct, keeps the game in a thread-local slot, converts the protocol's
//! types, answers each call that moves the game with the requests outstanding after it, hands a step's
//! answers to the game in order (one crossing a step), and keeps the events until the host takes them.

/// `export_referee!(Glue, Game)` exports `Game` (a [`Referee`](crate::Referee)) through a unit struct
/// `Glue` (name it to implement the rule-checker interfaces a game serves on it); add `svg` and/or
/// `tournament` when the game's referee world exports them: `export_referee!(Glue, Game, svg)`; and
/// `flat` when it exports `arena:game/flat` (the fast path for `step`, whose `request` and `answer` types
/// then derive `serde::Serialize` and `serde::Deserialize`: `additional_derives` in the bindings).
// `crate::bindings` is the calling game's bindings module, on purpose.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! export_referee {
    ($glue:ident, $game:ty $(, $optional:ident)* $(,)?) => {
        pub struct $glue;

        thread_local! {
            static __ARENA_GAME: ::std::cell::RefCell<Option<$game>> = const { ::std::cell::RefCell::new(None) };
            /// The events not taken by the host yet, oldest first.
            static __ARENA_EVENTS: ::std::cell::RefCell<$crate::Events> = ::std::cell::RefCell::new($crate::Events::default());
        }

        /// What a call that moved the game answers: the requests outstanding now, how many of the
        /// step's answers it took, and its refusal of the last one.
        fn __arena_next(game: &$game, taken: u32, refused: Option<String>) -> crate::bindings::Next {
            crate::bindings::Next { requests: <$game as $crate::Referee>::requests(game), taken, refused }
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
                let game = __ARENA_EVENTS.with_borrow_mut(|events| <$game as $crate::Referee>::start(setup, events))?;
                let next = __arena_next(&game, 0, None);
                __ARENA_GAME.set(Some(game));
                Ok(next)
            }

            /// The step's answers in order, until one is refused or one changes what the seats still
            /// to answer are asked (the host hands the rest back after looking again).
            fn step(answers: Vec<(u32, crate::bindings::Answer)>) -> crate::bindings::Next {
                __ARENA_GAME.with_borrow_mut(|g| {
                    let Some(g) = g.as_mut() else {
                        return crate::bindings::Next {
                            requests: Vec::new(),
                            taken: 1,
                            refused: Some("the game has not started".into()),
                        };
                    };
                    // What the seats after the first are asked, to see whether an answer changes it;
                    // nothing to build when the game stamps what its seats are asked.
                    let stamp = <$game as $crate::Referee>::asked_stamp(g);
                    let made: Vec<_> = match stamp {
                        Some(_) => Vec::new(),
                        None => answers.iter().skip(1).map(|(s, _)| <$game as $crate::Referee>::request(g, *s)).collect(),
                    };
                    let mut taken = 0;
                    let mut refused = None;
                    __ARENA_EVENTS.with_borrow_mut(|events| {
                        let mut rest = answers.into_iter();
                        while let Some((seat, answer)) = rest.next() {
                            taken += 1;
                            if let Err(why) = <$game as $crate::Referee>::apply(g, seat, answer, events) {
                                refused = Some(why);
                                break;
                            }
                            // The answers still to apply, and what their seats were asked.
                            let later = rest.as_slice();
                            let changed = match stamp {
                                Some(_) => !later.is_empty() && <$game as $crate::Referee>::asked_stamp(g) != stamp,
                                None => later
                                    .iter()
                                    .zip(&made[made.len() - later.len()..])
                                    .any(|((s, _), before)| <$game as $crate::Referee>::request(g, *s) != *before),
                            };
                            if changed {
                                break;
                            }
                        }
                    });
                    __arena_next(g, taken, refused)
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
                        __ARENA_EVENTS.with_borrow_mut(|events| <$game as $crate::Referee>::banned(g, seat, fault, events));
                        __arena_next(g, 0, None)
                    }
                    None => crate::bindings::Next { requests: Vec::new(), taken: 0, refused: None },
                })
            }

            /// The events not taken yet, oldest first, a bounded number a call: their texts in one string.
            fn events() -> crate::bindings::arena::game::types::Told {
                use crate::bindings::arena::game::types::{Audience, Told};
                let (text, told) = __ARENA_EVENTS
                    .with_borrow_mut(|events| events.hand_over($crate::EVENTS_A_CALL, $crate::EVENT_BYTES_A_CALL));
                let events = told
                    .into_iter()
                    .map(|(to, len)| {
                        let to = match to {
                            $crate::To::All => Audience::All,
                            $crate::To::Seat(s) => Audience::Seat(s),
                            $crate::To::Seats(s) => Audience::Seats(s),
                        };
                        (to, len)
                    })
                    .collect();
                Told { text, events }
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

        $( $crate::__export_interface!($optional, $glue); )*

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
    (flat, $game:ty) => {};
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

/// The optional exported interfaces of [`export_referee!`].
#[doc(hidden)]
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! __export_interface {
    (flat, $glue:ident) => {
        impl crate::bindings::exports::arena::game::flat::Guest for $glue {
            /// `step`, its answers and its `next` in postcard's wire format. Answers the host did not
            /// write as it should are its own fault, not a seat's: the call traps, and the game ends
            /// as the game's fault with nobody banned.
            fn step(answers: Vec<u8>) -> Vec<u8> {
                let answers: Vec<(u32, crate::bindings::Answer)> =
                    $crate::__postcard::from_bytes(&answers).expect("the host hands the answers in flat form");
                let next = <$glue as crate::bindings::Guest>::step(answers);
                $crate::__postcard::to_allocvec(&(&next.requests, next.taken, &next.refused))
                    .expect("a `next` is always written")
            }
        }
    };
    ($other:ident, $glue:ident) => {};
}

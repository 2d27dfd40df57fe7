//! Shared glue for Rust Santorini players: the guest bindings of the `arena:santorini/player` world
//! (generated once, here), conversions to the rules crate's types, and `player!`, which exports a
//! strategy written against `santorini_rules::PlayerView`. Only compiled for wasm32.
#![cfg(target_arch = "wasm32")]

#[allow(clippy::too_many_arguments)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../../wit",
        world: "arena:santorini/player",
        pub_export_macro: true,
        default_bindings_module: "santorini_guest::bindings",
        additional_derives: [PartialEq],
    });
}

pub use bindings::arena::santorini::types as wit;
use santorini_rules as rules;

fn cell(c: wit::Cell) -> rules::Cell {
    rules::Cell { row: c.row, col: c.col }
}

pub fn to_wit_cell(c: rules::Cell) -> wit::Cell {
    wit::Cell { row: c.row, col: c.col }
}

pub fn to_wit_turn(t: rules::Turn) -> wit::Turn {
    wit::Turn { worker: t.worker, to: to_wit_cell(t.to), build: t.build.map(to_wit_cell) }
}

/// The rules crate's view of a WIT state (what native bots get, so strategies run unchanged).
pub fn view(s: &wit::State) -> rules::PlayerView {
    let mut heights = [0u8; rules::CELLS];
    for (h, v) in heights.iter_mut().zip(&s.heights) {
        *h = *v;
    }
    let w = |i: usize| s.workers.get(i).copied().flatten().map(cell);
    let workers = [[w(0), w(1)], [w(2), w(3)]];
    let placed = workers.iter().flatten().all(Option::is_some);
    let phase = if placed { rules::Phase::Playing } else { rules::Phase::Placement };
    rules::PlayerView { me: s.you, state: rules::State { heights, workers, turn: s.turn, phase } }
}

/// Exports a player whose `place` and `take-turn` are the given functions of `&PlayerView`; the
/// notifications do nothing. The misbehaving sample players add hooks: `turn` sees the state first and
/// may answer instead (`Some(turn)`), `start` runs in the tournament-start call (with the player's
/// name and every player's) and `end` in the tournament-end call.
#[macro_export]
macro_rules! player {
    ($place:path, $take_turn:path) => {
        $crate::player!($place, $take_turn, turn: |_: &$crate::wit::State| None, end: |_: bool| ());
    };
    ($place:path, $take_turn:path, turn: $turn:expr) => {
        $crate::player!($place, $take_turn, turn: $turn, end: |_: bool| ());
    };
    ($place:path, $take_turn:path, start: $start:expr) => {
        $crate::player!($place, $take_turn, start: $start, turn: |_: &$crate::wit::State| None, end: |_: bool| ());
    };
    ($place:path, $take_turn:path, turn: $turn:expr, end: $end:expr) => {
        $crate::player!($place, $take_turn, start: |_: &str, _: &[String]| (), turn: $turn, end: $end);
    };
    ($place:path, $take_turn:path, start: $start:expr, turn: $turn:expr, end: $end:expr) => {
        struct Player;
        impl $crate::bindings::Guest for Player {
            fn tournament_start(you: String, players: Vec<String>) {
                let hook: fn(&str, &[String]) = $start;
                hook(&you, &players)
            }
            fn match_start(_: String, _: u32, _: u32) {}
            fn game_start(_: $crate::wit::GameInfo) {}
            fn place(s: $crate::wit::State) -> $crate::wit::Cell {
                $crate::to_wit_cell($place(&$crate::view(&s)))
            }
            fn take_turn(s: $crate::wit::State) -> $crate::wit::Turn {
                let hook: fn(&$crate::wit::State) -> Option<$crate::wit::Turn> = $turn;
                hook(&s).unwrap_or_else(|| $crate::to_wit_turn($take_turn(&$crate::view(&s))))
            }
            fn game_over(_: bool) {}
            fn tournament_end(won: bool) {
                let hook: fn(bool) = $end;
                hook(won)
            }
        }
        $crate::bindings::export!(Player with_types_in $crate::bindings);
    };
}

/// How many turns the player to act has taken in this game, this one included (one level is built
/// per turn).
pub fn my_turn(s: &wit::State) -> u32 {
    let levels: u32 = s.heights.iter().map(|&h| u32::from(h)).sum();
    (levels + 1 - u32::from(s.you)) / 2 + 1
}

pub use misbehave::{hoard, spin};

//! Shared glue for Rust Fish players: the guest bindings of the `arena:fish/player` world (generated
//! once, here), conversions to the rules crate's types, and `player!`, which exports a strategy written
//! against `fish_rules::PlayerView`. Only compiled for wasm32.
#![cfg(target_arch = "wasm32")]

#[allow(clippy::too_many_arguments)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../../wit",
        world: "arena:fish/player",
        pub_export_macro: true,
        default_bindings_module: "fish_guest::bindings",
    });
}

pub use bindings::arena::fish::types as wit;
use fish_rules as rules;

pub fn seat(c: wit::Colour) -> u8 {
    c as u8
}

fn pos(p: wit::Pos) -> rules::Pos {
    rules::Pos { row: p.row, col: p.col }
}

pub fn to_wit_pos(p: rules::Pos) -> wit::Pos {
    wit::Pos { row: p.row, col: p.col }
}

pub fn to_wit_step(m: rules::Move) -> wit::Step {
    wit::Step { from: to_wit_pos(m.from), to: to_wit_pos(m.to) }
}

/// The rules crate's view of a WIT state and actions (what native bots get).
pub fn view(s: &wit::State, actions: &[wit::Action]) -> rules::PlayerView {
    let board = rules::Board { rows: s.board.rows, cols: s.board.cols, tiles: s.board.tiles.clone() };
    let players = s
        .seats
        .iter()
        .map(|p| rules::Seat { penguins: p.penguins.iter().copied().map(pos).collect(), fish: p.fish, out: p.out })
        .collect();
    let phase = match s.phase {
        wit::Phase::Placement => rules::Phase::Placement,
        wit::Phase::Playing => rules::Phase::Playing,
        wit::Phase::Over => rules::Phase::Over,
    };
    let actions_since = actions
        .iter()
        .map(|a| match a {
            wit::Action::Place(p) => rules::Action::Place { seat: seat(p.colour), pos: pos(p.at) },
            wit::Action::Move(m) => rules::Action::Move {
                seat: seat(m.colour),
                mv: rules::Move { from: pos(m.step.from), to: pos(m.step.to) },
            },
        })
        .collect();
    let turn = seat(s.turn);
    rules::PlayerView { me: turn, state: rules::State { board, players, turn, phase }, actions_since }
}

/// Exports a player whose `setup` and `take-turn` are the given functions of `&PlayerView`; the
/// lifecycle calls do nothing. The misbehaving sample players add hooks: `turn` sees the state first
/// and may answer instead (`Some(step)`), and `end` runs in the tournament-end call.
#[macro_export]
macro_rules! player {
    ($place:path, $take_turn:path) => {
        $crate::player!($place, $take_turn, turn: |_: &$crate::wit::State| None, end: |_: bool| ());
    };
    ($place:path, $take_turn:path, turn: $turn:expr) => {
        $crate::player!($place, $take_turn, turn: $turn, end: |_: bool| ());
    };
    ($place:path, $take_turn:path, turn: $turn:expr, end: $end:expr) => {
        struct Player;
        impl $crate::bindings::Guest for Player {
            fn start() {}
            fn play_as(_: $crate::wit::Colour) {}
            fn play_with(_: Vec<$crate::wit::Colour>) {}
            fn setup(s: $crate::wit::State) -> $crate::wit::Pos {
                $crate::to_wit_pos($place(&$crate::view(&s, &[])))
            }
            fn take_turn(s: $crate::wit::State, a: Vec<$crate::wit::Action>) -> $crate::wit::Step {
                let hook: fn(&$crate::wit::State) -> Option<$crate::wit::Step> = $turn;
                hook(&s).unwrap_or_else(|| $crate::to_wit_step($take_turn(&$crate::view(&s, &a))))
            }
            fn end(won: bool) {
                let hook: fn(bool) = $end;
                hook(won)
            }
        }
        $crate::bindings::export!(Player with_types_in $crate::bindings);
    };
}

/// The fish the player to act has collected (every move it makes collects at least one).
pub fn my_fish(s: &wit::State) -> u32 {
    s.seats.get(s.turn as usize).map_or(0, |p| p.fish)
}

pub use misbehave::{hoard, spin};

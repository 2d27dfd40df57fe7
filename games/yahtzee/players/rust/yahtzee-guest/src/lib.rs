//! Shared glue for Rust Yahtzee players: the guest bindings of the `arena:yahtzee/player` world
//! (generated once, here), conversions to the pure rules crate's types, and `player!`, which exports
//! a strategy written against `yahtzee_rules::PlayerView`. Only compiled for wasm32.
#![cfg(target_arch = "wasm32")]

#[allow(clippy::too_many_arguments)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../../wit",
        world: "arena:yahtzee/player",
        pub_export_macro: true,
        default_bindings_module: "yahtzee_guest::bindings",
    });
}

pub use bindings::arena::yahtzee::types as wit;
use yahtzee_rules as rules;

/// The rules crate's category for a WIT one.
pub fn category(c: wit::Category) -> rules::Category {
    rules::Category::from_index(c as usize).expect("13 categories in both")
}

/// The WIT categories in score-card order (a rules category's index is its place here).
pub const CATEGORIES: [wit::Category; 13] = {
    use wit::Category as W;
    [
        W::Ones,
        W::Twos,
        W::Threes,
        W::Fours,
        W::Fives,
        W::Sixes,
        W::ThreeOfAKind,
        W::FourOfAKind,
        W::FullHouse,
        W::SmallStraight,
        W::LargeStraight,
        W::Yahtzee,
        W::Chance,
    ]
};

/// The WIT category for a rules one.
pub fn to_wit(c: rules::Category) -> wit::Category {
    CATEGORIES[c.index()]
}

fn card(c: &wit::Scorecard) -> rules::Scorecard {
    let mut boxes = [None; 13];
    for (b, v) in boxes.iter_mut().zip(&c.boxes) {
        *b = *v;
    }
    rules::Scorecard { boxes, yahtzee_bonus: c.yahtzee_bonus }
}

/// The rules crate's view of a WIT turn state (what native bots get, so strategies run unchanged).
pub fn view(s: &wit::TurnState) -> rules::PlayerView {
    let mut dice = [1u8; 5];
    for (d, v) in dice.iter_mut().zip(&s.dice) {
        *d = *v;
    }
    let m = &s.match_state;
    rules::PlayerView {
        turn: s.turn,
        dice,
        rolls_left: s.rolls_left,
        mine: card(&s.mine),
        theirs: card(&s.theirs),
        opponent: s.opponent.clone(),
        match_view: rules::MatchView {
            game: m.game,
            games_in_match: m.games_in_match,
            my_wins: m.my_wins,
            their_wins: m.their_wins,
            ties: m.ties,
            earlier: m.earlier.iter().map(|g| rules::GameScore { mine: g.mine, theirs: g.theirs }).collect(),
        },
    }
}

/// Exports a player whose `keep` and `choose` are the given functions of `&PlayerView`; the lifecycle
/// calls do nothing. The misbehaving sample players add hooks that see the state first and may answer
/// instead (`Some(…)`).
#[macro_export]
macro_rules! player {
    ($keep:path, $choose:path) => {
        $crate::player!($keep, $choose, keep: |_: &$crate::wit::TurnState| None, choose: |_: &$crate::wit::TurnState| None);
    };
    ($keep:path, $choose:path, keep: $keep_hook:expr) => {
        $crate::player!($keep, $choose, keep: $keep_hook, choose: |_: &$crate::wit::TurnState| None);
    };
    ($keep:path, $choose:path, choose: $choose_hook:expr) => {
        $crate::player!($keep, $choose, keep: |_: &$crate::wit::TurnState| None, choose: $choose_hook);
    };
    ($keep:path, $choose:path, keep: $keep_hook:expr, choose: $choose_hook:expr) => {
        struct Player;
        impl $crate::bindings::Guest for Player {
            fn tournament_start(_: $crate::wit::TournamentInfo) {}
            fn game_start(_: $crate::wit::GameInfo) {}
            fn keep(s: $crate::wit::TurnState) -> Vec<u8> {
                let hook: fn(&$crate::wit::TurnState) -> Option<Vec<u8>> = $keep_hook;
                hook(&s).unwrap_or_else(|| $keep(&$crate::view(&s)))
            }
            fn choose(s: $crate::wit::TurnState) -> $crate::wit::Category {
                let hook: fn(&$crate::wit::TurnState) -> Option<$crate::wit::Category> = $choose_hook;
                hook(&s).unwrap_or_else(|| $crate::to_wit($choose(&$crate::view(&s))))
            }
            fn tournament_end(_: bool) {}
        }
        $crate::bindings::export!(Player with_types_in $crate::bindings);
    };
}

pub use misbehave::{hoard, spin};

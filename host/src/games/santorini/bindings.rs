//! Host bindings for the `arena:santorini/player` world, generated in this one place, the conversions
//! between WIT types and the rules crate's, and the rule checker players may import.

use santorini_rules as rules;

wasmtime::component::bindgen!({
    path: "../games/santorini/wit",
    world: "arena:santorini/player",
    exports: { default: async },
    additional_derives: [PartialEq],
});

pub use self::arena::santorini::types as wit;

impl From<rules::Cell> for wit::Cell {
    fn from(c: rules::Cell) -> Self {
        wit::Cell { row: c.row, col: c.col }
    }
}

impl From<wit::Cell> for rules::Cell {
    fn from(c: wit::Cell) -> Self {
        rules::Cell { row: c.row, col: c.col }
    }
}

impl From<rules::Turn> for wit::Turn {
    fn from(t: rules::Turn) -> Self {
        wit::Turn { worker: t.worker, to: t.to.into(), build: t.build.map(Into::into) }
    }
}

impl From<wit::Turn> for rules::Turn {
    fn from(t: wit::Turn) -> Self {
        rules::Turn { worker: t.worker, to: t.to.into(), build: t.build.map(Into::into) }
    }
}

/// The state as player `you` sees it.
pub fn state_to_wit(s: &rules::State, you: u8) -> wit::State {
    wit::State {
        heights: s.heights.to_vec(),
        workers: s.workers.iter().flatten().map(|w| w.map(Into::into)).collect(),
        turn: s.turn,
        you,
    }
}

/// A state a player sent to the rule checker; `None` unless it is well formed.
pub fn state_from_wit(s: &wit::State) -> Option<rules::State> {
    let heights: [u8; rules::CELLS] = s.heights.clone().try_into().ok()?;
    if s.workers.len() != 4 || s.turn > 1 {
        return None;
    }
    let w = |i: usize| s.workers[i].map(rules::Cell::from);
    let workers = [[w(0), w(1)], [w(2), w(3)]];
    let phase = if s.workers.iter().all(Option::is_some) { rules::Phase::Playing } else { rules::Phase::Placement };
    let state = rules::State { heights, workers, turn: s.turn, phase };
    state.is_valid().then_some(state)
}

use crate::sandbox::Lifted as _;

crate::sandbox::lifted_fixed!(wit::Cell, wit::Turn);
crate::sandbox::lifted_record!(wit::State { heights, workers, turn, you });

/// The rule checker: pure, and charged to the player's fuel like any host call.
impl self::arena::santorini::rules::Host for crate::sandbox::PlayerState {
    fn is_legal_place(&mut self, state: wit::State, at: wit::Cell) -> bool {
        self.charge_args(state.lifted_bytes() + at.lifted_bytes());
        self.charge_rules(1);
        state_from_wit(&state).is_some_and(|s| s.is_legal_place(at.into()))
    }
    fn is_legal_turn(&mut self, state: wit::State, turn: wit::Turn) -> bool {
        self.charge_args(state.lifted_bytes() + turn.lifted_bytes());
        self.charge_rules(1);
        state_from_wit(&state).is_some_and(|s| s.is_legal_turn(turn.into()))
    }
    fn legal_turns(&mut self, state: wit::State) -> Vec<wit::Turn> {
        self.charge_args(state.lifted_bytes());
        let turns: Vec<wit::Turn> =
            state_from_wit(&state).map(|s| s.legal_turns().into_iter().map(Into::into).collect()).unwrap_or_default();
        self.charge_rules(turns.len());
        turns
    }
}

impl self::arena::santorini::types::Host for crate::sandbox::PlayerState {}

/// Adds the Santorini host interfaces to a player linker.
pub fn add_to_linker(linker: &mut wasmtime::component::Linker<crate::sandbox::PlayerState>) -> wasmtime::Result<()> {
    Player::add_to_linker::<_, wasmtime::component::HasSelf<_>>(linker, |s| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_cross_the_boundary_unchanged_and_malformed_ones_are_refused() {
        let s = rules::State::new().place(rules::Cell { row: 2, col: 2 }).unwrap();
        let w = state_to_wit(&s, 0);
        assert_eq!(state_from_wit(&w), Some(s));
        assert_eq!(state_from_wit(&wit::State { heights: vec![0; 24], ..w.clone() }), None);
        assert_eq!(state_from_wit(&wit::State { heights: vec![9; 25], ..w.clone() }), None);
        assert_eq!(state_from_wit(&wit::State { workers: vec![None; 3], ..w }), None);
    }
}

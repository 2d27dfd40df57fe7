//! Host bindings for the `arena:fish/player` world, generated in this one place, and the conversions
//! between WIT types and the rules crate's.

use fish_rules as rules;

wasmtime::component::bindgen!({
    path: "../games/fish/wit",
    world: "arena:fish/player",
    exports: { default: async },
    additional_derives: [PartialEq],
});

pub use self::arena::fish::types as wit;

const COLOURS: [wit::Colour; 4] = [wit::Colour::Red, wit::Colour::White, wit::Colour::Brown, wit::Colour::Black];

pub fn colour(seat: u8) -> wit::Colour {
    COLOURS[usize::from(seat) % 4]
}

pub fn pos(p: rules::Pos) -> wit::Pos {
    wit::Pos { row: p.row, col: p.col }
}

pub fn step(m: rules::Move) -> wit::Step {
    wit::Step { from: pos(m.from), to: pos(m.to) }
}

impl From<wit::Pos> for rules::Pos {
    fn from(p: wit::Pos) -> Self {
        rules::Pos { row: p.row, col: p.col }
    }
}

impl From<wit::Step> for rules::Move {
    fn from(s: wit::Step) -> Self {
        rules::Move { from: s.from.into(), to: s.to.into() }
    }
}

pub fn state(s: &rules::State) -> wit::State {
    wit::State {
        board: wit::Board { rows: s.board.rows, cols: s.board.cols, tiles: s.board.tiles.clone() },
        seats: s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| wit::Seat {
                colour: colour(i as u8),
                penguins: p.penguins.iter().copied().map(pos).collect(),
                fish: p.fish,
                out: p.out,
            })
            .collect(),
        turn: colour(s.turn),
        phase: match s.phase {
            rules::Phase::Placement => wit::Phase::Placement,
            rules::Phase::Playing => wit::Phase::Playing,
            rules::Phase::Over => wit::Phase::Over,
        },
    }
}

pub fn action(a: &rules::Action) -> wit::Action {
    match *a {
        rules::Action::Place { seat, pos: p } => wit::Action::Place(wit::Placed { colour: colour(seat), at: pos(p) }),
        rules::Action::Move { seat, mv } => wit::Action::Move(wit::Moved { colour: colour(seat), step: step(mv) }),
    }
}

/// A state a player sent to the rule checker; `None` unless it is well formed.
pub fn state_from_wit(s: &wit::State) -> Option<rules::State> {
    let board = rules::Board::new(s.board.rows, s.board.cols, s.board.tiles.clone()).ok()?;
    let seat = |c: wit::Colour| COLOURS.iter().position(|&x| x == c).map(|i| i as u8);
    let players: Vec<rules::Seat> = s
        .seats
        .iter()
        .map(|p| rules::Seat { penguins: p.penguins.iter().map(|&q| q.into()).collect(), fish: p.fish, out: p.out })
        .collect();
    if !(2..=4).contains(&players.len()) || players.iter().flat_map(|p| &p.penguins).any(|&q| !board.in_bounds(q)) {
        return None;
    }
    let phase = match s.phase {
        wit::Phase::Placement => rules::Phase::Placement,
        wit::Phase::Playing => rules::Phase::Playing,
        wit::Phase::Over => rules::Phase::Over,
    };
    let turn = seat(s.turn).filter(|&t| usize::from(t) < players.len())?;
    Some(rules::State { board, players, turn, phase })
}

use crate::sandbox::Lifted as _;

crate::sandbox::lifted_fixed!(wit::Pos, wit::Colour, wit::Phase);
crate::sandbox::lifted_record!(wit::Board { rows, cols, tiles });
crate::sandbox::lifted_record!(wit::Seat { colour, penguins, fish, out });
crate::sandbox::lifted_record!(wit::State { board, seats, turn, phase });

/// The rule checker: pure, and charged to the player's fuel like any host call (the board's tiles are
/// examined, and every answer built).
impl self::arena::fish::rules::Host for crate::sandbox::PlayerState {
    fn legal_placements(&mut self, state: wit::State) -> Vec<wit::Pos> {
        self.charge_args(state.lifted_bytes());
        let found: Vec<wit::Pos> = state_from_wit(&state)
            .filter(|s| s.phase == rules::Phase::Placement)
            .map(|s| s.legal_placements().into_iter().map(pos).collect())
            .unwrap_or_default();
        self.charge_rules(found.len());
        found
    }
    fn legal_moves(&mut self, state: wit::State) -> Vec<wit::Step> {
        self.charge_args(state.lifted_bytes());
        let found: Vec<wit::Step> = state_from_wit(&state)
            .filter(|s| s.phase == rules::Phase::Playing)
            .map(|s| s.legal_moves().into_iter().map(step).collect())
            .unwrap_or_default();
        self.charge_rules(found.len());
        found
    }
}

impl self::arena::fish::types::Host for crate::sandbox::PlayerState {}

/// Adds the Fish host interfaces to a player linker.
pub fn add_to_linker(linker: &mut wasmtime::component::Linker<crate::sandbox::PlayerState>) -> wasmtime::Result<()> {
    Player::add_to_linker::<_, wasmtime::component::HasSelf<_>>(linker, |s| s)
}

#[cfg(test)]
mod tests {
    use self::arena::fish::rules::Host as _;
    use super::*;

    #[test]
    fn the_rule_checker_agrees_with_the_rules_and_refuses_nonsense() {
        let mut host = crate::sandbox::PlayerState::new(&crate::sandbox::Limits::default(), 0);
        let s = rules::State::new(rules::Board::generate(3, 5, 5, 2).unwrap(), 2).unwrap();
        let placements: Vec<wit::Pos> = s.legal_placements().into_iter().map(pos).collect();
        assert_eq!(host.legal_placements(state(&s)), placements);
        assert!(host.legal_moves(state(&s)).is_empty(), "no moves while placing");
        let mut playing = s.clone();
        while playing.phase == rules::Phase::Placement {
            let at = playing.legal_placements()[0];
            playing = playing.place(at).unwrap();
        }
        let moves: Vec<wit::Step> = playing.legal_moves().into_iter().map(step).collect();
        assert!(!moves.is_empty());
        assert_eq!(host.legal_moves(state(&playing)), moves);
        let mut broken = state(&playing);
        broken.board.tiles.truncate(3);
        assert!(host.legal_moves(broken).is_empty());
    }
}

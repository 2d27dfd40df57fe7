//! Host bindings for the `arena:fish/player` world, generated in this one place, and the conversions
//! between WIT types and the rules crate's.

use fish_rules as rules;

wasmtime::component::bindgen!({
    path: "../wit/fish",
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

impl self::arena::fish::types::Host for crate::sandbox::PlayerState {}

/// Adds the Fish host interfaces to a player linker.
pub fn add_to_linker(linker: &mut wasmtime::component::Linker<crate::sandbox::PlayerState>) -> wasmtime::Result<()> {
    Player::add_to_linker::<_, wasmtime::component::HasSelf<_>>(linker, |s| s)
}

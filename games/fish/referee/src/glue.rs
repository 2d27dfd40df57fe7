//! The `arena:fish/referee` bindings: conversions between the WIT types and the rules crate's, the
//! referee's exports over one [`Game`] per instance, and the rule checker.

// The generated lowering of `state` takes many flat arguments.
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:fish/referee", generate_all });
}

use crate::game::{self, Game};
use bindings::arena::fish::types as wit;
use bindings::arena::game::events::emit;
use bindings::arena::game::types::{Audience, FaultKind};
use bindings::exports::arena::fish::rules;
use bindings::{Answer, Fault, Guest, Outcome, Request, Setup, TournamentEvent};
use fish_rules as fr;
use std::cell::RefCell;

thread_local! {
    static GAME: RefCell<Option<Game>> = const { RefCell::new(None) };
}

const COLOURS: [wit::Colour; 4] = [wit::Colour::Red, wit::Colour::White, wit::Colour::Brown, wit::Colour::Black];

fn colour(seat: u8) -> wit::Colour {
    COLOURS[usize::from(seat) % COLOURS.len()]
}

fn pos(p: fr::Pos) -> wit::Pos {
    wit::Pos { row: p.row, col: p.col }
}

fn step(m: fr::Move) -> wit::Step {
    wit::Step { from: pos(m.from), to: pos(m.to) }
}

fn rules_pos(p: wit::Pos) -> fr::Pos {
    fr::Pos { row: p.row, col: p.col }
}

fn rules_move(s: wit::Step) -> fr::Move {
    fr::Move { from: rules_pos(s.from), to: rules_pos(s.to) }
}

fn phase(p: fr::Phase) -> wit::Phase {
    match p {
        fr::Phase::Placement => wit::Phase::Placement,
        fr::Phase::Playing => wit::Phase::Playing,
        fr::Phase::Over => wit::Phase::Over,
    }
}

fn state(s: &fr::State) -> wit::State {
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
        phase: phase(s.phase),
    }
}

fn action(a: &fr::Action) -> wit::Action {
    match *a {
        fr::Action::Place { seat, pos: p } => wit::Action::Place(wit::Placed { colour: colour(seat), at: pos(p) }),
        fr::Action::Move { seat, mv } => wit::Action::Move(wit::Moved { colour: colour(seat), step: step(mv) }),
    }
}

/// A state a player sent to the rule checker; `None` unless it is well formed.
fn state_from_wit(s: wit::State) -> Option<fr::State> {
    let players = s
        .seats
        .into_iter()
        .map(|p| fr::Seat { penguins: p.penguins.into_iter().map(rules_pos).collect(), fish: p.fish, out: p.out })
        .collect();
    // The colours are the seats in turn order.
    let turn = s.turn as u8;
    let phase = match s.phase {
        wit::Phase::Placement => fr::Phase::Placement,
        wit::Phase::Playing => fr::Phase::Playing,
        wit::Phase::Over => fr::Phase::Over,
    };
    game::checked_state(s.board.rows, s.board.cols, s.board.tiles, players, turn, phase)
}

fn request(r: game::Request) -> Request {
    match r {
        game::Request::Start => Request::Start,
        game::Request::PlayAs(seat) => Request::PlayAs(colour(seat)),
        game::Request::PlayWith(others) => Request::PlayWith(others.into_iter().map(colour).collect()),
        game::Request::Setup(s) => Request::Setup(state(&s)),
        game::Request::TakeTurn(s, actions) => Request::TakeTurn((state(&s), actions.iter().map(action).collect())),
        game::Request::End(won) => Request::End(won),
    }
}

fn answer(a: Answer) -> game::Answer {
    match a {
        Answer::Start => game::Answer::Start,
        Answer::PlayAs => game::Answer::PlayAs,
        Answer::PlayWith => game::Answer::PlayWith,
        Answer::Setup(p) => game::Answer::Setup(rules_pos(p)),
        Answer::TakeTurn(s) => game::Answer::TakeTurn(rules_move(s)),
        Answer::End => game::Answer::End,
    }
}

fn kind(k: FaultKind) -> &'static str {
    match k {
        FaultKind::Illegal => "illegal",
        FaultKind::Crash => "crash",
        FaultKind::Fuel => "fuel",
        FaultKind::Timeout => "timeout",
        FaultKind::Memory => "memory",
    }
}

/// Runs `f` on the game, if it has started, and hands its new events to the host (for everyone).
fn with_game<T>(f: impl FnOnce(&mut Game) -> T) -> Option<T> {
    GAME.with_borrow_mut(|g| {
        let g = g.as_mut()?;
        let out = f(g);
        for text in g.take_events() {
            emit(&Audience::All, &text);
        }
        Some(out)
    })
}

const NOT_STARTED: &str = "the game has not started";

struct Referee;

impl Guest for Referee {
    fn start(setup: Setup) -> Result<(), String> {
        if GAME.with_borrow(Option::is_some) {
            return Err("the game has already started".into());
        }
        let g = Game::start(setup.names.len(), setup.seed, &setup.options)?;
        GAME.with_borrow_mut(|slot| *slot = Some(g));
        with_game(|_| ());
        Ok(())
    }

    fn requests() -> Vec<(u32, Request)> {
        GAME.with_borrow(|g| g.as_ref().map(Game::requests).unwrap_or_default())
            .into_iter()
            .map(|(seat, r)| (seat, request(r)))
            .collect()
    }

    fn apply(seat: u32, a: Answer) -> Result<(), String> {
        with_game(|g| g.apply(seat, answer(a))).unwrap_or_else(|| Err(NOT_STARTED.into()))
    }

    fn banned(seat: u32, fault: Fault) {
        with_game(|g| g.banned(seat, &format!("{} in {}: {}", kind(fault.kind), fault.call, fault.reason)));
    }

    fn outcome() -> Option<Outcome> {
        GAME.with_borrow(|g| g.as_ref()?.outcome()).map(|(scores, winners)| Outcome { scores, winners })
    }

    fn view(_seat: Option<u32>) -> String {
        GAME.with_borrow(|g| g.as_ref().map_or_else(|| NOT_STARTED.to_string(), Game::view))
    }

    fn svg(_seat: Option<u32>) -> Option<String> {
        GAME.with_borrow(|g| g.as_ref().map(Game::svg))
    }

    fn tournament(event: TournamentEvent) -> Option<Request> {
        let ended = match event {
            TournamentEvent::Start(_) => None,
            TournamentEvent::End(won) => Some(won),
        };
        Some(request(game::tournament(ended)))
    }
}

impl rules::Guest for Referee {
    fn legal_placements(s: wit::State) -> Vec<wit::Pos> {
        game::legal_placements(state_from_wit(s)).into_iter().map(pos).collect()
    }

    fn legal_moves(s: wit::State) -> Vec<wit::Step> {
        game::legal_moves(state_from_wit(s)).into_iter().map(step).collect()
    }
}

bindings::export!(Referee with_types_in bindings);

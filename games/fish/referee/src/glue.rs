//! The `arena:fish/referee` glue: conversions between the WIT types and the rules crate's, the game
//! as the referee kit exports it (one [`Table`] per instance), and the rule checker.

use crate::bindings::arena::fish::types as wit;
use crate::bindings::exports::arena::fish::rules;
use crate::bindings::{Answer, Request};
use crate::game::{self, Table};
use arena_referee::{Events, Fault, FaultKind, Outcome, Referee, Setup, TournamentEvent};
use fish_rules as fr;

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

/// The game's new events, handed on (every one is for everyone).
fn pass_on(g: &mut Table, events: &mut Events) {
    for text in g.take_events() {
        events.all(text);
    }
}

impl Referee for Table {
    type Request = Request;
    type Answer = Answer;

    fn start(setup: Setup, events: &mut Events) -> Result<Table, String> {
        let mut g = Table::start(setup.names.len(), setup.seed, &setup.options)?;
        pass_on(&mut g, events);
        Ok(g)
    }

    fn requests(&self) -> Vec<(u32, Request)> {
        Table::requests(self).into_iter().map(|(seat, r)| (seat, request(r))).collect()
    }

    fn apply(&mut self, seat: u32, a: Answer, events: &mut Events) -> Result<(), String> {
        let applied = Table::apply(self, seat, answer(a));
        pass_on(self, events);
        applied
    }

    fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
        Table::banned(self, seat, &format!("{} in {}: {}", kind(fault.kind), fault.call, fault.reason));
        pass_on(self, events);
    }

    fn outcome(&self) -> Option<Outcome> {
        Table::outcome(self).map(|(scores, winners)| Outcome { scores, winners })
    }

    fn view(&self, _seat: Option<u32>) -> String {
        Table::view(self)
    }

    fn svg(&self, _seat: Option<u32>) -> Option<String> {
        Some(Table::svg(self))
    }

    fn tournament(event: TournamentEvent) -> Option<Request> {
        let ended = match event {
            TournamentEvent::Start { .. } => None,
            TournamentEvent::End(won) => Some(won),
        };
        Some(request(game::tournament(ended)))
    }
}

arena_referee::export_referee!(FishReferee, Table, svg, tournament, flat);

impl rules::Guest for FishReferee {
    fn legal_placements(s: wit::State) -> Vec<wit::Pos> {
        game::legal_placements(state_from_wit(s)).into_iter().map(pos).collect()
    }

    fn legal_moves(s: wit::State) -> Vec<wit::Step> {
        game::legal_moves(state_from_wit(s)).into_iter().map(step).collect()
    }
}

//! Santorini's referee component: the `arena:santorini/referee` world around the pure state machine in
//! `game`, and the rule checker (`arena:santorini/rules`) that the host serves players from a second
//! instance of this component.

pub mod game;

// The generated lowering of a `state` takes many flat arguments.
#[cfg(target_arch = "wasm32")]
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:santorini/referee-flat", generate_all, additional_derives: [PartialEq, serde::Serialize, serde::Deserialize] });
}

/// The state machine as the referee kit exports it, and the rule checker.
#[cfg(target_arch = "wasm32")]
mod component {
    use super::bindings::arena::santorini::types as wit;
    use super::bindings::exports::arena::santorini::rules;
    use super::bindings::{Answer, Request};
    use super::game::{Ask, Match, Reply, Table};
    use arena_referee::{Events, Fault, Outcome, Referee, Setup, TournamentEvent};
    use santorini_rules as r;

    fn cell(c: wit::Cell) -> r::Cell {
        r::Cell { row: c.row, col: c.col }
    }

    fn to_cell(c: r::Cell) -> wit::Cell {
        wit::Cell { row: c.row, col: c.col }
    }

    fn turn(t: wit::Turn) -> r::Turn {
        r::Turn { worker: t.worker, to: cell(t.to), build: t.build.map(cell) }
    }

    fn to_turn(t: r::Turn) -> wit::Turn {
        wit::Turn { worker: t.worker, to: to_cell(t.to), build: t.build.map(to_cell) }
    }

    /// The state as player `you` sees it.
    fn to_state(s: &r::State, you: u8) -> wit::State {
        wit::State {
            heights: s.heights.to_vec(),
            workers: s.workers.iter().flatten().map(|w| w.map(to_cell)).collect(),
            turn: s.turn,
            you,
        }
    }

    /// A state a player sent to the rule checker; `None` unless it is well formed.
    fn state(s: &wit::State) -> Option<r::State> {
        let heights: [u8; r::CELLS] = s.heights.clone().try_into().ok()?;
        if s.workers.len() != 4 || s.turn > 1 {
            return None;
        }
        let w = |i: usize| s.workers[i].map(cell);
        let workers = [[w(0), w(1)], [w(2), w(3)]];
        let phase = if s.workers.iter().all(Option::is_some) { r::Phase::Playing } else { r::Phase::Placement };
        let state = r::State { heights, workers, turn: s.turn, phase };
        state.is_valid().then_some(state)
    }

    fn request(ask: Ask) -> Request {
        match ask {
            Ask::MatchStart { opponent, number, total } => Request::MatchStart((opponent, number, total)),
            Ask::GameStart(i) => Request::GameStart(wit::GameInfo {
                opponent: i.opponent,
                you: i.you,
                game: i.game,
                games_in_match: i.games_in_match,
                my_wins: i.my_wins,
                their_wins: i.their_wins,
            }),
            Ask::Place(s) => Request::Place(to_state(&s, s.turn)),
            Ask::TakeTurn(s) => Request::TakeTurn(to_state(&s, s.turn)),
            Ask::GameOver(won) => Request::GameOver(won),
        }
    }

    impl Referee for Table {
        type Request = Request;
        type Answer = Answer;

        fn start(setup: Setup, events: &mut Events) -> Result<Table, String> {
            let [a, b] = <[String; 2]>::try_from(setup.names.clone())
                .map_err(|n| format!("Santorini seats 2 players, not {}", n.len()))?;
            let m = &setup.match_state;
            let so_far = Match {
                game: m.game.max(1),
                games_in_match: m.games_in_match,
                wins: [m.wins.first().copied().unwrap_or(0), m.wins.get(1).copied().unwrap_or(0)],
                number: m.number,
                matches: m.matches,
            };
            if so_far.game == 1 {
                // A ladder's matches are not counted in advance (0): no "of".
                let of = if so_far.matches > 0 { format!(" of {}", so_far.matches) } else { String::new() };
                events.all(format!("match {}{of} starts: {a} against {b}", so_far.number));
            }
            events.all(format!(
                "{a} (player A) against {b} (player B), game {} of {}",
                so_far.game, so_far.games_in_match
            ));
            Ok(Table::new([a, b], so_far))
        }

        fn requests(&self) -> Vec<(u32, Request)> {
            self.ask().map(|(s, a)| vec![(u32::from(s), request(a))]).unwrap_or_default()
        }

        fn apply(&mut self, seat: u32, answer: Answer, events: &mut Events) -> Result<(), String> {
            let seat = u8::try_from(seat).map_err(|_| format!("there is no seat {seat}"))?;
            let reply = match answer {
                Answer::Place(c) => Reply::Place(cell(c)),
                Answer::TakeTurn(t) => Reply::TakeTurn(turn(t)),
                _ => Reply::Done,
            };
            Table::apply(self, seat, reply)?;
            let who = r::player_name(seat);
            match reply {
                Reply::Place(c) => events.all(format!("{who} places a worker on {c}")),
                Reply::TakeTurn(t) => events.all(format!("{who}: {t}")),
                Reply::Done => {}
            }
            Ok(())
        }

        fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
            events.all(format!("seat {seat} is banned ({} in {})", fault.reason, fault.call));
            Table::banned(self, u8::try_from(seat).unwrap_or(u8::MAX));
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
            Some(match event {
                TournamentEvent::Start { you, players, .. } => Request::TournamentStart((you, players)),
                TournamentEvent::End(won) => Request::TournamentEnd(won),
            })
        }
    }

    arena_referee::export_referee!(SantoriniReferee, Table, svg, tournament, flat);

    impl rules::Guest for SantoriniReferee {
        fn is_legal_place(s: wit::State, at: wit::Cell) -> bool {
            state(&s).is_some_and(|s| s.is_legal_place(cell(at)))
        }

        fn is_legal_turn(s: wit::State, t: wit::Turn) -> bool {
            state(&s).is_some_and(|s| s.is_legal_turn(turn(t)))
        }

        fn legal_turns(s: wit::State) -> Vec<wit::Turn> {
            state(&s).map(|s| s.legal_turns().into_iter().map(to_turn).collect()).unwrap_or_default()
        }
    }
}

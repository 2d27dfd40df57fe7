//! Yahtzee's referee: two seats play the same 13 turns on the same 15 dice per turn (drawn from the
//! game's seed), each turn roll -> `keep` -> re-roll -> `keep` -> re-roll -> `choose`, seat 0 asked first;
//! the rules check every answer, and a seat that faults forfeits. The game itself is the pure state
//! machine in [`game`]; this crate's component glue (wasm32 only) drives it through the
//! `arena:yahtzee/referee` world, and serves the players' rule checker `score`.

pub mod draw;
pub mod game;

// The generated lowering of `turn-state` takes many flat arguments.
#[cfg(target_arch = "wasm32")]
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:yahtzee/referee-flat", generate_all, additional_derives: [PartialEq, serde::Serialize, serde::Deserialize] });
}

/// The state machine as the referee kit exports it, and the rule checker `score`.
#[cfg(target_arch = "wasm32")]
mod component {
    use crate::bindings::arena::yahtzee::types::{
        Category, GameInfo, GameScore, MatchState, Scorecard, TournamentInfo, TurnState,
    };
    use crate::bindings::{Answer, Request, exports};
    use crate::game::{self, Ask, MatchSoFar, Move, Table};
    use arena_referee::{Events, Fault, Outcome, Referee, Setup, TournamentEvent};
    use yahtzee_rules as rules;

    /// A game under way, and the match as each seat is shown it.
    struct State {
        game: Table,
        matches: [MatchState; 2],
    }

    fn category(c: Category) -> rules::Category {
        use Category as W;
        use rules::Category as R;
        match c {
            W::Ones => R::Ones,
            W::Twos => R::Twos,
            W::Threes => R::Threes,
            W::Fours => R::Fours,
            W::Fives => R::Fives,
            W::Sixes => R::Sixes,
            W::ThreeOfAKind => R::ThreeOfAKind,
            W::FourOfAKind => R::FourOfAKind,
            W::FullHouse => R::FullHouse,
            W::SmallStraight => R::SmallStraight,
            W::LargeStraight => R::LargeStraight,
            W::Yahtzee => R::Yahtzee,
            W::Chance => R::Chance,
        }
    }

    fn card(c: &rules::Scorecard) -> Scorecard {
        Scorecard {
            boxes: c.boxes.to_vec(),
            upper_bonus: c.upper_bonus(),
            yahtzee_bonus: c.yahtzee_bonus,
            total: c.total(),
        }
    }

    fn turn_state(s: &State, seat: usize) -> TurnState {
        let v = s.game.turn_view(seat);
        TurnState {
            turn: v.turn,
            dice: v.dice.to_vec(),
            rolls_left: v.rolls_left,
            mine: card(v.mine),
            theirs: card(v.theirs),
            opponent: v.opponent.to_string(),
            match_state: s.matches[seat].clone(),
        }
    }

    impl Referee for State {
        type Request = Request;
        type Answer = Answer;

        fn start(setup: Setup, events: &mut Events) -> Result<State, String> {
            let Ok(names) = <[String; 2]>::try_from(setup.names) else {
                return Err("Yahtzee seats 2 players".to_string());
            };
            let m = setup.match_state;
            let so_far = MatchSoFar {
                game: m.game,
                games_in_match: m.games_in_match,
                wins: m.wins,
                ties: m.ties,
                earlier: m.earlier,
            };
            let matches = [0, 1].map(|seat| {
                let v = game::match_view(&so_far, seat);
                MatchState {
                    game: v.game,
                    games_in_match: v.games_in_match,
                    my_wins: v.my_wins,
                    their_wins: v.their_wins,
                    ties: v.ties,
                    earlier: v.earlier.iter().map(|g| GameScore { mine: g.mine, theirs: g.theirs }).collect(),
                }
            });
            // Every event of the game is for everyone.
            let game = Table::new(names, setup.seed, &mut |text| events.all(text));
            Ok(State { game, matches })
        }

        fn requests(&self) -> Vec<(u32, Request)> {
            let Some((seat, ask)) = self.game.pending() else { return Vec::new() };
            let request = match ask {
                Ask::GameStart => Request::GameStart(GameInfo {
                    opponent: self.game.opponent(seat).to_string(),
                    you_start: seat == 0,
                    match_state: self.matches[seat].clone(),
                }),
                Ask::Keep => Request::Keep(turn_state(self, seat)),
                Ask::Choose => Request::Choose(turn_state(self, seat)),
            };
            vec![(seat as u32, request)]
        }

        fn apply(&mut self, seat: u32, answer: Answer, events: &mut Events) -> Result<(), String> {
            let answer = match &answer {
                Answer::GameStart => Move::GameStart,
                Answer::Keep(keep) => Move::Keep(keep),
                Answer::Choose(c) => Move::Choose(category(*c)),
                Answer::TournamentStart => Move::Other("tournament-start"),
                Answer::TournamentEnd => Move::Other("tournament-end"),
            };
            self.game.apply(seat as usize, answer, &mut |text| events.all(text))
        }

        fn banned(&mut self, seat: u32, fault: Fault, events: &mut Events) {
            self.game.ban(seat as usize, &fault.call, &fault.reason, &mut |text| events.all(text));
        }

        fn outcome(&self) -> Option<Outcome> {
            let (scores, winners) = self.game.outcome()?;
            Some(Outcome { scores: scores.to_vec(), winners })
        }

        /// Both score cards, the same for spectators and seats (nothing in Yahtzee is hidden).
        fn view(&self, _seat: Option<u32>) -> String {
            self.game.render()
        }

        /// The dice and both score cards, the same for spectators and seats.
        fn svg(&self, _seat: Option<u32>) -> Option<String> {
            Some(crate::draw::svg(&self.game))
        }

        fn tournament(event: TournamentEvent) -> Option<Request> {
            Some(match event {
                TournamentEvent::Start { you, players, games_per_match } => {
                    Request::TournamentStart(TournamentInfo { you, players, games_per_match })
                }
                TournamentEvent::End(won) => Request::TournamentEnd(won),
            })
        }
    }

    arena_referee::export_referee!(YahtzeeReferee, State, svg, tournament, flat);

    /// The rule checker players import, served from an instance of the referee of their own.
    impl exports::arena::yahtzee::rules::Guest for YahtzeeReferee {
        fn score(card: Scorecard, dice: Vec<u8>, box_: Category) -> Option<u16> {
            game::score(&card.boxes, card.yahtzee_bonus, &dice, category(box_))
        }
    }
}

//! The matching-pennies referee: each round it asks both seats at once; each choice is told only to the
//! seat that made it (a unicast event) until both are in, then the round is revealed to everyone. A seat
//! that faults forfeits the game.
#![cfg(target_arch = "wasm32")]
// The generated lowering of the setup record takes many flat arguments.
#![allow(clippy::too_many_arguments)]

wit_bindgen::generate!({ path: "../wit", world: "arena:pennies/referee", generate_all });

use arena::game::events::emit;
use arena::game::types::Audience;
use arena::pennies::types::Round;
use std::cell::RefCell;

/// Rounds a game, unless the `rounds` option says otherwise.
const ROUNDS: u32 = 5;

#[derive(Default)]
struct Game {
    rounds: u32,
    /// The round being played, from 1.
    round: u32,
    taken: [u32; 2],
    /// This round's choices, as they come in.
    choices: [Option<bool>; 2],
    forfeit: Option<usize>,
}

thread_local! {
    static GAME: RefCell<Game> = RefCell::new(Game::default());
}

fn coin(heads: bool) -> &'static str {
    if heads { "heads" } else { "tails" }
}

struct Referee;

impl Guest for Referee {
    fn start(setup: Setup) -> Result<(), String> {
        if setup.names.len() != 2 {
            return Err(format!("matching pennies seats 2 players, not {}", setup.names.len()));
        }
        let rounds = match setup.options.iter().find(|(k, _)| k == "rounds") {
            Some((_, v)) => v.parse().map_err(|_| format!("rounds must be a number, not {v}"))?,
            None => ROUNDS,
        };
        GAME.with_borrow_mut(|g| *g = Game { rounds, round: 1, ..Game::default() });
        emit(&Audience::All, &format!("{rounds} rounds; seat 0 takes a round when the coins match"));
        Ok(())
    }

    fn requests() -> Vec<(u32, Request)> {
        GAME.with_borrow(|g| {
            if g.forfeit.is_some() || g.round > g.rounds {
                return vec![];
            }
            (0..2u32)
                .filter(|&s| g.choices[s as usize].is_none())
                .map(|s| {
                    let round = Round { number: g.round, of: g.rounds, you: s, taken: g.taken.to_vec() };
                    (s, Request::Choose(round))
                })
                .collect()
        })
    }

    fn apply(seat: u32, answer: Answer) -> Result<(), String> {
        GAME.with_borrow_mut(|g| {
            let Answer::Choose(heads) = answer;
            let s = seat as usize;
            if s > 1 || g.choices[s].is_some() {
                return Err(format!("seat {seat} was not asked"));
            }
            g.choices[s] = Some(heads);
            emit(&Audience::Seat(seat), &format!("round {}: you chose {}", g.round, coin(heads)));
            if let [Some(a), Some(b)] = g.choices {
                // The players (and not the spectators) hear that the round is closed (a varicast).
                emit(&Audience::Seats(vec![0, 1]), &format!("round {}: both choices are in", g.round));
                let winner = if a == b { 0 } else { 1 };
                g.taken[winner] += 1;
                emit(
                    &Audience::All,
                    &format!("round {}: {} and {}, seat {winner} takes it", g.round, coin(a), coin(b)),
                );
                g.choices = [None, None];
                g.round += 1;
            }
            Ok(())
        })
    }

    fn banned(seat: u32, fault: Fault) {
        GAME.with_borrow_mut(|g| {
            emit(&Audience::All, &format!("seat {seat} forfeits: {}", fault.reason));
            g.forfeit = Some(seat.min(1) as usize);
        })
    }

    fn outcome() -> Option<Outcome> {
        GAME.with_borrow(|g| {
            let scores = g.taken.iter().map(|&t| i64::from(t)).collect();
            let winners = match g.forfeit {
                Some(f) => vec![1 - f as u32],
                None if g.round <= g.rounds => return None,
                None if g.taken[0] == g.taken[1] => vec![0, 1],
                None => vec![if g.taken[0] > g.taken[1] { 0 } else { 1 }],
            };
            Some(Outcome { scores, winners })
        })
    }

    fn view(seat: Option<u32>) -> String {
        GAME.with_borrow(|g| {
            let mine = seat
                .and_then(|s| g.choices.get(s as usize).copied().flatten())
                .map(|c| format!(", your choice this round: {}", coin(c)))
                .unwrap_or_default();
            format!("rounds taken: seat 0 {}, seat 1 {}{mine}", g.taken[0], g.taken[1])
        })
    }
}

export!(Referee);

//! {{name}}'s referee: a state machine the Arena host drives (see ../wit/deps/game/game.wit): `start`
//! deals the game from its seed, `requests` says who must act and what they are asked, `apply` checks
//! each answer with the rules (refusing one bans that player as `illegal`), `banned` says what a ban
//! means (here: the other seat wins), `outcome` and `view` tell how it ended. It runs sandboxed, like
//! the players: no clock, no files, randomness only from the seed.

wit_bindgen::generate!({ path: "../wit", world: "arena:{{name}}/referee", generate_all });

use arena::game::events::emit;
use arena::game::types::Audience;
use arena::{{crate}}::types::{State, Take};
use std::cell::RefCell;
use {{crate}}_rules::Game;

thread_local! {
    static GAME: RefCell<Option<Game>> = const { RefCell::new(None) };
}

struct Referee;

impl Guest for Referee {
    fn start(setup: Setup) -> Result<(), String> {
        if setup.names.len() != 2 {
            return Err(format!("{{name}} seats 2 players, not {}", setup.names.len()));
        }
        let heaps = match setup.options.iter().find(|(k, _)| k == "heaps") {
            Some((_, v)) => v.parse::<usize>().map_err(|_| format!("heaps must be a number, not {v}"))?,
            None => 3,
        };
        let game = Game::new(setup.seed, heaps);
        emit(&Audience::All, &format!("heaps {}", game.render()));
        GAME.set(Some(game));
        Ok(())
    }

    fn requests() -> Vec<(u32, Request)> {
        GAME.with_borrow(|g| match g {
            Some(g) if g.winner.is_none() => {
                let state = State { heaps: g.heaps.clone(), you: g.turn as u32 };
                vec![(g.turn as u32, Request::TakeTurn(state))]
            }
            _ => vec![],
        })
    }

    fn apply(seat: u32, answer: Answer) -> Result<(), String> {
        GAME.with_borrow_mut(|g| {
            let g = g.as_mut().ok_or("the game has not started")?;
            let Answer::TakeTurn(Take { heap, count }) = answer;
            g.take(seat as usize, heap, count)?;
            emit(&Audience::All, &format!("seat {seat} takes {count} from heap {heap}: {}", g.render()));
            Ok(())
        })
    }

    fn banned(seat: u32, fault: Fault) {
        GAME.with_borrow_mut(|g| {
            if let Some(g) = g.as_mut() {
                emit(&Audience::All, &format!("seat {seat} forfeits: {} in {}", fault.reason, fault.call));
                g.winner = Some(1 - seat.min(1) as usize);
            }
        })
    }

    fn outcome() -> Option<Outcome> {
        GAME.with_borrow(|g| {
            let w = g.as_ref()?.winner?;
            Some(Outcome { scores: (0..2).map(|s| i64::from(s == w)).collect(), winners: vec![w as u32] })
        })
    }

    fn view(_seat: Option<u32>) -> String {
        GAME.with_borrow(|g| g.as_ref().map(|g| format!("heaps {}, seat {} to move", g.render(), g.turn)))
            .unwrap_or_default()
    }
}

export!(Referee);

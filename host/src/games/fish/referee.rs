//! The Fish referee: 2 to 4 seats place their penguins in turn, then move until no penguin can move.
//! A seat that fails (a refused action, a trap, fuel, time, memory) is banned on the spot: its penguins
//! leave the board and the others play on (seed 001). Each seat is told its colour and the others'
//! first, and gets the actions of everyone since its own last turn (seed 003).

use super::seat::Seat;
use super::{FishPlayer, Options};
use crate::fault::Fault;
use crate::games::{CallLine, GameOutcome, GameSetup};
use fish_rules::{Action, Board, Phase, PlayerView, State};
use serde_json::json;

pub async fn play(mut seats: Vec<Seat>, setup: &GameSetup<FishPlayer>, options: &Options) -> GameOutcome {
    let n = seats.len();
    let mut out = GameOutcome { fuel: vec![0; n], ..Default::default() };
    let board = match Board::generate(setup.seed, options.rows, options.cols, options.holes) {
        Ok(b) => b,
        // Options are validated before any game; this is a bug, not a player's fault.
        Err(e) => panic!("fish board options were not validated: {e}"),
    };
    let mut state = State::new(board, n as u8).expect("2 to 4 seats, validated by the format");
    let mut failed = vec![false; n];
    let fail = |state: &mut State, failed: &mut Vec<bool>, out: &mut GameOutcome, seat: usize, f: Fault| {
        out.faults.push((seat, f));
        failed[seat] = true;
        *state = state.remove(seat as u8);
    };
    let record =
        |out: &mut GameOutcome, seat: usize, call: &'static str, turn: u32, answer: serde_json::Value, fuel: u64| {
            out.fuel[seat] += fuel;
            out.calls.push(CallLine::new(seat, call, turn, answer, fuel));
        };
    // play-as (the first call of a game), then play-with.
    for (i, seat) in seats.iter_mut().enumerate() {
        match seat.play_as(i as u8).await {
            Ok((_, fuel)) => {
                record(&mut out, i, "play-as", 0, json!(fish_rules::seat_letter(i as u8).to_string()), fuel)
            }
            Err(f) => fail(&mut state, &mut failed, &mut out, i, f),
        }
    }
    for i in 0..n {
        if failed[i] {
            continue;
        }
        let others: Vec<u8> = (0..n as u8).filter(|&o| o as usize != i).collect();
        match seats[i].play_with(&others).await {
            Ok((_, fuel)) => record(&mut out, i, "play-with", 0, json!(others), fuel),
            Err(f) => fail(&mut state, &mut failed, &mut out, i, f),
        }
    }
    let mut log: Vec<Action> = vec![];
    let mut seen = vec![0usize; n];
    let mut turn = 0u32;
    // Each action either places a penguin or turns a tile into a hole: the game cannot outlast this.
    let cap = state.board.tiles.len() as u32 + 4 * 6 + 1;
    while let Some(p) = state.current() {
        turn += 1;
        if turn > cap {
            break;
        }
        let i = usize::from(p);
        let view = PlayerView { me: p, state: state.clone(), actions_since: log[seen[i]..].to_vec() };
        seen[i] = log.len();
        let (call, result) = if state.phase == Phase::Placement {
            match seats[i].setup(&view).await {
                Ok((pos, fuel)) => {
                    record(&mut out, i, "setup", turn, json!([pos.row, pos.col]), fuel);
                    ("setup", state.place(pos).map(|s| (s, Action::Place { seat: p, pos })))
                }
                Err(f) => {
                    fail(&mut state, &mut failed, &mut out, i, f);
                    continue;
                }
            }
        } else {
            match seats[i].take_turn(&view).await {
                Ok((mv, fuel)) => {
                    let shown = json!({"from": [mv.from.row, mv.from.col], "to": [mv.to.row, mv.to.col]});
                    record(&mut out, i, "take-turn", turn, shown, fuel);
                    ("take-turn", state.play(mv).map(|s| (s, Action::Move { seat: p, mv })))
                }
                Err(f) => {
                    fail(&mut state, &mut failed, &mut out, i, f);
                    continue;
                }
            }
        };
        match result {
            Ok((next, action)) => {
                state = next;
                log.push(action);
            }
            Err(e) => fail(&mut state, &mut failed, &mut out, i, Fault::illegal(call, e.to_string())),
        }
    }
    out.scores = state.scores().into_iter().map(i64::from).collect();
    out.winners = state.winners().into_iter().map(usize::from).collect();
    out.board = state.render();
    out.logs = seats.iter().map(Seat::log).collect();
    out
}

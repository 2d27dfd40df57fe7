//! A Fish game re-enacted from its calls: the board generated from the game's seed, every placement
//! and move with its fuel and the board after it, and each banned player's penguins leaving the board
//! at the point it failed.

use super::Options;
use crate::fault::Fault;
use crate::games::replay::{ReplayInput, answer, call_line, fault_line};
use fish_rules::{Board, Move, Pos, State};
use std::fmt::Write as _;

#[derive(serde::Deserialize)]
struct MoveAnswer {
    from: [u8; 2],
    to: [u8; 2],
}

pub fn render(r: &ReplayInput<'_>, o: &Options) -> Result<String, String> {
    let mut out = String::new();
    let board = Board::generate(r.seed, o.rows, o.cols, o.holes).map_err(|e| format!("the board: {e}"))?;
    let n = r.players.len();
    let mut state = State::new(board, n as u8).map_err(|e| format!("the game: {e}"))?;
    let mut pending: std::collections::VecDeque<&(usize, Fault)> = r.faults.iter().collect();
    // A failed seat's penguins leave the board when it fails: before the call of the next seat to
    // answer, or right after its own refused answer.
    let fail_next = |out: &mut String, state: &mut State, pending: &mut std::collections::VecDeque<&(usize, Fault)>| {
        if let Some(&(seat, ref f)) = pending.pop_front() {
            fault_line(out, r, seat, f);
            *state = state.remove(seat as u8);
            let _ = writeln!(out, "  its penguins leave the board\n\n{}", state.render());
        }
    };
    let _ = writeln!(out, "{}", state.render());
    for c in r.calls {
        match c.call.as_ref() {
            "setup" | "take-turn" => {
                while pending.front().is_some_and(|(_, f)| {
                    matches!(f.call.as_str(), "play-as" | "play-with") || state.current() != Some(c.seat as u8)
                }) {
                    fail_next(&mut out, &mut state, &mut pending);
                }
            }
            _ => {
                call_line(&mut out, r, c, &c.answer.to_string());
                continue;
            }
        }
        let next = if c.call == "setup" {
            let [row, col]: [u8; 2] = answer(c)?;
            call_line(&mut out, r, c, &format!("turn {} places on ({row},{col})", c.turn));
            state.place(Pos::new(row, col))
        } else {
            let m: MoveAnswer = answer(c)?;
            let shown = format!("turn {}: ({},{}) to ({},{})", c.turn, m.from[0], m.from[1], m.to[0], m.to[1]);
            call_line(&mut out, r, c, &shown);
            state.play(Move { from: Pos::new(m.from[0], m.from[1]), to: Pos::new(m.to[0], m.to[1]) })
        };
        match next {
            Ok(s) => {
                state = s;
                let _ = writeln!(out, "\n{}", state.render());
            }
            Err(e) => {
                // The referee refused it: the seat's fault follows, and its penguins leave.
                let _ = writeln!(out, "  refused: {e}");
                if pending.front().is_some_and(|(seat, _)| *seat == c.seat) {
                    fail_next(&mut out, &mut state, &mut pending);
                }
            }
        }
    }
    while !pending.is_empty() {
        fail_next(&mut out, &mut state, &mut pending);
    }
    Ok(out)
}

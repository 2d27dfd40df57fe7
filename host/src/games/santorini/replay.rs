//! A Santorini game re-enacted from its calls: every placement and turn with its fuel, and the board
//! after it (heights, X for a dome, workers as A0, A1, B0, B1).

use crate::games::replay::{ReplayInput, answer, call_line, fault_line};
use santorini_rules::{Cell, State, Turn};
use std::fmt::Write as _;

#[derive(serde::Deserialize)]
struct TurnAnswer {
    worker: u8,
    to: [u8; 2],
    build: Option<[u8; 2]>,
}

pub fn render(r: &ReplayInput<'_>) -> Result<String, String> {
    let mut out = String::new();
    let mut state = State::new();
    let _ = writeln!(out, "{}", state.render());
    for c in r.calls {
        let next = match c.call.as_ref() {
            "place" => {
                let [row, col]: [u8; 2] = answer(c)?;
                call_line(&mut out, r, c, &format!("turn {} places on ({row},{col})", c.turn));
                state.place(Cell::new(row, col))
            }
            "take-turn" => {
                let t: TurnAnswer = answer(c)?;
                let build = t.build.map_or("no build".to_string(), |[r, c]| format!("builds ({r},{c})"));
                let shown = format!("turn {}: worker {} to ({},{}), {build}", c.turn, t.worker, t.to[0], t.to[1]);
                call_line(&mut out, r, c, &shown);
                let turn = Turn {
                    worker: t.worker,
                    to: Cell::new(t.to[0], t.to[1]),
                    build: t.build.map(|[r, c]| Cell::new(r, c)),
                };
                state.play(turn)
            }
            _ => {
                call_line(&mut out, r, c, &c.answer.to_string());
                continue;
            }
        };
        match next {
            Ok(s) => {
                state = s;
                let _ = writeln!(out, "\n{}", state.render());
            }
            Err(e) => {
                let _ = writeln!(out, "  refused: {e}");
                break;
            }
        }
    }
    for (seat, f) in r.faults {
        fault_line(&mut out, r, *seat, f);
    }
    // A fault during the game forfeits it, as the referee rules.
    if let Some((seat, _)) = r.faults.first()
        && !state.is_over()
    {
        state = state.forfeit(*seat as u8);
        let _ = writeln!(out, "\n{}", state.render());
    }
    Ok(out)
}

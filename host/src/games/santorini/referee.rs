//! The Santorini referee: tells both players a match starts (before its first game) and a game starts,
//! places four workers, then alternates move-and-build turns until someone
//! moves up onto level 3 or is left without a legal turn. Every answer goes through the rules; a seat
//! that fails forfeits the game. After the game both players hear whether they won (seed 002's "game
//! winner" notification); failing there is a fault like any other.

use super::seat::Seat;
use super::{GameInfo, SantoriniPlayer};
use crate::fault::Fault;
use crate::games::{CallLine, GameOutcome, GameSetup};
use santorini_rules::{Phase, PlayerView, State};
use serde_json::json;

/// Turns after which a game is stopped as a safety net; every turn builds a level, so a game cannot
/// last longer than 25 × 4 turns.
const MAX_TURNS: u32 = 200;

pub async fn play(mut seats: [Seat; 2], setup: &GameSetup<SantoriniPlayer>) -> GameOutcome {
    let names = [setup.players[0].name.clone(), setup.players[1].name.clone()];
    let mut out = GameOutcome { fuel: vec![0, 0], ..Default::default() };
    let mut state = State::new();
    let note = |out: &mut GameOutcome,
                seat: usize,
                call: &'static str,
                turn: u32,
                r: Result<(serde_json::Value, u64), Fault>| match r {
        Ok((answer, fuel)) => {
            out.fuel[seat] += fuel;
            out.calls.push(CallLine::new(seat, call, turn, answer, fuel));
            true
        }
        Err(f) => {
            out.faults.push((seat, f));
            false
        }
    };
    let s = &setup.so_far;
    let mut failed: Option<usize> = None;
    // Seed 002's "match x of n starting", before the first game of a match.
    if s.game == 1 {
        for i in 0..2 {
            let r = seats[i].match_start(&names[1 - i], s.match_no, s.matches).await;
            if !note(&mut out, i, "match-start", 0, r.map(|(_, f)| (json!([s.match_no, s.matches]), f))) {
                failed = Some(i);
                break;
            }
        }
    }
    for i in 0..2 {
        if failed.is_some() {
            break;
        }
        let info = GameInfo {
            opponent: names[1 - i].clone(),
            you: i as u8,
            game: s.game,
            games_in_match: s.games_in_match,
            my_wins: s.wins.get(i).copied().unwrap_or(0),
            their_wins: s.wins.get(1 - i).copied().unwrap_or(0),
        };
        let r = seats[i].game_start(&info).await.map(|(_, f)| (serde_json::Value::Null, f));
        if !note(&mut out, i, "game-start", 0, r) {
            failed = Some(i);
            break;
        }
    }
    let mut turn = 0u32;
    while failed.is_none() && !state.is_over() && turn < MAX_TURNS {
        turn += 1;
        let p = state.turn;
        let i = usize::from(p);
        let view = PlayerView { me: p, state };
        let next = if state.phase == Phase::Placement {
            let r = seats[i].place(&view).await;
            let cell = r.as_ref().ok().map(|(c, _)| *c);
            if !note(&mut out, i, "place", turn, r.map(|(c, f)| (json!([c.row, c.col]), f))) {
                failed = Some(i);
                break;
            }
            state.place(cell.expect("noted as an answer")).map_err(|e| Fault::illegal("place", e.to_string()))
        } else {
            let r = seats[i].take_turn(&view).await;
            let t = r.as_ref().ok().map(|(t, _)| *t);
            let shown = r.map(|(t, f)| {
                (json!({"worker": t.worker, "to": [t.to.row, t.to.col], "build": t.build.map(|b| [b.row, b.col])}), f)
            });
            if !note(&mut out, i, "take-turn", turn, shown) {
                failed = Some(i);
                break;
            }
            state.play(t.expect("noted as an answer")).map_err(|e| Fault::illegal("take-turn", e.to_string()))
        };
        match next {
            Ok(s) => state = s,
            Err(f) => {
                out.faults.push((i, f));
                failed = Some(i);
            }
        }
    }
    if let Some(i) = failed {
        state = state.forfeit(i as u8);
    }
    let winner = state.winner().map(usize::from);
    // The "game winner" notification, to every seat that has not failed.
    for (i, seat) in seats.iter_mut().enumerate() {
        if failed != Some(i) {
            let r = seat.game_over(winner == Some(i)).await.map(|(_, f)| (serde_json::Value::Null, f));
            if !note(&mut out, i, "game-over", turn + 1, r) && failed.is_none() {
                failed = Some(i);
            }
        }
    }
    let failed_seats: Vec<usize> = out.faults.iter().map(|(s, _)| *s).collect();
    out.winners = match winner {
        Some(w) if !failed_seats.contains(&w) => vec![w],
        _ => (0..2).filter(|s| !failed_seats.contains(s)).collect(),
    };
    out.scores = (0..2).map(|i| i64::from(out.winners == vec![i])).collect();
    out.board = state.render();
    out.logs = seats.iter().map(Seat::log).collect();
    out
}

//! Replays in the terminal: a recorded game re-enacted call by call through its game's rules, showing
//! each call's answer and fuel, the position after every move, and each fault where it happened.

use super::CallLine;
use crate::fault::Fault;
use std::fmt::Write as _;

/// What a replay is drawn from.
pub struct ReplayInput<'a> {
    /// In seat order.
    pub players: &'a [String],
    pub seed: u64,
    pub calls: &'a [CallLine],
    /// With the seat that failed, in the order they happened.
    pub faults: &'a [(usize, Fault)],
}

/// The game's calls, turn by turn, with positions. `options` are the game's options as stored (Fish:
/// the board size); unknown games and unreadable calls are errors naming the problem.
pub fn render(game: &str, options: &serde_json::Value, r: &ReplayInput<'_>) -> Result<String, String> {
    match game {
        "yahtzee" => super::yahtzee::replay::render(r),
        "santorini" => super::santorini::replay::render(r),
        "fish" => {
            let o: super::fish::Options = if options.is_null() {
                super::fish::Options::default()
            } else {
                serde_json::from_value(options.clone()).map_err(|e| format!("unreadable Fish options: {e}"))?
            };
            super::fish::replay::render(r, &o)
        }
        other => Err(format!("no replay for the game `{other}`")),
    }
}

/// `12,345,678`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One call as a line: who, what, answer, fuel.
pub fn call_line(out: &mut String, r: &ReplayInput<'_>, c: &CallLine, shown: &str) {
    let who = r.players.get(c.seat).map_or("?", String::as_str);
    let _ = writeln!(out, "  {who:<20} {:<12} {shown:<28} fuel {}", c.call, thousands(c.fuel));
}

/// A fault as a line.
pub fn fault_line(out: &mut String, r: &ReplayInput<'_>, seat: usize, f: &Fault) {
    let who = r.players.get(seat).map_or("?", String::as_str);
    let _ = writeln!(out, "  {who:<20} FAULT {} in `{}`: {}", f.kind, f.call, f.reason);
}

/// Parses a call's answer, naming the call when it cannot.
pub fn answer<T: serde::de::DeserializeOwned>(c: &CallLine) -> Result<T, String> {
    serde_json::from_value(c.answer.clone())
        .map_err(|e| format!("turn {}: unreadable `{}` answer: {e}", c.turn, c.call))
}

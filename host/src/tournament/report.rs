//! Showing results to people and to files: the human summary (bracket, winner, ban table) and the
//! replay files (one JSON Lines file per game: header, one line per call, footer).

use super::{GameRecord, TournamentResult};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The bracket, the winner and the ban table.
pub fn human(r: &TournamentResult) -> String {
    let mut s = String::new();
    let slots = r.players.len().next_power_of_two().max(2);
    let _ = writeln!(
        s,
        "{} {} tournament: {} players in {} slots, best of {}, seed {}",
        r.game,
        format!("{:?}", r.format).to_lowercase(),
        r.players.len(),
        slots,
        r.games_per_match,
        r.seed
    );
    let width = r.players.iter().map(|p| p.name.chars().count()).max().unwrap_or(4).max(4);
    let mut round = 0;
    for m in &r.matches {
        if m.round != round {
            round = m.round;
            let _ = writeln!(s, "\nRound {round}");
        }
        let name = |p: &Option<String>| p.clone().unwrap_or_else(|| "(bye)".into());
        let (a, b) = (name(&m.players[0]), name(&m.players[1]));
        let score = match m.decided_by.as_str() {
            "bye" => "  bye ".to_string(),
            _ => format!("{:>2}-{:<2}", m.wins[0], m.wins[1]),
        };
        let how = match m.decided_by.as_str() {
            "played" | "bye" => String::new(),
            other => format!("  ({other})"),
        };
        let winner = m.winner.clone().unwrap_or_else(|| "nobody".into());
        let _ = writeln!(s, "  {a:>width$} {score} {b:<width$}  -> {winner}{how}");
    }
    let _ = writeln!(s, "\nWinner: {}", r.winner.as_deref().unwrap_or("none"));
    if r.ranking.len() > 1 {
        let _ = writeln!(s, "Ranking:");
        for (i, place) in r.ranking.iter().enumerate() {
            let _ = writeln!(s, "  {}. {}", i + 1, place.join(", "));
        }
    }
    s.push_str(&ban_table(&r.banned));
    s
}

/// The banned players in the order they failed, or a line saying there were none.
pub fn ban_table(bans: &[super::Ban]) -> String {
    let mut s = String::new();
    if bans.is_empty() {
        let _ = writeln!(s, "\nNo player was banned.");
        return s;
    }
    let w = bans.iter().map(|b| b.player.chars().count()).max().unwrap_or(6).max(6);
    let _ = writeln!(s, "\nBanned, in the order they failed:");
    let _ = writeln!(s, "  {:<w$}  {:<7}  {:<16}  {:<10}  reason", "player", "kind", "call", "game");
    for b in bans {
        let game = b.game.as_deref().unwrap_or("-");
        let _ = writeln!(s, "  {:<w$}  {:<7}  {:<16}  {:<10}  {}", b.player, b.kind.as_str(), b.call, game, b.reason);
    }
    s
}

/// Writes `DIR/<game id>.jsonl` for every game: a header (players, seed, limits), one line per call
/// (seat, player, call, turn, answer, fuel) and a footer (scores, winners, faults).
pub fn write_replays(dir: &Path, r: &TournamentResult) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for g in &r.games {
        write_replay(&dir.join(format!("{}.jsonl", g.id)), &r.game, g, &r.limits)?;
    }
    Ok(())
}

pub fn write_replay(path: &Path, game: &str, g: &GameRecord, limits: &crate::sandbox::Limits) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    let header =
        json!({"type": "header", "game": game, "id": g.id, "players": g.players, "seed": g.seed, "limits": limits});
    writeln!(f, "{header}")?;
    for c in &g.replay {
        let line = json!({"type": "call", "seat": c.seat, "player": g.players[c.seat], "call": c.call,
            "turn": c.turn, "answer": c.answer, "fuel": c.fuel});
        writeln!(f, "{line}")?;
    }
    let footer = json!({"type": "footer", "scores": g.scores, "winners": g.winners, "fuel": g.fuel, "faults": g.faults,
        "logs": g.logs});
    writeln!(f, "{footer}")?;
    f.flush()
}

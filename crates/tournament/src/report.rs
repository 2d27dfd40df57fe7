//! Showing results to people and to files: the human summary (bracket, winner, ban table) and the
//! replay files (one JSON Lines file per game: header, one line per call, footer).

use super::{Format, GameRecord, TournamentResult};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The summary a person reads: the bracket (knockout), the standings (round robin) or the rounds'
/// games (elimination rounds), then the winner, the ranking and the ban table.
pub fn human(r: &TournamentResult) -> String {
    let mut s = String::new();
    let _ = match r.format {
        Format::Knockout => writeln!(
            s,
            "{} knockout: {} players in {} slots, best of {}, seed {}",
            r.game,
            r.players.len(),
            r.players.len().next_power_of_two().max(2),
            r.games_per_match,
            r.seed
        ),
        Format::RoundRobin => writeln!(
            s,
            "{} round robin: {} players, {} games per pair, seed {}",
            r.game,
            r.players.len(),
            r.games_per_match,
            r.seed
        ),
        Format::Rounds => {
            writeln!(s, "{} {}: {} players, seed {}", r.game, r.format.as_str(), r.players.len(), r.seed)
        }
    };
    match r.format {
        Format::Knockout => bracket(&mut s, r),
        Format::RoundRobin => standings(&mut s, r),
        Format::Rounds => rounds(&mut s, r),
    }
    let _ = writeln!(s, "\nWinner: {}", r.winner.as_deref().unwrap_or("none"));
    if r.ranking.len() > 1 {
        let _ = writeln!(s, "Ranking:");
        for (i, place) in r.ranking.iter().enumerate() {
            let _ = writeln!(s, "  {}. {}", i + 1, place.join(", "));
        }
    }
    s.push_str(&by_the_games(r));
    s.push_str(&ban_table(&r.banned));
    s.push_str(&game_fault_table(&r.game, &r.game_faults));
    s
}

/// What the tournament's games say of each player, best first: the places its rating by these games
/// alone allows at about 95% confidence (`1–3`: they cannot tell it from the second and third), and
/// the rating's interval. Nothing for a tournament of fewer than two players.
fn by_the_games(r: &TournamentResult) -> String {
    let mut s = String::new();
    if r.players.len() < 2 {
        return s;
    }
    let players: Vec<super::ratings::Entrant<'_>> = r
        .players
        .iter()
        .map(|p| super::ratings::Entrant {
            name: &p.name,
            forfeited: r.banned.iter().any(|b| b.player == p.name && b.game.is_none()),
            // Banned players are not ranked (as in the ranking above).
            banned: r.banned.iter().any(|b| b.player == p.name),
        })
        .collect();
    let rated = super::ratings::by_games(&players, &r.games);
    let mut rows: Vec<_> =
        players.iter().zip(rated).filter_map(|(p, g)| Some((p.name, g.rating, g.rank_range?))).collect();
    rows.sort_by(|a, b| a.2.cmp(&b.2).then(b.1.rating.total_cmp(&a.1.rating)));
    if rows.len() < 2 {
        return s;
    }
    let width = name_width(r);
    let _ = writeln!(s, "\nBy the games (the places each rating allows at 95%):");
    for (name, rating, range) in rows {
        let (lo, hi) = rating.interval();
        let _ = writeln!(s, "  {name:<width$}  {:>7}  rating {lo:.0} to {hi:.0}", super::ratings::rank_text(range));
    }
    s
}

/// The games that ended in a game fault, after the ban table: who failed (the game's package, not a
/// player), then each game with the referee's call and the reason. Nothing when there are none.
pub fn game_fault_table(game: &str, faults: &[super::GameFaultRow]) -> String {
    let mut s = String::new();
    if faults.is_empty() {
        return s;
    }
    let n = faults.len();
    let games = if n == 1 { "game" } else { "games" };
    let _ = writeln!(
        s,
        "
{n} {games} ended in a game fault: the referee of the package `{game}` failed (no result, nobody banned):"
    );
    let w = faults.iter().map(|f| f.game.chars().count()).max().unwrap_or(4).max(4);
    let _ = writeln!(s, "  {:<w$}  {:<16}  reason", "game", "referee call");
    for f in faults {
        let _ = writeln!(s, "  {:<w$}  {:<16}  {}", f.game, f.call, f.reason);
    }
    s
}

fn name_width(r: &TournamentResult) -> usize {
    r.players.iter().map(|p| p.name.chars().count()).max().unwrap_or(4).max(6)
}

fn bracket(s: &mut String, r: &TournamentResult) {
    let width = name_width(r);
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
            "no-result" => "  (decided without a result: every game ended in a game fault)".to_string(),
            other => format!("  ({other})"),
        };
        let winner = m.winner.clone().unwrap_or_else(|| "nobody".into());
        let _ = writeln!(s, "  {a:>width$} {score} {b:<width$}  -> {winner}{how}");
    }
    if let Some(drawn) = bracket_drawing(&r.matches) {
        let _ = write!(s, "\nBracket\n{drawn}");
    }
}

/// The most first-round slots a bracket is drawn for (past it, the rounds' lists alone are shown).
pub const DRAWN_SLOTS: usize = 32;

/// A knockout's matches drawn as a bracket: the first round's slots down the left (byes as `(bye)`),
/// each match's winner to the right of its two, joined by lines; nothing for a bracket over
/// [`DRAWN_SLOTS`] or one whose first round is not whole.
pub fn bracket_drawing(matches: &[super::MatchRecord]) -> Option<String> {
    let last = matches.iter().map(|m| m.round).max()?;
    let round = |r: u32| {
        let mut ms: Vec<&super::MatchRecord> = matches.iter().filter(|m| m.round == r).collect();
        ms.sort_by_key(|m| m.match_no);
        ms
    };
    let first = round(1);
    let slots = first.len() * 2;
    if slots > DRAWN_SLOTS || !slots.is_power_of_two() {
        return None;
    }
    let name = |p: &Option<String>| p.clone().unwrap_or_else(|| "(bye)".into());
    // Each column's names and their rows: the slots on even rows, each winner between its two.
    let mut columns: Vec<Vec<(usize, String)>> = vec![
        first
            .iter()
            .flat_map(|m| [name(&m.players[0]), name(&m.players[1])])
            .enumerate()
            .map(|(k, n)| (2 * k, n))
            .collect(),
    ];
    for r in 1..=last {
        let before = columns.last().expect("a column");
        let ms = round(r);
        if ms.len() * 2 != before.len() {
            break;
        }
        let col = ms
            .iter()
            .enumerate()
            .map(|(j, m)| {
                ((before[2 * j].0 + before[2 * j + 1].0) / 2, m.winner.clone().unwrap_or_else(|| "nobody".into()))
            })
            .collect();
        columns.push(col);
    }
    let rows = 2 * slots - 1;
    let mut grid: Vec<Vec<char>> = vec![Vec::new(); rows];
    let put = |grid: &mut Vec<Vec<char>>, row: usize, x: usize, text: &str| {
        let line = &mut grid[row];
        for (i, c) in text.chars().enumerate() {
            if line.len() <= x + i {
                line.resize(x + i + 1, ' ');
            }
            line[x + i] = c;
        }
    };
    let mut x = 2;
    for (c, col) in columns.iter().enumerate() {
        let width = col.iter().map(|(_, n)| n.chars().count()).max().unwrap_or(0);
        for (row, n) in col {
            put(&mut grid, *row, x, n);
        }
        let Some(next) = columns.get(c + 1) else { break };
        let at = x + width + 1;
        for (j, (mid, _)) in next.iter().enumerate() {
            let (top, bottom) = (col[2 * j].0, col[2 * j + 1].0);
            put(&mut grid, top, at, "─┐");
            for row in top + 1..bottom {
                put(&mut grid, row, at + 1, "│");
            }
            put(&mut grid, bottom, at, "─┘");
            put(&mut grid, *mid, at + 1, "├─");
        }
        x = at + 4;
    }
    Some(grid.iter().map(|l| format!("{}\n", l.iter().collect::<String>().trim_end())).collect())
}

/// Games won, tied and lost per player over every series (forfeited games count), best first.
fn standings(s: &mut String, r: &TournamentResult) {
    let width = name_width(r);
    let mut rows: Vec<(String, u32, u32, u32)> = r.players.iter().map(|p| (p.name.clone(), 0, 0, 0)).collect();
    for m in &r.matches {
        let total = m.wins[0] + m.wins[1] + m.ties;
        for (j, p) in m.players.iter().enumerate() {
            if let Some(row) = rows.iter_mut().find(|row| Some(&row.0) == p.as_ref()) {
                row.1 += m.wins[j];
                row.2 += m.ties;
                row.3 += total - m.wins[j] - m.ties;
            }
        }
    }
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.3.cmp(&b.3)));
    let _ = writeln!(s, "\n  {:<width$}  {:>4}  {:>4}  {:>4}", "player", "won", "tied", "lost");
    for (name, w, t, l) in rows {
        let banned = if r.banned.iter().any(|b| b.player == name) { "  (banned)" } else { "" };
        let _ = writeln!(s, "  {name:<width$}  {w:>4}  {t:>4}  {l:>4}{banned}");
    }
}

fn rounds(s: &mut String, r: &TournamentResult) {
    let mut round = 0;
    for g in &r.games {
        if g.round != round {
            round = g.round;
            let _ = writeln!(s, "\nRound {round}");
        }
        let seats: Vec<String> = g.players.iter().zip(&g.scores).map(|(p, sc)| format!("{p} {sc}")).collect();
        let winners = if g.winners.is_empty() { "nobody".to_string() } else { g.winners.join(", ") };
        let _ = writeln!(s, "  {}: {}  -> {winners}", g.id, seats.join(", "));
    }
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
        let _ = write!(s, "{}", last_words(&b.output, "    "));
    }
    s
}

/// A quoted value as text: its JSON, or a cut quote's own text (a long value is quoted as a string).
pub fn quoted_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// A player's last words under its fault, indented by `indent`: "its last output:" and the lines,
/// each behind a bar (nothing when it printed nothing).
pub fn last_words(output: &str, indent: &str) -> String {
    if output.trim().is_empty() {
        return String::new();
    }
    let mut s = format!("{indent}its last output:\n");
    for line in output.lines() {
        let _ = writeln!(s, "{indent}| {line}");
    }
    s
}

/// What a replay file's header says a game was played with: the game, its referee's sha256 (when
/// known), the limits and the options.
#[derive(Debug, Clone, Copy)]
pub struct PlayedWith<'a> {
    pub game: &'a str,
    pub referee: Option<&'a str>,
    pub limits: &'a arena_core::Limits,
    pub options: &'a serde_json::Value,
}

/// Writes `path`: one game's replay as JSON Lines (see [`write_replay_to`]); a tournament writes each
/// game's as it finishes.
pub fn write_replay(path: &Path, with: PlayedWith<'_>, g: &GameRecord) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    write_replay_to(&mut f, with, g)?;
    f.flush()
}

/// A game's replay as JSON Lines: a header (game, referee, players, seed, limits, options, the match so
/// far), a line per call (with what the seat printed during it, and on a fault what it was asked), a
/// footer (result, final board, logs, events, drawing).
pub fn write_replay_to(f: &mut impl std::io::Write, with: PlayedWith<'_>, g: &GameRecord) -> std::io::Result<()> {
    let PlayedWith { game, referee, limits, options } = with;
    let mut header = json!({"type": "header", "game": game, "id": g.id, "round": g.round, "match": g.match_no,
        "number": g.number, "players": g.players, "seed": g.seed, "limits": limits, "options": options,
        "so_far": g.so_far});
    if let Some(r) = referee {
        header["referee"] = json!(r);
    }
    writeln!(f, "{header}")?;
    for c in &g.replay {
        let mut line = json!({"type": "call", "seat": c.seat, "player": g.players[c.seat], "call": c.call,
            "turn": c.turn, "answer": c.answer, "fuel": c.fuel});
        if let Some(f) = &c.fault {
            line["fault"] = json!(f);
        }
        if c.micros > 0 {
            line["micros"] = json!(c.micros);
        }
        // The seat's own: a record shown to anyone else has had them cleared (`GameRecord::only_for`).
        if !c.output.is_empty() {
            line["output"] = json!(c.output);
        }
        if let Some(r) = &c.request {
            line["request"] = r.clone();
        }
        writeln!(f, "{line}")?;
    }
    let mut footer = json!({"type": "footer", "scores": g.scores, "winners": g.winners, "fuel": g.fuel,
        "calls": g.calls, "faults": g.faults, "board": g.board, "logs": g.logs, "game_fault": g.game_fault,
        "events": g.events, "svg": g.svg});
    if g.last_words.iter().any(|w| !w.is_empty()) {
        footer["last_words"] = json!(g.last_words);
    }
    writeln!(f, "{footer}")
}

/// A replay file read back: the game, its options, its referee's sha256 and limits (when the header
/// has them), and the record.
#[derive(Debug)]
pub struct ReplayFile {
    pub game: String,
    pub options: serde_json::Value,
    pub referee: Option<String>,
    pub limits: Option<arena_core::Limits>,
    pub record: GameRecord,
}

/// A replay file read back; errors name the line.
pub fn read_replay(path: &Path) -> Result<ReplayFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let bad = |n: usize, what: String| format!("{}: line {n}: {what}", path.display());
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let (n, first) = lines.next().ok_or_else(|| format!("{}: empty, not a replay file", path.display()))?;
    let header: serde_json::Value = serde_json::from_str(first).map_err(|e| bad(n, format!("not JSON: {e}")))?;
    if header["type"] != "header" {
        return Err(bad(n, "not a replay file (the first line is not a header)".into()));
    }
    let field = |k: &str| header.get(k).cloned().unwrap_or_default();
    let mut g = GameRecord {
        id: field("id").as_str().unwrap_or("game").to_string(),
        round: field("round").as_u64().unwrap_or(1) as u32,
        match_no: field("match").as_u64().unwrap_or(1) as u32,
        number: field("number").as_u64().unwrap_or(1) as u32,
        players: serde_json::from_value(field("players")).map_err(|e| bad(n, format!("players: {e}")))?,
        seed: field("seed").as_u64().ok_or_else(|| bad(n, "no seed".into()))?,
        scores: vec![],
        winner: None,
        winners: vec![],
        fuel: vec![],
        calls: vec![],
        faults: vec![],
        replay: vec![],
        board: String::new(),
        logs: vec![],
        last_words: vec![],
        game_fault: None,
        fault_by: None,
        events: vec![],
        seat_views: vec![],
        svg: None,
        seat_svgs: vec![],
        so_far: serde_json::from_value(field("so_far")).unwrap_or_default(),
    };
    let game = field("game").as_str().unwrap_or_default().to_string();
    let mut footer = false;
    for (n, line) in lines {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(n, format!("not JSON: {e}")))?;
        match v["type"].as_str() {
            Some("call") => g.replay.push(serde_json::from_value(v).map_err(|e| bad(n, format!("a call: {e}")))?),
            Some("footer") => {
                footer = true;
                let f = |k: &str| v.get(k).cloned().unwrap_or_default();
                g.scores = serde_json::from_value(f("scores")).map_err(|e| bad(n, format!("scores: {e}")))?;
                g.winners = serde_json::from_value(f("winners")).map_err(|e| bad(n, format!("winners: {e}")))?;
                g.fuel = serde_json::from_value(f("fuel")).unwrap_or_default();
                g.calls = serde_json::from_value(f("calls")).unwrap_or_default();
                g.faults = serde_json::from_value(f("faults")).map_err(|e| bad(n, format!("faults: {e}")))?;
                g.board = f("board").as_str().unwrap_or_default().to_string();
                g.logs = serde_json::from_value(f("logs")).unwrap_or_default();
                g.last_words = serde_json::from_value(f("last_words")).unwrap_or_default();
                g.game_fault = serde_json::from_value(f("game_fault")).unwrap_or_default();
                g.events = serde_json::from_value(f("events")).unwrap_or_default();
                g.svg = serde_json::from_value(f("svg")).unwrap_or_default();
                g.winner = match g.winners.as_slice() {
                    [w] => Some(w.clone()),
                    _ => None,
                };
            }
            _ => return Err(bad(n, "neither a call nor a footer".into())),
        }
    }
    if !footer {
        return Err(format!("{}: no footer: the replay file is cut short", path.display()));
    }
    let referee = field("referee").as_str().map(str::to_string);
    let limits = match field("limits") {
        serde_json::Value::Null => None,
        l => Some(serde_json::from_value(l).map_err(|e| format!("{}: line 1: limits: {e}", path.display()))?),
    };
    Ok(ReplayFile { game, options: field("options"), referee, limits, record: g })
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

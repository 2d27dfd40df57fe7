//! What the pages show, shaped from the store's records: a tournament's standings and rounds (as far
//! as it has been played), and a rating history drawn as a small SVG chart (numbers only: it holds no
//! text a player chose).

use arena_service::store::TournamentRow;
use arena_service::tournaments::{Format, GameRecord, MatchRecord, ratings};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A player's line in a tournament's standings (as the page shows it and the API sends it).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Standing {
    pub place: usize,
    pub name: String,
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    pub tied: u32,
    /// Two points a win, one a tie.
    pub points: u32,
    pub score: i64,
    pub faults: u32,
    pub banned: bool,
    /// What it was banned for: the kind, the call and the reason, as the API's `banned` gives them
    /// ("illegal in keep: box ones is already used"; the reason cut to [`BAN_REASON`] characters);
    /// empty if not. Never the player's own output, which is its owner's.
    pub ban: String,
    /// Where its strength lies by this tournament's games alone, at about 95% confidence: its rating's
    /// interval (every player starts the tournament new; a game the referee failed counts for nobody),
    /// and the range of places that interval allows against the others' (`[3, 5]`: third to fifth).
    /// None in a ladder's standings (its leaderboard has them).
    pub interval: Option<[f64; 2]>,
    pub rank_range: Option<[u32; 2]>,
}

/// The most characters of a ban's reason a standings row shows.
pub const BAN_REASON: usize = 160;

impl Standing {
    /// Marks the player banned for `f`.
    fn ban_for(&mut self, f: &arena_core::Fault) {
        self.faults += 1;
        self.banned = true;
        let mut reason: String = f.reason.chars().take(BAN_REASON).collect();
        if reason.len() < f.reason.len() {
            reason.push('…');
        }
        self.ban = format!("{} in {}: {reason}", f.kind, f.call);
    }
}

/// A game as a tournament page lists it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameLine {
    pub id: String,
    pub round: u32,
    pub players: String,
    pub scores: String,
    pub result: String,
    pub faults: String,
}

/// A round of a tournament: its decided matches (knockout, round robin) and its games.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RoundView {
    pub number: u32,
    pub matches: Vec<MatchLine>,
    pub games: Vec<GameLine>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct MatchLine {
    pub number: u32,
    pub a: String,
    pub b: String,
    pub wins: String,
    pub winner: String,
    pub decided_by: String,
}

/// What a tournament page shows is computed for: games and matches recorded, finished, and its status.
pub type Key = ((u32, u32, bool), &'static str);

/// A tournament page's parts, rendered once for every viewer (they show nothing private).
pub struct Rendered {
    pub row: TournamentRow,
    pub view: TournamentView,
    pub standings: String,
    pub rounds: String,
    pub games: String,
    /// " · winner NAME" once there is one.
    pub winner: String,
}

/// Everything the tournament page (and its live updates) shows.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TournamentView {
    pub standings: Vec<Standing>,
    pub rounds: Vec<RoundView>,
    pub games: Vec<GameLine>,
    /// The games that ended in a game fault: the package's referee failed (no result, nobody banned).
    pub game_faults: Vec<arena_service::tournaments::GameFaultRow>,
    /// The game (its package), named as the culprit of a game fault.
    pub package: String,
    /// A knockout: its rounds are drawn as a bracket too.
    pub knockout: bool,
}

pub fn game_line(g: &GameRecord) -> GameLine {
    let result = match (&g.game_fault, g.winners.as_slice()) {
        (Some(f), _) => format!("no result: the game's referee failed in `{}`", f.call),
        (None, [w]) => format!("{w} won"),
        (None, []) => "no winner".to_string(),
        (None, ws) => format!("tie: {}", ws.join(", ")),
    };
    let faults: Vec<String> = g.faults.iter().map(|f| format!("{} {} in {}", f.player, f.kind, f.call)).collect();
    GameLine {
        id: g.id.clone(),
        round: g.round,
        players: g.players.join(" vs "),
        scores: g.scores.iter().map(i64::to_string).collect::<Vec<_>>().join(" – "),
        result,
        faults: faults.join("; "),
    }
}

/// In a knockout, the last round each player played a match in; its champion one past the last.
fn rounds_reached(matches: &[MatchRecord]) -> std::collections::HashMap<&str, u32> {
    let mut reached = std::collections::HashMap::new();
    for m in matches {
        for p in m.players.iter().flatten() {
            let r = reached.entry(p.as_str()).or_insert(0);
            *r = (*r).max(m.round);
        }
    }
    // The champion: the winner of the last round, once it is the final (a single match).
    let last = matches.iter().map(|m| m.round).max().unwrap_or(0);
    if let [m] = matches.iter().filter(|m| m.round == last).collect::<Vec<_>>()[..]
        && let Some(w) = &m.winner
    {
        reached.insert(w.as_str(), last + 1);
    }
    reached
}

/// Standings and rounds from the games and matches recorded so far, and the bans outside any game (at
/// the tournament's start or end).
pub fn tournament(
    t: &TournamentRow,
    names: &[String],
    games: &[GameRecord],
    matches: &[MatchRecord],
    bans: &[(String, arena_core::Fault)],
) -> TournamentView {
    let mut by: BTreeMap<&str, Standing> = names
        .iter()
        .map(|n| {
            let s = Standing {
                place: 0,
                name: n.clone(),
                played: 0,
                won: 0,
                lost: 0,
                tied: 0,
                points: 0,
                score: 0,
                faults: 0,
                banned: false,
                ban: String::new(),
                interval: None,
                rank_range: None,
            };
            (n.as_str(), s)
        })
        .collect();
    for (name, f) in bans {
        if let Some(s) = by.get_mut(name.as_str()) {
            s.ban_for(f);
        }
    }
    for g in games {
        for (seat, p) in g.players.iter().enumerate() {
            let Some(s) = by.get_mut(p.as_str()) else { continue };
            s.played += 1;
            s.score += g.scores.get(seat).copied().unwrap_or(0);
            if let Some(f) = g.faults.iter().find(|f| f.player == *p) {
                s.ban_for(&f.fault);
            }
            if g.game_fault.is_some() {
                continue;
            }
            match (g.winners.contains(p), g.winners.len()) {
                (true, 1) => {
                    s.won += 1;
                    s.points += 2;
                }
                (true, _) => {
                    s.tied += 1;
                    s.points += 1;
                }
                (false, _) => s.lost += 1,
            }
        }
    }
    let mut standings: Vec<Standing> = by.into_values().collect();
    // A knockout ranks by the round reached (its champion past the last), as its result does: players
    // out in the same round share a place. Other formats rank by points, then score.
    let knockout = t.kind == Format::Knockout.into();
    let reached = rounds_reached(matches);
    let reach = |s: &Standing| if knockout { reached.get(s.name.as_str()).copied().unwrap_or(0) } else { 0 };
    let order =
        |s: &Standing| (s.banned, std::cmp::Reverse(reach(s)), std::cmp::Reverse(s.points), std::cmp::Reverse(s.score));
    standings.sort_by(|a, b| order(a).cmp(&order(b)).then_with(|| a.name.cmp(&b.name)));
    // Players level on what decides a place (the round reached in a knockout; points and score
    // otherwise) share it: nobody is shown first on a tie the page does not break. Banned players
    // share none.
    let decides = |s: &Standing| if knockout { (reach(s), 0, 0) } else { (0, s.points, s.score) };
    for i in 0..standings.len() {
        let (a, b) = (&standings[i.saturating_sub(1)], &standings[i]);
        let shared = i > 0 && !a.banned && !b.banned && decides(a) == decides(b);
        standings[i].place = if shared { a.place } else { i + 1 };
    }
    let players: Vec<ratings::Entrant<'_>> = standings
        .iter()
        .map(|s| ratings::Entrant {
            name: &s.name,
            forfeited: bans.iter().any(|(b, _)| *b == s.name),
            banned: s.banned,
        })
        .collect();
    let rated = ratings::by_games(&players, games);
    // Banned players are not ranked: the ranges are among the others.
    for (s, r) in standings.iter_mut().zip(rated) {
        if let Some((best, worst)) = r.rank_range {
            let (lo, hi) = r.rating.interval();
            s.interval = Some([lo, hi]);
            s.rank_range = Some([best, worst]);
        }
    }
    let mut rounds: BTreeMap<u32, RoundView> = BTreeMap::new();
    let empty = |n: u32| RoundView { number: n, matches: vec![], games: vec![] };
    for m in matches {
        let name = |p: &Option<String>| p.clone().unwrap_or_else(|| "(bye)".into());
        let ties = if m.ties > 0 { format!(" ({} tied)", m.ties) } else { String::new() };
        rounds.entry(m.round).or_insert_with(|| empty(m.round)).matches.push(MatchLine {
            number: m.match_no,
            a: name(&m.players[0]),
            b: name(&m.players[1]),
            wins: format!("{}–{}{ties}", m.wins[0], m.wins[1]),
            // A series level after its games has no winner: a tie, said as such.
            winner: m.winner.clone().unwrap_or_else(|| "tie".into()),
            decided_by: m.decided_by.clone(),
        });
    }
    let lines: Vec<GameLine> = games.iter().map(game_line).collect();
    if t.kind == Format::Rounds.into() || matches.is_empty() {
        for l in &lines {
            rounds.entry(l.round).or_insert_with(|| empty(l.round)).games.push(l.clone());
        }
    }
    TournamentView {
        standings,
        rounds: rounds.into_values().collect(),
        games: lines,
        game_faults: arena_service::tournaments::GameFaultRow::of(games),
        package: t.game.clone(),
        knockout,
    }
}

/// A ladder's standings from the records the store counted (games, won, lost, tied; score; faults):
/// by share of points per game played, as players play different numbers of games. Nobody is banned
/// from a ladder (a version that keeps faulting is benched until its next version).
pub fn ladder_standings(records: Vec<arena_service::store::RecordIn>) -> Vec<Standing> {
    let mut out: Vec<Standing> = records
        .into_iter()
        .map(|(name, [played, won, lost, tied], score, faults)| Standing {
            place: 0,
            name,
            played,
            won,
            lost,
            tied,
            points: 2 * won + tied,
            score,
            faults,
            banned: false,
            ban: String::new(),
            interval: None,
            rank_range: None,
        })
        .collect();
    let share = |s: &Standing| f64::from(s.points) / f64::from(s.played.max(1));
    out.sort_by(|a, b| share(b).total_cmp(&share(a)).then_with(|| a.name.cmp(&b.name)));
    for (i, s) in out.iter_mut().enumerate() {
        s.place = i + 1;
    }
    out
}

/// A rating history as an SVG line chart (`points`: rating after each game).
pub fn rating_chart(points: &[(f64, f64)]) -> String {
    let (w, h, pad) = (640.0, 180.0, 30.0);
    if points.is_empty() {
        return String::new();
    }
    let lo = points.iter().map(|p| p.0 - p.1).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.0 + p.1).fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(1.0);
    let n = points.len().max(2) - 1;
    let x = |i: usize| if points.len() == 1 { w / 2.0 } else { pad + (w - 2.0 * pad) * i as f64 / n as f64 };
    let y = |r: f64| h - pad - (h - 2.0 * pad) * (r - lo) / span;
    let mut s = format!(
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
         aria-label=\"rating history\">"
    );
    // The band of ± one deviation, then the rating.
    let mut band = String::new();
    for (i, p) in points.iter().enumerate() {
        let _ = write!(band, "{:.1},{:.1} ", x(i), y(p.0 + p.1));
    }
    for (i, p) in points.iter().enumerate().rev() {
        let _ = write!(band, "{:.1},{:.1} ", x(i), y(p.0 - p.1));
    }
    let _ = write!(s, "<polygon points=\"{band}\" fill=\"#dbe7f5\"/>");
    let line: Vec<String> = points.iter().enumerate().map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.0))).collect();
    let _ = write!(s, "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>", line.join(" "));
    // A dot per game while they are few (one game draws no line: its dot and deviation are the chart).
    if points.len() <= 60 {
        for (i, p) in points.iter().enumerate() {
            let _ = write!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#9bb8dc\" stroke-width=\"3\"/>\
                 <circle class=\"point\" cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"#1f5fa8\"/>",
                y(p.0 + p.1),
                y(p.0 - p.1),
                y(p.0),
                x = x(i)
            );
        }
    }
    let _ = write!(
        s,
        "<text x=\"2\" y=\"{:.1}\" font-size=\"11\">{:.0}</text><text x=\"2\" y=\"{:.1}\" font-size=\"11\">{:.0}</text>",
        y(hi) + 4.0,
        hi,
        y(lo),
        lo
    );
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{} games</text></svg>",
        w - 90.0,
        h - 6.0,
        points.len()
    );
    s
}

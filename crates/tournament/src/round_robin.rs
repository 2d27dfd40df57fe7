//! Round robin: every pair of players plays a series of N games, alternating who starts. Pairs are
//! scheduled in rounds by the circle method, so each player plays at most one series per round and the
//! series of a round run concurrently. A player banned in a round forfeits the rest of that series and
//! all its later ones (each forfeited game is a win for the opponent). Ranking by games won; banned
//! players are listed separately and not ranked.

use super::common::{Roster, Table, join_in_order, places};
use super::{GameRecord, MatchRecord, Progress, Settings, TournamentResult};
use arena_core::{Entry, Game};
use std::sync::Arc;

/// The circle method: rounds of pairs (indices into `0..n`), each index at most once per round; with
/// an odd `n` one player sits out each round.
pub fn schedule(n: usize) -> Vec<Vec<(usize, usize)>> {
    let mut ring: Vec<Option<usize>> = (0..n).map(Some).collect();
    if n % 2 == 1 {
        ring.push(None);
    }
    let m = ring.len();
    let mut rounds = vec![];
    for _ in 0..m.saturating_sub(1) {
        let pairs = (0..m / 2)
            .filter_map(|i| match (ring[i], ring[m - 1 - i]) {
                (Some(a), Some(b)) => Some((a.min(b), a.max(b))),
                _ => None,
            })
            .collect();
        rounds.push(pairs);
        ring[1..].rotate_right(1);
    }
    rounds
}

pub async fn round_robin<G: Game>(
    game: Arc<G>,
    entries: Vec<Arc<Entry<G::Player>>>,
    limits: arena_core::Limits,
    s: &Settings,
) -> TournamentResult {
    let n = entries.len();
    let mut roster = Roster::new(game, entries, s);
    roster.start(s.games_per_match).await;
    let rounds = schedule(n);
    roster.table.report(Progress::Matches(rounds.iter().map(|r| r.len() as u64).sum()));
    let mut won = vec![0i64; n];
    let mut matches = vec![];
    let mut games = vec![];
    // Series are numbered through the whole schedule, earlier rounds first.
    let total = rounds.iter().map(Vec::len).sum::<usize>() as u32;
    let mut before = 0u32;
    for (r, pairs) in rounds.iter().enumerate() {
        let round = r as u32 + 1;
        let handles: Vec<_> = pairs
            .iter()
            .enumerate()
            .map(|(m, &(a, b))| {
                let (table, k) = (roster.table.clone(), s.games_per_match);
                let out = [roster.is_banned[a], roster.is_banned[b]];
                let numbering = (k, before + m as u32 + 1, total);
                tokio::spawn(async move {
                    let r = series(&table, [a, b], out, (round, m as u32 + 1), numbering).await;
                    table.report(Progress::Match(&r.0));
                    r
                })
            })
            .collect();
        before += pairs.len() as u32;
        for (record, played) in join_in_order(handles).await {
            for g in &played {
                roster.ban_faults(g);
            }
            for (j, name) in record.players.iter().enumerate() {
                if let Some(i) = roster.names.iter().position(|x| Some(x) == name.as_ref()) {
                    won[i] += i64::from(record.wins[j]);
                }
            }
            matches.push(record);
            games.extend(played);
        }
    }
    let ranking = places(&roster.names, &roster.is_banned, |i| won[i]);
    let champion = ranking.first().filter(|p| p.len() == 1).and_then(|p| roster.names.iter().position(|x| *x == p[0]));
    roster.end(|i| Some(i) == champion).await;
    // `end` may ban a player who fails there: rank again without it.
    let ranking = places(&roster.names, &roster.is_banned, |i| won[i]);
    roster.result(s, limits, ranking, matches, games)
}

/// One series of `k` games between `a` and `b`; `out` says who was banned before it began.
async fn series<G: Game>(
    table: &Table<G>,
    [a, b]: [usize; 2],
    mut out: [bool; 2],
    (round, m): (u32, u32),
    (k, match_no, matches): (u32, u32, u32),
) -> (MatchRecord, Vec<GameRecord>) {
    let mut rec = MatchRecord {
        round,
        match_no: m,
        players: [Some(table.names[a].clone()), Some(table.names[b].clone())],
        wins: [0, 0],
        ties: 0,
        winner: None,
        decided_by: "played".into(),
        games: vec![],
    };
    let mut played = vec![];
    let mut earlier: Vec<[i64; 2]> = vec![];
    for number in 1..=k {
        if out[0] || out[1] {
            // A banned player forfeits every game it has left: a win for the other, if it is not banned too.
            rec.decided_by = "forfeit".into();
            if !out[0] {
                rec.wins[0] += 1;
            } else if !out[1] {
                rec.wins[1] += 1;
            }
            continue;
        }
        let g = table.series_game([a, b], (round, m, number), &rec, &earlier, (k, match_no, matches)).await;
        let (failed, won) = (g.failed, g.won);
        earlier.push(g.score);
        rec.games.push(g.record.id.clone());
        played.push(g.record);
        match (failed, won) {
            ([true, _], _) | ([_, true], _) => {
                out = [out[0] || failed[0], out[1] || failed[1]];
                rec.decided_by = "forfeit".into();
                // The game itself is the banned player's loss (a win for the other, if it did not fail too).
                if !failed[0] {
                    rec.wins[0] += 1;
                } else if !failed[1] {
                    rec.wins[1] += 1;
                }
            }
            (_, [true, false]) => rec.wins[0] += 1,
            (_, [false, true]) => rec.wins[1] += 1,
            _ => rec.ties += 1,
        }
    }
    rec.winner = match rec.wins[0].cmp(&rec.wins[1]) {
        std::cmp::Ordering::Greater => rec.players[0].clone(),
        std::cmp::Ordering::Less => rec.players[1].clone(),
        std::cmp::Ordering::Equal => None,
    };
    (rec, played)
}

#[cfg(test)]
mod tests {
    use super::schedule;

    #[test]
    fn every_pair_meets_once_and_nobody_plays_twice_in_a_round() {
        for n in 2..=9 {
            let rounds = schedule(n);
            let mut seen = std::collections::BTreeSet::new();
            for r in &rounds {
                let mut busy = std::collections::BTreeSet::new();
                for &(a, b) in r {
                    assert!(a < b && b < n);
                    assert!(busy.insert(a) && busy.insert(b), "n={n}: someone plays twice in {r:?}");
                    assert!(seen.insert((a, b)), "n={n}: ({a},{b}) twice");
                }
            }
            assert_eq!(seen.len(), n * (n - 1) / 2, "n={n}");
        }
    }
}

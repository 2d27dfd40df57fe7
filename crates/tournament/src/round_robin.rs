//! Round robin: every pair of players plays a series of N games, alternating who starts. Pairs are
//! scheduled in rounds by the circle method, so each player plays at most one series per round; a series
//! starts as soon as both its players have played their earlier ones, so series of several rounds run
//! concurrently and no round waits for the slowest of the one before (the outcome is the round-by-round
//! one). A player banned in a round forfeits the rest of that series and all its later ones (each
//! forfeited game is a win for the opponent). Ranking by games won; banned
//! players are listed separately and not ranked.

use super::common::{Roster, Table, places};
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

/// How many rounds past the oldest one not finished a series may start in.
const LOOKAHEAD: usize = 1;

/// A series and its games.
type Played = (MatchRecord, Vec<GameRecord>);

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
    // Series are numbered through the whole schedule, earlier rounds first.
    let total = rounds.iter().map(Vec::len).sum::<usize>() as u32;
    let first_of_round: Vec<u32> = rounds
        .iter()
        .scan(0u32, |before, r| {
            let first = *before;
            *before += r.len() as u32;
            Some(first)
        })
        .collect();
    // Each player's series in schedule order. A series starts once it is the next of both its players
    // (their earlier series played): no round waits for the slowest series of the one before, and a
    // player's standing when its series starts depends only on its own earlier games, as it would
    // round by round.
    let mut series_of: Vec<Vec<(usize, usize)>> = vec![vec![]; n];
    for (r, pairs) in rounds.iter().enumerate() {
        for (m, &(a, b)) in pairs.iter().enumerate() {
            series_of[a].push((r, m));
            series_of[b].push((r, m));
        }
    }
    let mut next = vec![0usize; n];
    // Banned so far, by the start and each player's own games (the bans themselves are recorded as each
    // round is finished, in schedule order, as a round-by-round run records them).
    let mut out_now = roster.is_banned.clone();
    let mut results: Vec<Vec<Option<Played>>> = rounds.iter().map(|r| (0..r.len()).map(|_| None).collect()).collect();
    let mut running = tokio::task::JoinSet::new();
    let table = roster.table.clone();
    let (mut won, mut matches, mut games) = (vec![0i64; n], vec![], vec![]);
    // Series not yet finished, per round; series start at most LOOKAHEAD rounds past the oldest round
    // not finished (enough to keep games flowing past a round's slowest series; the finished series
    // kept waiting for their round stay few).
    let mut left: Vec<usize> = rounds.iter().map(Vec::len).collect();
    let mut oldest = 0usize;
    let mut started: Vec<Vec<bool>> = rounds.iter().map(|r| vec![false; r.len()]).collect();
    let ready = |next: &[usize], started: &[Vec<bool>], oldest: usize, (r, m): (usize, usize)| {
        let (a, b) = rounds[r][m];
        r <= oldest + LOOKAHEAD
            && !started[r][m]
            && series_of[a].get(next[a]) == Some(&(r, m))
            && series_of[b].get(next[b]) == Some(&(r, m))
    };
    let start =
        |running: &mut tokio::task::JoinSet<_>, started: &mut [Vec<bool>], out_now: &[bool], (r, m): (usize, usize)| {
            started[r][m] = true;
            let (a, b) = rounds[r][m];
            let (table, k) = (table.clone(), s.games_per_match);
            let out = [out_now[a], out_now[b]];
            let numbering = (k, first_of_round[r] + m as u32 + 1, total);
            running.spawn(async move {
                let played = series(&table, [a, b], out, (r as u32 + 1, m as u32 + 1), numbering).await;
                table.report(Progress::Match(&played.0));
                ((r, m), played)
            });
        };
    for (r, pairs) in rounds.iter().enumerate().take(LOOKAHEAD + 1) {
        for m in 0..pairs.len() {
            if ready(&next, &started, oldest, (r, m)) {
                start(&mut running, &mut started, &out_now, (r, m));
            }
        }
    }
    while let Some(done) = running.join_next().await {
        let ((r, m), played) = match done {
            Ok(v) => v,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        };
        let (a, b) = rounds[r][m];
        for g in &played.1 {
            for (i, _) in roster.faulted(g) {
                out_now[i] = true;
            }
        }
        results[r][m] = Some(played);
        next[a] += 1;
        next[b] += 1;
        left[r] -= 1;
        for x in [a, b] {
            if let Some(&following) = series_of[x].get(next[x])
                && ready(&next, &started, oldest, following)
            {
                start(&mut running, &mut started, &out_now, following);
            }
        }
        // The oldest round finished: its series are taken in schedule order (bans recorded as a
        // round-by-round run records them, their games let go of as they go), and a round further on
        // may start what is ready in it.
        while oldest < rounds.len() && left[oldest] == 0 {
            for (record, played) in std::mem::take(&mut results[oldest]).into_iter().flatten() {
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
            oldest += 1;
            let admitted = oldest + LOOKAHEAD;
            for m in 0..rounds.get(admitted).map_or(0, Vec::len) {
                if ready(&next, &started, oldest, (admitted, m)) {
                    start(&mut running, &mut started, &out_now, (admitted, m));
                }
            }
        }
    }
    // Every series was started and taken (a round left unfinished would be a scheduling bug).
    debug_assert!(oldest == rounds.len() && results.iter().all(Vec::is_empty));
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
            // A game that faulted is no tie: it counts for nobody.
            _ if g.counts => rec.ties += 1,
            _ => {}
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

//! Knockout: 2^m slots, the players seeded in the order given (the first is seed 1) into the standard
//! bracket — seed 1 meets seed 2^m in the first round, 2 meets 2^m − 1, …, and seeds 1 and 2 can meet
//! only in the final — the missing seeds being byes: so the byes go to the first seeds, no bye meets a
//! bye, and nobody has two. Every match is best of k, winners advance. Matches of a round run
//! concurrently. Players are ranked by the round they reached.
//!
//! The tie rule: a match level after its k games goes to sudden death, up to k more games, and the first
//! to win one takes the match; still level after those, the higher total score over all of the match's
//! games wins; still level, the player in the earlier slot advances. A player banned during a match
//! loses it (its opponent advances, `decided_by: forfeit`) and is out of the tournament.
//!
//! A game that ended in a game fault (its referee failed) counts for nobody: no win, no tie, no score.
//! A match none of whose games counted is played again from seeds of its own (the numbers of the games
//! that follow), up to three times in all; still without a counted game, the earlier slot advances and
//! the match says it was decided without a result (`decided_by: no-result`).

use super::common::{Roster, Table, join_in_order};
use super::{GameRecord, MatchRecord, Progress, Settings, TournamentResult};
use arena_core::{Entry, Game};
use std::sync::Arc;

/// Runs a knockout tournament of `entries` (in slot order) and returns its result.
pub async fn knockout<G: Game>(
    game: Arc<G>,
    entries: Vec<Arc<Entry<G::Player>>>,
    limits: arena_core::Limits,
    s: &Settings,
) -> TournamentResult {
    let n = entries.len();
    let mut roster = Roster::new(game, entries, s);
    roster.start(s.games_per_match).await;

    let slots = n.next_power_of_two().max(2);
    roster.table.report(Progress::Matches(slots as u64 - 1));
    let mut alive: Vec<Option<usize>> =
        bracket(slots).into_iter().map(|i| (i < n && !roster.is_banned[i]).then_some(i)).collect();
    // The round each player went out in (for the ranking).
    let mut out_in: Vec<u32> = vec![0; n];
    let mut matches = Vec::new();
    let mut games = Vec::new();
    let mut round = 1u32;
    while alive.len() > 1 {
        let handles: Vec<_> = alive
            .chunks(2)
            .enumerate()
            .map(|(m, pair)| {
                let (table, pair, k) = (roster.table.clone(), [pair[0], pair[1]], s.games_per_match);
                // Matches are numbered through the whole bracket: earlier rounds' first.
                let match_no = (slots - alive.len() + m + 1) as u32;
                let numbering = (k, match_no, slots as u32 - 1);
                tokio::spawn(async move {
                    let r = play_match(&table, pair, (round, m as u32 + 1), numbering).await;
                    table.report(Progress::Match(&r.record));
                    r
                })
            })
            .collect();
        let mut next = Vec::new();
        for r in join_in_order(handles).await {
            for &i in r.pair.iter().flatten() {
                if Some(i) != r.winner {
                    out_in[i] = round;
                }
            }
            for g in &r.games {
                roster.ban_faults(g);
            }
            next.push(r.winner);
            matches.push(r.record);
            games.extend(r.games);
        }
        alive = next;
        round += 1;
    }
    let champion = alive[0];
    roster.end(|i| champion == Some(i)).await;

    // Ranking: the champion, then by the round each went out in, latest first; banned players are not ranked.
    let key = |i: usize| if champion == Some(i) { i64::from(round) } else { i64::from(out_in[i]) };
    let ranking = super::common::places(&roster.names, &roster.is_banned, key);
    roster.result(s, limits, ranking, matches, games)
}

/// The seeds (from 0) in slot order for a bracket of `slots` (a power of two): each first-round pair
/// is seeds `s` and `slots − 1 − s`, the better seed in the earlier slot, and each half of the bracket
/// holds the halves' best seeds apart (0 and 1 meet only in the final).
pub fn bracket(slots: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < slots {
        let size = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, size - 1 - s]).collect();
    }
    order
}

/// How many times a match none of whose games counted is played in all before the tie rule decides it
/// (`decided_by: no-result`).
pub const TRIES: u32 = 3;

struct MatchResult {
    pair: [Option<usize>; 2],
    winner: Option<usize>,
    record: MatchRecord,
    games: Vec<GameRecord>,
}

async fn play_match<G: Game>(
    table: &Table<G>,
    pair: [Option<usize>; 2],
    (round, m): (u32, u32),
    (k, match_no, matches): (u32, u32, u32),
) -> MatchResult {
    let name = |j: usize| pair[j].map(|i| table.names[i].clone());
    let mut rec = MatchRecord {
        round,
        match_no: m,
        players: [name(0), name(1)],
        wins: [0, 0],
        ties: 0,
        winner: None,
        decided_by: "bye".into(),
        games: vec![],
    };
    let mut res = MatchResult { pair, winner: None, record: rec.clone(), games: vec![] };
    let (Some(a), Some(b)) = (pair[0], pair[1]) else {
        // A bye (or an empty pair): whoever is there advances without playing.
        res.winner = pair[0].or(pair[1]);
        rec.winner = res.winner.map(|i| table.names[i].clone());
        res.record = rec;
        return res;
    };
    let mut totals = [0i64; 2];
    let mut earlier: Vec<[i64; 2]> = vec![];
    let mut number = 0u32;
    // Whether any game of the match counted, and which try of the match this is.
    let (mut counted, mut tries) = (false, 1u32);
    let decided = loop {
        number += 1;
        // The game's number within this try of the match.
        let nth = earlier.len() as u32 + 1;
        if nth > k && rec.wins[0] != rec.wins[1] {
            break "tie-break";
        }
        if nth > 2 * k {
            if counted {
                break if totals[0] != totals[1] { "total-score" } else { "slot" };
            }
            // No game counted (each ended in a game fault): the match is played again from seeds of
            // its own (those of the games' numbers that follow), up to `TRIES` times.
            if tries == TRIES {
                break "no-result";
            }
            tries += 1;
            earlier.clear();
        }
        // Players alternate who starts: slot a starts the odd games.
        let g = table.series_game([a, b], (round, m, number), &rec, &earlier, (k, match_no, matches)).await;
        let (score, failed, won) = (g.score, g.failed, g.won);
        counted |= g.counts;
        totals[0] += score[0];
        totals[1] += score[1];
        earlier.push(score);
        rec.games.push(g.record.id.clone());
        res.games.push(g.record);
        if failed[0] || failed[1] {
            let j = if failed[0] && failed[1] { None } else { Some(usize::from(failed[0])) };
            res.winner = j.map(|j| pair[j].expect("both seated"));
            rec.winner = j.and_then(name);
            rec.decided_by = "forfeit".into();
            res.record = rec;
            return res;
        }
        match won {
            [true, false] => rec.wins[0] += 1,
            [false, true] => rec.wins[1] += 1,
            // A game that faulted is no tie: it counts for nobody.
            _ if g.counts => rec.ties += 1,
            _ => {}
        }
        let nth = earlier.len() as u32;
        if nth <= k && rec.wins.iter().any(|&w| w * 2 > k) {
            break "played";
        }
        if nth == k && rec.wins[0] != rec.wins[1] {
            break "played";
        }
    };
    let j = match decided {
        "played" | "tie-break" => usize::from(rec.wins[1] > rec.wins[0]),
        "total-score" => usize::from(totals[1] > totals[0]),
        // `slot`, and `no-result`: the earlier slot advances.
        _ => 0,
    };
    res.winner = pair[j];
    rec.winner = name(j);
    rec.decided_by = decided.into();
    res.record = rec;
    res
}

#[cfg(test)]
mod tests {
    use super::bracket;

    #[test]
    fn byes_go_to_the_first_seeds_never_meet_each_other_and_nobody_has_two() {
        assert_eq!(bracket(2), [0, 1]);
        assert_eq!(bracket(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        for n in 2..=70usize {
            let slots = n.next_power_of_two();
            let order = bracket(slots);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..slots).collect::<Vec<_>>(), "every seed once");
            let mut round: Vec<Option<usize>> = order.iter().map(|&s| (s < n).then_some(s)).collect();
            let mut byes = vec![0; n];
            while round.len() > 1 {
                round = round
                    .chunks(2)
                    .map(|p| match (p[0], p[1]) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (Some(a), None) | (None, Some(a)) => {
                            byes[a] += 1;
                            Some(a)
                        }
                        (None, None) => panic!("{n} players: a bye meets a bye"),
                    })
                    .collect();
            }
            assert!(byes.iter().all(|&b| b <= 1), "{n} players: {byes:?}");
            // The byes are the first seeds', and the best two seeds meet only in the final.
            assert!(byes.iter().take(slots - n).all(|&b| b == 1), "{n} players: {byes:?}");
            let half = &order[..slots / 2];
            assert!(half.contains(&0) && (slots == 2 || !half.contains(&1)), "{n}: {order:?}");
        }
    }
}

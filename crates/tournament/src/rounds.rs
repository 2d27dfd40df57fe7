//! Elimination rounds (the Fish seeds' manager), for games of 2 to 4 players: each round splits the
//! remaining players, in entry order, into games of the largest allowed size, never leaving a game below
//! the minimum (players who cannot be seated sit the round out and stay in); the winners of each game
//! (all of them on a tie) advance, those who sat out first in the next round's order, so nobody sits
//! out twice in a row while others play. The tournament ends when a round changes nothing, when too few remain
//! for a game, or after a final game with everyone left. Every surviving player wins.

use super::common::{Roster, join_in_order};
use super::{Progress, Settings, TournamentResult};
use arena_core::{Entry, Game, MatchSoFar};
use std::sync::Arc;

/// Game sizes for `n` players: as many games of `max` as possible, then one of the rest; a rest below
/// `min` takes players from the earlier games (never taking one below `min`). What cannot be seated
/// this way sits out (returned as the last value).
pub fn split(n: usize, min: usize, max: usize) -> (Vec<usize>, usize) {
    let mut sizes = vec![max; n / max];
    let mut rest = n % max;
    if rest > 0 {
        for s in sizes.iter_mut().rev() {
            if rest >= min {
                break;
            }
            if *s > min {
                *s -= 1;
                rest += 1;
            }
        }
        if rest >= min {
            sizes.push(rest);
            rest = 0;
        }
    }
    (sizes, rest)
}

pub async fn rounds<G: Game>(
    game: Arc<G>,
    entries: Vec<Arc<Entry<G::Player>>>,
    limits: arena_core::Limits,
    s: &Settings,
) -> TournamentResult {
    let seats = game.seats();
    let (min, max) = (*seats.start(), *seats.end());
    let n = entries.len();
    let mut roster = Roster::new(game, entries, s);
    roster.start(1).await;
    let mut remaining = roster.alive();
    // The round each player went out in; survivors rank above everyone.
    let mut out_in = vec![0i64; n];
    let mut games = vec![];
    let mut round = 0u32;
    // Rounds to expect if every game leaves one winner (ties and sit-outs may add some).
    let expected = (1..).find(|&r| max.pow(r) >= n.max(1)).unwrap_or(1);
    roster.table.report(Progress::Matches(expected as u64));
    while remaining.len() >= min {
        round += 1;
        let last = remaining.len() <= max;
        let (sizes, _sitting_out) = if last { (vec![remaining.len()], 0) } else { split(remaining.len(), min, max) };
        let mut at = 0;
        let in_round = sizes.len() as u32;
        let handles: Vec<_> = sizes
            .iter()
            .enumerate()
            .map(|(g, &size)| {
                let seated = remaining[at..at + size].to_vec();
                at += size;
                let table = roster.table.clone();
                tokio::spawn(async move {
                    let so_far = MatchSoFar {
                        game: 1,
                        games_in_match: 1,
                        wins: vec![0; size],
                        match_no: g as u32 + 1,
                        matches: in_round,
                        ..Default::default()
                    };
                    table.play(&seated, (round, g as u32 + 1, 1), so_far).await
                })
            })
            .collect();
        let sat_out: Vec<usize> = remaining[at..].to_vec();
        let mut winners: Vec<usize> = vec![];
        for g in join_in_order(handles).await {
            roster.ban_faults(&g);
            // A game that faulted counts for nobody: nobody in it goes out for it (those not banned
            // stay in, as if they had sat the round out).
            let stay: Vec<&String> = if g.counts() { g.winners.iter().collect() } else { g.players.iter().collect() };
            winners.extend(stay.into_iter().filter_map(|w| roster.names.iter().position(|x| x == w)));
            games.push(g);
        }
        winners.sort_unstable();
        let advance: Vec<usize> = sat_out.into_iter().chain(winners).filter(|&i| !roster.is_banned[i]).collect();
        for &i in &remaining {
            if !advance.contains(&i) {
                out_in[i] = i64::from(round);
            }
        }
        roster.table.report(Progress::Round(round));
        let unchanged = advance.len() == remaining.len();
        remaining = advance;
        if last || unchanged {
            break;
        }
    }
    for &i in &remaining {
        out_in[i] = i64::from(round) + 1;
    }
    let survivors = remaining.clone();
    roster.end(|i| survivors.contains(&i)).await;
    let ranking = super::common::places(&roster.names, &roster.is_banned, |i| out_in[i]);
    roster.result(s, limits, ranking, vec![], games)
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn games_are_as_large_as_allowed_and_never_below_the_minimum() {
        assert_eq!(split(8, 2, 4), (vec![4, 4], 0));
        assert_eq!(split(9, 2, 4), (vec![4, 3, 2], 0));
        assert_eq!(split(5, 2, 4), (vec![3, 2], 0));
        assert_eq!(split(10, 2, 4), (vec![4, 4, 2], 0));
        assert_eq!(split(6, 2, 2), (vec![2, 2, 2], 0));
        assert_eq!(split(7, 2, 2), (vec![2, 2, 2], 1), "an odd player out of two-player games sits out");
        assert_eq!(split(1, 2, 4), (vec![], 1));
        for n in 2..40 {
            let (sizes, out) = split(n, 2, 4);
            assert_eq!(sizes.iter().sum::<usize>() + out, n);
            assert!(sizes.iter().all(|&s| (2..=4).contains(&s)));
            assert_eq!(out, 0, "n={n}");
        }
    }
}

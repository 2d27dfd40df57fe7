//! Knockout: 2^m slots filled in the order players are given, empty slots are byes, every match is best
//! of k, winners advance. Matches of a round run concurrently.
//!
//! The tie rule: a match level after its k games goes to sudden death, up to k more games, and the first
//! to win one takes the match; still level after those, the higher total score over all of the match's
//! games wins; still level, the player in the earlier slot advances. A player banned during a match
//! loses it (its opponent advances, `decided_by: forfeit`) and is out of the tournament.

use super::{Ban, GameRecord, MatchRecord, Observer, PlayerInfo, Progress, Settings, TournamentResult};
use crate::games::{Entry, Game, GameSetup, MatchSoFar, TournamentInfo};
use crate::seed::derive;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Games (and lifecycle calls) in flight at once: enough to keep every core busy, few enough that the
/// pooling allocator always has room, so a big tournament never makes a player fail for the host's sake.
pub const GAMES_IN_FLIGHT: usize = 64;

/// Runs a knockout tournament of `entries` (in slot order) and returns its result.
pub async fn knockout<G: Game>(
    game: Arc<G>,
    entries: Vec<Arc<Entry<G::Player>>>,
    limits: crate::sandbox::Limits,
    s: &Settings,
) -> TournamentResult {
    let n = entries.len();
    let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
    let mut banned: Vec<Ban> = Vec::new();
    let mut is_banned = vec![false; n];
    let permits = Arc::new(Semaphore::new(GAMES_IN_FLIGHT));

    // Tournament start, to everyone at once; a failure there is a ban before any game.
    let info =
        |i: usize| TournamentInfo { you: names[i].clone(), players: names.clone(), games_per_match: s.games_per_match };
    let starts = (0..n).map(|i| {
        let (g, e, info) = (game.clone(), entries[i].clone(), info(i));
        let seed = derive(s.seed, &[0, i as u64]);
        let permits = permits.clone();
        tokio::spawn(async move {
            let _permit = permits.acquire_owned().await;
            g.tournament_start(&e, &info, seed).await
        })
    });
    for (i, h) in futures_join(starts).await.into_iter().enumerate() {
        if let Some(f) = h {
            banned.push(Ban::new(&names[i], &f, None));
            is_banned[i] = true;
        }
    }

    let slots = n.next_power_of_two().max(2);
    if let Some(p) = &s.progress {
        p(Progress::Matches(slots as u64 - 1));
    }
    let mut alive: Vec<Option<usize>> = (0..slots).map(|i| (i < n && !is_banned[i]).then_some(i)).collect();
    // The round each player went out in (for the ranking).
    let mut out_in: Vec<u32> = vec![0; n];
    let mut matches = Vec::new();
    let mut games = Vec::new();
    let ctx = MatchCtx { seed: s.seed, k: s.games_per_match, progress: s.progress.clone(), permits: permits.clone() };
    let mut round = 1u32;
    while alive.len() > 1 {
        let handles: Vec<_> = alive
            .chunks(2)
            .enumerate()
            .map(|(m, pair)| {
                let (g, pair) = (game.clone(), [pair[0], pair[1]]);
                let players = pair.map(|p| p.map(|i| entries[i].clone()));
                let ctx = ctx.clone();
                tokio::spawn(async move {
                    let progress = ctx.progress.clone();
                    let r = play_match(g, players, pair, (round, m as u32 + 1), ctx).await;
                    if let Some(p) = &progress {
                        p(Progress::Match(&r.record));
                    }
                    r
                })
            })
            .collect();
        let mut next = Vec::new();
        for r in futures_join(handles).await {
            for &i in r.pair.iter().flatten() {
                if Some(i) != r.winner {
                    out_in[i] = round;
                }
            }
            for (i, f, gid) in &r.faults {
                banned.push(Ban::new(&names[*i], f, Some(gid)));
                is_banned[*i] = true;
            }
            next.push(r.winner);
            matches.push(r.record);
            games.extend(r.games);
        }
        alive = next;
        round += 1;
    }
    let champion = alive[0];

    // Tournament end, to every player still in good standing.
    let ends = (0..n).filter(|&i| !is_banned[i]).map(|i| {
        let (g, e) = (game.clone(), entries[i].clone());
        let seed = derive(s.seed, &[u64::MAX, i as u64]);
        let won = champion == Some(i);
        let permits = permits.clone();
        tokio::spawn(async move {
            let _permit = permits.acquire_owned().await;
            (i, g.tournament_end(&e, won, seed).await)
        })
    });
    for (i, f) in futures_join(ends).await {
        if let Some(f) = f {
            banned.push(Ban::new(&names[i], &f, None));
            is_banned[i] = true;
        }
    }

    // Ranking: the champion, then by the round each went out in, latest first; banned players are not ranked.
    let mut ranking: Vec<Vec<String>> = Vec::new();
    if let Some(c) = champion.filter(|&c| !is_banned[c]) {
        ranking.push(vec![names[c].clone()]);
    }
    for r in (1..round).rev() {
        let place: Vec<String> = (0..n)
            .filter(|&i| out_in[i] == r && !is_banned[i] && Some(i) != champion)
            .map(|i| names[i].clone())
            .collect();
        if !place.is_empty() {
            ranking.push(place);
        }
    }
    let winner = ranking.first().filter(|p| p.len() == 1).map(|p| p[0].clone());
    TournamentResult {
        game: game.name().to_string(),
        format: s.format,
        seed: s.seed,
        games_per_match: s.games_per_match,
        limits,
        players: entries
            .iter()
            .map(|e| PlayerInfo { name: e.name.clone(), source: e.source.clone(), hash: e.hash.clone() })
            .collect(),
        winner,
        ranking,
        banned,
        matches,
        games,
    }
}

/// Awaits spawned tasks in order. A task that panicked is a bug in Arena, not in a player: it is
/// reported loudly rather than hidden.
async fn futures_join<T>(handles: impl IntoIterator<Item = tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::new();
    for h in handles {
        match h.await {
            Ok(v) => out.push(v),
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
    out
}

struct MatchResult {
    pair: [Option<usize>; 2],
    winner: Option<usize>,
    record: MatchRecord,
    games: Vec<GameRecord>,
    /// Player index, fault, game id, in the order they happened.
    faults: Vec<(usize, crate::fault::Fault, String)>,
}

/// What every match of a tournament shares.
#[derive(Clone)]
struct MatchCtx {
    seed: u64,
    /// Best of k.
    k: u32,
    progress: Option<Observer>,
    permits: Arc<Semaphore>,
}

async fn play_match<G: Game>(
    game: Arc<G>,
    players: [Option<Arc<Entry<G::Player>>>; 2],
    pair: [Option<usize>; 2],
    (round, m): (u32, u32),
    ctx: MatchCtx,
) -> MatchResult {
    let MatchCtx { seed, k, progress, permits } = ctx;
    let name = |j: usize| players[j].as_ref().map(|e| e.name.clone());
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
    let mut res = MatchResult { pair, winner: None, record: rec.clone(), games: vec![], faults: vec![] };
    let (Some(a), Some(b)) = (&players[0], &players[1]) else {
        // A bye (or an empty pair): whoever is there advances without playing.
        res.winner = pair[0].or(pair[1]);
        rec.winner = res.winner.map(|_| name(if pair[0].is_some() { 0 } else { 1 }).unwrap_or_default());
        res.record = rec;
        return res;
    };
    let mut totals = [0i64; 2];
    let mut earlier: Vec<[i64; 2]> = vec![];
    let mut number = 0u32;
    let decided = loop {
        number += 1;
        if number > k && rec.wins[0] != rec.wins[1] {
            break "tie-break";
        }
        if number > 2 * k {
            break if totals[0] != totals[1] { "total-score" } else { "slot" };
        }
        // Players alternate who starts: slot a starts the odd games.
        let order = if number % 2 == 1 { [0, 1] } else { [1, 0] };
        let seated = order.map(|j| if j == 0 { a.clone() } else { b.clone() });
        let so_far = MatchSoFar {
            game: number,
            games_in_match: k,
            wins: order.iter().map(|&j| rec.wins[j]).collect(),
            ties: rec.ties,
            earlier: earlier.iter().map(|e| order.iter().map(|&j| e[j]).collect()).collect(),
        };
        let id = format!("R{round}-M{m}-G{number}");
        let gseed = derive(seed, &[u64::from(round), u64::from(m), u64::from(number)]);
        let outcome = {
            let _permit = permits.acquire().await;
            game.play(GameSetup { id: id.clone(), seed: gseed, players: seated.to_vec(), so_far }).await
        };
        let record = GameRecord::new(
            id.clone(),
            (round, m, number),
            seated.iter().map(|e| e.name.clone()).collect(),
            gseed,
            outcome.clone(),
        );
        if let Some(p) = &progress {
            p(Progress::Game(&record));
        }
        rec.games.push(id.clone());
        res.games.push(record);
        let mut score = [0i64; 2];
        for (seat, &j) in order.iter().enumerate() {
            score[j] = outcome.scores.get(seat).copied().unwrap_or(0);
            totals[j] += score[j];
        }
        earlier.push(score);
        if !outcome.faults.is_empty() {
            let mut failed = [false; 2];
            for (seat, f) in &outcome.faults {
                let j = order[*seat];
                failed[j] = true;
                res.faults.push((pair[j].expect("a seated player has an index"), f.clone(), id.clone()));
            }
            res.winner = if failed[0] && failed[1] {
                None
            } else if failed[0] {
                pair[1]
            } else {
                pair[0]
            };
            rec.winner = if failed[0] && failed[1] { None } else { name(if failed[0] { 1 } else { 0 }) };
            rec.decided_by = "forfeit".into();
            res.record = rec;
            return res;
        }
        match outcome.winners.as_slice() {
            [w] => rec.wins[order[*w]] += 1,
            _ => rec.ties += 1,
        }
        if number <= k && rec.wins.iter().any(|&w| w * 2 > k) {
            break "played";
        }
        if number == k && rec.wins[0] != rec.wins[1] {
            break "played";
        }
    };
    let j = match decided {
        "played" | "tie-break" => usize::from(rec.wins[1] > rec.wins[0]),
        "total-score" => usize::from(totals[1] > totals[0]),
        _ => 0,
    };
    res.winner = pair[j];
    rec.winner = name(j);
    rec.decided_by = decided.into();
    res.record = rec;
    res
}

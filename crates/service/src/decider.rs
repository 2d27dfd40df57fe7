//! A competition's final played until its top places are decided: after each leg (the final's format
//! played again from a seed of its own, by the same entrants), every player is rated by all the legs'
//! games alone, and a place is decided when only one player's 95% interval allows it. While the top
//! places asked for are not all decided and another leg fits under the game cap, another leg is played;
//! then the final says which places are decided.

use crate::store::{Competition, Result, Status, Store};
use arena_tournament::ratings;
use serde::Serialize;

/// A player of the final by all its legs' games.
#[derive(Debug, Clone, Serialize)]
pub struct Placed {
    pub name: String,
    pub rating: f64,
    /// Its rating's interval at about 95% confidence.
    pub interval: [f64; 2],
    /// The places that interval allows against the others' (`[2, 3]`: second or third).
    pub rank_range: [u32; 2],
}

/// Where a final played until its top places are decided stands.
#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    /// The legs' tournaments, in order.
    pub legs: Vec<i64>,
    /// Games the legs have played (void ones too), and the most they may.
    pub games: u32,
    pub cap: u32,
    /// The top places asked to be decided.
    pub decide: u32,
    /// The players not banned in any leg, best first.
    pub placed: Vec<Placed>,
    /// The places (from 1) decided: the only player whose interval allows it holds it.
    pub decided: Vec<u32>,
    /// The top `decide` places are all decided.
    pub settled: bool,
    /// Every leg has been played to its end.
    pub finished: bool,
    /// The next leg to play (its number and seed), if one is due: the legs are finished, the top
    /// places are not all decided, and another leg fits under the cap.
    pub next: Option<(u32, u64)>,
}

/// Competition `c`'s final as its legs stand; `None` before the final is recorded.
pub fn decision(store: &Store, c: &Competition) -> Result<Option<Decision>> {
    let legs = store.final_legs(c.id)?;
    let Some(&first) = legs.first() else { return Ok(None) };
    let names: Vec<String> = store.entrants(first)?.into_iter().map(|v| v.name).collect();
    let (mut games, mut bans, mut finished, mut first_games) = (vec![], vec![], true, 0);
    for &t in &legs {
        let played = store.tournament_games(t)?;
        if t == first {
            first_games = played.len() as u32;
        }
        games.extend(played);
        bans.extend(store.lifecycle_bans(t)?.into_iter().map(|(name, _)| name));
        finished &= store.tournament(t)?.is_some_and(|r| r.status == Status::Finished);
    }
    let banned =
        |name: &str| bans.iter().any(|b| b == name) || games.iter().any(|g| g.faults.iter().any(|f| f.player == name));
    let players: Vec<ratings::Entrant<'_>> =
        names.iter().map(|n| ratings::Entrant { name: n, forfeited: bans.contains(n), banned: banned(n) }).collect();
    let rated = ratings::by_games(&players, &games);
    let mut placed: Vec<Placed> = names
        .iter()
        .zip(rated)
        .filter_map(|(name, g)| {
            let (best, worst) = g.rank_range?;
            let (lo, hi) = g.rating.interval();
            Some(Placed { name: name.clone(), rating: g.rating.rating, interval: [lo, hi], rank_range: [best, worst] })
        })
        .collect();
    placed.sort_by(|a, b| a.rank_range.cmp(&b.rank_range).then(b.rating.total_cmp(&a.rating)));
    let decided: Vec<u32> = (1..=placed.len() as u32)
        .filter(|&p| placed.get(p as usize - 1).is_some_and(|x| x.rank_range == [p, p]))
        .collect();
    let top = c.decide.min(placed.len() as u32);
    let settled = (1..=top).all(|p| decided.contains(&p));
    let played = games.len() as u32;
    let room = first_games > 0 && played + first_games <= c.final_games;
    let next = (c.decide > 0 && finished && !settled && room).then(|| {
        let leg = legs.len() as u32 + 1;
        (leg, arena_core::seed::derive(c.seed, &[u64::from(leg)]))
    });
    Ok(Some(Decision {
        legs,
        games: played,
        cap: c.final_games,
        decide: c.decide,
        placed,
        decided,
        settled,
        finished,
        next,
    }))
}

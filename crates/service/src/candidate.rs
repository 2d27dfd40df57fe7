//! Judging a candidate version against the version it would replace, on evidence: mirrored games (each
//! seed played twice, the seats swapped) between the two, never rated, until a sequential probability
//! ratio test between two Elo bounds decides (see `arena_tournament::sprt`) or a cap on the games is
//! reached. The command line's `arena candidate` judges here.

use arena_core::{Entry, Finals, Game, GameSetup, MatchSoFar};
pub use arena_tournament::sprt::{Bounds, Evidence, Verdict};
use std::sync::Arc;

/// The version in use and the candidate, loaded as entries of the game.
pub type Versions<P> = (Arc<Entry<P>>, Arc<Entry<P>>);

/// The evidence a test ended on, and its verdict.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Judged {
    #[serde(flatten)]
    pub evidence: Evidence,
    pub verdict: Verdict,
    pub bounds: Bounds,
    /// Games that ended in a game fault (the referee failed): they count for nobody.
    pub void: u32,
}

/// Plays `candidate` against `current` in mirrored pairs of games (pair k from seed k of `seed`, the
/// candidate first in one game and second in the other) until the test under `bounds` decides after a
/// pair or `cap` games are played; `progress` hears the evidence after each pair.
pub async fn judge<G: Game>(
    game: &G,
    (current, candidate): Versions<G::Player>,
    (seed, bounds, cap): (u64, Bounds, u32),
    mut progress: impl FnMut(&Evidence),
) -> Result<Judged, String> {
    bounds.check()?;
    if !game.seats().contains(&2) {
        return Err(format!(
            "{} is not played by two: a candidate is judged in games against one opponent",
            game.name()
        ));
    }
    let (cand, cur) = (candidate, current);
    let (mut wins, mut draws, mut losses, mut void, mut played) = (0, 0, 0, 0, 0u32);
    let mut evidence = Evidence::of(0, 0, 0, &bounds);
    for pair in 0u64.. {
        if played >= cap {
            break;
        }
        let s = arena_core::seed::derive(seed, &[pair]);
        for players in [vec![cand.clone(), cur.clone()], vec![cur.clone(), cand.clone()]] {
            let so_far = MatchSoFar {
                game: 1,
                games_in_match: 1,
                wins: vec![0; 2],
                match_no: 1,
                matches: 1,
                ..Default::default()
            };
            let setup = GameSetup { id: format!("pair-{pair}"), seed: s, players, so_far, finals: Finals::Result };
            let o = game.play(setup).await;
            played += 1;
            if o.game_fault.is_some() {
                void += 1;
                continue;
            }
            // Seat order of this game: which seat the candidate had.
            let seat = if played % 2 == 1 { 0 } else { 1 };
            let (mine, theirs) = (o.winners.contains(&seat), o.winners.contains(&(1 - seat)));
            match (mine, theirs) {
                (true, false) => wins += 1,
                (false, true) => losses += 1,
                _ => draws += 1,
            }
        }
        evidence = Evidence::of(wins, draws, losses, &bounds);
        progress(&evidence);
        if evidence.verdict() != Verdict::Undecided {
            break;
        }
    }
    Ok(Judged { evidence, verdict: evidence.verdict(), bounds, void })
}

//! Judging a candidate version against the version it would replace, on evidence: mirrored games (each
//! seed played twice, the seats swapped) between the two, never rated, until a sequential probability
//! ratio test between two Elo bounds decides (see `arena_tournament::sprt`) or a cap on the games is
//! reached. The command line's `arena candidate` judges here; a server's candidates are judged pair by
//! pair, their evidence stored (`stored`).

pub mod stored;

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
    let (mut tally, mut played) = ([0u32; 4], 0u32);
    let mut evidence = Evidence::of(0, 0, 0, &bounds);
    for pair in 0u64.. {
        if played >= cap {
            break;
        }
        let r = play_pair(game, (current.clone(), candidate.clone()), seed, pair).await;
        played += 2;
        for (t, n) in tally.iter_mut().zip(r) {
            *t += n;
        }
        evidence = Evidence::of(tally[0], tally[1], tally[2], &bounds);
        progress(&evidence);
        if evidence.verdict() != Verdict::Undecided {
            break;
        }
    }
    let void = tally[3];
    Ok(Judged { evidence, verdict: evidence.verdict(), bounds, void })
}

/// Pair number `pair` of a test from `seed`: two games from the same seed, the candidate first in one
/// and second in the other, the seats named `current` and `candidate` (as `arena candidate` names them,
/// so that the same files and seed play the same games there and on a server). What the candidate got
/// in them: `[wins, draws, losses, void]`, a game the referee failed void (it counts for nobody).
pub async fn play_pair<G: Game>(game: &G, (current, candidate): Versions<G::Player>, seed: u64, pair: u64) -> [u32; 4] {
    let s = arena_core::seed::derive(seed, &[pair]);
    let mut got = [0u32; 4];
    for (seat, players) in [(0, vec![candidate.clone(), current.clone()]), (1, vec![current, candidate])] {
        let so_far =
            MatchSoFar { game: 1, games_in_match: 1, wins: vec![0; 2], match_no: 1, matches: 1, ..Default::default() };
        let setup = GameSetup { id: format!("pair-{pair}"), seed: s, players, so_far, finals: Finals::Result };
        let o = game.play(setup).await;
        let (mine, theirs) = (o.winners.contains(&seat), o.winners.contains(&(1 - seat)));
        let i = match (o.game_fault.is_some(), mine, theirs) {
            (true, _, _) => 3,
            (_, true, false) => 0,
            (_, false, true) => 2,
            _ => 1,
        };
        got[i] += 1;
    }
    got
}

//! Who plays the ladder's next game: the first seat drawn in proportion to how uncertain a player's
//! rating is (a new or rarely played version is drawn far more often, so it finds its level fast), the
//! others drawn by rating closeness measured in their combined uncertainty, with a share of the draws
//! uniform (deliberate exploration, as the Halite and Kaggle ladders do). Players already in many
//! games at once are drawn less. Every draw comes from the ladder's seed and the game's number.

use crate::ratings::Rating;
use arena_core::seed::derive;

/// One player as pairing sees it.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub rating: Rating,
    /// Games it is playing right now.
    pub busy: u32,
}

/// A number in [0, 1) for draw `k` of game `n`.
fn unit(seed: u64, n: u64, k: u64) -> f64 {
    (derive(seed, &[n, k]) >> 11) as f64 / (1u64 << 53) as f64
}

/// Index drawn from `weights` (all zero: uniformly), with `u` in [0, 1).
fn draw(weights: &[f64], u: f64) -> usize {
    let total: f64 = weights.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return ((u * weights.len() as f64) as usize).min(weights.len().saturating_sub(1));
    }
    let mut x = u * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
}

/// The `seats` candidates (indices into `c`, in seat order) of game `n`; `explore` is the share of
/// opponents drawn uniformly. Fewer candidates than seats: all of them.
pub fn pick(c: &[Candidate], seats: usize, explore: f64, game: (u64, u64)) -> Vec<usize> {
    pick_where(c, seats, explore, game, |_, _| true).unwrap_or_default()
}

/// As [`pick`], where `open(i, j)` says whether candidates `i` and `j` still have something to learn
/// from a game together: the first seat is drawn among those with such a partner, the others among
/// its partners (while there are enough of them). `None`: no two candidates have.
pub fn pick_where(
    c: &[Candidate],
    seats: usize,
    explore: f64,
    (seed, n): (u64, u64),
    open: impl Fn(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    let seats = seats.min(c.len());
    if seats == 0 {
        return Some(vec![]);
    }
    let crowd = |i: usize| 1.0 / (1.0 + f64::from(c[i].busy));
    // Whether each candidate has a partner to learn from: asked once a candidate, as `open` may look
    // the pair up in a table.
    let paired: Vec<bool> = (0..c.len()).map(|i| seats < 2 || (0..c.len()).any(|j| j != i && open(i, j))).collect();
    if !paired.contains(&true) {
        return None;
    }
    let first: Vec<f64> =
        (0..c.len()).map(|i| if paired[i] { c[i].rating.deviation.powi(2) * crowd(i).powi(2) } else { 0.0 }).collect();
    // All weights zero (every deviation zero) draws uniformly: among the paired only.
    let first = if first.iter().sum::<f64>() > 0.0 {
        first
    } else {
        paired.iter().map(|&p| if p { 1.0 } else { 0.0 }).collect()
    };
    let mut chosen = vec![draw(&first, unit(seed, n, 0))];
    let me = c[chosen[0]].rating;
    for k in 1..seats as u64 {
        let rest: Vec<usize> = (0..c.len()).filter(|i| !chosen.contains(i)).collect();
        let partners: Vec<usize> = rest.iter().copied().filter(|&j| open(chosen[0], j)).collect();
        let open = if partners.is_empty() { rest } else { partners };
        let weights: Vec<f64> = if unit(seed, n, 2 * k) < explore {
            open.iter().map(|_| 1.0).collect()
        } else {
            open.iter()
                .map(|&j| {
                    let spread = (me.deviation.powi(2) + c[j].rating.deviation.powi(2)).sqrt().max(1e-9);
                    let d = (c[j].rating.rating - me.rating) / spread;
                    (-d * d / 2.0).exp() * crowd(j)
                })
                .collect()
        };
        chosen.push(open[draw(&weights, unit(seed, n, 2 * k + 1))]);
    }
    // Seat order drawn too (who moves first matters in most games).
    for i in (1..chosen.len()).rev() {
        let j = ((unit(seed, n, 1000 + i as u64) * (i + 1) as f64) as usize).min(i);
        chosen.swap(i, j);
    }
    Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(rating: f64, deviation: f64) -> Candidate {
        Candidate { rating: Rating { rating, deviation }, busy: 0 }
    }

    #[test]
    fn a_game_never_seats_one_player_twice_and_is_reproducible() {
        let c: Vec<Candidate> = (0..5).map(|i| cand(1500.0 + 50.0 * i as f64, 80.0)).collect();
        for n in 0..500 {
            let p = pick(&c, 3, 0.1, (7, n));
            assert_eq!(p.len(), 3);
            assert!(p[0] != p[1] && p[1] != p[2] && p[0] != p[2], "{p:?}");
            assert_eq!(p, pick(&c, 3, 0.1, (7, n)));
        }
        assert_eq!(pick(&c[..1], 2, 0.1, (7, 1)), vec![0]);
    }

    #[test]
    fn new_players_are_drawn_most_and_opponents_are_close_in_rating() {
        // Four settled players far apart, and one new one.
        let mut c = vec![cand(1000.0, 50.0), cand(1400.0, 50.0), cand(1450.0, 50.0), cand(2000.0, 50.0)];
        c.push(cand(1500.0, 350.0));
        let (mut new_in, mut close, mut far) = (0, 0, 0);
        for n in 0..2000 {
            let p = pick(&c, 2, 0.1, (3, n));
            if p.contains(&4) {
                new_in += 1;
            }
            let pair = (p[0].min(p[1]), p[0].max(p[1]));
            match pair {
                (1, 2) => close += 1,
                (0, 3) => far += 1,
                _ => {}
            }
        }
        // Drawn first in proportion to deviation²: the new player is in most games.
        assert!(new_in > 1600, "the new player played {new_in} of 2000");
        // Among settled players, 1400 meets 1450 far more often than 1000 meets 2000 (only exploration).
        assert!(close > 5 * far.max(1), "close {close}, far {far}");
    }

    #[test]
    fn busy_players_are_drawn_less() {
        let mut c = vec![cand(1500.0, 100.0); 4];
        c[0].busy = 9;
        let in_game = (0..2000).filter(|&n| pick(&c, 2, 0.0, (5, n)).contains(&0)).count();
        // 1/4 of seats each if equal; a player busy in 9 games gets far fewer.
        assert!(in_game < 200, "{in_game}");
    }

    #[test]
    fn a_pairing_with_nothing_left_to_learn_is_never_drawn_and_none_left_is_said() {
        let c: Vec<Candidate> = (0..3).map(|i| cand(1500.0 + 10.0 * i as f64, 60.0)).collect();
        // 0 and 1 have played enough together; 2 has not met either enough.
        let open = |i: usize, j: usize| !matches!((i.min(j), i.max(j)), (0, 1));
        let mut met = [0u32; 3];
        for n in 0..400 {
            let p = pick_where(&c, 2, 0.3, (5, n), open).unwrap();
            assert!(p.contains(&2), "the settled pair never plays again: {p:?}");
            met[p[0] + p[1] - 2] += 1;
        }
        assert!(met[0] > 50 && met[1] > 50, "2 meets both: {met:?}");
        assert_eq!(pick_where(&c, 2, 0.3, (5, 1), |_, _| false), None);
        // With more seats than open partners, the game is filled from the rest around one open pair.
        let p = pick_where(&c, 3, 0.3, (5, 2), |i, j| i.min(j) == 0 && i.max(j) == 2).unwrap();
        assert_eq!(
            {
                let mut p = p;
                p.sort();
                p
            },
            [0, 1, 2]
        );
    }
}

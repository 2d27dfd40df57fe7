//! Ratings: one per player per game, updated after every game, in a fixed order (tournament, then
//! round, match and game number), so the same stored games always give the same ratings however the
//! games happened to finish.
//!
//! Two-seat games (Yahtzee, Santorini) use Glicko-2 from `skillratings`: start 1500 ± 350, volatility
//! 0.06, τ = 0.5, each game its own rating period (as online chess servers do). Games of more seats
//! (Fish, 2 to 4) use Weng-Lin, the open Bayesian successor of TrueSkill: start μ = 25, σ = 25/3,
//! β = 25/6; every player is a team of one, ranked by place. A player who faulted in a game takes the
//! last place in it: a loss to everyone who did not fault. A player banned outside a game (failing
//! when told a tournament starts or ends) takes one loss against a new player's rating, placed before
//! that tournament's games (start) or after them (end).

use serde::Serialize;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::collections::HashMap;
use std::ops::RangeInclusive;

/// The rating system of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    Glicko2,
    WengLin,
}

impl System {
    /// Glicko-2 for games of exactly two seats, Weng-Lin for games that may seat more.
    pub fn for_seats(seats: RangeInclusive<usize>) -> System {
        if *seats.end() <= 2 { System::Glicko2 } else { System::WengLin }
    }

    pub fn name(self) -> &'static str {
        match self {
            System::Glicko2 => "Glicko-2",
            System::WengLin => "Weng-Lin",
        }
    }

    /// A new player's rating.
    pub fn initial(self) -> Rating {
        State::new(self).rating()
    }
}

/// A rating and its uncertainty (Glicko-2: rating and deviation; Weng-Lin: μ and σ).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
}

/// How many deviations either side of a rating its interval spans: 1.96, about 95% confidence.
pub const INTERVAL_DEVIATIONS: f64 = 1.96;

impl Rating {
    /// Where the player's strength lies at about 95% confidence: the rating ± 1.96 deviations.
    pub fn interval(&self) -> (f64, f64) {
        let d = INTERVAL_DEVIATIONS * self.deviation;
        (self.rating - d, self.rating + d)
    }
}

/// Each player's range of places (1 is first) that its rating's interval allows: its best place is one
/// more than the players whose intervals lie wholly above its own, its worst the number of players less
/// those whose intervals lie wholly below. A player whose interval overlaps nobody's has one place.
pub fn rank_ranges(ratings: &[Rating]) -> Vec<(u32, u32)> {
    let intervals: Vec<(f64, f64)> = ratings.iter().map(Rating::interval).collect();
    let n = intervals.len() as u32;
    intervals
        .iter()
        .map(|&(lo, hi)| {
            let above = intervals.iter().filter(|&&(l, _)| l > hi).count() as u32;
            let below = intervals.iter().filter(|&&(_, h)| h < lo).count() as u32;
            (above + 1, n - below)
        })
        .collect()
}

/// A player as [`by_games`] takes it: its name, whether it was banned outside any game (a forfeit),
/// and whether it was banned at all (then it is rated but not ranked).
pub struct Entrant<'a> {
    pub name: &'a str,
    pub forfeited: bool,
    pub banned: bool,
}

/// What one tournament's (or final's) games alone say of a player: its rating, and the range of places
/// its interval allows among the players not banned (`None` for a banned one: it is not ranked).
#[derive(Debug, Clone, Copy)]
pub struct ByGames {
    pub rating: Rating,
    pub rank_range: Option<(u32, u32)>,
}

/// Each player's rating by `games` alone and its range of places among the unbanned, in the order of
/// `players`: every player starts new, the games are rated in the order given (by Glicko-2 when none
/// seats more than two, by Weng-Lin otherwise), a game the referee failed counts for nobody, and a
/// player banned outside any game takes a forfeit. What a tournament's own games say of its players,
/// for its standings' intervals and rank ranges (and a competition's final, over all its legs).
pub fn by_games(players: &[Entrant<'_>], games: &[crate::GameRecord]) -> Vec<ByGames> {
    let seats = games.iter().map(|g| g.players.len()).max().unwrap_or(2);
    let mut rated = Ratings::new(System::for_seats(seats..=seats));
    let id = |name: &str| players.iter().position(|p| p.name == name).map(|i| i as i64);
    for g in games.iter().filter(|g| g.game_fault.is_none()) {
        let Some(ids) = g.players.iter().map(|p| id(p)).collect::<Option<Vec<i64>>>() else { continue };
        let faulted: Vec<bool> = g.players.iter().map(|p| g.faults.iter().any(|f| f.player == *p)).collect();
        let winners: Vec<usize> = (0..g.players.len()).filter(|&i| g.winners.contains(&g.players[i])).collect();
        rated.update(&ids, &places(&g.scores, &winners, &faulted));
    }
    for (i, p) in players.iter().enumerate() {
        if p.forfeited {
            rated.forfeit(i as i64);
        }
    }
    let mut out: Vec<ByGames> =
        (0..players.len()).map(|i| ByGames { rating: rated.get(i as i64), rank_range: None }).collect();
    let ranked: Vec<usize> = (0..players.len()).filter(|&i| !players[i].banned).collect();
    let ranges = rank_ranges(&ranked.iter().map(|&i| out[i].rating).collect::<Vec<_>>());
    for (&i, range) in ranked.iter().zip(ranges) {
        out[i].rank_range = Some(range);
    }
    out
}

/// A range of places as a person reads it: `3`, or `3–5`.
pub fn rank_text((best, worst): (u32, u32)) -> String {
    if best == worst { best.to_string() } else { format!("{best}–{worst}") }
}

#[derive(Debug, Clone, Copy)]
enum State {
    Glicko2(Glicko2Rating),
    WengLin(WengLinRating),
}

impl State {
    fn new(system: System) -> State {
        match system {
            System::Glicko2 => State::Glicko2(Glicko2Rating::new()),
            System::WengLin => State::WengLin(WengLinRating::new()),
        }
    }

    fn rating(&self) -> Rating {
        match self {
            State::Glicko2(r) => Rating { rating: r.rating, deviation: r.deviation },
            State::WengLin(r) => Rating { rating: r.rating, deviation: r.uncertainty },
        }
    }
}

/// Every player's current rating in one game, fed games in order.
#[derive(Clone)]
pub struct Ratings {
    system: System,
    states: HashMap<i64, State>,
}

impl Ratings {
    pub fn new(system: System) -> Ratings {
        Ratings { system, states: HashMap::new() }
    }

    pub fn system(&self) -> System {
        self.system
    }

    /// A player's rating now (the initial one before its first game).
    pub fn get(&self, player: i64) -> Rating {
        self.states.get(&player).map_or_else(|| self.system.initial(), State::rating)
    }

    /// Updates the ratings after one game of `players` (in seat order) who took `places` (1 is best;
    /// equal places tie). Returns the new ratings in seat order. A game of one player changes nothing.
    pub fn update(&mut self, players: &[i64], places: &[u32]) -> Vec<Rating> {
        let states: Vec<State> =
            players.iter().map(|p| self.states.get(p).copied().unwrap_or_else(|| State::new(self.system))).collect();
        let next: Vec<State> = match (self.system, states.as_slice()) {
            (_, [] | [_]) => states.clone(),
            (System::Glicko2, [State::Glicko2(a), State::Glicko2(b)]) => {
                let outcome = match places[0].cmp(&places[1]) {
                    std::cmp::Ordering::Less => Outcomes::WIN,
                    std::cmp::Ordering::Greater => Outcomes::LOSS,
                    std::cmp::Ordering::Equal => Outcomes::DRAW,
                };
                let (a, b) = glicko2(a, b, &outcome, &Glicko2Config::new());
                vec![State::Glicko2(a), State::Glicko2(b)]
            }
            _ => {
                let teams: Vec<[WengLinRating; 1]> = states
                    .iter()
                    .map(|s| match s {
                        State::WengLin(r) => [*r],
                        // A system change never happens within one game's ratings.
                        State::Glicko2(_) => [WengLinRating::new()],
                    })
                    .collect();
                let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> =
                    teams.iter().zip(places).map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p as usize))).collect();
                weng_lin_multi_team(&ranked, &WengLinConfig::new())
                    .into_iter()
                    .map(|t| State::WengLin(t.first().copied().unwrap_or_default()))
                    .collect()
            }
        };
        for (p, s) in players.iter().zip(&next) {
            self.states.insert(*p, *s);
        }
        next.iter().map(State::rating).collect()
    }

    /// A ban outside any game: one loss against a new player's rating. Returns the new rating.
    pub fn forfeit(&mut self, player: i64) -> Rating {
        let me = self.states.get(&player).copied().unwrap_or_else(|| State::new(self.system));
        let next = match me {
            State::Glicko2(r) => {
                State::Glicko2(glicko2(&r, &Glicko2Rating::new(), &Outcomes::LOSS, &Glicko2Config::new()).0)
            }
            State::WengLin(r) => {
                State::WengLin(weng_lin(&r, &WengLinRating::new(), &Outcomes::LOSS, &WengLinConfig::new()).0)
            }
        };
        self.states.insert(player, next);
        next.rating()
    }
}

/// The places of a game's seats: the winners first (place 1), then the others who did not fault, by
/// score (equal scores share a place), then everyone who faulted, sharing the last place.
pub fn places(scores: &[i64], winners: &[usize], faulted: &[bool]) -> Vec<u32> {
    let n = scores.len();
    let mut place = vec![0u32; n];
    for &w in winners {
        if w < n {
            place[w] = 1;
        }
    }
    let mut rest: Vec<usize> = (0..n).filter(|&i| place[i] == 0 && !faulted[i]).collect();
    rest.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
    let mut next = if winners.is_empty() { 1 } else { 2 };
    let mut last: Option<i64> = None;
    for i in rest {
        if last.is_some_and(|s| s != scores[i]) {
            next += 1;
        }
        place[i] = next;
        last = Some(scores[i]);
    }
    let worst = place.iter().copied().max().unwrap_or(0) + 1;
    for p in place.iter_mut().filter(|p| **p == 0) {
        *p = worst;
    }
    place
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_put_winners_first_and_faults_last() {
        assert_eq!(places(&[10, 20], &[1], &[false, false]), vec![2, 1]);
        assert_eq!(places(&[5, 5], &[0, 1], &[false, false]), vec![1, 1]);
        // A faulted seat is last even with the higher score.
        assert_eq!(places(&[30, 20, 10, 25], &[1], &[true, false, false, false]), vec![4, 1, 3, 2]);
        // Everyone faulted: all share one place.
        assert_eq!(places(&[1, 2], &[], &[true, true]), vec![1, 1]);
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers() {
        let mut r = Ratings::new(System::Glicko2);
        let after = r.update(&[1, 2], &[1, 2]);
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!(after[0].deviation < 350.0);
        // The same two ratings, then a draw: the stronger loses a little.
        let before = r.get(1).rating;
        r.update(&[1, 2], &[1, 1]);
        assert!(r.get(1).rating < before);

        let before = r.get(1);
        let after = r.forfeit(1);
        assert!(after.rating < before.rating, "a ban outside a game is a loss");

        let mut w = Ratings::new(System::WengLin);
        let after = w.update(&[1, 2, 3], &[1, 2, 3]);
        assert!(after[0].rating > 25.0 && after[2].rating < 25.0);
        assert!(after[1].rating > after[2].rating);
    }

    #[test]
    fn overlapping_intervals_share_a_rank_range_and_separated_ones_do_not() {
        let r = |rating: f64, deviation: f64| Rating { rating, deviation };
        // 1800 ± 20 stands alone; 1500, 1490 and 1480 ± 30 overlap; 1000 ± 50 stands alone below.
        let ratings = [r(1800.0, 20.0), r(1500.0, 30.0), r(1490.0, 30.0), r(1480.0, 30.0), r(1000.0, 50.0)];
        let ranges = rank_ranges(&ratings);
        assert_eq!(ranges, vec![(1, 1), (2, 4), (2, 4), (2, 4), (5, 5)]);
        assert_eq!(rank_text(ranges[1]), "2–4");
        assert_eq!(rank_text(ranges[0]), "1");
        // Two new players (the same initial rating, a wide deviation) share places 2–3 below a proven one
        // whose interval clears theirs; narrow it less and it shares them all.
        let fresh = [r(1500.0, 350.0), r(1500.0, 350.0), r(2400.0, 40.0)];
        assert_eq!(rank_ranges(&fresh), vec![(2, 3), (2, 3), (1, 1)]);
        let close = [r(1500.0, 350.0), r(1500.0, 350.0), r(2100.0, 40.0)];
        assert_eq!(rank_ranges(&close), vec![(1, 3), (1, 3), (1, 3)]);
        assert_eq!(rank_ranges(&[]), vec![]);
    }
}

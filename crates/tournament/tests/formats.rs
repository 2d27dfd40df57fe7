//! The tournament formats on a fake game, with no sandbox and no referee: a player is a strength, the
//! stronger side of a game wins, a cheater faults in its own call, and a cursed pairing's game ends in a
//! game fault. Each format must crown the strongest, rank by strength, ban exactly the cheater in
//! whichever place it enters, never rank it, and count a faulted game for nobody.

use arena_core::{Entry, Fault, FaultKind, Game, GameOutcome, GameSetup, Limits, TournamentInfo};
use arena_tournament::{Format, Settings, TournamentResult};
use std::sync::Arc;

/// A fake player: how strong it is, and whether it cheats (an illegal answer in every game).
struct Bot {
    strength: u32,
    cheats: bool,
}

/// A fake game for `seats` players; a game between the two named players ends in a game fault.
struct Duel {
    seats: std::ops::RangeInclusive<usize>,
    cursed: Option<(&'static str, &'static str)>,
}

impl Game for Duel {
    type Player = Bot;
    fn name(&self) -> &str {
        "duel"
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.seats.clone()
    }
    fn builtin(&self, _: &str) -> Option<Bot> {
        None
    }
    fn builtin_names(&self) -> &[String] {
        &[]
    }
    async fn tournament_start(&self, _: &Entry<Bot>, _: &TournamentInfo, _: u64) -> Option<Fault> {
        None
    }
    async fn tournament_end(&self, _: &Entry<Bot>, _: bool, _: u64) -> Option<Fault> {
        None
    }
    async fn play(&self, setup: GameSetup<Bot>) -> GameOutcome {
        let n = setup.players.len();
        let names: Vec<&str> = setup.players.iter().map(|p| p.name.as_str()).collect();
        let mut o =
            GameOutcome { scores: vec![0; n], fuel: vec![1; n], logs: vec![String::new(); n], ..Default::default() };
        if let Some((a, b)) = self.cursed
            && names.contains(&a)
            && names.contains(&b)
        {
            o.game_fault = Some(Fault::new(FaultKind::Crash, "step", "the referee trapped"));
            return o;
        }
        for (seat, p) in setup.players.iter().enumerate() {
            if p.player.cheats {
                o.faults.push((seat, Fault::new(FaultKind::Illegal, "move", "not a legal move")));
            } else {
                o.scores[seat] = p.player.strength as i64;
            }
        }
        let best = o.scores.iter().copied().max().unwrap_or(0);
        o.winners = (0..n).filter(|&s| o.scores[s] == best && !o.faults.iter().any(|(f, _)| *f == s)).collect();
        o
    }
}

fn entries(lineup: &[(&str, u32, bool)]) -> Vec<Arc<Entry<Bot>>> {
    lineup
        .iter()
        .map(|&(name, strength, cheats)| {
            Arc::new(Entry { name: name.into(), source: name.into(), hash: None, player: Bot { strength, cheats } })
        })
        .collect()
}

fn play(game: Duel, format: Format, k: u32, lineup: &[(&str, u32, bool)]) -> TournamentResult {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(arena_tournament::run(
        Arc::new(game),
        entries(lineup),
        Limits::default(),
        &Settings::new(format, k, 11),
    ))
}

fn two_seats() -> Duel {
    Duel { seats: 2..=2, cursed: None }
}

/// The lineups: the same players with the cheater first, in the middle and last.
fn orders(n: usize) -> Vec<Vec<(&'static str, u32, bool)>> {
    let names = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"];
    let honest: Vec<(&str, u32, bool)> =
        names[..n - 1].iter().enumerate().map(|(i, &p)| (p, (i as u32 + 1) * 10, false)).collect();
    (0..3)
        .map(|at| {
            let mut l = honest.clone();
            let place = [0, (n - 1) / 2, n - 1][at];
            l.insert(place, ("cheat", 1_000, true));
            l
        })
        .collect()
}

fn ranked(r: &TournamentResult) -> Vec<String> {
    r.ranking.iter().flatten().cloned().collect()
}

#[test]
fn every_format_crowns_the_strongest_and_bans_only_the_cheater_wherever_it_enters() {
    for (format, seats, k) in [
        (Format::Knockout, 2..=2, 3),
        (Format::RoundRobin, 2..=2, 2),
        (Format::Rounds, 2..=4, 1),
        (Format::Rounds, 2..=2, 1),
    ] {
        for n in [3, 8] {
            for lineup in orders(n) {
                let game = Duel { seats: seats.clone(), cursed: None };
                let r = play(game, format, k, &lineup);
                let strongest = lineup.iter().filter(|p| !p.2).max_by_key(|p| p.1).unwrap().0;
                assert_eq!(r.winner.as_deref(), Some(strongest), "{format:?}, {n} players, {lineup:?}");
                let banned: Vec<&str> = r.banned.iter().map(|b| b.player.as_str()).collect();
                assert_eq!(banned, ["cheat"], "{format:?} {lineup:?}");
                assert_eq!(r.banned[0].kind, FaultKind::Illegal);
                assert!(!ranked(&r).contains(&"cheat".to_string()), "a banned player was ranked: {:?}", r.ranking);
            }
        }
    }
}

#[test]
fn a_round_robin_plays_every_pair_and_ranks_by_games_won() {
    let lineup = [("c", 30, false), ("a", 10, false), ("d", 40, false), ("b", 20, false)];
    let r = play(two_seats(), Format::RoundRobin, 2, &lineup);
    assert_eq!(r.games.len(), 6 * 2, "six pairs, two games each");
    assert_eq!(ranked(&r), ["d", "c", "b", "a"]);
}

#[test]
fn a_knockout_ranks_by_the_round_reached() {
    let lineup: Vec<(&str, u32, bool)> = ["e", "b", "h", "a", "g", "c", "f", "d"]
        .iter()
        .map(|&p| (p, (p.as_bytes()[0] - b'a') as u32 + 1, false))
        .collect();
    let r = play(two_seats(), Format::Knockout, 1, &lineup);
    assert_eq!(r.ranking[0], ["h"]);
    assert_eq!(r.ranking.len(), 4, "winner, finalist, semi-finalists, quarter-finalists: {:?}", r.ranking);
    assert_eq!(r.ranking[3].len(), 4);
}

#[test]
fn a_game_that_faulted_counts_for_nobody() {
    // The cursed pair's games end in game faults: neither wins or loses them, nobody is banned, and
    // the rest of the round robin stands.
    let game = Duel { seats: 2..=2, cursed: Some(("a", "b")) };
    let lineup = [("a", 10, false), ("b", 20, false), ("c", 30, false)];
    let r = play(game, Format::RoundRobin, 2, &lineup);
    assert!(r.banned.is_empty(), "{:?}", r.banned);
    let void: Vec<_> = r.games.iter().filter(|g| g.game_fault.is_some()).collect();
    assert_eq!(void.len(), 2);
    assert!(void.iter().all(|g| g.winner.is_none() && g.winners.is_empty()), "a faulted game named a winner");
    assert_eq!(r.game_faults.len(), 2);
    assert_eq!(r.winner.as_deref(), Some("c"));
    // a and b are level: each beat nobody else, and their own games counted for neither.
    assert_eq!(r.ranking.last().map(Vec::len), Some(2), "{:?}", r.ranking);
}

#[test]
fn a_format_has_one_name_that_parses_back_and_an_unknown_name_is_refused_with_the_names() {
    for f in Format::ALL {
        assert_eq!(f.as_str().parse::<Format>(), Ok(f));
        // The same name in JSON as on the command line.
        assert_eq!(serde_json::to_value(f).unwrap(), serde_json::Value::String(f.as_str().into()));
    }
    let e = "ladder".parse::<Format>().unwrap_err();
    assert_eq!(e, "no format `ladder`: one of knockout, round-robin, rounds");
}

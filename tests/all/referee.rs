//! The Yahtzee referee with native seats: staged faults end the game as a forfeit, with the state as it
//! was, and clean games are scored by the rules.

use arena::games::yahtzee::{NativeBot, Yahtzee, YahtzeePlayer};
use arena::{Entry, Fault, FaultKind, Game, GameSetup, Limits, MatchSoFar, Sandbox};
use std::sync::Arc;
use yahtzee_rules::{Category, PlayerView};

/// Greedy until `turn`, then does `act` in `call`.
#[derive(Clone, Copy)]
enum Act {
    KeepAbsent,
    ReuseBox,
    Fail(FaultKind),
}

struct Staged(u8, Act);

impl NativeBot for Staged {
    fn keep(&mut self, v: &PlayerView) -> Result<Vec<u8>, Fault> {
        match self.1 {
            Act::KeepAbsent if v.turn == self.0 => {
                let absent = (1..=6).find(|d| !v.dice.contains(d)).unwrap_or(7);
                Ok(vec![absent])
            }
            Act::Fail(kind) if v.turn == self.0 => Err(Fault::new(kind, "keep", "staged")),
            _ => Ok(yahtzee_bots::greedy::keep(v)),
        }
    }
    fn choose(&mut self, v: &PlayerView) -> Result<Category, Fault> {
        match self.1 {
            Act::ReuseBox if v.turn == self.0 => Ok(Category::ALL.into_iter().find(|c| !v.mine.is_open(*c)).unwrap()),
            _ => Ok(yahtzee_bots::greedy::choose(v)),
        }
    }
}

fn game() -> Yahtzee {
    Yahtzee::new(Arc::new(Sandbox::new(Limits::default()).unwrap())).unwrap()
}

fn entry(name: &str, player: YahtzeePlayer) -> Arc<Entry<YahtzeePlayer>> {
    Arc::new(Entry { name: name.into(), source: "test".into(), hash: None, player })
}

async fn play(a: YahtzeePlayer, b: YahtzeePlayer, seed: u64) -> arena::GameOutcome {
    let setup = GameSetup {
        id: "t".into(),
        seed,
        players: vec![entry("a", a), entry("b", b)],
        so_far: MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() },
    };
    game().play(setup).await
}

fn staged(turn: u8, act: Act) -> YahtzeePlayer {
    // Native players are made by a fn pointer; the staged ones are fixed per test below.
    let make: fn() -> Box<dyn NativeBot> = match (turn, act) {
        (2, Act::KeepAbsent) => || Box::new(Staged(2, Act::KeepAbsent)),
        (4, Act::ReuseBox) => || Box::new(Staged(4, Act::ReuseBox)),
        (6, Act::Fail(FaultKind::Crash)) => || Box::new(Staged(6, Act::Fail(FaultKind::Crash))),
        _ => unreachable!("add the staging here"),
    };
    YahtzeePlayer::Native(make)
}

#[tokio::test]
async fn a_clean_game_fills_both_cards_and_the_higher_total_wins() {
    let o = play(Yahtzee::native("greedy").unwrap(), Yahtzee::native("random").unwrap(), 21).await;
    assert!(o.faults.is_empty());
    // 13 turns of keep, keep, choose for each seat, after one game-start each.
    assert_eq!(o.calls.len(), 2 + 13 * 3 * 2);
    let best = if o.scores[0] >= o.scores[1] { 0 } else { 1 };
    assert!(o.winners.contains(&best));
    assert!(o.board.contains("total"));
}

#[tokio::test]
async fn keeping_dice_you_do_not_have_is_illegal_and_forfeits() {
    let o = play(Yahtzee::native("greedy").unwrap(), staged(2, Act::KeepAbsent), 5).await;
    assert_eq!(o.faults.len(), 1);
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind, f.call.as_str()), (1, FaultKind::Illegal, "keep"));
    assert!(f.reason.contains("dice"), "{}", f.reason);
    assert_eq!(o.winners, vec![0]);
    // The game stopped at the fault: seat 1 made 1 game-start + 3 calls of turn 1 + its first keep of turn 2.
    assert_eq!(o.calls.iter().filter(|c| c.seat == 1).count(), 1 + 3 + 1);
}

#[tokio::test]
async fn scoring_a_used_box_is_illegal_and_the_card_keeps_its_old_score() {
    let o = play(staged(4, Act::ReuseBox), Yahtzee::native("random").unwrap(), 6).await;
    let (seat, f) = &o.faults[0];
    assert_eq!((*seat, f.kind, f.call.as_str()), (0, FaultKind::Illegal, "choose"));
    assert!(f.reason.contains("already used"), "{}", f.reason);
    assert_eq!(o.winners, vec![1]);
    // Three boxes were scored before the refused fourth.
    let scored = o
        .board
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 3 && Category::ALL.iter().any(|c| w[0] == c.name()) && w[1] != "-")
        .count();
    assert_eq!(scored, 3, "{}", o.board);
}

#[tokio::test]
async fn a_failing_seat_is_recorded_with_its_kind_and_the_other_wins() {
    let o = play(Yahtzee::native("random").unwrap(), staged(6, Act::Fail(FaultKind::Crash)), 7).await;
    assert_eq!(o.faults.len(), 1);
    assert_eq!(o.faults[0].1.kind, FaultKind::Crash);
    assert_eq!(o.winners, vec![0]);
}

/// Fails only in a lifecycle call.
struct Quitter {
    at_start: bool,
}

impl NativeBot for Quitter {
    fn tournament_start(&mut self, _: &arena::games::TournamentInfo) -> Result<(), Fault> {
        if self.at_start { Err(Fault::new(FaultKind::Crash, "tournament-start", "staged")) } else { Ok(()) }
    }
    fn keep(&mut self, v: &PlayerView) -> Result<Vec<u8>, Fault> {
        Ok(yahtzee_bots::greedy::keep(v))
    }
    fn choose(&mut self, v: &PlayerView) -> Result<Category, Fault> {
        Ok(yahtzee_bots::greedy::choose(v))
    }
    fn tournament_end(&mut self, _won: bool) -> Result<(), Fault> {
        if self.at_start { Ok(()) } else { Err(Fault::new(FaultKind::Timeout, "tournament-end", "staged")) }
    }
}

#[tokio::test]
async fn failing_a_lifecycle_call_is_a_ban_like_any_other() {
    let game = Arc::new(game());
    let entries = vec![
        entry("early-quitter", YahtzeePlayer::Native(|| Box::new(Quitter { at_start: true }))),
        entry("random", Yahtzee::native("random").unwrap()),
        entry("late-quitter", YahtzeePlayer::Native(|| Box::new(Quitter { at_start: false }))),
        entry("random2", Yahtzee::native("random").unwrap()),
    ];
    let settings = arena::Settings::new(arena::tournament::Format::Knockout, 3, 4);
    let r = arena::tournament::knockout(game, entries, Limits::default(), &settings).await;
    let bans: Vec<(&str, FaultKind, &str, Option<&str>)> =
        r.banned.iter().map(|b| (b.player.as_str(), b.kind, b.call.as_str(), b.game.as_deref())).collect();
    // The early quitter never plays: its opponent gets a walkover. The late quitter (greedy, it wins
    // the final against a random player) fails at the end and loses its title.
    assert_eq!(
        bans,
        vec![
            ("early-quitter", FaultKind::Crash, "tournament-start", None),
            ("late-quitter", FaultKind::Timeout, "tournament-end", None)
        ]
    );
    assert_eq!(r.matches[0].decided_by, "bye");
    assert_eq!(r.matches[0].winner.as_deref(), Some("random"));
    assert!(r.games.iter().all(|g| !g.players.contains(&"early-quitter".to_string())));
    let final_match = r.matches.last().unwrap();
    assert_eq!(final_match.winner.as_deref(), Some("late-quitter"));
    assert_eq!(r.winner.as_deref(), Some("random"), "the finalist inherits the title: {:?}", r.ranking);
    assert!(r.ranking.iter().flatten().all(|n| !n.contains("quitter")));
}

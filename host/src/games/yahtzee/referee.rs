//! The Yahtzee referee: drives two seats through 13 turns of roll → keep → re-roll → keep → choose on
//! the same 15 dice per turn, applies the rules to every answer, and turns a seat's failure into a
//! fault that ends the game as a forfeit. It knows the seats, not wasmtime.

use super::seat::Seat;
use super::{GameInfo, YahtzeePlayer};
use crate::fault::Fault;
use crate::games::{CallLine, GameOutcome, GameSetup};
use serde_json::json;
use std::fmt::Write as _;
use yahtzee_rules::{Category, GameScore, MatchView, PlayerView, Roll, Scorecard, TurnDice};

/// The match so far as seat `i` sees it.
fn match_view(setup: &GameSetup<YahtzeePlayer>, i: usize) -> MatchView {
    let s = &setup.so_far;
    let o = 1 - i;
    MatchView {
        game: s.game,
        games_in_match: s.games_in_match,
        my_wins: s.wins.get(i).copied().unwrap_or(0),
        their_wins: s.wins.get(o).copied().unwrap_or(0),
        ties: s.ties,
        earlier: s
            .earlier
            .iter()
            .map(|g| GameScore {
                mine: g[i].clamp(0, u16::MAX as i64) as u16,
                theirs: g[o].clamp(0, u16::MAX as i64) as u16,
            })
            .collect(),
    }
}

struct Table {
    seats: [Seat; 2],
    cards: [Scorecard; 2],
    out: GameOutcome,
}

impl Table {
    /// Records an answer's call line and fuel, or the fault; `Err(())` ends the game.
    fn note<T>(
        &mut self,
        seat: usize,
        call: &'static str,
        turn: u8,
        r: Result<(T, u64), Fault>,
        show: impl Fn(&T) -> serde_json::Value,
    ) -> Result<T, ()> {
        match r {
            Ok((v, fuel)) => {
                self.out.fuel[seat] += fuel;
                self.out.calls.push(CallLine::new(seat, call, turn.into(), show(&v), fuel));
                Ok(v)
            }
            Err(f) => {
                self.out.faults.push((seat, f));
                Err(())
            }
        }
    }

    fn illegal(&mut self, seat: usize, call: &str, why: impl ToString) -> Result<(), ()> {
        self.out.faults.push((seat, Fault::illegal(call, why.to_string())));
        Err(())
    }

    async fn turn(
        &mut self,
        seat: usize,
        turn: u8,
        dice: &TurnDice,
        theirs: &Scorecard,
        base: &PlayerView,
    ) -> Result<(), ()> {
        let mut roll = Roll::first(dice);
        for _ in 0..2 {
            let view = PlayerView {
                dice: roll.dice,
                rolls_left: roll.rolls_left,
                mine: self.cards[seat].clone(),
                theirs: theirs.clone(),
                turn,
                ..base.clone()
            };
            let r = self.seats[seat].keep(&view).await;
            let keep = self.note(seat, "keep", turn, r, |k| json!(k))?;
            match roll.reroll(dice, &keep) {
                Ok(next) => roll = next,
                Err(e) => return self.illegal(seat, "keep", e),
            }
        }
        let view = PlayerView {
            dice: roll.dice,
            rolls_left: 0,
            mine: self.cards[seat].clone(),
            theirs: theirs.clone(),
            turn,
            ..base.clone()
        };
        let r = self.seats[seat].choose(&view).await;
        let category =
            self.note(seat, "choose", turn, r, |c: &Category| json!({ "box": c.name(), "dice": roll.dice }))?;
        match self.cards[seat].play(&roll.dice, category) {
            Ok(card) => self.cards[seat] = card,
            Err(e) => return self.illegal(seat, "choose", e),
        }
        Ok(())
    }
}

/// Plays one game between `seats` (seat 0 is asked first each turn).
pub async fn play(seats: [Seat; 2], setup: &GameSetup<YahtzeePlayer>) -> GameOutcome {
    let names = [setup.players[0].name.clone(), setup.players[1].name.clone()];
    let mut t = Table { seats, cards: Default::default(), out: GameOutcome { fuel: vec![0, 0], ..Default::default() } };
    let views: [PlayerView; 2] = [0, 1].map(|i| PlayerView {
        turn: 0,
        dice: [1; 5],
        rolls_left: 0,
        mine: Scorecard::default(),
        theirs: Scorecard::default(),
        opponent: names[1 - i].clone(),
        match_view: match_view(setup, i),
    });
    let finished = async {
        for i in 0..2 {
            let info =
                GameInfo { opponent: names[1 - i].clone(), you_start: i == 0, match_view: views[i].match_view.clone() };
            let r = t.seats[i].game_start(&info).await;
            t.note(i, "game-start", 0, r, |_| serde_json::Value::Null)?;
        }
        for turn in 1..=13u8 {
            let dice = TurnDice::draw(setup.seed, turn);
            let at_start = t.cards.clone();
            for i in 0..2 {
                t.turn(i, turn, &dice, &at_start[1 - i], &views[i]).await?;
            }
        }
        Ok::<(), ()>(())
    }
    .await;
    let mut out = t.out;
    out.scores = t.cards.iter().map(|c| i64::from(c.total())).collect();
    out.winners = match finished {
        // A fault ends the game: the other seat wins by forfeit.
        Err(()) => {
            let failed: Vec<usize> = out.faults.iter().map(|(s, _)| *s).collect();
            (0..2).filter(|s| !failed.contains(s)).collect()
        }
        Ok(()) if out.scores[0] == out.scores[1] => vec![0, 1],
        Ok(()) => vec![if out.scores[0] > out.scores[1] { 0 } else { 1 }],
    };
    out.board = render(&names, &t.cards);
    out.logs = t.seats.iter().map(Seat::log).collect();
    out
}

/// Both score cards side by side.
pub fn render(names: &[String; 2], cards: &[Scorecard; 2]) -> String {
    let cell = |v: Option<u16>| v.map_or("-".to_string(), |v| v.to_string());
    let mut s = String::new();
    let _ = writeln!(s, "{:<16} {:>20} {:>20}", "box", trunc(&names[0]), trunc(&names[1]));
    for c in Category::ALL {
        let _ = writeln!(s, "{:<16} {:>20} {:>20}", c.name(), cell(cards[0].get(c)), cell(cards[1].get(c)));
    }
    let _ = writeln!(s, "{:<16} {:>20} {:>20}", "upper bonus", cards[0].upper_bonus(), cards[1].upper_bonus());
    let _ = writeln!(s, "{:<16} {:>20} {:>20}", "yahtzee bonus", cards[0].yahtzee_bonus, cards[1].yahtzee_bonus);
    let _ = write!(s, "{:<16} {:>20} {:>20}", "total", cards[0].total(), cards[1].total());
    s
}

fn trunc(s: &str) -> String {
    s.chars().take(20).collect()
}

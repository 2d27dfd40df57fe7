//! Yahtzee's game as a pure state machine, compiled natively too (the tests) and free of WIT types:
//! two seats play the same 13 turns on the same 15 dice per turn. Seat 0 is asked first in every turn;
//! a turn is roll -> `keep` -> re-roll -> `keep` -> re-roll -> `choose`. Every answer is checked by the
//! rules; a seat that faults (or is refused) forfeits: the game ends there, the cards keep what they
//! hold, and the other seat wins.

use std::fmt::Write as _;
use yahtzee_rules::{Category, GameScore, MatchView, Roll, Scorecard, TurnDice};

/// Turns in a game.
pub const TURNS: u8 = 13;

/// What the seat to act is asked: the player export of that name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    GameStart,
    Keep,
    Choose,
}

impl Ask {
    /// The export's name.
    pub fn call(self) -> &'static str {
        match self {
            Ask::GameStart => "game-start",
            Ask::Keep => "keep",
            Ask::Choose => "choose",
        }
    }
}

/// A seat's answer, as the referee is handed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move<'a> {
    GameStart,
    Keep(&'a [u8]),
    Choose(Category),
    /// An answer to an export the referee never asks during a game (`tournament-start`, …).
    Other(&'static str),
}

impl Move<'_> {
    fn call(&self) -> &'static str {
        match self {
            Move::GameStart => "game-start",
            Move::Keep(_) => "keep",
            Move::Choose(_) => "choose",
            Move::Other(call) => call,
        }
    }
}

/// The match so far as the setup gives it, in this game's seat order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchSoFar {
    pub game: u32,
    pub games_in_match: u32,
    pub wins: Vec<u32>,
    pub ties: u32,
    /// Scores of the earlier games, oldest first, each per seat.
    pub earlier: Vec<Vec<i64>>,
}

/// The match as `seat` sees it: its own wins and scores as `mine`, scores clamped to 0..=65535.
pub fn match_view(m: &MatchSoFar, seat: usize) -> MatchView {
    let other = 1 - seat.min(1);
    let score = |g: &[i64], s: usize| g.get(s).map_or(0, |&v| v.clamp(0, i64::from(u16::MAX)) as u16);
    MatchView {
        game: m.game,
        games_in_match: m.games_in_match,
        my_wins: m.wins.get(seat).copied().unwrap_or(0),
        their_wins: m.wins.get(other).copied().unwrap_or(0),
        ties: m.ties,
        earlier: m.earlier.iter().map(|g| GameScore { mine: score(g, seat), theirs: score(g, other) }).collect(),
    }
}

/// What the rule checker `score` answers: what `dice` score in `category` on the card of `boxes` and
/// `yahtzee_bonus` (joker rule included, Yahtzee bonus not), or `None` if the card has not exactly 13
/// boxes, the dice are not five values 1..=6, the box is used or the joker rule forbids it.
pub fn score(boxes: &[Option<u16>], yahtzee_bonus: u16, dice: &[u8], category: Category) -> Option<u16> {
    let card = Scorecard { boxes: boxes.try_into().ok()?, yahtzee_bonus };
    let dice = yahtzee_rules::dice_from_slice(dice).ok()?;
    card.score(&dice, category).ok()
}

/// What a seat is shown for one decision (the WIT `turn-state`, borrowed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnView<'a> {
    pub turn: u8,
    pub dice: &'a [u8; 5],
    pub rolls_left: u8,
    pub mine: &'a Scorecard,
    /// The opponent's card as it stood at the start of this turn.
    pub theirs: &'a Scorecard,
    pub opponent: &'a str,
}

/// One game of Yahtzee between two seats.
#[derive(Debug, Clone)]
pub struct Table {
    names: [String; 2],
    seed: u64,
    cards: [Scorecard; 2],
    /// The cards as they stood when this turn began: what each seat is shown of the other's.
    at_start: [Scorecard; 2],
    /// 1..=13 once the turns begin.
    turn: u8,
    dice: TurnDice,
    roll: Roll,
    /// How many of the roll's dice (at its front) the seat to move kept at its last `keep`.
    held: usize,
    /// The seat asked now.
    seat: usize,
    /// What it is asked; `None` once the game is over.
    ask: Option<Ask>,
    banned: [bool; 2],
    /// Scratch space for events.
    text: String,
}

fn dice_text(out: &mut String, dice: &[u8]) {
    for (i, d) in dice.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{d}");
    }
}

impl Table {
    /// A game between `names` (seat order) on the dice of `seed`; the first request is seat 0's
    /// `game-start`.
    pub fn new(names: [String; 2], seed: u64, emit: &mut impl FnMut(&str)) -> Table {
        let dice = TurnDice::draw(seed, 1);
        let roll = Roll::first(&dice);
        let mut g = Table {
            names,
            seed,
            cards: Default::default(),
            at_start: Default::default(),
            turn: 0,
            dice,
            roll,
            held: 0,
            seat: 0,
            ask: Some(Ask::GameStart),
            banned: [false; 2],
            text: String::with_capacity(128),
        };
        g.text.clear();
        let _ = write!(g.text, "{} (seat 0) against {} (seat 1)", g.names[0], g.names[1]);
        emit(&g.text);
        g
    }

    /// The seat to ask now and what, or `None` once the game is over.
    pub fn pending(&self) -> Option<(usize, Ask)> {
        self.ask.map(|a| (self.seat, a))
    }

    pub fn name(&self, seat: usize) -> &str {
        &self.names[seat.min(1)]
    }

    /// The other seat's name.
    pub fn opponent(&self, seat: usize) -> &str {
        &self.names[1 - seat.min(1)]
    }

    /// What `seat` is shown now (for `keep` and `choose`).
    pub fn turn_view(&self, seat: usize) -> TurnView<'_> {
        let seat = seat.min(1);
        TurnView {
            turn: self.turn,
            dice: &self.roll.dice,
            rolls_left: self.roll.rolls_left,
            mine: &self.cards[seat],
            theirs: &self.at_start[1 - seat],
            opponent: &self.names[1 - seat],
        }
    }

    pub fn cards(&self) -> &[Scorecard; 2] {
        &self.cards
    }

    /// The players' names, in seat order.
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// The turn (1..=13; 0 before the first), the seat to move (or that moved last), the dice it
    /// sees, how many of them it held (kept dice come first) and its re-rolls left.
    pub fn table(&self) -> (u8, usize, &[u8; 5], usize, u8) {
        (self.turn, self.seat, &self.roll.dice, self.held, self.roll.rolls_left)
    }

    pub fn is_over(&self) -> bool {
        self.ask.is_none()
    }

    /// Starts turn `turn` (or ends the game after the last) with seat 0 to roll.
    fn begin_turn(&mut self, turn: u8, emit: &mut impl FnMut(&str)) {
        if turn > TURNS {
            self.ask = None;
            self.emit_end(emit);
            return;
        }
        self.turn = turn;
        self.dice = TurnDice::draw(self.seed, turn);
        self.at_start = self.cards.clone();
        self.begin_seat(0, emit);
    }

    /// Seat `seat` rolls the first five dice of the turn.
    fn begin_seat(&mut self, seat: usize, emit: &mut impl FnMut(&str)) {
        self.seat = seat;
        self.roll = Roll::first(&self.dice);
        self.held = 0;
        self.ask = Some(Ask::Keep);
        self.text.clear();
        let _ = write!(self.text, "turn {}: seat {seat} rolls ", self.turn);
        dice_text(&mut self.text, &self.roll.dice);
        emit(&self.text);
    }

    fn emit_end(&mut self, emit: &mut impl FnMut(&str)) {
        let [a, b] = [0, 1].map(|s| self.cards[s].total());
        self.text.clear();
        let _ = write!(self.text, "game over: seat 0 {a}, seat 1 {b}: ");
        let _ = match a.cmp(&b) {
            std::cmp::Ordering::Equal => write!(self.text, "a tie"),
            std::cmp::Ordering::Greater => write!(self.text, "seat 0 wins"),
            std::cmp::Ordering::Less => write!(self.text, "seat 1 wins"),
        };
        emit(&self.text);
    }

    /// Applies `seat`'s answer; an answer the rules refuse (or one not asked for) changes nothing and
    /// gives the reason, and the host then bans the seat.
    pub fn apply(&mut self, seat: usize, answer: Move<'_>, emit: &mut impl FnMut(&str)) -> Result<(), String> {
        let Some(ask) = self.ask.filter(|_| seat == self.seat) else {
            return Err(format!("seat {seat} was not asked"));
        };
        match (ask, answer) {
            (Ask::GameStart, Move::GameStart) => {
                if seat == 0 {
                    self.seat = 1;
                } else {
                    self.begin_turn(1, emit);
                }
            }
            (Ask::Keep, Move::Keep(keep)) => {
                let next = self.roll.reroll(&self.dice, keep).map_err(|e| e.to_string())?;
                self.roll = next;
                self.held = keep.len();
                if self.roll.rolls_left == 0 {
                    self.ask = Some(Ask::Choose);
                }
                self.text.clear();
                let _ = write!(self.text, "turn {}: seat {seat} keeps [", self.turn);
                dice_text(&mut self.text, keep);
                self.text.push_str("] and rolls ");
                dice_text(&mut self.text, &self.roll.dice);
                emit(&self.text);
            }
            (Ask::Choose, Move::Choose(category)) => {
                let card = self.cards[seat].play(&self.roll.dice, category).map_err(|e| e.to_string())?;
                let got = card.get(category).unwrap_or(0);
                let bonus = card.yahtzee_bonus - self.cards[seat].yahtzee_bonus;
                self.cards[seat] = card;
                self.text.clear();
                let _ = write!(self.text, "turn {}: seat {seat} scores ", self.turn);
                dice_text(&mut self.text, &self.roll.dice);
                let _ = write!(self.text, " in {category} for {got}");
                if bonus > 0 {
                    let _ = write!(self.text, " and a Yahtzee bonus of {bonus}");
                }
                let _ = write!(self.text, " (total {})", self.cards[seat].total());
                emit(&self.text);
                if seat == 0 {
                    self.begin_seat(1, emit);
                } else {
                    self.begin_turn(self.turn + 1, emit);
                }
            }
            (ask, answer) => {
                return Err(format!("seat {seat} was asked for `{}`, not `{}`", ask.call(), answer.call()));
            }
        }
        Ok(())
    }

    /// `seat` faulted (or was refused): it forfeits and the game ends as it stands.
    pub fn ban(&mut self, seat: usize, call: &str, reason: &str, emit: &mut impl FnMut(&str)) {
        let Some(b) = self.banned.get_mut(seat) else {
            return;
        };
        *b = true;
        self.ask = None;
        self.text.clear();
        let _ = write!(self.text, "seat {seat} forfeits: {reason} (in {call})");
        emit(&self.text);
    }

    /// The scores (each card's total) and the winners, once the game is over: the seats not banned
    /// after a forfeit, else the higher total (both on a tie).
    pub fn outcome(&self) -> Option<([i64; 2], Vec<u32>)> {
        if self.ask.is_some() {
            return None;
        }
        let scores = [0, 1].map(|s| i64::from(self.cards[s].total()));
        let winners = if self.banned.contains(&true) {
            (0..2u32).filter(|&s| !self.banned[s as usize]).collect()
        } else if scores[0] == scores[1] {
            vec![0, 1]
        } else {
            vec![if scores[0] > scores[1] { 0 } else { 1 }]
        };
        Some((scores, winners))
    }

    /// Both score cards side by side (the host's final board text).
    pub fn render(&self) -> String {
        render(&self.names, &self.cards)
    }
}

/// Both score cards side by side, names cut to 20 characters.
pub fn render(names: &[String; 2], cards: &[Scorecard; 2]) -> String {
    let cell = |v: Option<u16>| v.map_or("-".to_string(), |v| v.to_string());
    let trunc = |s: &str| -> String { s.chars().take(20).collect() };
    let mut s = String::with_capacity(800);
    let _ = writeln!(s, "{:<16} {:>20} {:>20}", "box", trunc(&names[0]), trunc(&names[1]));
    for c in Category::ALL {
        let _ = writeln!(s, "{:<16} {:>20} {:>20}", c.name(), cell(cards[0].get(c)), cell(cards[1].get(c)));
    }
    let _ = writeln!(s, "{:<16} {:>20} {:>20}", "upper bonus", cards[0].upper_bonus(), cards[1].upper_bonus());
    let _ = writeln!(s, "{:<16} {:>20} {:>20}", "yahtzee bonus", cards[0].yahtzee_bonus, cards[1].yahtzee_bonus);
    let _ = write!(s, "{:<16} {:>20} {:>20}", "total", cards[0].total(), cards[1].total());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use yahtzee_rules::{Dice, PlayerView};

    type Strategy = (fn(&PlayerView) -> Vec<u8>, fn(&PlayerView) -> Category);

    const GREEDY: Strategy = (yahtzee_bots::greedy::keep, yahtzee_bots::greedy::choose);
    const RANDOM: Strategy = (yahtzee_bots::random::keep, yahtzee_bots::random::choose);

    fn names() -> [String; 2] {
        ["alice".to_string(), "bob".to_string()]
    }

    fn so_far() -> MatchSoFar {
        MatchSoFar { game: 2, games_in_match: 3, wins: vec![1, 0], ties: 0, earlier: vec![vec![230, 190]] }
    }

    /// One call as the reference records it: seat, export, turn.
    type Call = (usize, &'static str, u8);

    /// The host's built-in referee (host/src/games/yahtzee/referee.rs) without the sandbox: the
    /// reference the state machine must agree with. `faulty` makes a seat fault at its n-th call.
    fn reference(
        seed: u64,
        bots: [Strategy; 2],
        faulty: Option<(usize, usize)>,
    ) -> ([i64; 2], Vec<u32>, String, Vec<Call>) {
        let names = names();
        let views: [MatchView; 2] = [0, 1].map(|i| match_view(&so_far(), i));
        let mut cards: [Scorecard; 2] = Default::default();
        let mut calls: Vec<Call> = Vec::new();
        let mut failed: Option<usize> = None;
        let mut made = [0usize; 2];
        let mut call = |seat: usize, name: &'static str, turn: u8| -> bool {
            calls.push((seat, name, turn));
            made[seat] += 1;
            faulty != Some((seat, made[seat]))
        };
        'game: {
            for i in 0..2 {
                if !call(i, "game-start", 0) {
                    failed = Some(i);
                    break 'game;
                }
            }
            for turn in 1..=13u8 {
                let dice = TurnDice::draw(seed, turn);
                let at_start = cards.clone();
                for i in 0..2 {
                    let mut roll = Roll::first(&dice);
                    for _ in 0..2 {
                        let view = PlayerView {
                            turn,
                            dice: roll.dice,
                            rolls_left: roll.rolls_left,
                            mine: cards[i].clone(),
                            theirs: at_start[1 - i].clone(),
                            opponent: names[1 - i].clone(),
                            match_view: views[i].clone(),
                        };
                        let keep = (bots[i].0)(&view);
                        if !call(i, "keep", turn) {
                            failed = Some(i);
                            break 'game;
                        }
                        roll = roll.reroll(&dice, &keep).unwrap();
                    }
                    let view = PlayerView {
                        turn,
                        dice: roll.dice,
                        rolls_left: 0,
                        mine: cards[i].clone(),
                        theirs: at_start[1 - i].clone(),
                        opponent: names[1 - i].clone(),
                        match_view: views[i].clone(),
                    };
                    let c = (bots[i].1)(&view);
                    if !call(i, "choose", turn) {
                        failed = Some(i);
                        break 'game;
                    }
                    cards[i] = cards[i].play(&roll.dice, c).unwrap();
                }
            }
        }
        let scores = [0, 1].map(|s| i64::from(cards[s].total()));
        let winners = match failed {
            Some(f) => vec![1 - f as u32],
            None if scores[0] == scores[1] => vec![0, 1],
            None => vec![if scores[0] > scores[1] { 0 } else { 1 }],
        };
        (scores, winners, render(&names, &cards), calls)
    }

    /// Drives the state machine with `bots`, as the host would; returns the outcome, the board, the calls
    /// and the events.
    fn drive(
        seed: u64,
        bots: [Strategy; 2],
        faulty: Option<(usize, usize)>,
    ) -> ([i64; 2], Vec<u32>, String, Vec<Call>, Vec<String>) {
        let mut events = Vec::new();
        let mut emit = |s: &str| events.push(s.to_string());
        let views: [MatchView; 2] = [0, 1].map(|i| match_view(&so_far(), i));
        let mut g = Table::new(names(), seed, &mut emit);
        let mut calls: Vec<Call> = Vec::new();
        let mut made = [0usize; 2];
        while let Some((seat, ask)) = g.pending() {
            let turn = g.turn_view(seat).turn;
            calls.push((seat, ask.call(), turn));
            made[seat] += 1;
            if faulty == Some((seat, made[seat])) {
                g.ban(seat, ask.call(), "it trapped", &mut emit);
                continue;
            }
            let v = g.turn_view(seat);
            let view = PlayerView {
                turn: v.turn,
                dice: *v.dice,
                rolls_left: v.rolls_left,
                mine: v.mine.clone(),
                theirs: v.theirs.clone(),
                opponent: v.opponent.to_string(),
                match_view: views[seat].clone(),
            };
            let r = match ask {
                Ask::GameStart => g.apply(seat, Move::GameStart, &mut emit),
                Ask::Keep => g.apply(seat, Move::Keep(&(bots[seat].0)(&view)), &mut emit),
                Ask::Choose => g.apply(seat, Move::Choose((bots[seat].1)(&view)), &mut emit),
            };
            r.unwrap();
        }
        let (scores, winners) = g.outcome().unwrap();
        (scores, winners, g.render(), calls, events)
    }

    #[test]
    fn games_agree_with_the_hosts_referee() {
        for seed in 0..40u64 {
            for bots in [[GREEDY, RANDOM], [RANDOM, GREEDY], [GREEDY, GREEDY], [RANDOM, RANDOM]] {
                let (s, w, board, calls) = reference(seed, bots, None);
                let (s2, w2, board2, calls2, events) = drive(seed, bots, None);
                assert_eq!((s, &w, &board, &calls), (s2, &w2, &board2, &calls2), "seed {seed}");
                assert_eq!(calls.len(), 2 + 13 * 2 * 3);
                // A start, then per seat and turn a roll, two keeps and a choice, then the end.
                assert_eq!(events.len(), 1 + 13 * 2 * 4 + 1);
                assert!(events.last().unwrap().starts_with("game over: "), "{events:?}");
            }
        }
    }

    #[test]
    fn a_fault_forfeits_where_the_game_stands() {
        for (seat, nth) in [(0, 1), (1, 1), (0, 2), (1, 5), (0, 17), (1, 40)] {
            let (s, w, board, calls) = reference(9, [GREEDY, RANDOM], Some((seat, nth)));
            let (s2, w2, board2, calls2, events) = drive(9, [GREEDY, RANDOM], Some((seat, nth)));
            assert_eq!((s, &w, &board, &calls), (s2, &w2, &board2, &calls2), "seat {seat} call {nth}");
            assert_eq!(w2, vec![1 - seat as u32]);
            assert!(events.last().unwrap().starts_with(&format!("seat {seat} forfeits: it trapped")));
        }
    }

    #[test]
    fn the_order_of_requests() {
        let mut g = Table::new(names(), 5, &mut |_| {});
        assert_eq!(g.pending(), Some((0, Ask::GameStart)));
        g.apply(0, Move::GameStart, &mut |_| {}).unwrap();
        assert_eq!(g.pending(), Some((1, Ask::GameStart)));
        g.apply(1, Move::GameStart, &mut |_| {}).unwrap();
        let dice = TurnDice::draw(5, 1);
        for seat in 0..2 {
            assert_eq!(g.pending(), Some((seat, Ask::Keep)));
            let v = g.turn_view(seat);
            assert_eq!(
                (v.turn, v.rolls_left, &v.dice[..], v.opponent),
                (1, 2, &dice.values[..5], names()[1 - seat].as_str())
            );
            g.apply(seat, Move::Keep(&[]), &mut |_| {}).unwrap();
            assert_eq!(g.pending(), Some((seat, Ask::Keep)));
            let v = g.turn_view(seat);
            assert_eq!((v.rolls_left, &v.dice[..]), (1, &dice.values[5..10]));
            g.apply(seat, Move::Keep(&[]), &mut |_| {}).unwrap();
            assert_eq!(g.pending(), Some((seat, Ask::Choose)));
            let v = g.turn_view(seat);
            assert_eq!((v.rolls_left, &v.dice[..]), (0, &dice.values[10..15]));
            g.apply(seat, Move::Choose(Category::Chance), &mut |_| {}).unwrap();
        }
        // Turn 2: seat 1 is shown seat 0's card as it stood when the turn began.
        assert_eq!(g.pending(), Some((0, Ask::Keep)));
        assert_eq!(g.turn_view(0).turn, 2);
        g.apply(0, Move::Keep(&[]), &mut |_| {}).unwrap();
        g.apply(0, Move::Keep(&[]), &mut |_| {}).unwrap();
        g.apply(0, Move::Choose(Category::Ones), &mut |_| {}).unwrap();
        let v = g.turn_view(1);
        assert!(v.theirs.is_open(Category::Ones));
        assert!(!v.theirs.is_open(Category::Chance));
        assert!(!g.cards()[0].is_open(Category::Ones));
    }

    /// A game with both seats past game-start.
    fn started(seed: u64) -> Table {
        let mut g = Table::new(names(), seed, &mut |_| {});
        g.apply(0, Move::GameStart, &mut |_| {}).unwrap();
        g.apply(1, Move::GameStart, &mut |_| {}).unwrap();
        g
    }

    #[test]
    fn refusals_change_nothing_and_say_why() {
        let mut g = started(0);
        // draw(0, 1) is [2, 3, 2, 2, 5, 6, 6, 2, 4, 5, 5, 5, 3, 4, 4].
        assert_eq!(g.turn_view(0).dice, &[2, 3, 2, 2, 5]);
        let before = g.clone();
        let e = g.apply(0, Move::Keep(&[6, 6]), &mut |_| {}).unwrap_err();
        assert_eq!(e, "kept [6, 6] but the dice are [2, 3, 2, 2, 5]");
        let e = g.apply(0, Move::Keep(&[2, 2, 2, 3, 5, 5]), &mut |_| {}).unwrap_err();
        assert_eq!(e, "kept 6 dice [2, 2, 2, 3, 5, 5] but there are only five dice [2, 3, 2, 2, 5]");
        assert!(g.apply(0, Move::Keep(&[0]), &mut |_| {}).is_err());
        assert!(g.apply(0, Move::Keep(&[255, 7]), &mut |_| {}).is_err());
        assert_eq!(g.apply(1, Move::Keep(&[]), &mut |_| {}).unwrap_err(), "seat 1 was not asked");
        assert_eq!(g.apply(7, Move::Keep(&[]), &mut |_| {}).unwrap_err(), "seat 7 was not asked");
        assert_eq!(
            g.apply(0, Move::Choose(Category::Chance), &mut |_| {}).unwrap_err(),
            "seat 0 was asked for `keep`, not `choose`"
        );
        assert_eq!(
            g.apply(0, Move::Other("tournament-end"), &mut |_| {}).unwrap_err(),
            "seat 0 was asked for `keep`, not `tournament-end`"
        );
        assert!(g.apply(0, Move::GameStart, &mut |_| {}).is_err());
        assert_eq!(format!("{g:?}"), format!("{before:?}"));
        // Keeping 2 2 2 and re-rolling takes the next values in order.
        let mut events = Vec::new();
        g.apply(0, Move::Keep(&[2, 2, 2]), &mut |s| events.push(s.to_string())).unwrap();
        assert_eq!(events, ["turn 1: seat 0 keeps [2 2 2] and rolls 2 2 2 6 6"]);
        assert_eq!(g.turn_view(0).dice, &[2, 2, 2, 6, 6]);
        g.apply(0, Move::Keep(&[2, 2, 2, 6, 6]), &mut |_| {}).unwrap();
        assert_eq!(g.turn_view(0).dice, &[2, 2, 2, 6, 6]);
        let mut events = Vec::new();
        g.apply(0, Move::Choose(Category::FullHouse), &mut |s| events.push(s.to_string())).unwrap();
        assert_eq!(events[0], "turn 1: seat 0 scores 2 2 2 6 6 in full-house for 25 (total 25)");
        assert_eq!(events[1], "turn 1: seat 1 rolls 2 3 2 2 5");
        assert_eq!(g.cards()[0].get(Category::FullHouse), Some(25));
    }

    #[test]
    fn a_used_box_and_the_joker_rule_are_refused_with_the_rules_wording() {
        let mut g = started(0);
        g.cards[0].boxes[Category::Chance.index()] = Some(20);
        for _ in 0..2 {
            g.apply(0, Move::Keep(&[]), &mut |_| {}).unwrap();
        }
        let e = g.apply(0, Move::Choose(Category::Chance), &mut |_| {}).unwrap_err();
        assert_eq!(e, "box chance is already used");
        // A Yahtzee while the yahtzee box is filled must go in its own upper box.
        let mut g = started(0);
        g.cards[0].boxes[Category::Yahtzee.index()] = Some(50);
        g.roll = Roll { dice: [4; 5], used: 15, rolls_left: 0 };
        g.ask = Some(Ask::Choose);
        let e = g.apply(0, Move::Choose(Category::Chance), &mut |_| {}).unwrap_err();
        assert_eq!(e, "joker rule: this Yahtzee cannot go in box chance (the yahtzee box is filled); allowed: fours");
        let mut events = Vec::new();
        g.apply(0, Move::Choose(Category::Fours), &mut |s| events.push(s.to_string())).unwrap();
        assert_eq!(events[0], "turn 1: seat 0 scores 4 4 4 4 4 in fours for 20 and a Yahtzee bonus of 100 (total 170)");
    }

    #[test]
    fn nothing_is_asked_after_the_end_or_a_ban() {
        let mut g = started(3);
        assert_eq!(g.outcome(), None);
        g.ban(0, "keep", "kept [6, 6] but the dice are [1, 2, 3, 4, 5]", &mut |_| {});
        assert_eq!(g.pending(), None);
        assert_eq!(g.apply(0, Move::Keep(&[]), &mut |_| {}).unwrap_err(), "seat 0 was not asked");
        assert_eq!(g.apply(1, Move::Keep(&[]), &mut |_| {}).unwrap_err(), "seat 1 was not asked");
        assert_eq!(g.outcome(), Some(([0, 0], vec![1])));
        // A ban of a seat that does not exist is ignored; both banned: nobody wins.
        g.ban(9, "keep", "", &mut |_| {});
        assert_eq!(g.outcome(), Some(([0, 0], vec![1])));
        g.ban(1, "keep", "", &mut |_| {});
        assert_eq!(g.outcome(), Some(([0, 0], vec![])));
    }

    #[test]
    fn a_ban_during_game_start() {
        let mut g = Table::new(names(), 1, &mut |_| {});
        g.apply(0, Move::GameStart, &mut |_| {}).unwrap();
        g.ban(1, "game-start", "fuel", &mut |_| {});
        assert_eq!(g.outcome(), Some(([0, 0], vec![0])));
    }

    #[test]
    fn the_match_as_each_seat_sees_it() {
        let m = MatchSoFar {
            game: 4,
            games_in_match: 5,
            wins: vec![2, 1],
            ties: 0,
            earlier: vec![vec![200, 150], vec![-5, 70_000], vec![1]],
        };
        let v0 = match_view(&m, 0);
        let v1 = match_view(&m, 1);
        assert_eq!((v0.game, v0.games_in_match, v0.my_wins, v0.their_wins, v0.ties), (4, 5, 2, 1, 0));
        assert_eq!((v1.my_wins, v1.their_wins), (1, 2));
        let pairs = |v: &MatchView| v.earlier.iter().map(|g| (g.mine, g.theirs)).collect::<Vec<_>>();
        assert_eq!(pairs(&v0), [(200, 150), (0, 65535), (1, 0)]);
        assert_eq!(pairs(&v1), [(150, 200), (65535, 0), (0, 1)]);
        let empty = match_view(&MatchSoFar::default(), 1);
        assert_eq!((empty.my_wins, empty.their_wins, empty.earlier.len()), (0, 0, 0));
    }

    #[test]
    fn the_rule_checker_scores_like_the_rules_and_refuses_nonsense() {
        let mut card = Scorecard::default();
        card.boxes[Category::Chance.index()] = Some(20);
        let b = &card.boxes[..];
        assert_eq!(score(b, 0, &[3, 3, 3, 5, 5], Category::FullHouse), Some(25));
        assert_eq!(score(b, 0, &[3, 3, 3, 5, 5], Category::Threes), Some(9));
        assert_eq!(score(b, 0, &[3, 3, 3, 5, 5], Category::Chance), None, "used box");
        assert_eq!(score(b, 0, &[3, 3, 9, 5, 5], Category::Ones), None, "not a die");
        assert_eq!(score(b, 0, &[3, 3], Category::Twos), None, "two dice");
        assert_eq!(score(b, 0, &[], Category::Twos), None, "no dice");
        assert_eq!(score(&[None; 3], 0, &[1, 2, 3, 4, 5], Category::LargeStraight), None, "a card of 3 boxes");
        assert_eq!(score(&[None; 14], 0, &[1, 2, 3, 4, 5], Category::LargeStraight), None, "a card of 14 boxes");
        let mut joker = [None; 13];
        joker[Category::Yahtzee.index()] = Some(50);
        assert_eq!(score(&joker, u16::MAX, &[6; 5], Category::Sixes), Some(30));
        assert_eq!(score(&joker, u16::MAX, &[6; 5], Category::Chance), None, "the joker rule");
        let full = [Some(u16::MAX); 13];
        assert_eq!(score(&full, u16::MAX, &[6; 5], Category::Chance), None);
    }

    #[test]
    fn the_board_is_the_hosts() {
        let mut cards: [Scorecard; 2] = Default::default();
        let d: Dice = [6, 6, 6, 6, 6];
        cards[0] = cards[0].play(&d, Category::Yahtzee).unwrap().play(&d, Category::Sixes).unwrap();
        let names = ["a-very-long-name-over-twenty".to_string(), "bob".to_string()];
        let board = render(&names, &cards);
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], format!("{:<16} {:>20} {:>20}", "box", "a-very-long-name-ove", "bob"));
        assert_eq!(lines[1], format!("{:<16} {:>20} {:>20}", "ones", "-", "-"));
        assert_eq!(lines[6], format!("{:<16} {:>20} {:>20}", "sixes", 30, "-"));
        assert_eq!(lines[15], format!("{:<16} {:>20} {:>20}", "yahtzee bonus", 100, 0));
        assert_eq!(lines[16], format!("{:<16} {:>20} {:>20}", "total", 180, 0));
        assert!(!board.ends_with('\n'));
    }
}

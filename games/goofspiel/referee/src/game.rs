//! Goofspiel's referee as a pure state machine (no bindings, tested natively), over the rules of
//! [`goofspiel_rules`].
//!
//! Each round every seat still in is asked for its bid at once (simultaneous requests). A bid is kept
//! secret: only its bidder hears of it, until every seat still in has bid; then the round is revealed
//! to everyone and the next prize turned up. A refused bid is an `Err` (the host then bans the seat);
//! a seat banned is out, its hand discarded, and the game goes on while two or more seats are in.
//!
//! The events, in order:
//! - at the start, for everyone: `Goofspiel, 3 seats, 13 rounds: A alice, B bob, C carol`; for each
//!   seat alone: `you are seat 0 (A); your hand: 1 2 3 4 5 6 7 8 9 10 11 12 13`; for everyone:
//!   `round 1: prize 7`;
//! - on an accepted bid, for the bidder alone: `round 1: you bid 5`;
//! - once a round's bids are all in, for everyone: `round 1: A 5, B 7, C 3: seat 1 (B) takes 7 (+3
//!   carried)`, or `round 1: A 5, B 7, C 7: tied at 7: 7 carried over` (in the last round: `... tied
//!   at 7: 7 (+3 carried) goes to nobody`), then `round 2: prize 9 (+7 carried)`;
//! - on a ban, for everyone: `seat 1 (B) is out: REASON` (then, if the round is complete, its reveal,
//!   and, with fewer than two seats left, `only seat 0 (A) is left: the game ends`);
//! - at the end, for everyone: `game over: A 40, B 30, C 21 (out); A wins` (or `A, B share the win`,
//!   or `nobody wins`).

use goofspiel_rules::{self as rules, Hand, ROUNDS, Round, seat_letter};

/// Who an event is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum To {
    All,
    Seat(u32),
}

/// An event for the host to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub to: To,
    pub text: String,
}

/// What a seat is asked its bid with: everything it may know (the `state` of the player contract).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub you: u32,
    pub seats: u32,
    pub round: u32,
    pub prize: u8,
    pub carried: Vec<u8>,
    pub hand: Vec<u8>,
    pub scores: Vec<u32>,
    pub playing: Vec<bool>,
    pub history: Vec<Round>,
}

/// One game, with the events not yet handed to the host.
#[derive(Debug, Clone)]
pub struct Table {
    names: Vec<String>,
    pub rules: rules::State,
    events: Vec<Event>,
}

/// `seat 1 (B)`, written where it is shown.
struct Who(usize);

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {} ({})", self.0, seat_letter(self.0))
    }
}

impl Table {
    /// A game for `names` (2 to 6 seats) with the prize deck shuffled from `seed`; Goofspiel takes no
    /// options. Each seat is told its hand, and the first prize is turned up.
    pub fn start(names: Vec<String>, seed: u64, options: &[(String, String)]) -> Result<Table, String> {
        if let Some((name, _)) = options.first() {
            return Err(format!("Goofspiel has no options (got `{name}`)"));
        }
        let rules = rules::State::new(names.len(), seed).map_err(|e| e.to_string())?;
        let mut g = Table { names, rules, events: Vec::new() };
        let seats: Vec<String> = g.names.iter().enumerate().map(|(s, n)| format!("{} {n}", seat_letter(s))).collect();
        g.all(format!("Goofspiel, {} seats, {ROUNDS} rounds: {}", g.names.len(), seats.join(", ")));
        for s in 0..g.names.len() {
            g.tell(s, format!("you are {}; your hand: {}", Who(s), g.rules.hand(s)));
        }
        g.prize_up();
        Ok(g)
    }

    fn all(&mut self, text: String) {
        self.events.push(Event { to: To::All, text });
    }

    fn tell(&mut self, seat: usize, text: String) {
        self.events.push(Event { to: To::Seat(seat as u32), text });
    }

    /// The events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The seats to ask now, each with what it may know: every seat still in that has not bid this
    /// round; none once the game is over.
    pub fn requests(&self) -> Vec<(u32, Ask)> {
        (0..self.rules.seats() as u32).filter_map(|s| self.request(s).map(|ask| (s, ask))).collect()
    }

    /// What seat `seat` alone is asked now, if anything (without building the other seats' asks).
    pub fn request(&self, seat: u32) -> Option<Ask> {
        let prize = self.rules.prize()?;
        let s = usize::try_from(seat).ok()?;
        if !self.rules.waits_for(s) {
            return None;
        }
        Some(Ask {
            you: seat,
            seats: self.rules.seats() as u32,
            round: self.rules.round() as u32,
            prize,
            carried: self.rules.carried().to_vec(),
            hand: self.rules.hand(s).cards(),
            scores: self.rules.scores().to_vec(),
            playing: self.rules.playing().to_vec(),
            history: self.rules.history().to_vec(),
        })
    }

    /// Seat `seat` bids `card`; an `Err` says why it is refused (and changes nothing).
    pub fn apply(&mut self, seat: u32, card: u8) -> Result<(), String> {
        let round = self.rules.round();
        let s = usize::try_from(seat).unwrap_or(usize::MAX);
        let resolved = self.rules.bid(s, card).map_err(|e| match e {
            rules::Illegal::NotACard { .. } | rules::Illegal::NotInHand { .. } => e.to_string(),
            _ => format!("seat {seat} was not asked for a bid: {e}"),
        })?;
        self.tell(s, format!("round {round}: you bid {card}"));
        if let Some(r) = resolved {
            self.reveal(&r);
            self.prize_up();
        }
        Ok(())
    }

    /// Seat `seat` faulted (`reason` says how): it is out. Nothing happens for a seat already out, a
    /// seat that does not exist, or once the game is over.
    pub fn banned(&mut self, seat: u32, reason: &str) {
        let s = usize::try_from(seat).unwrap_or(usize::MAX);
        if self.rules.is_over() || !self.rules.is_playing(s) {
            return;
        }
        self.all(format!("{} is out: {reason}", Who(s)));
        let resolved = self.rules.remove(s);
        if let Some(r) = &resolved {
            self.reveal(r);
        }
        if self.rules.is_over() && self.rules.history().len() < ROUNDS {
            let left: Vec<usize> = (0..self.rules.seats()).filter(|&s| self.rules.is_playing(s)).collect();
            match left.as_slice() {
                [one] => self.all(format!("only {} is left: the game ends", Who(*one))),
                _ => self.all("nobody is left: the game ends".to_string()),
            }
            self.game_over();
        } else if resolved.is_some() {
            self.prize_up();
        }
    }

    /// The public reveal of a finished round.
    fn reveal(&mut self, r: &Round) {
        use std::fmt::Write as _;
        let mut text = format!("round {}: {}: ", r.number, rules::Bids(&r.bids));
        let _ = match r.winner {
            Some(w) => write!(text, "{} takes {}", Who(w), r.prize_text()),
            None if r.number == ROUNDS => {
                write!(text, "tied at {}: {} goes to nobody", r.high().unwrap_or(0), r.prize_text())
            }
            None => write!(text, "tied at {}: {} carried over", r.high().unwrap_or(0), r.prize_text()),
        };
        self.all(text);
    }

    /// After a round: the next prize turned up, or the end.
    fn prize_up(&mut self) {
        match self.rules.prize() {
            Some(p) => {
                let text = format!("round {}: prize {}", self.rules.round(), rules::Prize(p, self.rules.carried()));
                self.all(text);
            }
            None => self.game_over(),
        }
    }

    fn game_over(&mut self) {
        let scores: Vec<String> = (0..self.rules.seats())
            .map(|s| {
                let out = if self.rules.is_playing(s) { "" } else { " (out)" };
                format!("{} {}{out}", seat_letter(s), self.rules.scores()[s])
            })
            .collect();
        let winners = self.rules.winners().unwrap_or_default();
        let verdict = match winners.as_slice() {
            [] => "nobody wins".to_string(),
            [w] => format!("{} wins", seat_letter(*w)),
            many => {
                let l: Vec<String> = many.iter().map(|&w| seat_letter(w).to_string()).collect();
                format!("{} share the win", l.join(", "))
            }
        };
        self.all(format!("game over: {}; {verdict}", scores.join(", ")));
    }

    /// Scores (prize points) and winners once the game is over.
    pub fn outcome(&self) -> Option<(Vec<i64>, Vec<u32>)> {
        let winners = self.rules.winners()?;
        Some((
            self.rules.scores().iter().map(|&s| i64::from(s)).collect(),
            winners.into_iter().map(|w| w as u32).collect(),
        ))
    }

    /// The game as text: the players, scores and finished rounds for everyone; for a seat also its own
    /// hand and secret bid.
    pub fn view(&self, seat: Option<u32>) -> String {
        let seat = seat.and_then(|s| usize::try_from(s).ok()).filter(|&s| s < self.names.len());
        let names: Vec<String> =
            self.names.iter().enumerate().map(|(s, n)| format!("{} {n}", seat_letter(s))).collect();
        format!("players: {}\n{}", names.join(", "), self.rules.render(seat))
    }

    /// The players' names, in seat order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A seat's hand (for tests and the glue).
    pub fn hand(&self, seat: usize) -> Hand {
        self.rules.hand(seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn names(n: usize) -> Vec<String> {
        ["ann", "bob", "cy", "di", "ed", "flo", "gus"][..n].iter().map(|s| s.to_string()).collect()
    }

    fn texts(events: &[Event], to: &To) -> Vec<String> {
        events.iter().filter(|e| &e.to == to).map(|e| e.text.clone()).collect()
    }

    #[test]
    fn start_checks_the_seats_and_options() {
        assert!(Table::start(names(1), 0, &[]).unwrap_err().contains("2 to 6"));
        assert!(Table::start(names(7), 0, &[]).is_err());
        assert!(Table::start(vec![], 0, &[]).is_err());
        let e = Table::start(names(2), 0, &[("rounds".into(), "5".into())]).unwrap_err();
        assert!(e.contains("no options"), "{e}");
    }

    #[test]
    fn start_deals_privately_and_turns_up_the_first_prize() {
        let mut g = Table::start(names(3), 1, &[]).unwrap();
        let ev = g.take_events();
        let prize = rules::deck(1)[0];
        assert_eq!(
            texts(&ev, &To::All),
            vec!["Goofspiel, 3 seats, 13 rounds: A ann, B bob, C cy".to_string(), format!("round 1: prize {prize}")]
        );
        for s in 0..3 {
            assert_eq!(
                texts(&ev, &To::Seat(s)),
                vec![format!(
                    "you are seat {s} ({}); your hand: 1 2 3 4 5 6 7 8 9 10 11 12 13",
                    seat_letter(s as usize)
                )]
            );
        }
        let asks = g.requests();
        assert_eq!(asks.iter().map(|(s, _)| *s).collect::<Vec<_>>(), vec![0, 1, 2]);
        for (s, a) in &asks {
            assert_eq!(a.you, *s);
            assert_eq!(a.seats, 3);
            assert_eq!(a.round, 1);
            assert_eq!(a.prize, prize);
            assert_eq!(a.hand, (1..=13).collect::<Vec<u8>>());
            assert!(a.history.is_empty() && a.carried.is_empty());
        }
        assert!(g.outcome().is_none());
    }

    #[test]
    fn bids_stay_secret_until_all_are_in() {
        let mut g = Table::start(names(3), 1, &[]).unwrap();
        let d = rules::deck(1);
        g.take_events();
        g.apply(1, 7).unwrap();
        let ev = g.take_events();
        assert_eq!(ev, vec![Event { to: To::Seat(1), text: "round 1: you bid 7".into() }]);
        // The others are still asked, and learn nothing of seat 1's bid.
        let asks = g.requests();
        assert_eq!(asks.iter().map(|(s, _)| *s).collect::<Vec<_>>(), vec![0, 2]);
        assert!(asks.iter().all(|(_, a)| a.history.is_empty() && a.hand.len() == 13));
        assert!(!g.view(None).contains("bid this round"));
        assert!(!g.view(Some(0)).contains("bid this round"));
        assert!(g.view(Some(1)).contains("your bid this round: 7"));
        // A second bid, a card not in hand, an unknown seat: refused, nothing changes.
        let before = g.rules.clone();
        assert!(g.apply(1, 6).unwrap_err().contains("was not asked"));
        assert!(g.apply(9, 6).unwrap_err().contains("no seat 9"));
        assert!(g.apply(u32::MAX, 6).is_err());
        let e = g.apply(0, 0).unwrap_err();
        assert!(e.contains("0 is not a card") && e.contains("1 2 3"), "{e}");
        assert_eq!(g.rules, before);
        assert!(g.take_events().is_empty());
        g.apply(0, 3).unwrap();
        g.apply(2, 7).unwrap();
        let ev = g.take_events();
        assert_eq!(texts(&ev, &To::Seat(0)), vec!["round 1: you bid 3".to_string()]);
        assert_eq!(texts(&ev, &To::Seat(2)), vec!["round 1: you bid 7".to_string()]);
        assert_eq!(
            texts(&ev, &To::All),
            vec![
                format!("round 1: A 3, B 7, C 7: tied at 7: {} carried over", d[0]),
                format!("round 2: prize {} (+{} carried)", d[1], d[0]),
            ]
        );
        let asks = g.requests();
        assert_eq!(asks.len(), 3);
        assert_eq!(asks[1].1.hand, vec![1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]);
        assert_eq!(asks[1].1.carried, vec![d[0]]);
        assert_eq!(asks[1].1.history.len(), 1);
        // Card 7 is spent.
        let e = g.apply(1, 7).unwrap_err();
        assert_eq!(e, "card 7 is not in the hand of seat 1 (B), which is: 1 2 3 4 5 6 8 9 10 11 12 13");
        g.apply(0, 13).unwrap();
        g.apply(1, 1).unwrap();
        g.apply(2, 2).unwrap();
        let all = texts(&g.take_events(), &To::All);
        assert_eq!(all[0], format!("round 2: A 13, B 1, C 2: seat 0 (A) takes {} (+{} carried)", d[1], d[0]));
        assert_eq!(g.rules.scores(), &[u32::from(d[0] + d[1]), 0, 0]);
    }

    #[test]
    fn a_whole_game() {
        let mut g = Table::start(names(2), 5, &[]).unwrap();
        // A always bids the prize's card, B the one under it (or 13 against a 1).
        while !g.requests().is_empty() {
            let prize = g.rules.prize().unwrap();
            g.apply(0, prize).unwrap();
            g.apply(1, if prize == 1 { 13 } else { prize - 1 }).unwrap();
        }
        let ev = g.take_events();
        let all = texts(&ev, &To::All);
        assert_eq!(all.last().unwrap(), "game over: A 90, B 1; A wins");
        assert_eq!(g.outcome(), Some((vec![90, 1], vec![0])));
        assert_eq!(texts(&ev, &To::Seat(0)).len(), 14);
        assert!(g.apply(0, 1).is_err());
        let v = g.view(None);
        assert!(v.starts_with("players: A ann, B bob\nGoofspiel, 2 seats: game over after 13 rounds: A wins"), "{v}");
        assert!(g.view(Some(1)).contains("your hand: no cards"));
    }

    #[test]
    fn a_tie_in_the_last_round_goes_to_nobody() {
        let mut g = Table::start(names(2), 5, &[]).unwrap();
        for c in 1..=13 {
            g.apply(0, c).unwrap();
            g.apply(1, c).unwrap();
        }
        let all = texts(&g.take_events(), &To::All);
        let last = rules::deck(5)[12];
        assert!(all[all.len() - 2].starts_with(&format!("round 13: A 13, B 13: tied at 13: {last} (+")), "{all:?}");
        assert!(all[all.len() - 2].ends_with("carried) goes to nobody"));
        assert_eq!(all.last().unwrap(), "game over: A 0, B 0; A, B share the win");
        assert_eq!(g.outcome(), Some((vec![0, 0], vec![0, 1])));
    }

    #[test]
    fn a_ban_can_complete_the_round() {
        let mut g = Table::start(names(3), 2, &[]).unwrap();
        let d = rules::deck(2);
        g.take_events();
        g.apply(0, 9).unwrap();
        g.apply(1, 4).unwrap();
        g.banned(2, "crash in bid: boom");
        let all = texts(&g.take_events(), &To::All);
        assert_eq!(
            all,
            vec![
                "seat 2 (C) is out: crash in bid: boom".to_string(),
                format!("round 1: A 9, B 4, C out: seat 0 (A) takes {}", d[0]),
                format!("round 2: prize {}", d[1]),
            ]
        );
        assert_eq!(g.requests().iter().map(|(s, _)| *s).collect::<Vec<_>>(), vec![0, 1]);
        assert!(g.hand(2).is_empty());
        // Banned again: nothing.
        g.banned(2, "again");
        assert!(g.take_events().is_empty());
        assert!(g.apply(2, 1).unwrap_err().contains("out of the game"));
    }

    #[test]
    fn a_banned_seats_pending_bid_is_dropped() {
        let mut g = Table::start(names(3), 2, &[]).unwrap();
        g.apply(1, 13).unwrap();
        g.banned(1, "illegal in bid: nope");
        g.take_events();
        g.apply(0, 2).unwrap();
        g.apply(2, 1).unwrap();
        let all = texts(&g.take_events(), &To::All);
        assert!(all[0].starts_with("round 1: A 2, B out, C 1: seat 0 (A) takes"), "{all:?}");
    }

    #[test]
    fn with_one_seat_left_the_game_ends() {
        let mut g = Table::start(names(2), 2, &[]).unwrap();
        g.apply(0, 1).unwrap();
        g.apply(1, 13).unwrap();
        g.apply(1, 12).unwrap();
        g.take_events();
        g.banned(1, "timeout in bid: too slow");
        let all = texts(&g.take_events(), &To::All);
        let d = rules::deck(2);
        assert_eq!(
            all,
            vec![
                "seat 1 (B) is out: timeout in bid: too slow".to_string(),
                "only seat 0 (A) is left: the game ends".to_string(),
                format!("game over: A 0, B {} (out); A wins", d[0]),
            ]
        );
        assert!(g.requests().is_empty());
        assert_eq!(g.outcome(), Some((vec![0, i64::from(d[0])], vec![0])));
        // Calls after the end change nothing and do not panic.
        g.banned(0, "late");
        assert!(g.apply(0, 5).is_err());
        assert!(g.take_events().is_empty());
        assert_eq!(g.outcome(), Some((vec![0, i64::from(d[0])], vec![0])));
    }

    #[test]
    fn views() {
        let mut g = Table::start(names(2), 3, &[]).unwrap();
        g.apply(0, 4).unwrap();
        let public = g.view(None);
        assert!(!public.contains("hand"), "{public}");
        assert!(g.view(Some(0)).contains("you are A; your hand: 1 2 3 5 6"), "{}", g.view(Some(0)));
        assert_eq!(g.view(Some(5)), public);
        assert_eq!(g.view(Some(u32::MAX)), public);
    }

    #[derive(Debug, Clone)]
    enum Call {
        Apply(u32, u8),
        /// A bid from the hand of a seat asked now (the pick chooses the seat and the card).
        Legal(u8),
        Banned(u32),
        Requests,
        Outcome,
        View(Option<u32>),
    }

    fn call() -> impl Strategy<Value = Call> {
        prop_oneof![
            2 => (0u32..8, 0u8..16).prop_map(|(s, c)| Call::Apply(s, c)),
            1 => (any::<u32>(), any::<u8>()).prop_map(|(s, c)| Call::Apply(s, c)),
            16 => any::<u8>().prop_map(Call::Legal),
            1 => (0u32..8).prop_map(Call::Banned),
            1 => Just(Call::Requests),
            1 => Just(Call::Outcome),
            1 => proptest::option::of(0u32..8).prop_map(Call::View),
        ]
    }

    proptest! {
        #[test]
        fn any_calls_keep_the_protocol(
            n in 2usize..=6, seed in any::<u64>(), calls in proptest::collection::vec(call(), 0..300)
        ) {
            let mut g = Table::start(names(n), seed, &[]).unwrap();
            let mut banned = vec![false; n];
            for c in calls {
                let before = g.rules.clone();
                match c {
                    Call::Apply(s, card) => {
                        if g.apply(s, card).is_err() {
                            prop_assert_eq!(&g.rules, &before);
                        }
                    }
                    Call::Legal(pick) => {
                        let asks = g.requests();
                        if let Some((s, a)) = asks.get(usize::from(pick) % asks.len().max(1)) {
                            let card = a.hand[usize::from(pick) % a.hand.len()];
                            prop_assert!(g.apply(*s, card).is_ok());
                        }
                    }
                    Call::Banned(s) => {
                        // Once the game is over a ban changes nothing (the host asks nobody then).
                        let over = g.outcome().is_some();
                        g.banned(s, "fault");
                        if let Some(b) = banned.get_mut(s as usize).filter(|_| !over) {
                            *b = true;
                        }
                        if over {
                            prop_assert_eq!(&g.rules, &before);
                        }
                    }
                    Call::Requests => {}
                    Call::Outcome => {}
                    Call::View(s) => {
                        let _ = g.view(s);
                    }
                }
                // Requests never name a banned seat, nor a seat twice, and only own hands.
                let asks = g.requests();
                for (i, (s, a)) in asks.iter().enumerate() {
                    prop_assert!(!banned[*s as usize]);
                    prop_assert!(asks[..i].iter().all(|(t, _)| t != s));
                    prop_assert_eq!(&a.hand, &g.hand(*s as usize).cards());
                }
                prop_assert_eq!(asks.is_empty(), g.outcome().is_some());
                if let Some((scores, winners)) = g.outcome() {
                    prop_assert_eq!(scores.len(), n);
                    prop_assert!(winners.iter().all(|&w| !banned[w as usize]));
                }
                // No seat's pending bid reaches anyone else.
                for e in g.take_events() {
                    if e.text.contains("you bid") {
                        prop_assert!(matches!(e.to, To::Seat(_)));
                    }
                }
            }
        }
    }
}

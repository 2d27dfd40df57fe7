//! Pure rules of Goofspiel for Arena: the seeded prize deck, simultaneous secret bids, carried prizes,
//! seats out, scores and winners. No I/O, no wasm, no clock: chance comes only from the seed a caller
//! gives ([`deck`]).
//!
//! # The game
//!
//! 2 to 6 seats (numbered from 0, shown as the letters A to F) each hold the cards 1 to 13 (a
//! [`Hand`]). The 13 prize cards, also 1 to 13, are shuffled from the game's seed ([`deck`]) and turned
//! up one a round, for 13 rounds.
//!
//! 1. **Bidding**: each round every seat still in bids one card of its hand, all at the same time and
//!    in secret ([`State::bid`]); a bid card is spent (it leaves the hand at once). A bid of a card that
//!    is not in the bidder's hand, or is not a card at all (outside 1..=13), is refused with an
//!    [`Illegal`] naming the card and the hand, and changes nothing.
//! 2. **Resolution**: once every seat still in has bid, the bids are revealed together ([`Round`]).
//!    The highest bid, if one seat alone made it, takes the prize and every prize carried over to this
//!    round: their values go to that seat's score. If two or more seats share the highest bid, nobody
//!    takes anything and the prize joins the carried ones, to go with the next round's prize. A tie in
//!    the last round (13) leaves the prize and the carried ones to nobody: they are discarded.
//! 3. **The end**: after round 13 the winners are the seats still in with the highest score (ties
//!    share the win).
//!
//! # Seats out
//!
//! A seat that faults is removed ([`State::remove`]): its hand is discarded, its secret bid of the
//! current round (if any) is dropped, it never bids again, and it keeps the score it has but never
//! wins. If the seats still in then have all bid, the round is resolved at once. The game goes on while
//! two or more seats are in; with fewer it ends at once, the current round unresolved: its prize, the
//! carried prizes and the prizes never turned up are nobody's ([`State::unclaimed`]). The winner is then
//! the one seat left, if any, whatever its score.
//!
//! Refused calls leave the game untouched; every refusal is an [`Illegal`] whose `Display` is a
//! sentence for a human.

use std::fmt;

/// The highest card, and how many cards a hand (and the prize deck) starts with.
pub const CARDS: u8 = 13;
/// Rounds in a game: one per prize card.
pub const ROUNDS: usize = CARDS as usize;
/// Fewest seats of a game.
pub const MIN_SEATS: usize = 2;
/// Most seats of a game.
pub const MAX_SEATS: usize = 6;
/// The value of all the prizes together: 1 + 2 + … + 13.
pub const PRIZE_TOTAL: u32 = 91;

/// The letter of a seat in renderings and messages: 0 → 'A', 1 → 'B', … ('?' past 'Z').
pub fn seat_letter(seat: usize) -> char {
    u8::try_from(seat).ok().filter(|&s| s < 26).map_or('?', |s| char::from(b'A' + s))
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit generator whose every output is a fixed
/// function of the seed, so the same seed gives the same numbers on any machine.
///
/// Each step adds 0x9E3779B97F4A7C15 to the state (wrapping) and mixes it:
/// `z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z ^ (z >> 31)`
/// (multiplications wrapping).
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The prize deck of a game with `seed`, in the order the prizes are turned up: the cards 1 to 13,
/// shuffled by Fisher–Yates driven by [`SplitMix64`] seeded with `seed`.
///
/// The algorithm, fixed for good (a game replays from its seed): start from `[1, 2, …, 13]`; for `i`
/// from 12 down to 1, draw the generator's next number `r` and swap the cards at indices `i` and
/// `r % (i + 1)`. (The modulo's bias is below 2⁻⁶⁰.)
pub fn deck(seed: u64) -> [u8; ROUNDS] {
    let mut cards: [u8; ROUNDS] = std::array::from_fn(|i| i as u8 + 1);
    let mut rng = SplitMix64(seed);
    for i in (1..ROUNDS).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        cards.swap(i, j);
    }
    cards
}

/// A set of cards from 1 to 13 (bit `c` stands for card `c`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand(u16);

impl Hand {
    /// Every card, 1 to 13: the hand each seat starts with.
    pub const FULL: Hand = Hand(((1 << (CARDS + 1)) - 1) & !1);
    /// No card.
    pub const EMPTY: Hand = Hand(0);

    /// Whether `card` is a card (1..=13) of this hand.
    pub fn contains(self, card: u8) -> bool {
        (1..=CARDS).contains(&card) && self.0 & (1 << card) != 0
    }

    /// The hand without `card`.
    pub fn without(self, card: u8) -> Hand {
        if (1..=CARDS).contains(&card) { Hand(self.0 & !(1 << card)) } else { self }
    }

    /// The cards, ascending.
    pub fn cards(self) -> Vec<u8> {
        self.iter().collect()
    }

    /// The cards, ascending, one by one.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (1..=CARDS).filter(move |&c| self.contains(c))
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Hand {
    /// The cards ascending, separated by spaces (`1 2 5 13`), or `no cards`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("no cards");
        }
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// One finished round, as everyone learns it once the bids are revealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// The round's number, from 1.
    pub number: usize,
    /// The prize turned up this round.
    pub prize: u8,
    /// The prizes carried over to this round, oldest first.
    pub carried: Vec<u8>,
    /// Each seat's bid, in seat order; `None` for a seat that was out when the round was resolved.
    pub bids: Vec<Option<u8>>,
    /// The seat that took the prizes; `None` if the highest bid was tied.
    pub winner: Option<usize>,
}

impl Round {
    /// What the round was worth: its prize plus the carried ones.
    pub fn value(&self) -> u32 {
        u32::from(self.prize) + self.carried.iter().map(|&c| u32::from(c)).sum::<u32>()
    }

    /// The highest bid.
    pub fn high(&self) -> Option<u8> {
        self.bids.iter().flatten().copied().max()
    }

    /// Whether this was the last round and its prizes were discarded (a tie).
    pub fn discarded(&self) -> bool {
        self.number == ROUNDS && self.winner.is_none()
    }

    /// The prize with what was carried to it: `9` or `9 (+3 +5 carried)`.
    pub fn prize_text(&self) -> Prize<'_> {
        Prize(self.prize, &self.carried)
    }
}

impl fmt::Display for Round {
    /// `round 3: prize 9 (+3 carried): A 5, B 7, C out: B takes 12` (or `tied at 7: carried over`, or
    /// in the last round `tied at 7: discarded`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}: prize {}: {}: ", self.number, self.prize_text(), Bids(&self.bids))?;
        match self.winner {
            Some(w) => write!(f, "{} takes {}", seat_letter(w), self.value()),
            None if self.number == ROUNDS => write!(f, "tied at {}: discarded", self.high().unwrap_or(0)),
            None => write!(f, "tied at {}: carried over", self.high().unwrap_or(0)),
        }
    }
}

/// A prize with the carried ones, `9` or `9 (+3 +5 carried)`, written straight where it is shown (a
/// referee formats it every round: no string of its own, no list of parts).
pub struct Prize<'a>(pub u8, pub &'a [u8]);

impl fmt::Display for Prize<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        if let Some((first, rest)) = self.1.split_first() {
            write!(f, " (+{first}")?;
            for c in rest {
                write!(f, " +{c}")?;
            }
            f.write_str(" carried)")?;
        }
        Ok(())
    }
}

/// Bids in seat order, `A 5, B 7, C out`, written straight where they are shown.
pub struct Bids<'a>(pub &'a [Option<u8>]);

impl fmt::Display for Bids<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (s, b) in self.0.iter().enumerate() {
            if s > 0 {
                f.write_str(", ")?;
            }
            match b {
                Some(b) => write!(f, "{} {b}", seat_letter(s))?,
                None => write!(f, "{} out", seat_letter(s))?,
            }
        }
        Ok(())
    }
}

/// Why a call was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// A game of this many seats cannot be played.
    SeatCount(usize),
    /// The game is over: nobody bids any more.
    Over,
    /// There is no such seat.
    NoSeat { seat: usize, seats: usize },
    /// The seat is out of the game.
    Out { seat: usize },
    /// The seat has bid already this round.
    AlreadyBid { seat: usize, round: usize },
    /// The bid is not a card at all (outside 1..=13).
    NotACard { seat: usize, card: u8, hand: Hand },
    /// The bid is a card the seat does not hold (any more).
    NotInHand { seat: usize, card: u8, hand: Hand },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::SeatCount(n) => write!(f, "Goofspiel seats {MIN_SEATS} to {MAX_SEATS} players, not {n}"),
            Illegal::Over => f.write_str("the game is over"),
            Illegal::NoSeat { seat, seats } => write!(f, "there is no seat {seat} (the game has {seats} seats)"),
            Illegal::Out { seat } => write!(f, "seat {seat} ({}) is out of the game", seat_letter(seat)),
            Illegal::AlreadyBid { seat, round } => {
                write!(f, "seat {seat} ({}) has already bid in round {round}", seat_letter(seat))
            }
            Illegal::NotACard { seat, card, hand } => write!(
                f,
                "{card} is not a card (cards are 1 to {CARDS}); the hand of seat {seat} ({}) is: {hand}",
                seat_letter(seat)
            ),
            Illegal::NotInHand { seat, card, hand } => {
                write!(f, "card {card} is not in the hand of seat {seat} ({}), which is: {hand}", seat_letter(seat))
            }
        }
    }
}

impl std::error::Error for Illegal {}

/// A game of Goofspiel (see the crate documentation for the rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    deck: [u8; ROUNDS],
    hands: Vec<Hand>,
    playing: Vec<bool>,
    scores: Vec<u32>,
    /// Prizes carried over to the current round, oldest first.
    carried: Vec<u8>,
    /// The current round's secret bids, as they come in.
    bids: Vec<Option<u8>>,
    history: Vec<Round>,
}

impl State {
    /// A game of `seats` seats, its prize deck shuffled from `seed`, the first prize turned up.
    pub fn new(seats: usize, seed: u64) -> Result<State, Illegal> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(Illegal::SeatCount(seats));
        }
        Ok(State {
            deck: deck(seed),
            hands: vec![Hand::FULL; seats],
            playing: vec![true; seats],
            scores: vec![0; seats],
            carried: Vec::new(),
            bids: vec![None; seats],
            history: Vec::new(),
        })
    }

    pub fn seats(&self) -> usize {
        self.hands.len()
    }

    /// The prize deck, in the order the prizes are turned up.
    pub fn deck(&self) -> &[u8; ROUNDS] {
        &self.deck
    }

    /// Rounds finished so far.
    pub fn history(&self) -> &[Round] {
        &self.history
    }

    /// The current round's number, from 1 (past the last round once it is finished).
    pub fn round(&self) -> usize {
        self.history.len() + 1
    }

    /// Whether the game is over: 13 rounds played, or fewer than two seats in.
    pub fn is_over(&self) -> bool {
        self.history.len() >= ROUNDS || self.in_count() < MIN_SEATS
    }

    /// The prize up for bidding now; `None` once the game is over.
    pub fn prize(&self) -> Option<u8> {
        if self.is_over() { None } else { self.deck.get(self.history.len()).copied() }
    }

    /// The prizes carried over to the current round, oldest first.
    pub fn carried(&self) -> &[u8] {
        &self.carried
    }

    /// A seat's hand: the cards it has not bid yet (empty for a seat that is out or does not exist).
    pub fn hand(&self, seat: usize) -> Hand {
        self.hands.get(seat).copied().unwrap_or_default()
    }

    /// Prize points each seat has taken, in seat order.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Whether each seat is still in the game, in seat order.
    pub fn playing(&self) -> &[bool] {
        &self.playing
    }

    pub fn is_playing(&self, seat: usize) -> bool {
        self.playing.get(seat).copied().unwrap_or(false)
    }

    fn in_count(&self) -> usize {
        self.playing.iter().filter(|&&p| p).count()
    }

    /// A seat's secret bid of the current round, if it has bid (only that seat may be told).
    pub fn bid_of(&self, seat: usize) -> Option<u8> {
        self.bids.get(seat).copied().flatten()
    }

    /// The seats still to bid this round, ascending (none once the game is over).
    pub fn waiting(&self) -> Vec<usize> {
        (0..self.seats()).filter(|&s| self.waits_for(s)).collect()
    }

    /// Whether seat `seat` still has to bid this round.
    pub fn waits_for(&self, seat: usize) -> bool {
        !self.is_over() && seat < self.seats() && self.playing[seat] && self.bids[seat].is_none()
    }

    /// Whether seat `seat` may bid `card` now; the reason if not.
    pub fn check_bid(&self, seat: usize, card: u8) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::Over);
        }
        if seat >= self.seats() {
            return Err(Illegal::NoSeat { seat, seats: self.seats() });
        }
        if !self.playing[seat] {
            return Err(Illegal::Out { seat });
        }
        if self.bids[seat].is_some() {
            return Err(Illegal::AlreadyBid { seat, round: self.round() });
        }
        let hand = self.hands[seat];
        if !(1..=CARDS).contains(&card) {
            return Err(Illegal::NotACard { seat, card, hand });
        }
        if !hand.contains(card) {
            return Err(Illegal::NotInHand { seat, card, hand });
        }
        Ok(())
    }

    /// Seat `seat` bids `card`, in secret: the card leaves its hand. If that was the last bid the round
    /// waited for, the round is resolved and returned (the next prize is then up, or the game over).
    /// A refused bid changes nothing.
    pub fn bid(&mut self, seat: usize, card: u8) -> Result<Option<Round>, Illegal> {
        self.check_bid(seat, card)?;
        self.hands[seat] = self.hands[seat].without(card);
        self.bids[seat] = Some(card);
        Ok(self.resolve_if_complete())
    }

    /// Seat `seat` is out (it faulted): its hand is discarded and its bid of this round, if any,
    /// dropped. If the seats still in have then all bid (and there are two or more), the round is
    /// resolved and returned. Nothing happens for a seat already out, a seat that does not exist, or
    /// once the game is over.
    pub fn remove(&mut self, seat: usize) -> Option<Round> {
        if self.is_over() || !self.is_playing(seat) {
            return None;
        }
        self.playing[seat] = false;
        self.hands[seat] = Hand::EMPTY;
        self.bids[seat] = None;
        self.resolve_if_complete()
    }

    /// Resolves the round once every seat still in has bid (the game being still on).
    fn resolve_if_complete(&mut self) -> Option<Round> {
        if self.is_over() || (0..self.seats()).any(|s| self.playing[s] && self.bids[s].is_none()) {
            return None;
        }
        let number = self.round();
        let prize = self.deck[number - 1];
        let bids: Vec<Option<u8>> = (0..self.seats()).map(|s| self.bids[s].filter(|_| self.playing[s])).collect();
        let high = bids.iter().flatten().copied().max();
        let mut top = (0..self.seats()).filter(|&s| bids[s].is_some() && bids[s] == high);
        let winner = match (top.next(), top.next()) {
            (Some(w), None) => Some(w),
            _ => None,
        };
        let round = Round { number, prize, carried: std::mem::take(&mut self.carried), bids, winner };
        match winner {
            Some(w) => self.scores[w] += round.value(),
            None if number < ROUNDS => {
                self.carried = round.carried.clone();
                self.carried.push(prize);
            }
            None => {}
        }
        self.bids = vec![None; self.seats()];
        self.history.push(round.clone());
        Some(round)
    }

    /// The winners once the game is over (`None` before): the seats still in with the highest score,
    /// several on a tie, none if no seat is in.
    pub fn winners(&self) -> Option<Vec<usize>> {
        if !self.is_over() {
            return None;
        }
        let best = (0..self.seats()).filter(|&s| self.playing[s]).map(|s| self.scores[s]).max();
        Some((0..self.seats()).filter(|&s| self.playing[s] && Some(self.scores[s]) == best).collect())
    }

    /// The prizes nobody took (so far): those of a tied last round, and once a game has ended early,
    /// the carried prizes, the current one and those never turned up. With the scores they make up
    /// [`PRIZE_TOTAL`] once the game is over.
    pub fn unclaimed(&self) -> Vec<u8> {
        let mut lost: Vec<u8> = Vec::new();
        for r in self.history.iter().filter(|r| r.discarded()) {
            lost.extend(&r.carried);
            lost.push(r.prize);
        }
        if self.is_over() && self.history.len() < ROUNDS {
            lost.extend(&self.carried);
            lost.extend(&self.deck[self.history.len()..]);
        }
        lost
    }

    /// The game as text: the status, the scores, every finished round's prize, bids and taker; for a
    /// seat (`Some(seat)`) also its own hand and secret bid of this round. No other seat's hand or
    /// pending bid is ever shown.
    pub fn render(&self, viewer: Option<usize>) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let n = self.seats();
        if let Some(prize) = self.prize() {
            let _ = writeln!(
                out,
                "Goofspiel, {n} seats: round {} of {ROUNDS}, prize {}",
                self.round(),
                Prize(prize, &self.carried)
            );
        } else {
            let played = self.history.len();
            let rounds = if played == 1 { "round" } else { "rounds" };
            let _ = write!(out, "Goofspiel, {n} seats: game over after {played} {rounds}: ");
            let winners = self.winners().unwrap_or_default();
            let _ = match winners.as_slice() {
                [] => writeln!(out, "nobody wins"),
                [w] => writeln!(out, "{} wins", seat_letter(*w)),
                many => {
                    let l: Vec<String> = many.iter().map(|&w| seat_letter(w).to_string()).collect();
                    writeln!(out, "{} share the win", l.join(", "))
                }
            };
        }
        let scores: Vec<String> = (0..n)
            .map(|s| format!("{} {}{}", seat_letter(s), self.scores[s], if self.playing[s] { "" } else { " (out)" }))
            .collect();
        let _ = writeln!(out, "scores: {}", scores.join(", "));
        let unclaimed = self.unclaimed();
        if !unclaimed.is_empty() {
            let l: Vec<String> = unclaimed.iter().map(u8::to_string).collect();
            let _ = writeln!(out, "taken by nobody: {}", l.join(" "));
        }
        for r in &self.history {
            let _ = writeln!(out, "{r}");
        }
        if let Some(s) = viewer.filter(|&s| s < n) {
            let _ = write!(out, "you are {}; your hand: {}", seat_letter(s), self.hands[s]);
            if let Some(b) = self.bid_of(s) {
                let _ = write!(out, "; your bid this round: {b}");
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hand(cards: &[u8]) -> Hand {
        cards.iter().fold(Hand::EMPTY, |h, &c| Hand(h.0 | 1 << c))
    }

    #[test]
    fn splitmix_matches_the_reference() {
        // The reference implementation's first outputs for seed 0 (Vigna's splitmix64.c).
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn the_deck_is_fixed_by_the_seed() {
        assert_eq!(deck(1), deck(1));
        assert_ne!(deck(1), deck(2));
        // Pinned: changing the algorithm would change every recorded game.
        assert_eq!(deck(0), PINNED_DECK_0);
        assert_eq!(deck(1), PINNED_DECK_1);
    }

    // Computed independently (a Python transcription of the documented algorithm).
    const PINNED_DECK_0: [u8; ROUNDS] = [4, 12, 7, 6, 9, 8, 11, 3, 13, 5, 2, 1, 10];
    const PINNED_DECK_1: [u8; ROUNDS] = [2, 10, 5, 3, 13, 9, 12, 11, 4, 6, 1, 8, 7];

    #[test]
    fn hands() {
        assert_eq!(Hand::FULL.cards(), (1..=13).collect::<Vec<u8>>());
        assert_eq!(Hand::FULL.len(), 13);
        assert!(!Hand::FULL.contains(0) && !Hand::FULL.contains(14) && !Hand::FULL.contains(255));
        assert_eq!(Hand::FULL.without(0), Hand::FULL);
        assert_eq!(Hand::FULL.without(200), Hand::FULL);
        assert_eq!(hand(&[1, 5, 13]).to_string(), "1 5 13");
        assert_eq!(Hand::EMPTY.to_string(), "no cards");
    }

    #[test]
    fn seat_counts() {
        assert_eq!(State::new(1, 0), Err(Illegal::SeatCount(1)));
        assert_eq!(State::new(7, 0), Err(Illegal::SeatCount(7)));
        assert!(State::new(2, 0).is_ok() && State::new(6, 0).is_ok());
    }

    #[test]
    fn a_single_highest_bid_takes_the_prize() {
        let mut g = State::new(3, 5).unwrap();
        let prize = g.prize().unwrap();
        assert_eq!(g.bid(0, 5), Ok(None));
        assert_eq!(g.bid(2, 7), Ok(None));
        assert_eq!(g.waiting(), vec![1]);
        let r = g.bid(1, 6).unwrap().unwrap();
        assert_eq!(r.winner, Some(2));
        assert_eq!(r.bids, vec![Some(5), Some(6), Some(7)]);
        assert_eq!(g.scores(), &[0, 0, u32::from(prize)]);
        assert_eq!(g.round(), 2);
        assert!(!g.hand(2).contains(7) && g.hand(2).len() == 12);
        assert_eq!(g.waiting(), vec![0, 1, 2]);
    }

    #[test]
    fn a_tied_highest_bid_carries_the_prize_over() {
        let mut g = State::new(3, 9).unwrap();
        let d = *g.deck();
        g.bid(0, 7).unwrap();
        g.bid(1, 7).unwrap();
        // A lower single bid does not take a tied round.
        let r = g.bid(2, 3).unwrap().unwrap();
        assert_eq!(r.winner, None);
        assert_eq!(g.carried(), &[d[0]]);
        assert_eq!(r.to_string(), format!("round 1: prize {}: A 7, B 7, C 3: tied at 7: carried over", d[0]));
        // Tied again: both prizes carried.
        g.bid(0, 1).unwrap();
        g.bid(1, 1).unwrap();
        g.bid(2, 1).unwrap();
        assert_eq!(g.carried(), &[d[0], d[1]]);
        let r = g.bid(1, 13).and_then(|_| g.bid(0, 2)).and_then(|_| g.bid(2, 2)).unwrap().unwrap();
        assert_eq!(r.winner, Some(1));
        assert_eq!(r.carried, vec![d[0], d[1]]);
        assert_eq!(g.scores()[1], u32::from(d[0] + d[1] + d[2]));
        assert!(g.carried().is_empty());
        assert_eq!(
            r.to_string(),
            format!("round 3: prize {} (+{} +{} carried): A 2, B 13, C 2: B takes {}", d[2], d[0], d[1], r.value())
        );
    }

    #[test]
    fn a_tie_in_the_last_round_goes_to_nobody() {
        let mut g = State::new(2, 3).unwrap();
        for card in 1..=12 {
            g.bid(0, card).unwrap();
            g.bid(1, card).unwrap();
        }
        assert_eq!(g.carried().len(), 12);
        g.bid(0, 13).unwrap();
        let r = g.bid(1, 13).unwrap().unwrap();
        assert!(r.discarded());
        assert!(g.is_over());
        assert_eq!(g.scores(), &[0, 0]);
        assert!(g.carried().is_empty());
        let mut lost = g.unclaimed();
        lost.sort_unstable();
        assert_eq!(lost, (1..=13).collect::<Vec<u8>>());
        assert_eq!(g.winners(), Some(vec![0, 1]));
        assert_eq!(g.bid(0, 1), Err(Illegal::Over));
        assert!(g.render(None).contains("A, B share the win"));
    }

    #[test]
    fn refusals_name_the_card_and_the_hand() {
        let mut g = State::new(2, 0).unwrap();
        g.bid(0, 13).unwrap();
        g.bid(1, 1).unwrap();
        let before = g.clone();
        let e = g.bid(0, 13).unwrap_err();
        assert_eq!(e.to_string(), "card 13 is not in the hand of seat 0 (A), which is: 1 2 3 4 5 6 7 8 9 10 11 12");
        let e = g.bid(1, 14).unwrap_err();
        assert_eq!(
            e.to_string(),
            "14 is not a card (cards are 1 to 13); the hand of seat 1 (B) is: 2 3 4 5 6 7 8 9 10 11 12 13"
        );
        assert!(matches!(g.bid(1, 0), Err(Illegal::NotACard { card: 0, .. })));
        assert_eq!(g.bid(2, 3), Err(Illegal::NoSeat { seat: 2, seats: 2 }));
        g.bid(0, 3).unwrap();
        let before2 = g.clone();
        assert_eq!(g.bid(0, 4), Err(Illegal::AlreadyBid { seat: 0, round: 2 }));
        assert_eq!(g, before2);
        assert_ne!(g, before);
    }

    #[test]
    fn a_seat_out_is_skipped_and_can_complete_a_round() {
        let mut g = State::new(3, 4).unwrap();
        let prize = g.prize().unwrap();
        g.bid(0, 4).unwrap();
        g.bid(1, 9).unwrap();
        // Seat 1 is out with its bid pending: dropped; seat 2 is still to bid.
        assert_eq!(g.remove(1), None);
        assert_eq!(g.bid_of(1), None);
        assert!(g.hand(1).is_empty());
        assert_eq!(g.bid(1, 3), Err(Illegal::Out { seat: 1 }));
        let r = g.bid(2, 2).unwrap().unwrap();
        assert_eq!(r.bids, vec![Some(4), None, Some(2)]);
        assert_eq!(r.winner, Some(0));
        assert_eq!(g.scores(), &[u32::from(prize), 0, 0]);
        assert_eq!(g.waiting(), vec![0, 2]);
        // Removing an out seat or a seat that does not exist does nothing.
        let same = g.clone();
        assert_eq!(g.remove(1), None);
        assert_eq!(g.remove(9), None);
        assert_eq!(g, same);
    }

    #[test]
    fn removing_the_last_seat_to_bid_resolves_the_round() {
        let mut g = State::new(3, 4).unwrap();
        g.bid(0, 4).unwrap();
        g.bid(1, 4).unwrap();
        let r = g.remove(2).unwrap();
        assert_eq!(r.bids, vec![Some(4), Some(4), None]);
        assert_eq!(r.winner, None);
        assert_eq!(g.round(), 2);
    }

    #[test]
    fn with_one_seat_left_the_game_ends_at_once() {
        let mut g = State::new(2, 8).unwrap();
        g.bid(0, 1).unwrap();
        g.bid(1, 2).unwrap();
        g.bid(1, 13).unwrap();
        assert_eq!(g.remove(0), None);
        assert!(g.is_over());
        assert_eq!(g.prize(), None);
        assert!(g.waiting().is_empty());
        assert_eq!(g.winners(), Some(vec![1]));
        assert_eq!(g.history().len(), 1);
        assert_eq!(g.remove(1), None, "nothing happens once the game is over");
        let total: u32 = g.scores().iter().sum::<u32>() + g.unclaimed().iter().map(|&c| u32::from(c)).sum::<u32>();
        assert_eq!(total, PRIZE_TOTAL);
    }

    #[test]
    fn the_last_seat_in_wins() {
        let mut g = State::new(2, 8).unwrap();
        g.remove(0);
        // The game ended with the first removal; the second changes nothing.
        assert!(g.is_over());
        assert_eq!(g.winners(), Some(vec![1]));
        let mut g = State::new(3, 8).unwrap();
        g.remove(0);
        g.remove(1);
        assert_eq!(g.winners(), Some(vec![2]));
    }

    #[test]
    fn rendering_hides_other_hands_and_pending_bids() {
        let mut g = State::new(2, 1).unwrap();
        g.bid(0, 6).unwrap();
        g.bid(1, 5).unwrap();
        g.bid(1, 11).unwrap();
        let public = g.render(None);
        assert!(public.contains("round 2 of 13"), "{public}");
        assert!(public.contains("round 1: prize"), "{public}");
        assert!(public.contains("A 6, B 5: A takes"), "{public}");
        assert!(!public.contains("bid this round"), "{public}");
        assert!(!public.contains("hand"), "{public}");
        let mine = g.render(Some(1));
        assert!(mine.contains("you are B; your hand: 1 2 3 4 6 7 8 9 10 12 13; your bid this round: 11"), "{mine}");
        let theirs = g.render(Some(0));
        assert!(!theirs.contains("your bid this round"), "{theirs}");
        assert_eq!(g.render(Some(7)), public);
    }

    /// Plays a game from `seed` with `seats` seats: each pick chooses a card of the bidder's hand, or
    /// (when it says so) removes the seat instead. Returns the game and every bid each seat made.
    fn play(seats: usize, seed: u64, picks: &[(u8, bool)]) -> (State, Vec<Vec<u8>>) {
        let mut g = State::new(seats, seed).unwrap();
        let mut made = vec![Vec::new(); seats];
        let mut picks = picks.iter().cycle();
        while !g.is_over() {
            let waiting = g.waiting();
            let &(pick, out) = picks.next().unwrap();
            let seat = waiting[usize::from(pick) % waiting.len()];
            if out {
                g.remove(seat);
                made[seat].clear();
                continue;
            }
            let cards = g.hand(seat).cards();
            let card = cards[usize::from(pick) % cards.len()];
            g.bid(seat, card).unwrap();
            made[seat].push(card);
        }
        (g, made)
    }

    fn picks() -> impl Strategy<Value = Vec<(u8, bool)>> {
        proptest::collection::vec((any::<u8>(), prop::bool::weighted(0.02)), 1..200)
    }

    proptest! {
        #[test]
        fn the_deck_is_a_permutation(seed in any::<u64>()) {
            let mut d = deck(seed).to_vec();
            d.sort_unstable();
            prop_assert_eq!(d, (1..=CARDS).collect::<Vec<u8>>());
        }

        #[test]
        fn every_prize_is_taken_or_lost(seats in MIN_SEATS..=MAX_SEATS, seed in any::<u64>(), picks in picks()) {
            let (g, _) = play(seats, seed, &picks);
            // Scores from the history alone.
            let mut scores = vec![0u32; seats];
            for r in g.history() {
                if let Some(w) = r.winner {
                    scores[w] += r.value();
                }
            }
            prop_assert_eq!(g.scores(), scores.as_slice());
            let discarded: u32 = g.history().iter().filter(|r| r.discarded()).map(Round::value).sum();
            let ended_early = g.history().len() < ROUNDS;
            let lost: u32 = if ended_early {
                g.carried().iter().chain(&g.deck()[g.history().len()..]).map(|&c| u32::from(c)).sum()
            } else {
                0
            };
            prop_assert!(ended_early || g.carried().is_empty());
            prop_assert_eq!(scores.iter().sum::<u32>() + discarded, PRIZE_TOTAL - lost);
            let unclaimed: u32 = g.unclaimed().iter().map(|&c| u32::from(c)).sum();
            prop_assert_eq!(unclaimed, discarded + lost);
            // The prizes of the rounds are the deck, in order.
            for (i, r) in g.history().iter().enumerate() {
                prop_assert_eq!(r.prize, g.deck()[i]);
                prop_assert_eq!(r.number, i + 1);
            }
        }

        #[test]
        fn bids_spend_the_hand(seats in MIN_SEATS..=MAX_SEATS, seed in any::<u64>(), picks in picks()) {
            let (g, made) = play(seats, seed, &picks);
            for (s, made) in made.iter().enumerate() {
                let revealed: Vec<u8> = g.history().iter().filter_map(|r| r.bids[s]).collect();
                if g.is_playing(s) && g.history().len() == ROUNDS {
                    // A seat that played every round bid each card once.
                    let mut all = revealed.clone();
                    all.sort_unstable();
                    prop_assert_eq!(all, (1..=CARDS).collect::<Vec<u8>>());
                    prop_assert!(g.hand(s).is_empty());
                }
                if g.is_playing(s) {
                    // Its revealed bids and what is left of its hand are its whole hand.
                    let mut all = revealed.clone();
                    all.extend(g.hand(s).cards());
                    all.extend(g.bid_of(s));
                    all.sort_unstable();
                    prop_assert_eq!(all, (1..=CARDS).collect::<Vec<u8>>());
                    prop_assert_eq!(&made[..revealed.len()], revealed.as_slice());
                }
            }
            let winners = g.winners().unwrap();
            for &w in &winners {
                prop_assert!(g.is_playing(w));
            }
            prop_assert_eq!(winners.is_empty(), !g.playing().contains(&true));
        }

        #[test]
        fn the_same_seed_and_bids_give_the_same_game(
            seats in MIN_SEATS..=MAX_SEATS, seed in any::<u64>(), picks in picks()
        ) {
            let (a, _) = play(seats, seed, &picks);
            let (b, _) = play(seats, seed, &picks);
            prop_assert_eq!(a.render(None), b.render(None));
            prop_assert_eq!(&a, &b);
        }

        #[test]
        fn a_refused_bid_changes_nothing(
            seats in MIN_SEATS..=MAX_SEATS, seed in any::<u64>(), picks in picks(),
            seat in 0usize..8, card in any::<u8>()
        ) {
            let n = picks.len() / 2;
            let (mut g, _) = play_some(seats, seed, &picks[..n]);
            let before = g.clone();
            match g.bid(seat, card) {
                Ok(_) => prop_assert!(before.check_bid(seat, card).is_ok()),
                Err(e) => {
                    prop_assert_eq!(&g, &before);
                    prop_assert_eq!(before.check_bid(seat, card), Err(e));
                }
            }
        }
    }

    /// Like [`play`], but stops after the picks rather than at the end of the game.
    fn play_some(seats: usize, seed: u64, picks: &[(u8, bool)]) -> (State, ()) {
        let mut g = State::new(seats, seed).unwrap();
        for &(pick, out) in picks {
            let waiting = g.waiting();
            if waiting.is_empty() {
                break;
            }
            let seat = waiting[usize::from(pick) % waiting.len()];
            if out {
                g.remove(seat);
            } else {
                let cards = g.hand(seat).cards();
                g.bid(seat, cards[usize::from(pick) % cards.len()]).unwrap();
            }
        }
        (g, ())
    }
}

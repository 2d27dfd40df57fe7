//! The sample Goofspiel strategies, pure functions of a [`View`] (the WIT `state` as native types):
//! `smart`, which matches its cards to the prizes and reads the other hands off the history, and
//! `random`, which bids a uniformly random card. The sample components export them through
//! `goofspiel-guest`; the very same code runs natively in the tests.

pub mod random;
pub mod smart;

/// The highest card, and the highest prize: every hand starts with the cards `1..=CARDS`, and the
/// prize deck is the same thirteen values.
pub const CARDS: u8 = 13;

/// One finished round, as the WIT `round-result`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Round {
    /// The prize turned up that round, and what was carried over to it.
    pub prize: u8,
    pub carried: Vec<u8>,
    /// Each seat's bid, in seat order; `None` for a seat that was out.
    pub bids: Vec<Option<u8>>,
    /// The seat that took the prizes, `None` if the highest bid was tied.
    pub winner: Option<u32>,
}

/// Everything a player may know when it bids, as the WIT `state`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// Your seat (from 0) and how many seats the game has.
    pub you: u32,
    pub seats: u32,
    /// This round, from 1 to 13.
    pub round: u32,
    /// The prize up for bidding now, and the prizes carried over to it.
    pub prize: u8,
    pub carried: Vec<u8>,
    /// Your hand: the cards you have not bid yet, ascending.
    pub hand: Vec<u8>,
    /// Prize points each seat has taken so far, in seat order.
    pub scores: Vec<u32>,
    /// Whether each seat is still in the game.
    pub playing: Vec<bool>,
    /// Every earlier round, oldest first.
    pub history: Vec<Round>,
}

impl View {
    /// What the prizes up for bidding are worth together: this round's prize and the carried ones.
    pub fn pot(&self) -> u32 {
        u32::from(self.prize) + self.carried.iter().map(|&c| u32::from(c)).sum::<u32>()
    }

    /// The prizes not turned up yet (after this round's), ascending.
    pub fn prizes_to_come(&self) -> Vec<u8> {
        let mut seen = [false; CARDS as usize + 1];
        for p in self.history.iter().map(|r| r.prize).chain([self.prize]) {
            if let Some(s) = seen.get_mut(usize::from(p)) {
                *s = true;
            }
        }
        (1..=CARDS).filter(|&p| !seen[usize::from(p)]).collect()
    }

    /// The cards `seat` has not bid yet, ascending: all bids are revealed, so every hand is known.
    pub fn hand_of(&self, seat: u32) -> Vec<u8> {
        let mut spent = [false; CARDS as usize + 1];
        for r in &self.history {
            if let Some(Some(b)) = r.bids.get(seat as usize)
                && let Some(s) = spent.get_mut(usize::from(*b))
            {
                *s = true;
            }
        }
        (1..=CARDS).filter(|&c| !spent[usize::from(c)]).collect()
    }

    /// The other seats still in the game.
    pub fn opponents(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.seats).filter(move |&s| s != self.you && self.playing.get(s as usize).copied().unwrap_or(false))
    }
}

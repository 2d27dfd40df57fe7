//! A Goofspiel player that matches its cards to the prizes, and reads the other hands off the history.
//!
//! * **Matching**: the pot (this round's prize plus what was carried over to it) is ranked among the
//!   prizes still to come; the player bids the card of the same rank in its own hand. A pot worth
//!   less than every prize to come gets the lowest card, a pot worth more than all of them the highest:
//!   a 13 is never spent on a low prize, and carried prizes raise what a pot is worth bidding.
//! * **Sure wins**: all bids are revealed, so every other hand is known. When a card beats every
//!   card the others hold, the smallest such card takes the pot for certain: it is bid whenever it is
//!   no dearer than the matching card.
//! * **Lost causes**: when some other seat holds nothing below the matching card (it will bid at least
//!   as high, and a tie takes nothing), the pot cannot be won with it: the lowest card goes instead.
//!
//! Pure and deterministic: the same view always gets the same bid. It always bids a card of its hand.

use crate::View;

/// The bid for this round: a card of `view.hand` (1 with an empty hand, which the referee never asks).
pub fn bid(view: &View) -> u8 {
    let mut hand = view.hand.clone();
    hand.sort_unstable();
    hand.dedup();
    let (Some(&lowest), Some(&highest)) = (hand.first(), hand.last()) else {
        return 1;
    };
    let target = matching_card(view, &hand);

    let others: Vec<Vec<u8>> = view.opponents().map(|s| view.hand_of(s)).collect();
    if others.is_empty() {
        return lowest;
    }
    // The highest card any other seat may bid, and the least that the most stubborn one will bid.
    let their_best = others.iter().filter_map(|h| h.last().copied()).max().unwrap_or(0);
    let their_floor = others.iter().filter_map(|h| h.first().copied()).max().unwrap_or(0);

    if highest > their_best {
        let sure = hand.iter().copied().find(|&c| c > their_best).unwrap_or(highest);
        if sure <= target {
            return sure;
        }
    }
    if target <= their_floor {
        return lowest;
    }
    target
}

/// The card of `hand` (ascending, not empty) whose rank in the hand is the pot's rank among the pot
/// and the prizes to come.
fn matching_card(view: &View, hand: &[u8]) -> u8 {
    let to_come = view.prizes_to_come();
    if to_come.is_empty() {
        return hand[hand.len() - 1];
    }
    let pot = view.pot();
    let rank = to_come.iter().filter(|&&p| u32::from(p) < pot).count();
    // Normally the hand has one card per prize left (the pot's and those to come): the rank is the
    // index. Scaled, in case a hand does not match the prizes.
    hand[rank * (hand.len() - 1) / to_come.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Round;

    fn first_round(prize: u8, seats: u32) -> View {
        View {
            you: 0,
            seats,
            round: 1,
            prize,
            hand: (1..=13).collect(),
            scores: vec![0; seats as usize],
            playing: vec![true; seats as usize],
            ..View::default()
        }
    }

    #[test]
    fn matches_the_prize_in_the_first_round() {
        for prize in 1..=13 {
            assert_eq!(bid(&first_round(prize, 2)), prize);
        }
    }

    #[test]
    fn carried_prizes_raise_the_bid() {
        let mut v = first_round(3, 2);
        v.round = 2;
        v.carried = vec![9];
        v.history = vec![Round { prize: 9, carried: vec![], bids: vec![Some(9), Some(9)], winner: None }];
        v.hand = (1..=13).filter(|&c| c != 9).collect();
        // Pot 12: above 9 of the 11 prizes to come (1, 2, 4..=8, 10, 11), so the 10th card of 12.
        assert_eq!(bid(&v), 11);
        // The 3 alone: above 2 of them.
        v.carried = vec![];
        assert_eq!(bid(&v), 3);
    }

    #[test]
    fn takes_a_sure_win_cheaply_and_gives_up_a_lost_cause() {
        // The opponent has spent its 13, 12 and 11: a 12 beats anything it holds.
        let mut v = first_round(13, 2);
        v.round = 4;
        v.history = [(1, 13), (2, 12), (3, 11)]
            .into_iter()
            .map(|(prize, theirs)| Round {
                prize,
                carried: vec![],
                bids: vec![Some(prize), Some(theirs)],
                winner: Some(1),
            })
            .collect();
        v.hand = (4..=13).collect();
        assert_eq!(bid(&v), 11);
        // The opponent holds only 10 and up; we hold the same: a middling prize is not worth a fight.
        v.history =
            (1..=9).map(|i| Round { prize: i, carried: vec![], bids: vec![Some(i), Some(i)], winner: None }).collect();
        v.carried = vec![];
        v.round = 10;
        v.prize = 11;
        v.hand = vec![10, 11, 12, 13];
        assert_eq!(bid(&v), 11);
    }
}

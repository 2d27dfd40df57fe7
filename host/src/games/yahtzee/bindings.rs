//! Host bindings for the `arena:yahtzee/player` world, generated in this one place, and the conversions
//! between the WIT types and the pure rules crate's types.

use yahtzee_rules as rules;

wasmtime::component::bindgen!({
    path: "../games/yahtzee/wit",
    world: "arena:yahtzee/player",
    exports: { default: async },
    additional_derives: [PartialEq],
});

pub use self::arena::yahtzee::types as wit;

impl From<rules::Category> for wit::Category {
    fn from(c: rules::Category) -> Self {
        use rules::Category as R;
        use wit::Category as W;
        match c {
            R::Ones => W::Ones,
            R::Twos => W::Twos,
            R::Threes => W::Threes,
            R::Fours => W::Fours,
            R::Fives => W::Fives,
            R::Sixes => W::Sixes,
            R::ThreeOfAKind => W::ThreeOfAKind,
            R::FourOfAKind => W::FourOfAKind,
            R::FullHouse => W::FullHouse,
            R::SmallStraight => W::SmallStraight,
            R::LargeStraight => W::LargeStraight,
            R::Yahtzee => W::Yahtzee,
            R::Chance => W::Chance,
        }
    }
}

impl From<wit::Category> for rules::Category {
    fn from(c: wit::Category) -> Self {
        use rules::Category as R;
        use wit::Category as W;
        match c {
            W::Ones => R::Ones,
            W::Twos => R::Twos,
            W::Threes => R::Threes,
            W::Fours => R::Fours,
            W::Fives => R::Fives,
            W::Sixes => R::Sixes,
            W::ThreeOfAKind => R::ThreeOfAKind,
            W::FourOfAKind => R::FourOfAKind,
            W::FullHouse => R::FullHouse,
            W::SmallStraight => R::SmallStraight,
            W::LargeStraight => R::LargeStraight,
            W::Yahtzee => R::Yahtzee,
            W::Chance => R::Chance,
        }
    }
}

impl From<&rules::Scorecard> for wit::Scorecard {
    fn from(c: &rules::Scorecard) -> Self {
        wit::Scorecard {
            boxes: c.boxes.to_vec(),
            upper_bonus: c.upper_bonus(),
            yahtzee_bonus: c.yahtzee_bonus,
            total: c.total(),
        }
    }
}

/// A card as a player sent it back to the rule checker; `None` unless it has exactly 13 boxes.
pub fn card_from_wit(c: &wit::Scorecard) -> Option<rules::Scorecard> {
    Some(rules::Scorecard { boxes: c.boxes.clone().try_into().ok()?, yahtzee_bonus: c.yahtzee_bonus })
}

impl From<&rules::MatchView> for wit::MatchState {
    fn from(m: &rules::MatchView) -> Self {
        wit::MatchState {
            game: m.game,
            games_in_match: m.games_in_match,
            my_wins: m.my_wins,
            their_wins: m.their_wins,
            ties: m.ties,
            earlier: m.earlier.iter().map(|g| wit::GameScore { mine: g.mine, theirs: g.theirs }).collect(),
        }
    }
}

impl From<&rules::PlayerView> for wit::TurnState {
    fn from(v: &rules::PlayerView) -> Self {
        wit::TurnState {
            turn: v.turn,
            dice: v.dice.to_vec(),
            rolls_left: v.rolls_left,
            mine: (&v.mine).into(),
            theirs: (&v.theirs).into(),
            opponent: v.opponent.clone(),
            match_state: (&v.match_view).into(),
        }
    }
}

crate::sandbox::lifted_fixed!(wit::Category);
crate::sandbox::lifted_record!(wit::Scorecard { boxes, upper_bonus, yahtzee_bonus, total });

/// The rule checker players may import: pure, and charged to the player's fuel like any host call.
impl self::arena::yahtzee::rules::Host for crate::sandbox::PlayerState {
    fn score(&mut self, card: wit::Scorecard, dice: Vec<u8>, category: wit::Category) -> Option<u16> {
        use crate::sandbox::Lifted;
        self.charge_args(card.lifted_bytes() + dice.lifted_bytes() + category.lifted_bytes());
        self.charge_rules(1);
        let card = card_from_wit(&card)?;
        let dice = rules::dice_from_slice(&dice).ok()?;
        card.score(&dice, category.into()).ok()
    }
}

impl self::arena::yahtzee::types::Host for crate::sandbox::PlayerState {}

/// Adds the Yahtzee host interfaces to a player linker.
pub fn add_to_linker(linker: &mut wasmtime::component::Linker<crate::sandbox::PlayerState>) -> wasmtime::Result<()> {
    Player::add_to_linker::<_, wasmtime::component::HasSelf<_>>(linker, |s| s)
}

#[cfg(test)]
mod tests {
    use super::arena::yahtzee::rules::Host as _;
    use super::*;
    use crate::sandbox::{Limits, PlayerState};

    #[test]
    fn the_rule_checker_scores_like_the_rules_and_refuses_nonsense() {
        let mut state = PlayerState::new(&Limits::default(), 0);
        let mut card = rules::Scorecard::default();
        card.boxes[rules::Category::Chance.index()] = Some(20);
        let wcard = wit::Scorecard::from(&card);
        assert_eq!(state.score(wcard.clone(), vec![3, 3, 3, 5, 5], wit::Category::FullHouse), Some(25));
        assert_eq!(state.score(wcard.clone(), vec![3, 3, 3, 5, 5], wit::Category::Threes), Some(9));
        assert_eq!(state.score(wcard.clone(), vec![3, 3, 3, 5, 5], wit::Category::Chance), None, "used box");
        assert_eq!(state.score(wcard.clone(), vec![3, 3, 9, 5, 5], wit::Category::Chance), None, "not a die");
        assert_eq!(state.score(wcard.clone(), vec![3, 3], wit::Category::Twos), None, "two dice");
        let short = wit::Scorecard { boxes: vec![None; 3], ..wcard };
        assert_eq!(state.score(short, vec![1, 2, 3, 4, 5], wit::Category::LargeStraight), None, "a card of 3 boxes");
    }
}

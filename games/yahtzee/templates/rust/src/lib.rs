//! A minimal Arena Yahtzee player: re-rolls every die and scores in the first box the rules allow.
//! Make it yours: every call gets the whole game, so keep no state.

wit_bindgen::generate!({ path: "wit", world: "arena:yahtzee/player" });

use arena::yahtzee::rules;

const BOXES: [Category; 13] = [
    Category::Ones, Category::Twos, Category::Threes, Category::Fours, Category::Fives, Category::Sixes,
    Category::ThreeOfAKind, Category::FourOfAKind, Category::FullHouse, Category::SmallStraight,
    Category::LargeStraight, Category::Yahtzee, Category::Chance,
];

struct Player;

impl Guest for Player {
    fn tournament_start(_info: TournamentInfo) {}
    fn game_start(_info: GameInfo) {}
    fn keep(_state: TurnState) -> Vec<u8> {
        Vec::new()
    }
    fn choose(state: TurnState) -> Category {
        // The host's rule checker says what a box would score, and `None` for a box not allowed now.
        BOXES.into_iter().find(|&b| rules::score(&state.mine, &state.dice, b).is_some()).unwrap_or(Category::Chance)
    }
    fn tournament_end(_won: bool) {}
}

export!(Player);

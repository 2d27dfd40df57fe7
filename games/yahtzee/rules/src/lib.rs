//! Pure Yahtzee rules for Arena: score boxes, bonuses, the joker rule, keepers and the shared dice draw.
//! No I/O, no wasm, no clock: randomness comes only from the seed a caller gives.
//!
//! # Scoring
//!
//! * ones..sixes: the sum of the dice showing that face;
//! * three / four of a kind: the sum of all five dice when at least three / four show the same value;
//! * full house: 25 for three of one value and two of another. Five of a kind is *not* a full house by
//!   itself; it only scores 25 there through the joker rule below;
//! * small straight: 30 for four values in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6);
//! * large straight: 40 for five values in a row;
//! * yahtzee: 50 for five of a kind;
//! * chance: the sum of the dice.
//!
//! Upper bonus: 35 once ones..sixes add up to 63 or more. Yahtzee bonus: 100 for every Yahtzee scored
//! (in any box) while the yahtzee box already holds 50; a 0 in the yahtzee box earns no bonus.
//!
//! # Joker rule: the official "forced joker"
//!
//! While the yahtzee box is open, a Yahtzee is ordinary dice: it may go in any open box and scores there
//! by that box's own rule. Once the yahtzee box is filled (with 50 or with 0), a Yahtzee of face `f`
//! must be placed as follows, and [`Scorecard::legal_boxes`] returns exactly the boxes allowed:
//!
//! 1. in the upper box of `f` if it is open (scoring `5 × f`);
//! 2. otherwise in any open lower box, as a joker: three and four of a kind and chance score the sum of
//!    the dice, full house 25, small straight 30, large straight 40;
//! 3. otherwise (every lower box filled) in any open upper box, for 0.
//!
//! Any other box is refused with [`Illegal::JokerForbids`] (a filled box with [`Illegal::BoxUsed`]). The
//! Yahtzee bonus is added on top whenever the yahtzee box holds 50, whichever box is used.

use std::fmt;

use rand_core::{Rng, SeedableRng};

/// The thirteen score boxes, in score-card order (the same order as the WIT enum `category`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Ones,
    Twos,
    Threes,
    Fours,
    Fives,
    Sixes,
    ThreeOfAKind,
    FourOfAKind,
    FullHouse,
    SmallStraight,
    LargeStraight,
    Yahtzee,
    Chance,
}

impl Category {
    pub const ALL: [Category; 13] = [
        Category::Ones,
        Category::Twos,
        Category::Threes,
        Category::Fours,
        Category::Fives,
        Category::Sixes,
        Category::ThreeOfAKind,
        Category::FourOfAKind,
        Category::FullHouse,
        Category::SmallStraight,
        Category::LargeStraight,
        Category::Yahtzee,
        Category::Chance,
    ];

    /// Position in score-card order, 0..13.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Option<Category> {
        Category::ALL.get(i).copied()
    }

    /// kebab-case name as in the WIT ("three-of-a-kind").
    pub fn name(self) -> &'static str {
        match self {
            Category::Ones => "ones",
            Category::Twos => "twos",
            Category::Threes => "threes",
            Category::Fours => "fours",
            Category::Fives => "fives",
            Category::Sixes => "sixes",
            Category::ThreeOfAKind => "three-of-a-kind",
            Category::FourOfAKind => "four-of-a-kind",
            Category::FullHouse => "full-house",
            Category::SmallStraight => "small-straight",
            Category::LargeStraight => "large-straight",
            Category::Yahtzee => "yahtzee",
            Category::Chance => "chance",
        }
    }

    /// The upper box of `face` (1..=6), if any.
    pub fn upper(face: u8) -> Option<Category> {
        match face {
            1..=6 => Category::from_index(usize::from(face) - 1),
            _ => None,
        }
    }

    /// The face (1..=6) an upper box counts, `None` for the lower boxes.
    pub fn face(self) -> Option<u8> {
        let i = self.index();
        (i < 6).then(|| i as u8 + 1)
    }

    /// Whether this is one of ones..sixes.
    pub fn is_upper(self) -> bool {
        self.index() < 6
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Five dice, each 1..=6.
pub type Dice = [u8; 5];

/// Why the rules refuse an answer. Every refusal leaves the state untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// Dice that are not five values 1..=6.
    BadDice(Vec<u8>),
    /// The box already holds a score.
    BoxUsed(Category),
    /// The joker rule requires another box (names the box, and which boxes are allowed).
    JokerForbids { chosen: Category, allowed: Vec<Category> },
    /// Keepers that are not among the dice (more of a value than showing, a value not showing, >5 dice).
    NotYourDice { keep: Vec<u8>, dice: Dice },
    /// A re-roll asked for when the turn has no re-roll left.
    NoRollsLeft,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::BadDice(d) => {
                write!(f, "dice must be five values from 1 to 6, got {d:?}")
            }
            Illegal::BoxUsed(c) => write!(f, "box {c} is already used"),
            Illegal::JokerForbids { chosen, allowed } => {
                let names: Vec<&str> = allowed.iter().map(|c| c.name()).collect();
                write!(
                    f,
                    "joker rule: this Yahtzee cannot go in box {chosen} (the yahtzee box is filled); \
                     allowed: {}",
                    names.join(", ")
                )
            }
            Illegal::NotYourDice { keep, dice } => {
                if keep.len() > 5 {
                    write!(f, "kept {} dice {keep:?} but there are only five dice {dice:?}", keep.len())
                } else {
                    write!(f, "kept {keep:?} but the dice are {dice:?}")
                }
            }
            Illegal::NoRollsLeft => f.write_str("no re-rolls left this turn"),
        }
    }
}

impl std::error::Error for Illegal {}

/// How many dice show each face: `counts[f - 1]` for face `f`. Values outside 1..=6 are ignored.
pub fn face_counts(dice: &[u8]) -> [u8; 6] {
    let mut counts = [0u8; 6];
    for &d in dice {
        if (1..=6).contains(&d) {
            counts[usize::from(d) - 1] += 1;
        }
    }
    counts
}

/// The face of a Yahtzee (five of a kind), if `dice` are one.
pub fn yahtzee_face(dice: &Dice) -> Option<u8> {
    let f = dice[0];
    ((1..=6).contains(&f) && dice.iter().all(|&d| d == f)).then_some(f)
}

fn dice_sum(dice: &Dice) -> u16 {
    dice.iter().map(|&d| u16::from(d)).sum()
}

/// Length of the longest run of consecutive faces showing.
fn longest_run(counts: &[u8; 6]) -> u8 {
    let (mut best, mut run) = (0, 0);
    for &c in counts {
        run = if c > 0 { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Bit mask of the upper boxes (bits 0..6) in [`Scorecard::legal_mask`] numbering.
const UPPER_MASK: u16 = 0b11_1111;

/// One player's score card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scorecard {
    /// Score-card order; `None` while open.
    pub boxes: [Option<u16>; 13],
    /// 100 per extra Yahtzee scored while the yahtzee box holds 50.
    pub yahtzee_bonus: u16,
}

impl Scorecard {
    pub fn get(&self, c: Category) -> Option<u16> {
        self.boxes[c.index()]
    }

    pub fn is_open(&self, c: Category) -> bool {
        self.get(c).is_none()
    }

    pub fn open_boxes(&self) -> Vec<Category> {
        Category::ALL.into_iter().filter(|&c| self.is_open(c)).collect()
    }

    pub fn is_full(&self) -> bool {
        self.boxes.iter().all(Option::is_some)
    }

    pub fn upper_sum(&self) -> u16 {
        self.boxes[..6].iter().map(|b| b.unwrap_or(0)).sum()
    }

    /// 35 once ones..sixes reach 63.
    pub fn upper_bonus(&self) -> u16 {
        if self.upper_sum() >= 63 { 35 } else { 0 }
    }

    /// Boxes + both bonuses.
    pub fn total(&self) -> u16 {
        let boxes: u16 = self.boxes.iter().map(|b| b.unwrap_or(0)).sum();
        boxes + self.upper_bonus() + self.yahtzee_bonus
    }

    /// Bit mask of the open boxes: bit `c.index()` is set while `c` is open.
    pub fn open_mask(&self) -> u16 {
        let mut mask = 0;
        for (i, b) in self.boxes.iter().enumerate() {
            if b.is_none() {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// [`Scorecard::legal_boxes`] as a bit mask (bit `c.index()`), without allocating.
    pub fn legal_mask(&self, dice: &Dice) -> u16 {
        let open = self.open_mask();
        let Some(face) = yahtzee_face(dice) else {
            return open;
        };
        if self.is_open(Category::Yahtzee) {
            return open;
        }
        // Forced joker.
        let own = 1u16 << (face - 1);
        if open & own != 0 {
            own
        } else if open & !UPPER_MASK != 0 {
            open & !UPPER_MASK
        } else {
            open
        }
    }

    /// Boxes the rules allow for `dice` now (open boxes, narrowed by the joker rule). Never empty on a
    /// card that is not full.
    pub fn legal_boxes(&self, dice: &Dice) -> Vec<Category> {
        let mask = self.legal_mask(dice);
        Category::ALL.into_iter().filter(|c| mask & (1 << c.index()) != 0).collect()
    }

    /// What `dice` score in `c` if the rules allow it now (joker rule included, Yahtzee bonus
    /// excluded), without allocating; `None` if the box is used, the joker rule forbids it or `dice`
    /// are not five values 1..=6 (the WIT `rules.score`).
    pub fn score_if_legal(&self, dice: &Dice, c: Category) -> Option<u16> {
        self.legal_scores(dice)[c.index()]
    }

    /// [`Scorecard::score_if_legal`] for every box at once, in score-card order: what a strategy
    /// needs to weigh the boxes, computed in one pass.
    pub fn legal_scores(&self, dice: &Dice) -> [Option<u16>; 13] {
        let mut out = [None; 13];
        if !dice.iter().all(|d| (1..=6).contains(d)) {
            return out;
        }
        let mask = self.legal_mask(dice);
        let mut raw = raw_scores(dice);
        if yahtzee_face(dice).is_some() && !self.is_open(Category::Yahtzee) {
            // Joker: the lower boxes score at full value (upper boxes, 3K, 4K and chance already do).
            raw[Category::FullHouse.index()] = 25;
            raw[Category::SmallStraight.index()] = 30;
            raw[Category::LargeStraight.index()] = 40;
        }
        for (i, o) in out.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                *o = Some(raw[i]);
            }
        }
        out
    }

    /// What `dice` score in `c` (joker rule included, Yahtzee bonus excluded), or why not.
    pub fn score(&self, dice: &Dice, c: Category) -> Result<u16, Illegal> {
        dice_from_slice(dice)?;
        if !self.is_open(c) {
            return Err(Illegal::BoxUsed(c));
        }
        self.score_if_legal(dice, c).ok_or_else(|| Illegal::JokerForbids { chosen: c, allowed: self.legal_boxes(dice) })
    }

    /// The Yahtzee bonus that scoring `dice` now would add: 100 for a Yahtzee while the yahtzee box
    /// holds 50, else 0.
    pub fn yahtzee_bonus_for(&self, dice: &Dice) -> u16 {
        if yahtzee_face(dice).is_some() && self.get(Category::Yahtzee) == Some(50) { 100 } else { 0 }
    }

    /// Scores `dice` in `c` (adding any Yahtzee bonus) and returns the new card; `self` is untouched on error.
    pub fn play(&self, dice: &Dice, c: Category) -> Result<Scorecard, Illegal> {
        let points = self.score(dice, c)?;
        let mut next = self.clone();
        next.yahtzee_bonus += self.yahtzee_bonus_for(dice);
        next.boxes[c.index()] = Some(points);
        Ok(next)
    }
}

/// Validates a slice as five dice 1..=6.
pub fn dice_from_slice(d: &[u8]) -> Result<Dice, Illegal> {
    match <Dice>::try_from(d) {
        Ok(dice) if dice.iter().all(|v| (1..=6).contains(v)) => Ok(dice),
        _ => Err(Illegal::BadDice(d.to_vec())),
    }
}

/// The raw score of `dice` in `c` without any joker (what the box is worth by its own rule).
pub fn raw_score(dice: &Dice, c: Category) -> u16 {
    raw_scores(dice)[c.index()]
}

/// [`raw_score`] of every box at once, in score-card order.
pub fn raw_scores(dice: &Dice) -> [u16; 13] {
    let counts = face_counts(dice);
    let most = counts.iter().copied().max().unwrap_or(0);
    let sum = dice_sum(dice);
    let run = longest_run(&counts);
    let mut s = [0u16; 13];
    for (f, &n) in counts.iter().enumerate() {
        s[f] = u16::from(n) * (f as u16 + 1);
    }
    let when = |cond: bool, v: u16| if cond { v } else { 0 };
    s[Category::ThreeOfAKind.index()] = when(most >= 3, sum);
    s[Category::FourOfAKind.index()] = when(most >= 4, sum);
    s[Category::FullHouse.index()] = when(counts.contains(&3) && counts.contains(&2), 25);
    s[Category::SmallStraight.index()] = when(run >= 4, 30);
    s[Category::LargeStraight.index()] = when(run >= 5, 40);
    s[Category::Yahtzee.index()] = when(most == 5, 50);
    s[Category::Chance.index()] = sum;
    s
}

/// The 15 dice of one turn, shared by both players: the first five are the roll, and every re-roll takes
/// the next values in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnDice {
    pub values: [u8; 15],
}

impl TurnDice {
    /// Draws the 15 dice of turn `turn` (1..=13) of the game with seed `game_seed`, through ChaCha8
    /// seeded from (game_seed, turn) in a documented way, so the same seed gives the same dice anywhere.
    ///
    /// Exact derivation:
    ///
    /// 1. the 32-byte seed is `game_seed` as 8 little-endian bytes (bytes 0..8), then `turn` as one
    ///    byte (byte 8), then 23 zero bytes;
    /// 2. `chacha20::ChaCha8Rng::from_seed(seed)` (stream 0, word position 0): the ChaCha keystream
    ///    with 8 rounds, the seed as key, the original layout (64-bit block counter from 0 in words
    ///    12..14, 64-bit nonce 0), read as little-endian `u32` words in order (the same as
    ///    `rand_chacha::ChaCha8Rng`);
    /// 3. each of the 15 dice in order: take the next word `x`, skipping any `x >= 4_294_967_292`
    ///    (6 × 715_827_882, so all faces are equally likely), and the die is `x % 6 + 1`.
    ///
    /// For example `draw(0, 1)` is `[2, 3, 2, 2, 5, 6, 6, 2, 4, 5, 5, 5, 3, 4, 4]`.
    pub fn draw(game_seed: u64, turn: u8) -> TurnDice {
        // Accept x <= LIMIT: 4_294_967_292 = 6 × 715_827_882 values, each face equally often.
        const LIMIT: u32 = 4_294_967_291;
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&game_seed.to_le_bytes());
        seed[8] = turn;
        let mut rng = chacha20::ChaCha8Rng::from_seed(seed);
        let mut values = [0u8; 15];
        for v in &mut values {
            let x = loop {
                let x = rng.next_u32();
                if x <= LIMIT {
                    break x;
                }
            };
            *v = (x % 6) as u8 + 1;
        }
        TurnDice { values }
    }
}

/// One player's dice during a turn: the current five and how many of the 15 have been used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    pub dice: Dice,
    pub used: usize,
    pub rolls_left: u8,
}

/// Whether `keep` is a sub-multiset of `dice` (each value at most as often as it shows).
pub fn keep_is_valid(keep: &[u8], dice: &Dice) -> bool {
    if keep.len() > 5 || keep.iter().any(|v| !(1..=6).contains(v)) {
        return false;
    }
    let have = face_counts(dice);
    let want = face_counts(keep);
    want.iter().zip(have.iter()).all(|(w, h)| w <= h)
}

impl Roll {
    /// The first five values, with two re-rolls left.
    pub fn first(turn: &TurnDice) -> Roll {
        let mut dice = [0u8; 5];
        dice.copy_from_slice(&turn.values[..5]);
        Roll { dice, used: 5, rolls_left: 2 }
    }

    /// Keeps `keep` (values drawn from the dice, each at most as often as it shows; kept dice first, in
    /// the order given) and fills up with the next values of `turn`. Errors leave `self` untouched;
    /// errors too when no rolls are left.
    pub fn reroll(&self, turn: &TurnDice, keep: &[u8]) -> Result<Roll, Illegal> {
        if self.rolls_left == 0 {
            return Err(Illegal::NoRollsLeft);
        }
        if !keep_is_valid(keep, &self.dice) {
            return Err(Illegal::NotYourDice { keep: keep.to_vec(), dice: self.dice });
        }
        let fresh = 5 - keep.len();
        let used = self.used + fresh;
        if used > turn.values.len() {
            return Err(Illegal::NoRollsLeft);
        }
        let mut dice = [0u8; 5];
        dice[..keep.len()].copy_from_slice(keep);
        dice[keep.len()..].copy_from_slice(&turn.values[self.used..used]);
        Ok(Roll { dice, used, rolls_left: self.rolls_left - 1 })
    }
}

/// The final scores of an earlier game of the match, from the viewer's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameScore {
    pub mine: u16,
    pub theirs: u16,
}

/// The match so far, from the viewer's side (mirrors WIT `match-state`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MatchView {
    pub game: u32,
    pub games_in_match: u32,
    pub my_wins: u32,
    pub their_wins: u32,
    pub ties: u32,
    pub earlier: Vec<GameScore>,
}

/// Everything a player sees for one decision (mirrors WIT `turn-state`). Native bots and Rust guests
/// take exactly this, so the same strategy code runs in both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    pub turn: u8,
    pub dice: Dice,
    pub rolls_left: u8,
    pub mine: Scorecard,
    pub theirs: Scorecard,
    pub opponent: String,
    pub match_view: MatchView,
}

#[cfg(test)]
mod tests {
    use super::*;
    use Category::*;

    fn card(filled: &[(Category, u16)]) -> Scorecard {
        let mut c = Scorecard::default();
        for &(b, v) in filled {
            c.boxes[b.index()] = Some(v);
        }
        c
    }

    #[test]
    fn category_order_and_names() {
        for (i, c) in Category::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Category::from_index(i), Some(c));
        }
        assert_eq!(Category::from_index(13), None);
        assert_eq!(ThreeOfAKind.name(), "three-of-a-kind");
        assert_eq!(FullHouse.to_string(), "full-house");
        assert_eq!(Category::upper(6), Some(Sixes));
        assert_eq!(Category::upper(0), None);
        assert_eq!(Fives.face(), Some(5));
        assert_eq!(Chance.face(), None);
    }

    #[test]
    fn upper_boxes() {
        let d = [1, 3, 3, 6, 3];
        assert_eq!(raw_score(&d, Ones), 1);
        assert_eq!(raw_score(&d, Twos), 0);
        assert_eq!(raw_score(&d, Threes), 9);
        assert_eq!(raw_score(&d, Fours), 0);
        assert_eq!(raw_score(&d, Fives), 0);
        assert_eq!(raw_score(&d, Sixes), 6);
        assert_eq!(raw_score(&[5, 5, 5, 5, 2], Fives), 20);
        assert_eq!(raw_score(&[4, 4, 1, 1, 2], Fours), 8);
        assert_eq!(raw_score(&[2, 2, 2, 2, 2], Twos), 10);
    }

    #[test]
    fn kinds_and_chance() {
        assert_eq!(raw_score(&[3, 3, 3, 1, 2], ThreeOfAKind), 12);
        assert_eq!(raw_score(&[3, 3, 1, 1, 2], ThreeOfAKind), 0);
        assert_eq!(raw_score(&[3, 3, 3, 3, 2], ThreeOfAKind), 14);
        assert_eq!(raw_score(&[3, 3, 3, 1, 2], FourOfAKind), 0);
        assert_eq!(raw_score(&[6, 6, 6, 6, 2], FourOfAKind), 26);
        assert_eq!(raw_score(&[6, 6, 6, 6, 6], FourOfAKind), 30);
        assert_eq!(raw_score(&[6, 6, 6, 6, 6], ThreeOfAKind), 30);
        assert_eq!(raw_score(&[1, 2, 3, 4, 6], Chance), 16);
        assert_eq!(raw_score(&[6, 6, 6, 6, 6], Chance), 30);
    }

    #[test]
    fn full_house_edges() {
        assert_eq!(raw_score(&[2, 2, 5, 5, 5], FullHouse), 25);
        assert_eq!(raw_score(&[5, 2, 5, 2, 5], FullHouse), 25);
        assert_eq!(raw_score(&[5, 5, 5, 5, 2], FullHouse), 0);
        assert_eq!(raw_score(&[5, 5, 2, 2, 1], FullHouse), 0);
        // Five of a kind is not a full house without the joker.
        assert_eq!(raw_score(&[4, 4, 4, 4, 4], FullHouse), 0);
        assert_eq!(Scorecard::default().score(&[4; 5], FullHouse), Ok(0));
    }

    #[test]
    fn straight_edges() {
        assert_eq!(raw_score(&[1, 2, 3, 4, 6], SmallStraight), 30);
        assert_eq!(raw_score(&[3, 4, 5, 6, 1], SmallStraight), 30);
        assert_eq!(raw_score(&[2, 3, 4, 5, 2], SmallStraight), 30);
        assert_eq!(raw_score(&[1, 2, 3, 5, 6], SmallStraight), 0);
        assert_eq!(raw_score(&[1, 2, 3, 4, 5], SmallStraight), 30);
        assert_eq!(raw_score(&[1, 2, 3, 4, 5], LargeStraight), 40);
        assert_eq!(raw_score(&[6, 5, 4, 3, 2], LargeStraight), 40);
        assert_eq!(raw_score(&[1, 2, 3, 4, 6], LargeStraight), 0);
        assert_eq!(raw_score(&[1, 2, 3, 4, 4], LargeStraight), 0);
    }

    #[test]
    fn yahtzee_box() {
        assert_eq!(raw_score(&[6; 5], Yahtzee), 50);
        assert_eq!(raw_score(&[6, 6, 6, 6, 5], Yahtzee), 0);
    }

    #[test]
    fn upper_bonus_threshold() {
        // 3 of each face: 3+6+9+12+15+18 = 63.
        let at = card(&[(Ones, 3), (Twos, 6), (Threes, 9), (Fours, 12), (Fives, 15), (Sixes, 18)]);
        assert_eq!(at.upper_sum(), 63);
        assert_eq!(at.upper_bonus(), 35);
        assert_eq!(at.total(), 98);
        let below = card(&[(Ones, 2), (Twos, 6), (Threes, 9), (Fours, 12), (Fives, 15), (Sixes, 18)]);
        assert_eq!(below.upper_sum(), 62);
        assert_eq!(below.upper_bonus(), 0);
        assert_eq!(below.total(), 62);
    }

    #[test]
    fn yahtzee_bonus_after_fifty() {
        let c = Scorecard::default();
        let c = c.play(&[5; 5], Yahtzee).unwrap();
        assert_eq!(c.get(Yahtzee), Some(50));
        assert_eq!(c.yahtzee_bonus, 0);
        let c = c.play(&[3; 5], Threes).unwrap();
        assert_eq!(c.get(Threes), Some(15));
        assert_eq!(c.yahtzee_bonus, 100);
        assert_eq!(c.total(), 50 + 15 + 100);
        // A third one through the joker, in a lower box.
        let c = c.play(&[3; 5], Chance).unwrap();
        assert_eq!(c.yahtzee_bonus, 200);
        // Non-Yahtzee dice earn nothing.
        let c = c.play(&[1, 2, 3, 4, 5], LargeStraight).unwrap();
        assert_eq!(c.yahtzee_bonus, 200);
    }

    #[test]
    fn no_yahtzee_bonus_after_zero() {
        let c = card(&[(Yahtzee, 0)]);
        let c2 = c.play(&[2; 5], Twos).unwrap();
        assert_eq!(c2.yahtzee_bonus, 0);
        assert_eq!(c2.get(Twos), Some(10));
    }

    #[test]
    fn yahtzee_while_box_open_scores_anywhere() {
        let c = card(&[(Fours, 8)]);
        let d = [4; 5];
        assert_eq!(c.legal_boxes(&d), c.open_boxes());
        assert_eq!(c.score(&d, FullHouse), Ok(0));
        assert_eq!(c.score(&d, SmallStraight), Ok(0));
        assert_eq!(c.score(&d, Ones), Ok(0));
        assert_eq!(c.score(&d, Chance), Ok(20));
        assert_eq!(c.score(&d, Fours), Err(Illegal::BoxUsed(Fours)));
        let c2 = c.play(&d, Ones).unwrap();
        assert_eq!(c2.yahtzee_bonus, 0);
    }

    #[test]
    fn joker_forces_own_upper_box() {
        for filled in [0, 50] {
            let c = card(&[(Yahtzee, filled)]);
            let d = [6; 5];
            assert_eq!(c.legal_boxes(&d), vec![Sixes]);
            assert_eq!(c.score(&d, Sixes), Ok(30));
            assert_eq!(c.score(&d, Chance), Err(Illegal::JokerForbids { chosen: Chance, allowed: vec![Sixes] }));
            assert!(c.score(&d, Ones).unwrap_err().to_string().contains("allowed: sixes"));
            assert_eq!(c.score(&d, Yahtzee), Err(Illegal::BoxUsed(Yahtzee)));
            assert!(c.play(&d, LargeStraight).is_err());
        }
    }

    #[test]
    fn joker_any_lower_box_at_full_value() {
        let c = card(&[(Yahtzee, 50), (Twos, 4), (ThreeOfAKind, 20)]);
        let d = [2; 5];
        assert_eq!(c.legal_boxes(&d), vec![FourOfAKind, FullHouse, SmallStraight, LargeStraight, Chance]);
        assert_eq!(c.score(&d, FourOfAKind), Ok(10));
        assert_eq!(c.score(&d, FullHouse), Ok(25));
        assert_eq!(c.score(&d, SmallStraight), Ok(30));
        assert_eq!(c.score(&d, LargeStraight), Ok(40));
        assert_eq!(c.score(&d, Chance), Ok(10));
        assert_eq!(c.score(&d, ThreeOfAKind), Err(Illegal::BoxUsed(ThreeOfAKind)));
        assert!(matches!(c.score(&d, Sixes), Err(Illegal::JokerForbids { chosen: Sixes, .. })));
        let c2 = c.play(&d, LargeStraight).unwrap();
        assert_eq!(c2.get(LargeStraight), Some(40));
        assert_eq!(c2.yahtzee_bonus, 100);
        // With 0 in the yahtzee box the joker still applies, without a bonus.
        let mut z = c.clone();
        z.boxes[Yahtzee.index()] = Some(0);
        let z2 = z.play(&d, SmallStraight).unwrap();
        assert_eq!(z2.get(SmallStraight), Some(30));
        assert_eq!(z2.yahtzee_bonus, 0);
    }

    #[test]
    fn joker_other_upper_box_for_zero() {
        let c = card(&[
            (Fives, 15),
            (ThreeOfAKind, 20),
            (FourOfAKind, 0),
            (FullHouse, 25),
            (SmallStraight, 30),
            (LargeStraight, 0),
            (Yahtzee, 50),
            (Chance, 22),
        ]);
        let d = [5; 5];
        assert_eq!(c.legal_boxes(&d), vec![Ones, Twos, Threes, Fours, Sixes]);
        assert_eq!(c.score(&d, Ones), Ok(0));
        assert_eq!(c.score(&d, Sixes), Ok(0));
        let c2 = c.play(&d, Twos).unwrap();
        assert_eq!(c2.get(Twos), Some(0));
        assert_eq!(c2.yahtzee_bonus, 100);
    }

    #[test]
    fn used_box_and_bad_dice() {
        let c = card(&[(FullHouse, 25)]);
        let e = c.score(&[2, 2, 3, 3, 3], FullHouse).unwrap_err();
        assert_eq!(e, Illegal::BoxUsed(FullHouse));
        assert_eq!(e.to_string(), "box full-house is already used");
        assert_eq!(c.play(&[0, 2, 3, 3, 3], Chance), Err(Illegal::BadDice(vec![0, 2, 3, 3, 3])));
        assert_eq!(dice_from_slice(&[1, 2, 3, 4, 5]), Ok([1, 2, 3, 4, 5]));
        assert_eq!(dice_from_slice(&[1, 2, 3, 4]), Err(Illegal::BadDice(vec![1, 2, 3, 4])));
        assert!(dice_from_slice(&[1, 2, 3, 4, 5, 6]).is_err());
        assert!(dice_from_slice(&[1, 2, 3, 4, 7]).is_err());
        assert!(dice_from_slice(&[0, 2, 3, 4, 5]).is_err());
        assert!(Illegal::BadDice(vec![7]).to_string().contains("five values from 1 to 6"));
    }

    #[test]
    fn full_card_has_no_legal_box() {
        let c = Scorecard { boxes: [Some(0); 13], yahtzee_bonus: 0 };
        assert!(c.is_full());
        assert!(c.legal_boxes(&[1, 1, 1, 1, 1]).is_empty());
        assert!(c.legal_boxes(&[1, 2, 3, 4, 5]).is_empty());
    }

    fn turn() -> TurnDice {
        TurnDice { values: [1, 2, 3, 4, 6, 5, 5, 2, 1, 6, 3, 3, 4, 4, 1] }
    }

    #[test]
    fn reroll_order() {
        let t = turn();
        let r = Roll::first(&t);
        assert_eq!(r.dice, [1, 2, 3, 4, 6]);
        assert_eq!((r.used, r.rolls_left), (5, 2));
        let r2 = r.reroll(&t, &[6, 3]).unwrap();
        assert_eq!(r2.dice, [6, 3, 5, 5, 2]);
        assert_eq!((r2.used, r2.rolls_left), (8, 1));
        let r3 = r2.reroll(&t, &[5, 5]).unwrap();
        assert_eq!(r3.dice, [5, 5, 1, 6, 3]);
        assert_eq!((r3.used, r3.rolls_left), (11, 0));
        assert_eq!(r3.reroll(&t, &[]), Err(Illegal::NoRollsLeft));
        // Keeping everything uses nothing.
        let all = r.reroll(&t, &[6, 4, 3, 2, 1]).unwrap();
        assert_eq!(all.dice, [6, 4, 3, 2, 1]);
        assert_eq!(all.used, 5);
        // Re-rolling everything twice uses all 15.
        let a = r.reroll(&t, &[]).unwrap().reroll(&t, &[]).unwrap();
        assert_eq!(a.dice, [3, 3, 4, 4, 1]);
        assert_eq!(a.used, 15);
    }

    #[test]
    fn keepers_validation() {
        let t = turn();
        let r = Roll::first(&t);
        let e = r.reroll(&t, &[6, 6]).unwrap_err();
        assert_eq!(e.to_string(), "kept [6, 6] but the dice are [1, 2, 3, 4, 6]");
        assert!(matches!(r.reroll(&t, &[5]), Err(Illegal::NotYourDice { .. })));
        assert!(r.reroll(&t, &[0]).is_err());
        assert!(r.reroll(&t, &[7]).is_err());
        let six = r.reroll(&t, &[1, 2, 3, 4, 6, 6]).unwrap_err();
        assert!(matches!(six, Illegal::NotYourDice { .. }));
        assert!(six.to_string().contains("only five"));
        assert!(r.reroll(&t, &[1, 2, 3, 4, 6, 1]).is_err());
        assert!(keep_is_valid(&[6, 1], &r.dice));
        assert!(!keep_is_valid(&[1, 1], &r.dice));
        assert_eq!(r, Roll::first(&t));
    }

    #[test]
    fn shared_draw() {
        let a = TurnDice::draw(42, 1);
        assert_eq!(a, TurnDice::draw(42, 1));
        assert_ne!(a, TurnDice::draw(42, 2));
        assert_ne!(a, TurnDice::draw(43, 1));
        let mut seen = [0u32; 6];
        for seed in 0..200u64 {
            for t in 1..=13u8 {
                for v in TurnDice::draw(seed, t).values {
                    assert!((1..=6).contains(&v));
                    seen[usize::from(v) - 1] += 1;
                }
            }
        }
        // 39_000 dice: every face close to 6_500.
        for s in seen {
            assert!((6_000..7_000).contains(&s), "{seen:?}");
        }
        // Both players re-rolling the same way see the same dice.
        let t = TurnDice::draw(7, 5);
        let p1 = Roll::first(&t);
        let p2 = Roll::first(&t);
        let k: Vec<u8> = p1.dice[..2].to_vec();
        let p1 = p1.reroll(&t, &k).unwrap();
        let p2 = p2.reroll(&t, &k).unwrap();
        assert_eq!(p1, p2);
    }

    #[test]
    fn draw_is_pinned() {
        // Guards the documented derivation against accidental change; these values were checked
        // against an independent ChaCha8 implementation.
        assert_eq!(TurnDice::draw(0, 1).values, [2, 3, 2, 2, 5, 6, 6, 2, 4, 5, 5, 5, 3, 4, 4]);
        assert_eq!(TurnDice::draw(u64::MAX, 13).values, [3, 6, 6, 5, 3, 6, 6, 2, 3, 5, 2, 1, 1, 6, 1]);
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    fn die() -> impl Strategy<Value = u8> {
        1u8..=6
    }

    /// Dice with Yahtzees well represented.
    fn dice() -> impl Strategy<Value = Dice> {
        prop_oneof![
            3 => [die(), die(), die(), die(), die()],
            1 => die().prop_map(|f| [f; 5]),
        ]
    }

    /// Any card: each box open or holding a value, the yahtzee box open, 0 or 50.
    fn card() -> impl Strategy<Value = Scorecard> {
        (
            proptest::collection::vec(proptest::option::of(0u16..=30), 13),
            prop_oneof![Just(None), Just(Some(0u16)), Just(Some(50u16))],
            0u16..=3,
        )
            .prop_map(|(boxes, y, bonus)| {
                let mut c = Scorecard::default();
                for (i, b) in boxes.into_iter().enumerate() {
                    c.boxes[i] = b;
                }
                c.boxes[Category::Yahtzee.index()] = y;
                c.yahtzee_bonus = if y == Some(50) { bonus * 100 } else { 0 };
                c
            })
    }

    fn keep_from_mask(dice: &Dice, mask: u8) -> Vec<u8> {
        (0..5).filter(|i| mask & (1 << i) != 0).map(|i| dice[i]).collect()
    }

    proptest! {
        #[test]
        fn whole_game(seed: u64, picks in proptest::collection::vec((0u8..32, 0u8..32, any::<u16>()), 13)) {
            let mut c = Scorecard::default();
            let mut boxes_total = 0u16;
            let mut bonus = 0u16;
            for (t, &(m1, m2, pick)) in picks.iter().enumerate() {
                let turn = TurnDice::draw(seed, t as u8 + 1);
                let r = Roll::first(&turn);
                let r = r.reroll(&turn, &keep_from_mask(&r.dice, m1)).unwrap();
                let r = r.reroll(&turn, &keep_from_mask(&r.dice, m2)).unwrap();
                prop_assert_eq!(r.rolls_left, 0);
                let legal = c.legal_boxes(&r.dice);
                prop_assert!(!legal.is_empty());
                let b = legal[usize::from(pick) % legal.len()];
                let pts = c.score(&r.dice, b).unwrap();
                if yahtzee_face(&r.dice).is_some() && c.get(Category::Yahtzee) == Some(50) {
                    bonus += 100;
                }
                boxes_total += pts;
                c = c.play(&r.dice, b).unwrap();
                prop_assert_eq!(c.get(b), Some(pts));
            }
            prop_assert!(c.is_full());
            let upper: u16 = (0..6).map(|i| c.boxes[i].unwrap()).sum();
            let up_bonus = if upper >= 63 { 35 } else { 0 };
            prop_assert_eq!(c.yahtzee_bonus, bonus);
            prop_assert_eq!(c.total(), boxes_total + up_bonus + bonus);
            prop_assert_eq!(c.total(), c.boxes.iter().map(|b| b.unwrap()).sum::<u16>() + c.upper_bonus() + c.yahtzee_bonus);
        }

        #[test]
        fn legal_boxes_agree_with_score(c in card(), d in dice()) {
            let legal = c.legal_boxes(&d);
            if !c.is_full() {
                prop_assert!(!legal.is_empty());
            }
            for b in Category::ALL {
                let s = c.score(&d, b);
                prop_assert_eq!(legal.contains(&b), s.is_ok(), "{:?} {:?} {:?}", b, s, legal);
                prop_assert_eq!(s.clone().ok(), c.score_if_legal(&d, b));
                prop_assert_eq!(s.clone().ok(), c.legal_scores(&d)[b.index()]);
                prop_assert_eq!(legal.contains(&b), c.legal_mask(&d) & (1 << b.index()) != 0);
                if !c.is_open(b) {
                    prop_assert_eq!(s, Err(Illegal::BoxUsed(b)));
                }
            }
        }

        #[test]
        fn illegal_boxes_are_refused(c in card(), d in dice()) {
            let before = c.clone();
            let legal = c.legal_boxes(&d);
            for b in Category::ALL {
                let r = c.play(&d, b);
                if legal.contains(&b) {
                    let next = r.unwrap();
                    prop_assert_eq!(next.get(b), Some(c.score(&d, b).unwrap()));
                    prop_assert_eq!(next.yahtzee_bonus, c.yahtzee_bonus + c.yahtzee_bonus_for(&d));
                } else {
                    let e = r.unwrap_err();
                    let is_joker = matches!(e, Illegal::JokerForbids { .. });
                    prop_assert!(is_joker || e == Illegal::BoxUsed(b));
                    prop_assert!(!e.to_string().is_empty());
                }
                prop_assert_eq!(&c, &before);
            }
        }

        #[test]
        fn bad_keepers_are_refused(seed: u64, t in 1u8..=13, keep in proptest::collection::vec(0u8..=7, 0..8)) {
            let turn = TurnDice::draw(seed, t);
            let r = Roll::first(&turn);
            let before = r.clone();
            let mut have = r.dice.to_vec();
            let mut ok = keep.len() <= 5;
            for k in &keep {
                match have.iter().position(|h| h == k) {
                    Some(i) => { have.remove(i); }
                    None => ok = false,
                }
            }
            let res = r.reroll(&turn, &keep);
            prop_assert_eq!(res.is_ok(), ok);
            if let Ok(n) = res {
                prop_assert_eq!(&n.dice[..keep.len()], &keep[..]);
                prop_assert_eq!(n.used, 5 + 5 - keep.len());
            } else {
                let refused = matches!(res, Err(Illegal::NotYourDice { .. }));
                prop_assert!(refused);
            }
            prop_assert_eq!(r, before);
        }
    }
}

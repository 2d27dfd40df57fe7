//! A legal but aimless Yahtzee player: keeps each die with probability about 1/2 and scores in a
//! uniformly random legal box. The randomness is a splitmix64 hash of the view, so the player is pure
//! and deterministic: the same view always gets the same answer, natively and in WebAssembly.

use yahtzee_rules::{Category, PlayerView};

/// One splitmix64 step: mixes `x` into a well-spread 64-bit value.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash of everything in the view that changes from decision to decision, salted by `salt`.
fn hash_view(view: &PlayerView, salt: u64) -> u64 {
    let mut h = splitmix64(salt);
    let mut mix = |v: u64| h = splitmix64(h ^ v);
    mix(u64::from(view.turn));
    mix(u64::from(view.rolls_left));
    for d in view.dice {
        mix(u64::from(d));
    }
    for card in [&view.mine, &view.theirs] {
        for b in card.boxes {
            mix(b.map_or(0xFFFF, u64::from));
        }
        mix(u64::from(card.yahtzee_bonus));
    }
    mix(u64::from(view.match_view.game));
    for g in &view.match_view.earlier {
        mix(u64::from(g.mine) << 16 | u64::from(g.theirs));
    }
    h
}

/// Keeps each die with probability 1/2 (kept dice in their current order).
pub fn keep(view: &PlayerView) -> Vec<u8> {
    let h = hash_view(view, 1);
    view.dice.iter().enumerate().filter(|&(i, _)| h >> i & 1 == 1).map(|(_, &d)| d).collect()
}

/// A uniformly random legal box (`Chance` on a full card, where nothing is legal).
pub fn choose(view: &PlayerView) -> Category {
    let legal = view.mine.legal_boxes(&view.dice);
    if legal.is_empty() {
        return Category::Chance;
    }
    let h = hash_view(view, 2);
    // Multiply-shift: unbiased enough for at most 13 choices.
    let i = ((h >> 32) * legal.len() as u64) >> 32;
    legal[i as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use yahtzee_rules::{MatchView, Scorecard};

    fn view(dice: [u8; 5], turn: u8) -> PlayerView {
        PlayerView {
            turn,
            dice,
            rolls_left: 2,
            mine: Scorecard::default(),
            theirs: Scorecard::default(),
            opponent: "x".into(),
            match_view: MatchView::default(),
        }
    }

    #[test]
    fn deterministic_and_varied() {
        let v = view([1, 2, 3, 4, 5], 1);
        assert_eq!(keep(&v), keep(&v));
        assert_eq!(choose(&v), choose(&v));
        let mut sizes = [0u32; 6];
        let mut boxes = [0u32; 13];
        for t in 0..2000u32 {
            let v = view([1, 2, 3, 4, 5], (t % 13) as u8 + 1);
            let mut v = v;
            v.match_view.game = t;
            sizes[keep(&v).len()] += 1;
            boxes[choose(&v).index()] += 1;
        }
        // Binomial(5, 1/2): 2 or 3 kept most often, and every box gets picked.
        assert!(sizes[2] > 500 && sizes[3] > 500, "{sizes:?}");
        assert!(boxes.iter().all(|&b| b > 80), "{boxes:?}");
    }
}

//! A legal but aimless Goofspiel player: bids a uniformly random card from its hand. The randomness is
//! passed in (the component draws it from WASI random, which the host seeds from the game's seed, so
//! a game stays reproducible); natively, [`splitmix64`] makes a stream of it.

use crate::View;

/// One splitmix64 step: mixes `x` into a well-spread 64-bit value.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Index `0..n` from the high half of `r` (multiply-shift; `n` ≥ 1).
fn pick(r: u64, n: usize) -> usize {
    (((r >> 32) * n as u64) >> 32) as usize
}

/// A uniformly random card of the hand, chosen by the random value `r`; 1 with an empty hand (which
/// the referee never asks).
pub fn bid(view: &View, r: u64) -> u8 {
    if view.hand.is_empty() {
        return 1;
    }
    view.hand[pick(r, view.hand.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_over_the_hand() {
        let view = View { hand: vec![2, 3, 5, 7, 11, 13], ..View::default() };
        let mut counts = [0u32; 14];
        let mut r = 1;
        for _ in 0..6_000 {
            r = splitmix64(r);
            counts[usize::from(bid(&view, r))] += 1;
        }
        for c in view.hand.iter().map(|&c| counts[usize::from(c)]) {
            assert!((800..1200).contains(&c), "{counts:?}");
        }
        assert_eq!(counts.iter().sum::<u32>(), 6_000);
        assert_eq!(bid(&View::default(), 5), 1);
    }
}

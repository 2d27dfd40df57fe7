//! A legal but aimless Santorini player: places on a uniformly random free cell and plays a uniformly
//! random legal turn. The randomness is a splitmix64 hash of the view, so the player is pure and
//! deterministic: the same view always gets the same answer, natively and in WebAssembly. The
//! `_salted` variants mix in a salt, so that a test can play many different games.

use santorini_rules::{Cell, Phase, PlayerView, Turn};

/// One splitmix64 step: mixes `x` into a well-spread 64-bit value.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash of everything in the view, salted by `salt`.
pub fn hash_view(view: &PlayerView, salt: u64) -> u64 {
    let mut h = splitmix64(salt);
    let mut mix = |v: u64| h = splitmix64(h ^ v);
    mix(u64::from(view.me));
    let s = &view.state;
    for chunk in s.heights.chunks(8) {
        mix(chunk.iter().fold(0u64, |acc, &x| acc << 8 | u64::from(x)));
    }
    for ws in &s.workers {
        for w in ws {
            mix(w.map_or(0xFFFF, |c| u64::from(c.row) << 8 | u64::from(c.col)));
        }
    }
    mix(u64::from(s.turn));
    mix(match s.phase {
        Phase::Placement => 1,
        Phase::Playing => 2,
        Phase::Over { winner } => 3 + u64::from(winner),
    });
    h
}

/// An unbiased-enough index below `n` (`n` > 0) from a hash.
fn pick(h: u64, n: usize) -> usize {
    (((h >> 32) * n as u64) >> 32) as usize
}

/// A uniformly random free cell; `(0,0)` when no placement is legal (not during the placement).
pub fn place(view: &PlayerView) -> Cell {
    place_salted(view, 0)
}

/// [`place`] with a salt mixed into the hash.
pub fn place_salted(view: &PlayerView, salt: u64) -> Cell {
    let legal = view.state.legal_placements();
    if legal.is_empty() {
        return Cell::default();
    }
    legal[pick(hash_view(view, salt ^ 0x5EED_0001), legal.len())]
}

/// A uniformly random legal turn; worker 0 to `(0,0)` without a build when no turn is legal (not
/// while the game is being played).
pub fn take_turn(view: &PlayerView) -> Turn {
    take_turn_salted(view, 0)
}

/// [`take_turn`] with a salt mixed into the hash.
pub fn take_turn_salted(view: &PlayerView, salt: u64) -> Turn {
    let legal = view.state.legal_turns();
    if legal.is_empty() {
        return Turn { worker: 0, to: Cell::default(), build: None };
    }
    legal[pick(hash_view(view, salt ^ 0x5EED_0002), legal.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use santorini_rules::State;

    #[test]
    fn deterministic_legal_and_varied() {
        let mut s = State::new();
        for cell in [Cell::new(1, 1), Cell::new(3, 3), Cell::new(1, 3), Cell::new(3, 1)] {
            s = s.place(cell).unwrap();
        }
        let view = PlayerView { me: 0, state: s };
        assert_eq!(take_turn(&view), take_turn(&view));
        let legal = s.legal_turns();
        let mut counts = vec![0u32; legal.len()];
        for salt in 0..20_000u64 {
            let t = take_turn_salted(&view, salt);
            counts[legal.iter().position(|&l| l == t).unwrap()] += 1;
        }
        // Roughly uniform over the legal turns.
        let mean = 20_000 / legal.len() as u32;
        assert!(counts.iter().all(|&c| c > mean / 2 && c < mean * 2), "{counts:?}");
        let v0 = PlayerView { me: 0, state: State::new() };
        let mut cells = std::collections::BTreeSet::new();
        for salt in 0..500 {
            cells.insert(place_salted(&v0, salt));
        }
        assert_eq!(cells.len(), 25);
    }
}

//! A legal but aimless Fish player: places and moves uniformly at random among the legal choices. The
//! randomness is a splitmix64 hash of the view, so the player is pure and deterministic: the same view
//! always gets the same answer, natively and in WebAssembly.

use fish_rules::{Move, Phase, PlayerView, Pos};

/// One splitmix64 step: mixes `x` into a well-spread 64-bit value.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash of everything in the view that changes from decision to decision, salted by `salt`.
fn hash_view(view: &PlayerView, salt: u64) -> u64 {
    let s = &view.state;
    let mut h = splitmix64(salt);
    let mut mix = |v: u64| h = splitmix64(h ^ v);
    mix(u64::from(view.me));
    mix(u64::from(s.turn));
    mix(match s.phase {
        Phase::Placement => 1,
        Phase::Playing => 2,
        Phase::Over => 3,
    });
    mix(u64::from(s.board.rows) << 8 | u64::from(s.board.cols));
    for chunk in s.board.tiles.chunks(8) {
        mix(chunk.iter().fold(0u64, |acc, &t| acc << 8 | u64::from(t)));
    }
    for seat in &s.players {
        mix(u64::from(seat.fish) << 1 | u64::from(seat.out));
        for p in &seat.penguins {
            mix(u64::from(p.row) << 8 | u64::from(p.col));
        }
    }
    mix(view.actions_since.len() as u64);
    h
}

/// Index `0..n` from the high half of `h` (multiply-shift; n ≥ 1).
fn pick(h: u64, n: usize) -> usize {
    (((h >> 32) * n as u64) >> 32) as usize
}

/// A uniformly random free tile (`(0,0)` if there is none, which only happens outside placement).
pub fn place(view: &PlayerView) -> Pos {
    let spots = view.state.legal_placements();
    if spots.is_empty() {
        return Pos::default();
    }
    spots[pick(hash_view(view, 1), spots.len())]
}

/// A uniformly random legal move (`(0,0)->(0,0)` if there is none, which only happens when the seat
/// is not to move).
pub fn take_turn(view: &PlayerView) -> Move {
    let moves = view.state.legal_moves();
    if moves.is_empty() {
        return Move { from: Pos::default(), to: Pos::default() };
    }
    moves[pick(hash_view(view, 2), moves.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use fish_rules::{Board, State};

    #[test]
    fn deterministic_and_varied() {
        let state = State::new(Board::generate(5, 6, 6, 0).unwrap(), 2).unwrap();
        let view = PlayerView { me: 0, state: state.clone(), actions_since: vec![] };
        assert_eq!(place(&view), place(&view));
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200 {
            let state = State::new(Board::generate(seed, 6, 6, 0).unwrap(), 2).unwrap();
            let view = PlayerView { me: 0, state, actions_since: vec![] };
            let p = place(&view);
            assert!(view.state.legal_placements().contains(&p));
            seen.insert(p);
        }
        // 200 draws over 36 tiles: nearly all of them come up.
        assert!(seen.len() > 30, "{}", seen.len());
    }
}

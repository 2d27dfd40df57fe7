//! {{name}}'s rules, pure: heaps of stones; the players take turns taking one or more stones from one
//! heap; whoever takes the last stone wins.

use arena_referee::rng::{SplitMix, mix};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub heaps: Vec<u32>,
    /// The seat to move (0 or 1).
    pub turn: usize,
    /// Who took the last stone.
    pub winner: Option<usize>,
}

impl Position {
    /// `heaps` heaps of 1 to 7 stones each, drawn from `seed` (SplitMix64, the kit's: the seed is the
    /// game's only source of chance, so a seed always gives the same game).
    pub fn new(seed: u64, heaps: usize) -> Position {
        let mut r = SplitMix::new(mix(seed));
        let heaps = (0..heaps).map(|_| 1 + (r.draw() % 7) as u32).collect();
        Position { heaps, turn: 0, winner: None }
    }

    /// Seat `seat` takes `count` stones from heap `heap`; a move the rules refuse changes nothing.
    pub fn take(&mut self, seat: usize, heap: u32, count: u32) -> Result<(), String> {
        if self.winner.is_some() {
            return Err("the game is over".into());
        }
        if seat != self.turn {
            return Err(format!("it is seat {}'s turn, not seat {seat}'s", self.turn));
        }
        let Some(stones) = self.heaps.get(heap as usize).copied() else {
            return Err(format!("there is no heap {heap} (there are {})", self.heaps.len()));
        };
        if count == 0 || count > stones {
            return Err(format!("cannot take {count} from heap {heap}, which has {stones}"));
        }
        self.heaps[heap as usize] -= count;
        if self.heaps.iter().all(|&h| h == 0) {
            self.winner = Some(seat);
        }
        self.turn = 1 - self.turn;
        Ok(())
    }

    /// The heaps as text: `3 0 5`.
    pub fn render(&self) -> String {
        self.heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_heaps_and_the_last_stone_wins() {
        assert_eq!(Position::new(7, 3), Position::new(7, 3));
        let mut g = Position { heaps: vec![1, 2], turn: 0, winner: None };
        assert!(g.take(0, 1, 3).is_err(), "more than the heap holds");
        assert!(g.take(1, 0, 1).is_err(), "out of turn");
        g.take(0, 1, 2).unwrap();
        g.take(1, 0, 1).unwrap();
        assert_eq!(g.winner, Some(1));
    }
}

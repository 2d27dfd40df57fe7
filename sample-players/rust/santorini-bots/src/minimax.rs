//! An alpha-beta minimax Santorini player.
//!
//! Turns are searched [`DEPTH`] whole turns deep (negamax with alpha-beta pruning) on the rules crate
//! itself: [`State::legal_turns`] generates, [`State::play`] applies, so the search can only ever
//! consider legal turns. Every node first checks whether the player to act can win at once (a worker
//! on level 2 next to a free level 3): that ends the line without expanding it, which also lets the
//! search see one turn further for the most important tactic. Turns are ordered before searching
//! (wins, climbs, blocks first) so that alpha-beta prunes well, and the leaves are scored by a
//! heuristic:
//!
//! * the height each worker stands on, and a little for standing near the centre;
//! * the free cells each worker can reach, more for the ones one level up;
//! * the opponent's threats (level-3 cells next to its level-2 workers) when it is not to act: one
//!   must be blocked, two can rarely both be;
//! * how far each worker is from the opponent's raised workers (to be able to block them).
//!
//! Wins score [`WIN`] less the number of turns to reach them, so the player wins as early and loses
//! as late as it can. Pure and deterministic: integer scores, ties broken by the rules' order of
//! legal turns. Natively a decision takes at most a few milliseconds (see the crate's tests).
//!
//! Workers are placed as near the centre as possible, the second one next to the first and near the
//! opponent's.

use santorini_rules::{CELLS, Cell, DOME, Phase, PlayerView, State, Turn, WIN_LEVEL};

/// Whole turns searched by [`take_turn`].
pub const DEPTH: u32 = 3;

/// The score of a win now; a win in `n` turns scores `WIN - n`.
pub const WIN: i32 = 1_000_000;

/// The result of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub turn: Turn,
    /// From the point of view of the player to act: above `WIN - 100` a forced win, below
    /// `-(WIN - 100)` a forced loss.
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
}

/// Bit mask of the cells with a worker.
fn occupied(s: &State) -> u32 {
    let mut m = 0;
    for c in s.workers.iter().flatten().flatten() {
        if c.is_on_board() {
            m |= 1 << c.index();
        }
    }
    m
}

fn positions(s: &State, player: usize) -> impl Iterator<Item = usize> + '_ {
    s.workers[player].iter().flatten().filter(|c| c.is_on_board()).map(|c| c.index())
}

fn neighbours(i: usize) -> &'static [u8] {
    Cell::from_index(i).map_or(&[], Cell::neighbour_indices)
}

/// Bit mask of the free level-3 cells next to `player`'s level-2 workers: where it wins by moving.
fn threats(s: &State, player: usize, occ: u32) -> u32 {
    let mut m = 0;
    for w in positions(s, player) {
        if s.heights[w] == WIN_LEVEL - 1 {
            for &n in neighbours(w) {
                if s.heights[usize::from(n)] == WIN_LEVEL && occ & (1 << n) == 0 {
                    m |= 1 << n;
                }
            }
        }
    }
    m
}

/// Value of standing on each height.
const HEIGHT: [i32; 5] = [0, 40, 120, 90, 0];
/// Value of each free cell a worker can step up to, by the worker's height.
const STEP_UP: [i32; 5] = [10, 25, 0, 0, 0];
/// Value of the centre, by cell index: the number of neighbours, less 3.
const CENTRE: [i32; CELLS] = {
    let mut t = [0; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = ((i / 5) as i32, (i % 5) as i32);
        let edge_r = r == 0 || r == 4;
        let edge_c = c == 0 || c == 4;
        t[i] = match (edge_r, edge_c) {
            (true, true) => 0,
            (true, false) | (false, true) => 4,
            (false, false) => if r == 2 && c == 2 { 12 } else { 10 },
        };
        i += 1;
    }
    t
};

fn worker_value(s: &State, occ: u32, w: usize) -> i32 {
    let h = usize::from(s.heights[w].min(DOME));
    let mut v = HEIGHT[h] + CENTRE[w];
    for &n in neighbours(w) {
        let hn = usize::from(s.heights[usize::from(n)]);
        if occ & (1 << n) != 0 || hn >= usize::from(DOME) || hn > h + 1 {
            continue;
        }
        v += 3;
        if hn == h + 1 {
            v += STEP_UP[h];
        }
    }
    v
}

/// The heuristic value of `s` for `side`, who is to act and cannot win at once.
fn evaluate(s: &State, side: usize) -> i32 {
    let occ = occupied(s);
    let other = 1 - side;
    let mut v = 0;
    for w in positions(s, side) {
        v += worker_value(s, occ, w);
    }
    for w in positions(s, other) {
        v -= worker_value(s, occ, w);
    }
    // The opponent's threats: `side` must block them on this turn.
    v -= match threats(s, other, occ).count_ones() {
        0 => 0,
        1 => 60,
        _ => 500,
    };
    // Stay near the opponent's raised workers.
    for o in positions(s, other) {
        if s.heights[o] >= 1 {
            let oc = Cell::from_index(o).unwrap_or_default();
            let d = positions(s, side).map(|w| Cell::from_index(w).unwrap_or_default().distance(oc)).min().unwrap_or(4);
            v -= 4 * i32::from(d.saturating_sub(1)) * i32::from(s.heights[o]);
        }
    }
    for m in positions(s, side) {
        if s.heights[m] >= 1 {
            let mc = Cell::from_index(m).unwrap_or_default();
            let d = positions(s, other).map(|w| Cell::from_index(w).unwrap_or_default().distance(mc)).min().unwrap_or(4);
            v += 4 * i32::from(d.saturating_sub(1)) * i32::from(s.heights[m]);
        }
    }
    v
}

/// A cheap guess of how good `t` is for the player to act, to search the best turns first.
fn order_key(s: &State, side: usize, t: &Turn) -> i32 {
    let Some(b) = t.build else {
        return i32::MAX; // a win
    };
    let from = s.workers[side][usize::from(t.worker)].map_or(0, |c| s.height(c));
    let (hf, ht) = (i32::from(from), i32::from(s.height(t.to)));
    let mut k = 10 * ht + 5 * (ht - hf).max(-1);
    let hb = s.height(b);
    for o in positions(s, 1 - side) {
        let oc = Cell::from_index(o).unwrap_or_default();
        if !oc.is_adjacent(b) {
            continue;
        }
        let ho = s.heights[o];
        if hb == WIN_LEVEL && ho == WIN_LEVEL - 1 {
            k += 100; // domes a winning cell
        } else if hb + 1 == WIN_LEVEL && ho == WIN_LEVEL - 1 {
            k -= 100; // offers a win
        } else if hb == ho {
            k -= 3; // offers a step up
        }
    }
    if hb == s.height(t.to) && hb < WIN_LEVEL {
        k += 4; // a step up for the moved worker
    }
    k
}

struct Search {
    nodes: u64,
    /// One turn buffer per ply, reused.
    buffers: Vec<Vec<(i32, Turn)>>,
}

impl Search {
    /// The legal turns of `s`, best guesses first (stable: ties keep the rules' order).
    fn ordered(&mut self, s: &State, ply: usize) -> Vec<(i32, Turn)> {
        let mut buf = self.buffers.get_mut(ply).map(std::mem::take).unwrap_or_default();
        buf.clear();
        let side = usize::from(s.turn != 0);
        s.for_each_turn(|t| buf.push((order_key(s, side, &t), t)));
        buf.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        buf
    }

    fn give_back(&mut self, ply: usize, buf: Vec<(i32, Turn)>) {
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = buf;
    }

    /// Negamax value of `s` for `side`, who is to act there (unless the game is over).
    fn negamax(&mut self, s: &State, side: usize, depth: u32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let ply_i = ply as i32;
        match s.phase {
            Phase::Over { winner } => {
                return if usize::from(winner) == side { WIN - ply_i } else { -(WIN - ply_i) };
            }
            Phase::Playing => {}
            Phase::Placement => return 0,
        }
        let occ = occupied(s);
        if threats(s, side, occ) != 0 {
            return WIN - ply_i - 1;
        }
        if depth == 0 {
            return evaluate(s, side);
        }
        let turns = self.ordered(s, ply);
        let mut best = -WIN - 1;
        for &(_, t) in &turns {
            let Ok(next) = s.play(t) else {
                continue;
            };
            let v = -self.negamax(&next, 1 - side, depth - 1, ply + 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.give_back(ply, turns);
        best
    }
}

/// Searches `depth` whole turns (at least 1) from the view's state for the player to act; `None`
/// unless the game is being played.
pub fn decide(view: &PlayerView, depth: u32) -> Option<Decision> {
    let s = &view.state;
    if s.phase != Phase::Playing {
        return None;
    }
    let side = usize::from(s.turn != 0);
    let mut search = Search { nodes: 1, buffers: Vec::new() };
    let turns = search.ordered(s, 0);
    let (_, first) = *turns.first()?;
    if first.build.is_none() {
        return Some(Decision { turn: first, score: WIN - 1, nodes: 1 });
    }
    let mut best = Decision { turn: first, score: -WIN - 1, nodes: 0 };
    let mut alpha = -WIN - 1;
    for &(_, t) in &turns {
        let Ok(next) = s.play(t) else {
            continue;
        };
        let v = -search.negamax(&next, 1 - side, depth.max(1) - 1, 1, -WIN - 1, -alpha);
        if v > best.score {
            best.turn = t;
            best.score = v;
            alpha = alpha.max(v);
        }
    }
    best.nodes = search.nodes;
    Some(best)
}

/// The best turn found by a [`DEPTH`]-turn search; worker 0 to `(0,0)` without a build when no turn
/// is legal (not while the game is being played).
pub fn take_turn(view: &PlayerView) -> Turn {
    match decide(view, DEPTH) {
        Some(d) => d.turn,
        None => Turn { worker: 0, to: Cell::default(), build: None },
    }
}

/// The free cell nearest the centre; the second worker goes next to the first, and near the
/// opponent's workers. `(0,0)` when no placement is legal.
pub fn place(view: &PlayerView) -> Cell {
    let s = &view.state;
    let centre = Cell::new(2, 2);
    let me = s.next_worker().map_or(0, |w| usize::from(w.player));
    let mine: Vec<Cell> = s.workers[me].iter().flatten().copied().collect();
    let theirs: Vec<Cell> = s.workers[1 - me].iter().flatten().copied().collect();
    let score = |c: Cell| {
        let manhattan = i32::from(c.row.abs_diff(2) + c.col.abs_diff(2));
        let mut v = -10 * i32::from(c.distance(centre)) - manhattan;
        for m in &mine {
            if c.distance(*m) == 1 {
                v += 6;
            }
        }
        for o in &theirs {
            if c.distance(*o) <= 1 {
                v += 3;
            }
        }
        v
    };
    let mut best: Option<(i32, Cell)> = None;
    for c in s.legal_placements() {
        let v = score(c);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, c));
        }
    }
    best.map_or(Cell::default(), |(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_in_the_centre() {
        let s = State::new();
        let a = place(&PlayerView { me: 0, state: s });
        assert_eq!(a, Cell::new(2, 2));
        let s = s.place(a).unwrap();
        let b = place(&PlayerView { me: 0, state: s });
        assert_eq!(a.distance(b), 1);
        let s = s.place(b).unwrap();
        let c = place(&PlayerView { me: 1, state: s });
        assert!(s.is_legal_place(c) && c.distance(Cell::new(2, 2)) == 1);
    }

    #[test]
    fn takes_a_win_and_blocks_a_threat() {
        let mut s = State::new();
        for cell in [Cell::new(1, 1), Cell::new(4, 4), Cell::new(3, 3), Cell::new(0, 4)] {
            s = s.place(cell).unwrap();
        }
        // A1 on level 2 next to a level 3: take it.
        s.heights[Cell::new(1, 1).index()] = 2;
        s.heights[Cell::new(1, 2).index()] = 3;
        let t = take_turn(&PlayerView { me: 0, state: s });
        assert_eq!(t, Turn { worker: 0, to: Cell::new(1, 2), build: None });
        // The same threat for B, with A unable to win: A must dome (1,2) or stand on it.
        let mut b = s;
        b.workers = [[Some(Cell::new(3, 3)), Some(Cell::new(0, 4))], [Some(Cell::new(1, 1)), Some(Cell::new(4, 4))]];
        b.heights[Cell::new(2, 2).index()] = 1;
        let view = PlayerView { me: 0, state: b };
        let t = take_turn(&view);
        let next = b.play(t).unwrap();
        assert!(next.height(Cell::new(1, 2)) == DOME || next.worker_at(Cell::new(1, 2)).is_some(), "{t:?}");
        let d = decide(&view, DEPTH).unwrap();
        assert!(d.score > -(WIN - 100), "{d:?}");
    }
}

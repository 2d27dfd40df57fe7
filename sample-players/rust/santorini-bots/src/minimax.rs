//! An alpha-beta minimax Santorini player.
//!
//! Turns are searched [`DEPTH`] whole turns deep (negamax with alpha-beta pruning and iterative
//! deepening) on the rules crate: [`State::for_each_turn`] generates the turns of every inner
//! position and [`State::apply`] plays them, so the search only ever considers legal turns, and the
//! answer is one of [`State::legal_turns`].
//!
//! * Every position first checks whether the player to act can win at once (a worker on level 2
//!   next to a free level 3): that ends the line without expanding it, which lets the search see
//!   one turn further for the most important tactic.
//! * The last turn of the search is not played through the rules but scored on bit masks
//!   ([`Board`]): moving the worker and building one level is all that changes, plus the two ways a
//!   game ends (an opponent left without a move, a threat the opponent can take at once). Those
//!   positions are nearly all of the search, and evaluating them in a few hundred instructions each
//!   is what keeps a decision cheap.
//! * Elsewhere turns are ordered before searching (wins, climbs, blocks first; the root by the
//!   previous iteration's scores) so that alpha-beta prunes well.
//!
//! The heuristic, for the player to act, less the same for the opponent:
//!
//! * the height each worker stands on, and a little for standing near the centre;
//! * the free cells each worker can reach, more for the ones one level up;
//! * the opponent's threats (level-3 cells next to its level-2 workers): one must be blocked at
//!   once, two can rarely both be;
//! * how far each raised worker is from the opponent's workers (far means hard to stop).
//!
//! Wins score [`WIN`] less the number of turns to reach them, so the player wins as early and loses
//! as late as it can. A search gives up an iteration that would visit more than [`NODE_BUDGET`]
//! positions and answers with the previous one, so a decision has a hard bound on its cost.
//!
//! Pure and deterministic: integer scores, ties broken by the rules' order of legal turns.
//!
//! Workers are placed as near the centre as possible, the second one next to the first and near the
//! opponent's.

use santorini_rules::{CELLS, Cell, DOME, Phase, PlayerView, State, Turn, WIN_LEVEL};

/// Whole turns searched by [`take_turn`].
pub const DEPTH: u32 = 3;

/// Beyond this many positions in all, a search gives up its deepest iteration.
pub const NODE_BUDGET: u64 = 60_000;

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
    /// Whole turns searched (the last complete iteration).
    pub depth: u32,
}

/// For each cell index, the bit mask of its neighbours.
const NEIGHBOURS: [u32; CELLS] = {
    let mut t = [0u32; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = ((i / 5) as i32, (i % 5) as i32);
        let mut j = 0;
        while j < CELLS {
            let (dr, dc) = ((j / 5) as i32 - r, (j % 5) as i32 - c);
            if j != i && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1 {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// King-step distance between two cell indices.
const DISTANCE: [[u8; CELLS]; CELLS] = {
    let mut t = [[0u8; CELLS]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < CELLS {
            let dr = ((i / 5) as i32 - (j / 5) as i32).abs();
            let dc = ((i % 5) as i32 - (j % 5) as i32).abs();
            t[i][j] = if dr > dc { dr as u8 } else { dc as u8 };
            j += 1;
        }
        i += 1;
    }
    t
};

/// Value of standing on each height.
const HEIGHT: [i32; 4] = [0, 40, 120, 90];
/// Value of each free cell a worker can step up to, by the worker's height.
const STEP_UP: [i32; 4] = [10, 25, 0, 0];
/// Value of each free cell a worker can reach.
const MOBILITY: i32 = 3;
/// Value of the centre, by cell index: corners 0, edges 4, inner ring 10, centre 12.
const CENTRE: [i32; CELLS] = [
    0, 4, 4, 4, 0, //
    4, 10, 10, 10, 4, //
    4, 10, 12, 10, 4, //
    4, 10, 10, 10, 4, //
    0, 4, 4, 4, 0, //
];
/// Cost of the opponent's threats (free level-3 cells next to its level-2 workers) when it is not to
/// act: none, one (which must be blocked now), two or more (rarely all blockable).
const THREATS: [i32; 3] = [0, 60, 500];
/// Value per step of distance (beyond adjacent) from the nearest opponent, per level of a worker.
const CHASE: i32 = 4;

/// A valid position in play as bit masks over cell indices: what the heuristic reads, cheap to copy
/// and to update by one turn.
#[derive(Clone, Copy)]
struct Board {
    heights: [u8; CELLS],
    /// Cells with a worker.
    occupied: u32,
    /// `level[h]`: cells of height `h` (4: domes).
    level: [u32; 5],
    /// `at_least[h]`: cells of height `h` or more (`at_least[5]` is empty).
    at_least: [u32; 6],
    /// `workers[player][worker]`: cell indices.
    workers: [[usize; 2]; 2],
}

impl Board {
    /// The board of a valid state in play.
    fn new(s: &State) -> Board {
        let mut level = [0u32; 5];
        for (i, &h) in s.heights.iter().enumerate() {
            level[usize::from(h.min(DOME))] |= 1 << i;
        }
        let mut at_least = [0u32; 6];
        for h in (0..5).rev() {
            at_least[h] = at_least[h + 1] | level[h];
        }
        let mut workers = [[0; 2]; 2];
        let mut occupied = 0;
        for (p, ws) in s.workers.iter().enumerate() {
            for (w, c) in ws.iter().enumerate() {
                let i = c.map_or(0, |c| c.index());
                workers[p][w] = i;
                occupied |= 1 << i;
            }
        }
        Board { heights: s.heights, occupied, level, at_least, workers }
    }

    fn height(&self, i: usize) -> usize {
        usize::from(self.heights[i])
    }

    /// Cells a worker could step on: no worker, no dome.
    fn free(&self) -> u32 {
        !self.occupied & !self.level[usize::from(DOME)]
    }

    /// The cells worker at `w` can move to.
    fn moves(&self, w: usize) -> u32 {
        NEIGHBOURS[w] & self.free() & !self.at_least[self.height(w) + 2]
    }

    fn can_move(&self, player: usize) -> bool {
        self.moves(self.workers[player][0]) | self.moves(self.workers[player][1]) != 0
    }

    /// The free level-3 cells next to `player`'s level-2 workers: where it wins by moving.
    fn threats(&self, player: usize) -> u32 {
        let mut m = 0;
        for w in self.workers[player] {
            if self.height(w) == usize::from(WIN_LEVEL - 1) {
                m |= NEIGHBOURS[w];
            }
        }
        m & self.level[usize::from(WIN_LEVEL)] & !self.occupied
    }

    /// The board after `side` plays `t`, a legal turn that does not win.
    fn after(&self, side: usize, t: &Turn) -> Board {
        let mut n = *self;
        let w = usize::from(t.worker & 1);
        let (from, to) = (self.workers[side][w], t.to.index());
        n.workers[side][w] = to;
        n.occupied ^= 1 << from | 1 << to;
        if let Some(b) = t.build {
            let (bi, bit) = (b.index(), 1 << b.index());
            let h = n.height(bi);
            n.heights[bi] += 1;
            n.level[h] ^= bit;
            n.level[h + 1] |= bit;
            n.at_least[h + 1] |= bit;
        }
        n
    }

    fn worker_value(&self, w: usize) -> i32 {
        let h = self.height(w).min(3);
        let free = NEIGHBOURS[w] & self.free();
        let reachable = free & !self.at_least[h + 2];
        let up = if h < 3 { free & self.level[h + 1] } else { 0 };
        HEIGHT[h] + CENTRE[w] + MOBILITY * reachable.count_ones() as i32 + STEP_UP[h] * up.count_ones() as i32
    }

    /// How much the heights of `player`'s workers are worth in view of the other's workers' distance.
    fn chase(&self, player: usize) -> i32 {
        let [o1, o2] = self.workers[1 - player];
        let mut v = 0;
        for w in self.workers[player] {
            let d = DISTANCE[w][o1].min(DISTANCE[w][o2]);
            v += CHASE * i32::from(d.saturating_sub(1)) * self.height(w) as i32;
        }
        v
    }

    /// The heuristic value for `side`, who is to act and cannot win at once.
    fn evaluate(&self, side: usize) -> i32 {
        let other = 1 - side;
        let [a, b] = self.workers[side];
        let [c, d] = self.workers[other];
        let mut v = self.worker_value(a) + self.worker_value(b) - self.worker_value(c) - self.worker_value(d);
        v += self.chase(side) - self.chase(other);
        v - THREATS[(self.threats(other).count_ones() as usize).min(2)]
    }

    /// The value for `side` (to act) of the board after it plays `t` (legal, not winning), seen from
    /// `side`, `ply` turns from the root: searched no further.
    fn leaf(&self, side: usize, t: &Turn, ply: i32) -> i32 {
        let n = self.after(side, t);
        let other = 1 - side;
        if !n.can_move(other) {
            WIN - ply - 1
        } else if n.threats(other) != 0 {
            -(WIN - ply - 2)
        } else {
            -n.evaluate(other)
        }
    }
}

/// What move ordering needs to know about a position.
struct Order {
    /// Cells next to an opponent's level-2 worker.
    danger: u32,
    /// `beside[h]`: cells next to an opponent's worker on height `h`.
    beside: [u32; 5],
    /// The heights of the workers of the player to act.
    from: [i32; 2],
}

impl Order {
    fn new(b: &Board, side: usize) -> Order {
        let mut beside = [0u32; 5];
        for o in b.workers[1 - side] {
            beside[b.height(o)] |= NEIGHBOURS[o];
        }
        let from = b.workers[side].map(|w| b.height(w) as i32);
        Order { danger: beside[usize::from(WIN_LEVEL - 1)], beside, from }
    }

    /// A cheap guess of how good `t` is for the player to act, to search the best turns first.
    fn key(&self, b: &Board, t: &Turn) -> i32 {
        let Some(build) = t.build else {
            return i32::MAX; // a win
        };
        let hf = self.from[usize::from(t.worker & 1)];
        let ht = b.height(t.to.index()) as i32;
        let mut k = 16 * ht + 8 * (ht - hf).max(-1);
        let bi = build.index();
        let hb = b.height(bi);
        let bit = 1 << bi;
        if self.danger & bit != 0 {
            match hb {
                3 => k += 100, // domes a winning cell
                2 => k -= 100, // offers a win
                _ => {}
            }
        }
        if self.beside[hb] & bit != 0 {
            k -= 3; // offers a step up
        }
        if hb as i32 == ht && hb < 3 {
            k += 4; // a step up for the moved worker
        }
        k
    }
}

/// Moves the best-keyed turn of `turns[i..]` to `i` (the first of equals): a lazy sort, since most
/// ordered positions are cut off after a turn or two; after a few turns, sorts the rest at once.
fn select(turns: &mut [(i32, Turn)], i: usize) {
    const LAZY: usize = 3;
    if i < LAZY {
        let mut best = i;
        for j in i + 1..turns.len() {
            if turns[j].0 > turns[best].0 {
                best = j;
            }
        }
        turns[i..=best].rotate_right(1);
    } else if i == LAZY {
        turns[i..].sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    }
}

struct Search {
    nodes: u64,
    budget: u64,
    /// One turn buffer per ply, reused.
    buffers: Vec<Vec<(i32, Turn)>>,
}

impl Search {
    /// The legal turns of `s` with their ordering keys, in the rules' order.
    fn turns(&mut self, s: &State, b: &Board, side: usize, ply: usize) -> Vec<(i32, Turn)> {
        let mut buf = self.buffers.get_mut(ply).map(std::mem::take).unwrap_or_default();
        buf.clear();
        let order = Order::new(b, side);
        s.for_each_turn(|t| buf.push((order.key(b, &t), t)));
        buf
    }

    fn give_back(&mut self, ply: usize, buf: Vec<(i32, Turn)>) {
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = buf;
    }

    /// Negamax value of `s` for `side`, who is to act there (unless the game is over), searching
    /// `depth` more turns; `None` once the node budget is spent.
    fn negamax(&mut self, s: &State, side: usize, depth: u32, ply: usize, mut alpha: i32, beta: i32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let ply_i = ply as i32;
        match s.phase {
            Phase::Over { winner } => {
                return Some(if usize::from(winner) == side { WIN - ply_i } else { -(WIN - ply_i) });
            }
            Phase::Playing => {}
            Phase::Placement => return Some(0),
        }
        let b = Board::new(s);
        if b.threats(side) != 0 {
            return Some(WIN - ply_i - 1);
        }
        if depth == 0 {
            return Some(b.evaluate(side));
        }
        let mut best = -WIN - 1;
        let mut turns = self.turns(s, &b, side, ply);
        for i in 0..turns.len() {
            select(&mut turns, i);
            let t = turns[i].1;
            let v = if depth == 1 {
                // The last turn: scored on the board (no turn wins here: there is no threat).
                self.nodes += 1;
                b.leaf(side, &t, ply_i)
            } else {
                let next = s.apply(t);
                -self.negamax(&next, 1 - side, depth - 1, ply + 1, -beta, -alpha)?
            };
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
        Some(best)
    }
}

/// Searches `depth` whole turns (at least 1) from the view's state for the player to act, with
/// iterative deepening: each iteration searches the root turns best first by the previous one. An
/// iteration that would take the positions visited in all beyond `budget` is abandoned for the
/// previous one's answer (the first iteration always completes). `None` unless the game is being
/// played in a valid state.
pub fn decide_within(view: &PlayerView, depth: u32, budget: u64) -> Option<Decision> {
    let s = &view.state;
    if s.phase != Phase::Playing || !s.is_valid() {
        return None;
    }
    let side = usize::from(s.turn);
    let mut search = Search { nodes: 1, budget: u64::MAX, buffers: Vec::new() };
    let b = Board::new(s);
    let mut root = search.turns(s, &b, side, 0);
    root.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    let (_, first) = *root.first()?;
    if first.build.is_none() {
        return Some(Decision { turn: first, score: WIN - 1, nodes: 1, depth: 1 });
    }
    let mut best = Decision { turn: first, score: 0, nodes: 0, depth: 0 };
    for d in 1..=depth.max(1) {
        let mut alpha = -WIN - 1;
        let mut found = Decision { turn: first, score: -WIN - 1, nodes: 0, depth: d };
        let mut complete = true;
        for entry in root.iter_mut() {
            let next = s.apply(entry.1);
            let Some(v) = search.negamax(&next, 1 - side, d - 1, 1, -WIN - 1, -alpha) else {
                complete = false;
                break;
            };
            let v = -v;
            // The next iteration's order: the best exactly, upper bounds for the others.
            entry.0 = v;
            if v > found.score {
                found.turn = entry.1;
                found.score = v;
                alpha = alpha.max(v);
            }
        }
        if !complete {
            break;
        }
        best = found;
        if best.score.abs() > WIN - 100 {
            break; // a forced result: searching deeper will not change it
        }
        root.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        search.budget = budget;
    }
    best.nodes = search.nodes;
    Some(best)
}

/// [`decide_within`] without a node budget.
pub fn decide(view: &PlayerView, depth: u32) -> Option<Decision> {
    decide_within(view, depth, u64::MAX)
}

/// The best turn found by a [`DEPTH`]-turn search within [`NODE_BUDGET`] positions; the first legal
/// turn in a malformed state, and worker 0 to `(0,0)` without a build when no turn is legal (not
/// while the game is being played).
pub fn take_turn(view: &PlayerView) -> Turn {
    match decide_within(view, DEPTH, NODE_BUDGET) {
        Some(d) => d.turn,
        None => {
            view.state.legal_turns().first().copied().unwrap_or(Turn { worker: 0, to: Cell::default(), build: None })
        }
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

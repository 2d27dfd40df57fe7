//! An alpha-beta minimax Santorini player.
//!
//! Turns are searched [`DEPTH`] whole turns deep (negamax with alpha-beta pruning, principal
//! variation search and iterative deepening) on the rules crate: [`State::for_each_turn`] generates
//! the turns of every inner position and [`State::apply`] plays them, so the search only ever
//! considers legal turns, and the answer is one of [`State::legal_turns`].
//!
//! * Every position first checks whether the player to act can win at once (a worker on level 2
//!   next to a free level 3): that ends the line without expanding it, which lets the search see
//!   one turn further for the most important tactic.
//! * The last turn of the search is not played through the rules but scored on bit masks: moving
//!   the worker and building one level is all that changes, plus the two ways a game ends (an
//!   opponent left without a move, a threat the opponent can take at once). Those leaves are nearly
//!   all of the search, and scoring them this way is what keeps a decision cheap. Tests check the
//!   masks' moves, builds and outcomes against the rules on thousands of positions.
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
//! as late as it can.
//!
//! # Cost
//!
//! A search gives up an iteration that would take its work beyond [`WORK_BUDGET`] and answers with
//! the previous iteration's turn, so a decision has a hard bound on its cost. One unit of work
//! ([`Decision::work`]) is about 450 native x86-64 instructions and 1,100 units of wasmtime fuel
//! (measured on the guest component); over 13,000 middle-game positions (the `decision_cost` test)
//! a decision takes 3,100 units on average (about 3.5 M fuel, 0.2 ms natively) and at most about
//! 21,000 (about 23 M fuel, under 1 ms natively), and no search was cut short. The budget bounds any
//! decision at about 40 M fuel.
//!
//! Pure and deterministic: integer scores, ties broken by the rules' order of legal turns.
//!
//! Workers are placed as near the centre as possible, the second one next to the first and near the
//! opponent's.

use santorini_rules::{CELLS, Cell, DOME, Phase, PlayerView, State, Turn, WIN_LEVEL};

/// Whole turns searched by [`take_turn`].
pub const DEPTH: u32 = 3;

/// Beyond this much work in all (see [`Decision::work`]), a search gives up its deepest iteration.
pub const WORK_BUDGET: u64 = 35_000;

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
    /// Work done, in units of about one scored leaf (a few hundred instructions): 1 per leaf, 3 per
    /// position whose turns are scored as leaves, 20 per position searched further.
    pub work: u64,
    /// Whole turns searched (the last complete iteration).
    pub depth: u32,
}

/// Tables by cell index have 32 entries and are read at `i & 31`, which needs no bounds check.
const TABLE: usize = 32;

/// For each cell index, the bit mask of its neighbours.
const NEIGHBOURS: [u32; TABLE] = {
    let mut t = [0u32; TABLE];
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

fn neighbours(i: usize) -> u32 {
    NEIGHBOURS[i & 31]
}

/// `WITHIN[d][i]`: the cells at most `d` king steps from cell `i` (`d` = 1, 2, 3; row 0 unused).
const WITHIN: [[u32; TABLE]; 4] = {
    let mut t = [[0u32; TABLE]; 4];
    let mut d = 1;
    while d < 4 {
        let mut i = 0;
        while i < CELLS {
            let mut j = 0;
            while j < CELLS {
                let dr = ((i / 5) as i32 - (j / 5) as i32).abs();
                let dc = ((i % 5) as i32 - (j % 5) as i32).abs();
                if dr <= d && dc <= d {
                    t[d as usize][i] |= 1 << j;
                }
                j += 1;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// The king-step distance from cell `i` to the nearest of `cells` (a non-empty mask), less one, at
/// most 3.
fn gap(i: usize, cells: u32) -> i32 {
    let i = i & 31;
    if WITHIN[1][i] & cells != 0 {
        0
    } else if WITHIN[2][i] & cells != 0 {
        1
    } else if WITHIN[3][i] & cells != 0 {
        2
    } else {
        3
    }
}

/// Value of standing on each height.
const HEIGHT: [i32; 4] = [0, 40, 120, 90];
/// Value of each free cell a worker can step up to, by the worker's height.
const STEP_UP: [i32; 4] = [10, 25, 0, 0];
/// Value of each free cell a worker can reach.
const MOBILITY: i32 = 3;
/// Value of the centre, by cell index: corners 0, edges 4, inner ring 10, centre 12.
const CENTRE: [i32; TABLE] = [
    0, 4, 4, 4, 0, //
    4, 10, 10, 10, 4, //
    4, 10, 12, 10, 4, //
    4, 10, 10, 10, 4, //
    0, 4, 4, 4, 0, //
    0, 0, 0, 0, 0, 0, 0,
];
/// Cost of the opponent's threats (free level-3 cells next to its level-2 workers) when it is not to
/// act: none, one (which must be blocked now), two or more (rarely all blockable).
const THREATS: [i32; 3] = [0, 60, 500];
/// Value per step of distance (beyond adjacent) from the nearest opponent, per level of a worker.
const CHASE: i32 = 4;

/// What the heuristic reads of a position in play, as bit masks over cell indices: cheap to derive
/// for each leaf of the search from the position before the last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Masks {
    /// Cells with a worker.
    occupied: u32,
    /// Cells a worker could step on: no worker, no dome.
    free: u32,
    /// `reach[h]`: cells of height at most `h + 1`, not domed: where a worker on height `h` may go.
    reach: [u32; 4],
    /// `up[h]`: cells of height `h + 1` (none for `h` = 3): `up[2]` is level 3.
    up: [u32; 4],
    /// `workers[player][worker]`: cell index and height (0..=3).
    workers: [[(usize, usize); 2]; 2],
}

impl Masks {
    /// From `level[h]`, the cells of height `h` (4: domes).
    fn new(level: &[u32; 5], occupied: u32, workers: [[(usize, usize); 2]; 2]) -> Masks {
        let reach0 = level[0] | level[1];
        let reach1 = reach0 | level[2];
        let reach2 = reach1 | level[3];
        Masks {
            occupied,
            free: !occupied & !level[4],
            reach: [reach0, reach1, reach2, reach2],
            up: [level[1], level[2], level[3], 0],
            workers,
        }
    }

    /// The cells a worker on cell `w` of height `h` can move to.
    fn moves(&self, w: usize, h: usize) -> u32 {
        neighbours(w) & self.free & self.reach[h & 3]
    }

    fn can_move(&self, player: usize) -> bool {
        let [(a, ha), (b, hb)] = self.workers[player & 1];
        self.moves(a, ha) | self.moves(b, hb) != 0
    }

    /// The free level-3 cells next to `player`'s level-2 workers: where it wins by moving.
    fn threats(&self, player: usize) -> u32 {
        let mut m = 0;
        for (w, h) in self.workers[player & 1] {
            if h == usize::from(WIN_LEVEL - 1) {
                m |= neighbours(w);
            }
        }
        m & self.up[2] & !self.occupied
    }

    /// What `player`'s workers are worth: height, centre, cells within reach and one level up, and
    /// for raised workers the distance to the nearest opponent (far means hard to stop).
    fn player_value(&self, player: usize) -> i32 {
        let [(o1, _), (o2, _)] = self.workers[(1 - player) & 1];
        let opponents = 1 << o1 | 1 << o2;
        let mut v = 0;
        for (w, h) in self.workers[player & 1] {
            let h = h & 3;
            let around = neighbours(w) & self.free;
            let (reach, up) = ((around & self.reach[h]).count_ones(), (around & self.up[h]).count_ones());
            v += HEIGHT[h] + CENTRE[w & 31] + MOBILITY * reach as i32 + STEP_UP[h] * up as i32;
            if h > 0 {
                v += CHASE * gap(w, opponents) * h as i32;
            }
        }
        v
    }

    /// The heuristic value for `side`, who is to act and cannot win at once, where the opponent
    /// threatens to win on the cells of `threats` (its [`Masks::threats`]).
    fn evaluate(&self, side: usize, threats: u32) -> i32 {
        let v = self.player_value(side) - self.player_value(1 - side);
        v - THREATS[(threats.count_ones() as usize).min(2)]
    }
}

/// A valid position in play: the heights, the cells of each height and the [`Masks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Board {
    heights: [u8; CELLS],
    /// `level[h]`: cells of height `h` (4: domes).
    level: [u32; 5],
    masks: Masks,
}

impl Board {
    /// The board of a valid state in play.
    fn new(s: &State) -> Board {
        let mut level = [0u32; 5];
        for (i, &h) in s.heights.iter().enumerate() {
            level[usize::from(h.min(DOME))] |= 1 << i;
        }
        let mut workers = [[(0, 0); 2]; 2];
        let mut occupied = 0;
        for (p, ws) in s.workers.iter().enumerate() {
            for (w, c) in ws.iter().enumerate() {
                let i = c.map_or(0, |c| c.index());
                workers[p][w] = (i, usize::from(s.heights[i].min(WIN_LEVEL)));
                occupied |= 1 << i;
            }
        }
        Board { heights: s.heights, level, masks: Masks::new(&level, occupied, workers) }
    }

    fn height(&self, i: usize) -> usize {
        usize::from(self.heights[i])
    }

    /// Where worker at `from` may build after moving to `to`: next to `to`, no worker (its old cell
    /// is free), no dome.
    fn builds(&self, from: usize, to: usize) -> u32 {
        neighbours(to) & (self.masks.free | 1 << from)
    }

    /// The masks after `side` moves its worker `w` to `to` and builds on `build` (a legal turn that
    /// does not win).
    fn after(&self, side: usize, w: usize, to: usize, build: usize) -> Masks {
        let mut level = self.level;
        let (h, bit) = (self.height(build) & 3, 1 << build);
        level[h] ^= bit;
        level[h + 1] |= bit;
        let mut workers = self.masks.workers;
        let from = workers[side & 1][w & 1].0;
        workers[side & 1][w & 1] = (to, self.height(to));
        Masks::new(&level, self.masks.occupied ^ (1 << from | 1 << to), workers)
    }

    /// The value for `side` (to act), `ply` turns from the root, of the board after it plays a turn
    /// that does not win, searched no further.
    fn leaf(&self, side: usize, w: usize, to: usize, build: usize, ply: i32) -> i32 {
        let n = self.after(side, w, to, build);
        let other = 1 - side;
        if !n.can_move(other) {
            return WIN - ply - 1;
        }
        if n.threats(other) != 0 {
            return -(WIN - ply - 2);
        }
        -n.evaluate(other, n.threats(side))
    }

    /// The value for `side` (to act, with no winning move), `ply` turns from the root, of its best
    /// turn scored as a leaf: the last turn of a search. Turns are generated on the board, moves
    /// ordered (climbs first) and each move's builds by how they meet the opponent's threats, so
    /// that a cut-off comes early. Counts the leaves in `leaves`.
    fn last_turn(&self, side: usize, ply: i32, mut alpha: i32, beta: i32, leaves: &mut u64) -> i32 {
        let mut moves = [(0i32, 0usize, 0usize); 16];
        let mut n = 0;
        for (w, &(from, hf)) in self.masks.workers[side].iter().enumerate() {
            let mut m = self.masks.moves(from, hf);
            while m != 0 && n < moves.len() {
                let to = m.trailing_zeros() as usize;
                m &= m - 1;
                let ht = self.height(to) as i32;
                moves[n] = (16 * ht + 8 * (ht - hf as i32).max(-1), w, to);
                n += 1;
            }
        }
        let moves = &mut moves[..n];
        moves.sort_by_key(|&(k, _, _)| std::cmp::Reverse(k));
        let mut danger = 0;
        for (o, h) in self.masks.workers[1 - side] {
            if h == usize::from(WIN_LEVEL - 1) {
                danger |= neighbours(o);
            }
        }
        let mut best = -WIN - 1;
        for &(_, w, to) in moves.iter() {
            let builds = self.builds(self.masks.workers[side][w].0, to);
            let blocks = builds & danger & self.level[3];
            let offers = builds & danger & self.level[2];
            for mut group in [blocks, builds & !blocks & !offers, offers] {
                while group != 0 {
                    let b = group.trailing_zeros() as usize;
                    group &= group - 1;
                    *leaves += 1;
                    let v = self.leaf(side, w, to, b, ply);
                    if v > best {
                        best = v;
                        alpha = alpha.max(v);
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }
}

/// What move ordering needs to know about a position.
struct Order {
    /// Cells next to an opponent's level-2 worker.
    danger: u32,
    /// `beside[h]`: cells next to an opponent's worker on height `h`.
    beside: [u32; 4],
    /// The heights of the workers of the player to act.
    from: [i32; 2],
}

impl Order {
    fn new(b: &Board, side: usize) -> Order {
        let mut beside = [0u32; 4];
        for (o, h) in b.masks.workers[1 - side] {
            beside[h & 3] |= neighbours(o);
        }
        let from = b.masks.workers[side].map(|(_, h)| h as i32);
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
        if self.beside[hb & 3] & bit != 0 {
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
    work: u64,
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
        self.work += match depth {
            0 => 1,
            1 => 3,
            _ => 20,
        };
        if self.work > self.budget {
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
        if b.masks.threats(side) != 0 {
            return Some(WIN - ply_i - 1);
        }
        if depth == 0 {
            return Some(b.masks.evaluate(side, b.masks.threats(1 - side)));
        }
        if depth == 1 {
            let mut leaves = 0;
            let v = b.last_turn(side, ply_i, alpha, beta, &mut leaves);
            self.nodes += leaves;
            self.work += leaves;
            return Some(v);
        }
        let mut best = -WIN - 1;
        let mut turns = self.turns(s, &b, side, ply);
        for i in 0..turns.len() {
            select(&mut turns, i);
            let next = s.apply(turns[i].1);
            let v = self.pvs(&next, 1 - side, depth - 1, ply + 1, alpha, beta, i == 0)?;
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

impl Search {
    /// The value for the player who played into `next` (`1 - side`, between `alpha` and `beta`):
    /// principal variation search. The first turn gets the whole window; the others are only shown
    /// not to be better than `alpha` with a null window, which cuts off far more, and searched again
    /// with the whole window when they are.
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        next: &State,
        side: usize,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        first: bool,
    ) -> Option<i32> {
        if !first && beta > alpha.saturating_add(1) {
            let v = -self.negamax(next, side, depth, ply, -alpha - 1, -alpha)?;
            if v <= alpha || v >= beta {
                return Some(v);
            }
        }
        Some(-self.negamax(next, side, depth, ply, -beta, -alpha)?)
    }
}

/// Searches `depth` whole turns (at least 1) from the view's state for the player to act, with
/// iterative deepening: each iteration searches the root turns best first by the previous one. An
/// iteration that would take the work done in all (see [`Decision::work`]) beyond `budget` is
/// abandoned for the previous one's answer (the first iteration always completes). `None` unless the game is being
/// played in a valid state.
pub fn decide_within(view: &PlayerView, depth: u32, budget: u64) -> Option<Decision> {
    let s = &view.state;
    if s.phase != Phase::Playing || !s.is_valid() {
        return None;
    }
    let side = usize::from(s.turn);
    let mut search = Search { nodes: 1, work: 20, budget: u64::MAX, buffers: Vec::new() };
    let b = Board::new(s);
    let mut root = search.turns(s, &b, side, 0);
    root.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    let (_, first) = *root.first()?;
    if first.build.is_none() {
        return Some(Decision { turn: first, score: WIN - 1, nodes: 1, work: 20, depth: 1 });
    }
    let mut best = Decision { turn: first, score: 0, nodes: 0, work: 0, depth: 0 };
    for d in 1..=depth.max(1) {
        let mut alpha = -WIN - 1;
        let mut found = Decision { turn: first, score: -WIN - 1, nodes: 0, work: 0, depth: d };
        let mut complete = true;
        for (i, entry) in root.iter_mut().enumerate() {
            let next = s.apply(entry.1);
            let Some(v) = search.pvs(&next, 1 - side, d - 1, 1, alpha, WIN + 1, i == 0) else {
                complete = false;
                break;
            };
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
    best.work = search.work;
    Some(best)
}

/// [`decide_within`] without a node budget.
pub fn decide(view: &PlayerView, depth: u32) -> Option<Decision> {
    decide_within(view, depth, u64::MAX)
}

/// The best turn found by a [`DEPTH`]-turn search within [`WORK_BUDGET`]; the first legal
/// turn in a malformed state, and worker 0 to `(0,0)` without a build when no turn is legal (not
/// while the game is being played).
pub fn take_turn(view: &PlayerView) -> Turn {
    match decide_within(view, DEPTH, WORK_BUDGET) {
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

    /// Positions from random games (all of them, through to the end).
    fn random_positions(games: u64) -> Vec<State> {
        let mut out = Vec::new();
        for game in 0..games {
            let mut s = State::new();
            while let Some(me) = s.current() {
                let view = PlayerView { me, state: s };
                s = match s.phase {
                    Phase::Placement => s.place(crate::random::place_salted(&view, game)).unwrap(),
                    _ => {
                        out.push(s);
                        s.play(crate::random::take_turn_salted(&view, game)).unwrap()
                    }
                };
            }
        }
        out
    }

    #[test]
    fn tables() {
        for a in Cell::all() {
            let expected: u32 = a.neighbours().map(|n| 1 << n.index()).sum();
            assert_eq!(neighbours(a.index()), expected);
            for b in Cell::all() {
                let d = i32::from(a.distance(b));
                assert_eq!(gap(a.index(), 1 << b.index()), (d - 1).clamp(0, 3), "{a} {b}");
            }
        }
    }

    #[test]
    fn board_agrees_with_the_rules() {
        for s in random_positions(300) {
            let b = Board::new(&s);
            let side = usize::from(s.turn);
            let legal = s.legal_turns();
            // Moves and builds on the board are exactly the legal turns.
            let mut on_board = Vec::new();
            for w in 0..2 {
                let (from, hf) = b.masks.workers[side][w];
                assert_eq!(hf, b.height(from));
                let mut moves = b.masks.moves(from, hf);
                while moves != 0 {
                    let to = moves.trailing_zeros() as usize;
                    moves &= moves - 1;
                    let to_cell = Cell::from_index(to).unwrap();
                    if b.height(from) == 2 && b.height(to) == 3 {
                        assert_ne!(b.masks.threats(side) & 1 << to, 0);
                        on_board.push(Turn { worker: w as u8, to: to_cell, build: None });
                        continue;
                    }
                    let mut builds = b.builds(from, to);
                    while builds != 0 {
                        let bi = builds.trailing_zeros() as usize;
                        builds &= builds - 1;
                        on_board.push(Turn { worker: w as u8, to: to_cell, build: Cell::from_index(bi) });
                        // Playing it on the board is playing it by the rules.
                        let next = s.apply(*on_board.last().unwrap());
                        let after = b.after(side, w, to, bi);
                        assert_eq!(after, Board::new(&next).masks);
                        assert_eq!(next.is_over(), !after.can_move(1 - side));
                    }
                }
            }
            on_board.sort();
            let mut sorted = legal.clone();
            sorted.sort();
            assert_eq!(on_board, sorted, "{}", s.render());
            assert_eq!(b.masks.threats(side) != 0, legal.iter().any(|t| t.build.is_none()));
            assert!(b.masks.can_move(side));
        }
    }

    #[test]
    fn last_turn_is_the_best_leaf() {
        // The board's last turn is the maximum over the rules' legal turns of the same leaf values.
        for s in random_positions(100).into_iter().step_by(3) {
            let b = Board::new(&s);
            let side = usize::from(s.turn);
            if b.masks.threats(side) != 0 {
                continue;
            }
            let mut leaves = 0;
            let got = b.last_turn(side, 1, -WIN - 1, WIN + 1, &mut leaves);
            let legal = s.legal_turns();
            assert_eq!(leaves, legal.len() as u64);
            let want = legal
                .iter()
                .map(|t| {
                    let w = usize::from(t.worker);
                    b.leaf(side, w, t.to.index(), t.build.unwrap().index(), 1)
                })
                .max()
                .unwrap();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn budget_bounds_the_search() {
        let s = random_positions(1)[2];
        let view = PlayerView { me: s.turn, state: s };
        let full = decide(&view, 3).unwrap();
        assert_eq!(full.depth, 3);
        let cut = decide_within(&view, 3, full.work / 2).unwrap();
        assert!(cut.depth < 3 && cut.work <= full.work / 2 + 200, "{cut:?}");
        assert!(s.is_legal_turn(cut.turn));
        assert_eq!(decide_within(&view, 3, 0).unwrap().depth, 1);
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

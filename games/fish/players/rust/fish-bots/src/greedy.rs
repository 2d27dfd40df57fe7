//! A Fish player that looks ahead: a paranoid alpha-beta search over the coming turns, with a
//! territory evaluation.
//!
//! * **Moves**: iterative deepening (1, 2, 3, ... plies, each seat's turn one ply, skipped seats
//!   skipped as in the rules) of an alpha-beta search in which the player maximises and every other
//!   seat is assumed to minimise the player's evaluation ("paranoid"). Each deepening is kept only if it
//!   finishes within a fixed budget of work (tiles looked at), so the work per decision is bounded and
//!   deterministic (no clock). Positions where nobody can move are scored exactly, a win above any
//!   heuristic value.
//! * **Evaluation** of a position, for each seat: its fish (weight 1); the fish of the tiles its
//!   penguins can reach in one move (weight ½, split evenly between the seats that can reach a tile);
//!   the fish under its penguins that can still move (weight ½: they are collected when the penguin
//!   leaves); a little for every legal move. The value is the player's total minus the best other
//!   seat's.
//! * **Placement**: the free tile after which that evaluation is best: tiles with fish in reach, not
//!   shared with others, and in the way of the other seats' lines.
//!
//! Only integer arithmetic; allocations are a few buffers per decision. Pure and deterministic: the
//! same view gives the same answer, natively and in WebAssembly. A decision does at most about
//! [`WORK_BUDGET`] units of work plus a fixed overhead: measured in the `guest` profile, at most about
//! 8 M fuel (wasm instructions) on 6x6, 9 M on 8x8 and 12 M on 16x16; natively about 0.3 ms.

use fish_rules::{Move, Phase, PlayerView, Pos, State};

/// Work per decision (tiles looked at by move generation and evaluation, plus a little per node),
/// beyond which a deepening is abandoned.
pub const WORK_BUDGET: u32 = 90_000;
/// Deepest search, in plies.
const MAX_DEPTH: u32 = 16;

/// Evaluation weights, in 1/24 of a fish.
const W_FISH: i32 = 24;
const W_REACH: i32 = 12;
const W_UNDER: i32 = 12;
const W_MOVE: i32 = 1;
/// A decided game: above any evaluation (at most 256 tiles × 5 fish × 48 + moves).
const WIN: i32 = 1_000_000;

/// A move in the simulation: penguin `k` of the seat moves from tile `from` to tile `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mv {
    k: u8,
    from: u16,
    to: u16,
}

/// `SHARE[f][k]`: a reachable tile with `f` fish shared by `k` seats is worth `f × W_REACH / k` to each.
const SHARE: [[i32; 9]; 8] = {
    let mut t = [[0; 9]; 8];
    let mut f = 0;
    while f < 8 {
        let mut k = 1;
        while k < 9 {
            t[f][k] = f as i32 * W_REACH / k as i32;
            k += 1;
        }
        f += 1;
    }
    t
};

/// Room for every tile of the largest board (16 × 16) and the sentinel, as a power of two: tile
/// indices are masked with `CAP - 1`, which lets the compiler drop the bounds checks.
const CAP: usize = 512;

/// A tile index into the fixed-size arrays.
#[inline(always)]
fn ix(t: u16) -> usize {
    usize::from(t) & (CAP - 1)
}

/// The game as flat arrays, changed in place by `make` and `unmake`. Tile indices are those of
/// `Board::tiles`, plus one closed sentinel tile past the end that stands for "off the board".
struct Sim {
    /// Neighbour of each tile in each direction of `Dir::ALL` (the sentinel off the board; rows of 8
    /// so that `d & 7` needs no bounds check either).
    nb: [[u16; 8]; CAP],
    fish: [u8; CAP],
    /// Whether a penguin may stop on the tile: it has fish and no penguin (never the sentinel).
    open: [bool; CAP],
    pens: Vec<Vec<u16>>,
    score: Vec<i32>,
    out: Vec<bool>,
    /// The seat whose evaluation is searched.
    me: usize,
    /// Scratch for `eval`: the seats reaching each tile (bit mask), and the tiles marked.
    marks: [u8; CAP],
    touched: [u16; CAP],
    /// One move buffer per ply.
    bufs: Vec<Vec<Mv>>,
    /// Work done so far (see `WORK_BUDGET`).
    work: u32,
    aborted: bool,
    /// Whether the last iteration stopped anywhere because of its depth (not the game's end).
    hit_depth: bool,
}

impl Sim {
    /// `None` for a malformed game (the caller then falls back to the first legal answer).
    fn new(state: &State, me: u8) -> Option<Box<Sim>> {
        let b = &state.board;
        b.check().ok()?;
        let seats = state.players.len();
        let n = b.tiles.len();
        if seats > 8 || usize::from(me) >= seats || n >= CAP {
            return None;
        }
        let sentinel = n as u16;
        let mut sim = Box::new(Sim {
            nb: [[sentinel; 8]; CAP],
            fish: [0; CAP],
            open: [false; CAP],
            pens: Vec::with_capacity(seats),
            score: state.players.iter().map(|s| s.fish.min(1 << 20) as i32).collect(),
            out: state.players.iter().map(|s| s.out).collect(),
            me: usize::from(me),
            marks: [0; CAP],
            touched: [0; CAP],
            bufs: Vec::new(),
            work: 0,
            aborted: false,
            hit_depth: false,
        });
        for p in b.positions() {
            let i = b.index(p)?;
            for (d, dir) in fish_rules::Dir::ALL.into_iter().enumerate() {
                if let Some(q) = b.neighbour(p, dir) {
                    sim.nb[i][d] = b.index(q)? as u16;
                }
            }
            sim.fish[i] = b.tiles[i];
            sim.open[i] = b.tiles[i] > 0;
        }
        for seat in &state.players {
            let mut mine = Vec::with_capacity(seat.penguins.len() + 1);
            for &p in &seat.penguins {
                let i = b.index(p)?;
                sim.open[i] = false;
                mine.push(i as u16);
            }
            sim.pens.push(mine);
        }
        Some(sim)
    }

    fn can_move(&self, s: usize) -> bool {
        !self.out[s] && self.pens[s].iter().any(|&p| self.nb[ix(p)].iter().any(|&t| self.open[ix(t)]))
    }

    /// The seat to act after `s`, as in the rules (`s` itself last), `None` when nobody can move.
    fn next_seat(&self, s: usize) -> Option<usize> {
        let n = self.pens.len();
        (1..=n).map(|k| (s + k) % n).find(|&t| self.can_move(t))
    }

    fn moves(&self, s: usize, out: &mut Vec<Mv>) {
        for (k, &p) in self.pens[s].iter().enumerate() {
            for d in 0..6 {
                let mut t = self.nb[ix(p)][d & 7];
                while self.open[ix(t)] {
                    out.push(Mv { k: k as u8, from: p, to: t });
                    t = self.nb[ix(t)][d & 7];
                }
            }
        }
    }

    /// Moves penguin `m.k` of `s`; returns the fish taken. (`m.from` stays closed: a hole now.)
    fn make(&mut self, s: usize, m: Mv) -> u8 {
        let f = self.fish[ix(m.from)];
        self.score[s] += i32::from(f);
        self.fish[ix(m.from)] = 0;
        self.open[ix(m.to)] = false;
        self.pens[s][usize::from(m.k)] = m.to;
        f
    }

    /// Takes back `make(s, m)`, which took `f` fish. (`m.from` stays closed: a penguin again.)
    fn unmake(&mut self, s: usize, m: Mv, f: u8) {
        self.pens[s][usize::from(m.k)] = m.from;
        self.open[ix(m.to)] = true;
        self.fish[ix(m.from)] = f;
        self.score[s] -= i32::from(f);
    }

    /// The player's value minus the best other seat's (see the module documentation).
    fn eval(&mut self) -> i32 {
        let n = self.pens.len();
        let mut val = [0i32; 8];
        let mut work = 0u32;
        let mut n_touched = 0;
        for (s, v) in val.iter_mut().enumerate().take(n) {
            if self.out[s] {
                continue;
            }
            let bit = 1u8 << s;
            *v = self.score[s] * W_FISH;
            for &p in &self.pens[s] {
                let before = work;
                for d in 0..6 {
                    let mut t = self.nb[ix(p)][d & 7];
                    while self.open[ix(t)] {
                        let m = self.marks[ix(t)];
                        if m == 0 {
                            self.touched[n_touched & (CAP - 1)] = t;
                            n_touched += 1;
                        }
                        self.marks[ix(t)] = m | bit;
                        work += 1;
                        t = self.nb[ix(t)][d & 7];
                    }
                }
                let reach = (work - before) as i32;
                *v += reach * W_MOVE;
                if reach > 0 {
                    *v += i32::from(self.fish[ix(p)]) * W_UNDER;
                }
            }
            work += 6 * self.pens[s].len() as u32;
        }
        for &t in &self.touched[..n_touched.min(CAP)] {
            let mut m = self.marks[ix(t)];
            let share = SHARE[usize::from(self.fish[ix(t)] & 7)][m.count_ones() as usize];
            while m != 0 {
                val[m.trailing_zeros() as usize] += share;
                m &= m - 1;
            }
            self.marks[ix(t)] = 0;
        }
        self.work = self.work.saturating_add(work);
        val[self.me] - self.best_other(&val)
    }

    fn best_other(&self, val: &[i32]) -> i32 {
        (0..self.pens.len()).filter(|&s| s != self.me && !self.out[s]).map(|s| val[s]).max().unwrap_or(0)
    }

    /// The exact value of a finished game: the fish lead, plus or minus `WIN`.
    fn terminal(&self) -> i32 {
        let lead = self.score[self.me] - self.best_other(&self.score);
        lead * W_FISH + lead.signum() * WIN
    }

    /// The value of the position after a move, with `seat` having just moved.
    fn after(&mut self, seat: usize, depth: u32, ply: usize, alpha: i32, beta: i32) -> i32 {
        match self.next_seat(seat) {
            None => self.terminal(),
            Some(next) => self.search(next, depth, ply, alpha, beta),
        }
    }

    /// Paranoid alpha-beta: `seat` (able to move) is to act with `depth` plies left.
    fn search(&mut self, seat: usize, depth: u32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        if self.work > WORK_BUDGET {
            self.aborted = true;
            return 0;
        }
        if depth == 0 {
            self.hit_depth = true;
            return self.eval();
        }
        if self.bufs.len() <= ply {
            self.bufs.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        moves.clear();
        self.moves(seat, &mut moves);
        self.work = self.work.saturating_add(moves.len() as u32 + 6 * self.pens[seat].len() as u32 + 8);
        // Likely good moves first: onto many fish, off many fish (ties in generation order; the keys
        // are distinct, so the unstable sort needs no scratch memory and is still deterministic).
        moves.sort_unstable_by_key(|m| (std::cmp::Reverse(self.fish[ix(m.to)] * 2 + self.fish[ix(m.from)]), m.k, m.to));
        let maximise = seat == self.me;
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        for &m in &moves {
            let f = self.make(seat, m);
            let v = self.after(seat, depth - 1, ply + 1, alpha, beta);
            self.unmake(seat, m, f);
            if self.aborted {
                break;
            }
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.bufs[ply] = moves;
        best
    }
}

/// The free tile whose placement leaves the best evaluation (the first of equals, row by row).
pub fn place(view: &PlayerView) -> Pos {
    let state = &view.state;
    let spots = state.legal_placements();
    let Some(&first) = spots.first() else {
        return Pos::default();
    };
    let Some(mut sim) = Sim::new(state, state.turn) else {
        return first;
    };
    let me = usize::from(state.turn);
    let mut best = (i32::MIN, first);
    for &p in &spots {
        let Some(i) = state.board.index(p) else {
            continue;
        };
        sim.open[i] = false;
        sim.pens[me].push(i as u16);
        let v = sim.eval();
        sim.pens[me].pop();
        sim.open[i] = true;
        if v > best.0 {
            best = (v, p);
        }
    }
    best.1
}

/// The legal move the search rates best (the first legal move if the search cannot run).
pub fn take_turn(view: &PlayerView) -> Move {
    let state = &view.state;
    let legal = state.legal_moves();
    let Some(&first) = legal.first() else {
        return Move { from: Pos::default(), to: Pos::default() };
    };
    if legal.len() == 1 || state.phase != Phase::Playing {
        return first;
    }
    let Some(mut sim) = Sim::new(state, state.turn) else {
        return first;
    };
    let me = usize::from(state.turn);
    let b = &state.board;
    // The root moves are exactly the legal ones, so the answer is always legal.
    let mut root = Vec::with_capacity(legal.len());
    for m in &legal {
        let (Some(from), Some(to)) = (b.index(m.from), b.index(m.to)) else {
            return first;
        };
        let Some(k) = sim.pens[me].iter().position(|&p| usize::from(p) == from) else {
            return first;
        };
        root.push(Mv { k: k as u8, from: from as u16, to: to as u16 });
    }
    let mut order: Vec<usize> = (0..root.len()).collect();
    let mut best = 0;
    for depth in 1..=MAX_DEPTH {
        sim.hit_depth = false;
        let mut alpha = i32::MIN + 1;
        let mut iter_best = None;
        let mut values = Vec::with_capacity(order.len());
        for &i in &order {
            let m = root[i];
            let f = sim.make(me, m);
            let v = sim.after(me, depth - 1, 1, alpha, i32::MAX);
            sim.unmake(me, m, f);
            if sim.aborted {
                break;
            }
            values.push((v, i));
            if v > alpha {
                alpha = v;
                iter_best = Some(i);
            }
        }
        // A move that beat the others is exactly valued even in an unfinished iteration (the best of
        // the previous one is searched first).
        if let Some(i) = iter_best {
            best = i;
        }
        if sim.aborted {
            break;
        }
        // Next iteration: the best first, then by this iteration's values (stable: ties keep order).
        values.sort_by_key(|&(v, i)| (std::cmp::Reverse(v), i != best));
        order = values.into_iter().map(|(_, i)| i).collect();
        if !sim.hit_depth {
            break;
        }
    }
    legal[best]
}

#[cfg(test)]
mod tests {
    use super::*;
    use fish_rules::{Board, Seat};

    fn p(row: u8, col: u8) -> Pos {
        Pos { row, col }
    }

    #[test]
    fn takes_the_last_fish_and_wins() {
        // A at (0,0) and B at (2,2) on a 3x4 board; A should not walk into a dead end.
        let mut b = Board { rows: 3, cols: 4, tiles: vec![1; 12] };
        b.tiles[0] = 5;
        let state = State {
            board: b,
            players: vec![
                Seat { penguins: vec![p(0, 0)], ..Seat::default() },
                Seat { penguins: vec![p(2, 2)], ..Seat::default() },
            ],
            turn: 0,
            phase: Phase::Playing,
        };
        let view = PlayerView { me: 0, state: state.clone(), actions_since: vec![] };
        let m = take_turn(&view);
        assert!(state.legal_moves().contains(&m));
        assert_eq!(m, take_turn(&view));
    }

    #[test]
    fn places_near_fish() {
        // All ones but a cluster of fives around (2,2): the first penguin goes there.
        let mut b = Board { rows: 5, cols: 5, tiles: vec![1; 25] };
        for i in [6, 7, 8, 11, 12, 13, 16, 17, 18] {
            b.tiles[i] = 5;
        }
        let state = State::new(b, 2).unwrap();
        let view = PlayerView { me: 0, state, actions_since: vec![] };
        let pos = place(&view);
        assert!((1..=3).contains(&pos.row) && (1..=3).contains(&pos.col), "{pos}");
    }
}

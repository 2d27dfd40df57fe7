//! Pure Santorini rules for Arena: the base game for two players with two workers each, without god
//! powers. No I/O, no wasm, no clock, no randomness: every function is a pure function of its inputs.
//!
//! # The board
//!
//! The board has 5 × 5 cells. A [`Cell`] is `{ row, col }` with both in `0..5`: row 0 is the top row
//! and column 0 the left column as [`State::render`] draws them, so `(0,0)` is the top-left corner,
//! `(0,4)` the top-right one and `(2,2)` the centre. Cells are written `(row,col)` in messages and
//! stored row-major: cell `(row,col)` is index `row * 5 + col` of [`State::heights`]. Two cells are
//! *adjacent* when they are different and neither their rows nor their columns differ by more than
//! one (the 8 directions of a chess king).
//!
//! A cell's height is 0 (ground), 1, 2 or 3 levels, or [`DOME`] (4): a domed cell is closed for good,
//! nothing moves onto it or builds on it.
//!
//! # Players and workers
//!
//! Player 0 (shown as `A`) and player 1 (`B`) have two workers each, numbered 0 and 1 in the API and
//! shown as `A1 A2` and `B1 B2` ([`WorkerId`]). At most one worker stands on a cell.
//!
//! # A game
//!
//! 1. **Placement**: player 0 places its worker 0, then its worker 1, then player 1 places its worker
//!    0 and its worker 1, one worker per [`State::place`] call, each on any free cell.
//! 2. **Playing**: player 0 plays first, then the players alternate. A [`Turn`] moves one of the
//!    player's workers to an adjacent cell that is unoccupied and not domed, climbing at most one
//!    level (descending any number of levels is allowed), then builds one level on a cell adjacent to
//!    the worker's *new* position that is unoccupied (the cell the worker just left is free) and not
//!    domed. Building on level 3 puts a dome (height 4).
//! 3. **Winning**: a worker that moves *up* onto level 3 (from level 2) wins at once, and that turn
//!    has no build. Standing on level 3 otherwise (moving 3 → 3) does not win. A player who must play
//!    a turn and has no legal turn loses: the rules detect this right after the opponent's turn (or
//!    the last placement) and end the game then, so [`State::legal_turns`] is never empty while the
//!    game is on. A player with a legal move always has a legal build (the cell it left).
//!
//! Every turn that does not win adds one level to the board, which holds at most 100 (25 cells × 4),
//! so a game cannot cycle: it ends within 100 turns after the placement.
//!
//! Every refusal is a typed [`Illegal`] whose `Display` is a sentence for a human; refused calls
//! leave the state untouched (every method takes `&self`, and [`State::place`] and [`State::play`]
//! return a new state).

use std::fmt;

/// Cells per side.
pub const SIZE: u8 = 5;
/// Cells on the board.
pub const CELLS: usize = 25;
/// The height of a domed cell.
pub const DOME: u8 = 4;
/// The level a worker wins by moving up onto.
pub const WIN_LEVEL: u8 = 3;

/// A cell of the board: `row` and `col` in `0..5`, `(0,0)` top left (see the crate documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

/// For each cell index, its on-board neighbours as indices (row-major order), and how many there are.
const NEIGHBOURS: ([[u8; 8]; CELLS], [u8; CELLS]) = {
    let mut table = [[0u8; 8]; CELLS];
    let mut count = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = ((i / 5) as i32, (i % 5) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 5 && nc >= 0 && nc < 5 {
                    table[i][count[i] as usize] = (nr * 5 + nc) as u8;
                    count[i] += 1;
                }
                dc += 1;
            }
            dr += 1;
        }
        i += 1;
    }
    (table, count)
};

/// The neighbours of on-board cell index `i`, in row-major order.
fn neighbours_of(i: usize) -> &'static [u8] {
    &NEIGHBOURS.0[i][..usize::from(NEIGHBOURS.1[i])]
}

impl Cell {
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// Whether both coordinates are in `0..5`.
    pub const fn is_on_board(self) -> bool {
        self.row < SIZE && self.col < SIZE
    }

    /// The row-major index `row * 5 + col` (only meaningful for cells on the board).
    pub const fn index(self) -> usize {
        self.row as usize * SIZE as usize + self.col as usize
    }

    /// The cell of row-major index `i`, `None` unless `i < 25`.
    pub const fn from_index(i: usize) -> Option<Cell> {
        if i < CELLS { Some(Cell { row: (i / 5) as u8, col: (i % 5) as u8 }) } else { None }
    }

    /// All 25 cells in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).filter_map(Cell::from_index)
    }

    /// Whether `other` is one of the 8 cells around `self` (a cell is not adjacent to itself).
    pub const fn is_adjacent(self, other: Cell) -> bool {
        self.row.abs_diff(other.row) <= 1 && self.col.abs_diff(other.col) <= 1 && !self.same(other)
    }

    const fn same(self, other: Cell) -> bool {
        self.row == other.row && self.col == other.col
    }

    /// The number of king steps from `self` to `other` (Chebyshev distance).
    pub const fn distance(self, other: Cell) -> u8 {
        let (dr, dc) = (self.row.abs_diff(other.row), self.col.abs_diff(other.col));
        if dr > dc { dr } else { dc }
    }

    /// The adjacent cells on the board, in row-major order (none for a cell off the board).
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        self.neighbour_indices().iter().filter_map(|&i| Cell::from_index(usize::from(i)))
    }

    /// [`Cell::neighbours`] as row-major indices, from a table: for strategies that need speed.
    pub fn neighbour_indices(self) -> &'static [u8] {
        if self.is_on_board() { neighbours_of(self.index()) } else { &[] }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// The letter of a player: `A` for player 0, `B` for player 1.
pub fn player_name(player: u8) -> char {
    match player {
        0 => 'A',
        1 => 'B',
        _ => '?',
    }
}

/// One worker: its player (0 or 1) and its number (0 or 1). Displays as `A1`, `A2`, `B1`, `B2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WorkerId {
    pub player: u8,
    pub worker: u8,
}

impl fmt::Display for WorkerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", player_name(self.player), u16::from(self.worker) + 1)
    }
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Workers are being placed (player 0's two, then player 1's two).
    #[default]
    Placement,
    /// Players take turns moving and building.
    Playing,
    /// The game is over; `winner` is 0 or 1 (there are no draws).
    Over { winner: u8 },
}

/// One turn: move `worker` (0 or 1) of the player to act to `to`, then build on `build`. `build` is
/// `None` exactly when the move wins (up onto level 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    pub worker: u8,
    pub to: Cell,
    pub build: Option<Cell>,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "worker {} to {}", u16::from(self.worker) + 1, self.to)?;
        match self.build {
            Some(b) => write!(f, ", build on {b}"),
            None => f.write_str(", no build"),
        }
    }
}

/// What was being attempted, for the messages of [`Illegal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Place,
    Move,
    Build,
}

impl Action {
    fn verb(self) -> &'static str {
        match self {
            Action::Place => "place a worker",
            Action::Move => "move",
            Action::Build => "build",
        }
    }
}

/// Why the rules refuse a placement or a turn. Every refusal leaves the state untouched.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// A placement after all four workers are placed.
    NotPlacing,
    /// A turn while workers are still being placed.
    StillPlacing,
    /// Anything after the end of the game.
    GameOver { winner: u8 },
    /// A worker number other than 0 or 1.
    NoSuchWorker { worker: u8 },
    /// The worker is not on the board (only in a malformed state).
    NotPlaced(WorkerId),
    /// A cell outside the board.
    OffBoard { action: Action, cell: Cell },
    /// A cell with a worker on it.
    Occupied { action: Action, cell: Cell, by: WorkerId },
    /// A cell with a dome.
    Domed { action: Action, cell: Cell },
    /// A move to the cell the worker already stands on.
    MustMove { worker: WorkerId, at: Cell },
    /// A move to a cell that is not adjacent to the worker.
    MoveNotAdjacent { worker: WorkerId, from: Cell, to: Cell },
    /// A move more than one level up.
    TooHigh { worker: WorkerId, from: u8, to: u8 },
    /// A build that is not adjacent to the moved worker's new cell.
    BuildNotAdjacent { worker: WorkerId, at: Cell, build: Cell },
    /// A turn without a build that does not win.
    MustBuild { worker: WorkerId, to: Cell },
    /// A build after a winning move.
    NoBuildAfterWin { worker: WorkerId, at: Cell },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NotPlacing => f.write_str("all workers are already placed: play a turn (move, then build)"),
            Illegal::StillPlacing => {
                f.write_str("workers are still being placed: place a worker before playing a turn")
            }
            Illegal::GameOver { winner } => write!(f, "the game is over: player {} won", player_name(*winner)),
            Illegal::NoSuchWorker { worker } => {
                write!(f, "there is no worker number {worker}: workers are numbered 0 and 1")
            }
            Illegal::NotPlaced(w) => write!(f, "worker {w} is not on the board"),
            Illegal::OffBoard { action, cell } => write!(
                f,
                "{cell} is off the board (rows and columns are 0 to {}): cannot {} there",
                SIZE - 1,
                action.verb()
            ),
            Illegal::Occupied { action, cell, by } => {
                write!(f, "{cell} is occupied by worker {by}: cannot {} there", action.verb())
            }
            Illegal::Domed { action, cell } => write!(f, "{cell} has a dome: cannot {} there", action.verb()),
            Illegal::MustMove { worker, at } => {
                write!(f, "worker {worker} must move to an adjacent cell, not stay on {at}")
            }
            Illegal::MoveNotAdjacent { worker, from, to } => {
                write!(f, "{to} is not adjacent to {from}: worker {worker} can only move one step")
            }
            Illegal::TooHigh { worker, from, to } => {
                write!(f, "worker {worker} cannot climb from level {from} to level {to}: at most one level up")
            }
            Illegal::BuildNotAdjacent { worker, at, build } => write!(
                f,
                "{build} is not adjacent to {at}, where worker {worker} moved: build next to the worker you moved"
            ),
            Illegal::MustBuild { worker, to } => {
                write!(f, "you must build after moving unless you won (worker {worker} moving to {to} does not win)")
            }
            Illegal::NoBuildAfterWin { worker, at } => write!(
                f,
                "worker {worker} wins by moving up to level {WIN_LEVEL} at {at}: there is no build after a win"
            ),
        }
    }
}

impl std::error::Error for Illegal {}

/// The whole game: what the host keeps and what every player sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    /// Row-major (`row * 5 + col`): 0 ground, 1..=3 levels, 4 ([`DOME`]) a dome.
    pub heights: [u8; CELLS],
    /// `workers[player][worker]`: where each worker stands, `None` before it is placed.
    pub workers: [[Option<Cell>; 2]; 2],
    /// The player to act (0 or 1); after the end, the player who would have acted next.
    pub turn: u8,
    pub phase: Phase,
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

/// A bit per cell index.
type Mask = u32;

impl State {
    /// The empty board, before any placement: player 0 to place its first worker.
    pub const fn new() -> State {
        State { heights: [0; CELLS], workers: [[None; 2]; 2], turn: 0, phase: Phase::Placement }
    }

    /// The player to act as an index (any non-zero `turn` counts as player 1, so malformed states
    /// cannot make the rules panic).
    fn mover(&self) -> usize {
        usize::from(self.turn != 0)
    }

    /// The player to act, `None` once the game is over.
    pub fn current(&self) -> Option<u8> {
        match self.phase {
            Phase::Over { .. } => None,
            _ => Some(self.mover() as u8),
        }
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<u8> {
        match self.phase {
            Phase::Over { winner } => Some(winner),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// The height of `cell`; cells off the board read as domes (nothing can go there).
    pub fn height(&self, cell: Cell) -> u8 {
        if cell.is_on_board() { self.heights[cell.index()] } else { DOME }
    }

    /// Where a worker stands (`None` if unplaced or the numbers are out of range).
    pub fn position(&self, id: WorkerId) -> Option<Cell> {
        let cell = *self.workers.get(usize::from(id.player))?.get(usize::from(id.worker))?;
        cell.filter(|c| c.is_on_board())
    }

    /// The worker standing on `cell`, if any.
    pub fn worker_at(&self, cell: Cell) -> Option<WorkerId> {
        for (p, ws) in self.workers.iter().enumerate() {
            for (w, &at) in ws.iter().enumerate() {
                if at == Some(cell) {
                    return Some(WorkerId { player: p as u8, worker: w as u8 });
                }
            }
        }
        None
    }

    /// Whether a worker could go on `cell` by height and occupancy alone: on the board, no worker, no
    /// dome.
    pub fn is_free(&self, cell: Cell) -> bool {
        cell.is_on_board() && self.heights[cell.index()] < DOME && self.worker_at(cell).is_none()
    }

    /// The total number of levels built (a dome counts as one level on top of level 3).
    pub fn levels(&self) -> u32 {
        self.heights.iter().map(|&h| u32::from(h)).sum()
    }

    /// The worker placed next, during the placement.
    pub fn next_worker(&self) -> Option<WorkerId> {
        if self.phase != Phase::Placement {
            return None;
        }
        let p = self.mover();
        let w = self.workers[p].iter().position(Option::is_none)?;
        Some(WorkerId { player: p as u8, worker: w as u8 })
    }

    /// Bit mask of the cells with a worker on them.
    fn occupied(&self) -> Mask {
        let mut m = 0;
        for ws in &self.workers {
            for c in ws.iter().flatten() {
                if c.is_on_board() {
                    m |= 1 << c.index();
                }
            }
        }
        m
    }

    /// Whether `player` has a legal move (and therefore a legal turn) on this board.
    pub fn can_move(&self, player: u8) -> bool {
        let Some(ws) = self.workers.get(usize::from(player)) else {
            return false;
        };
        let occupied = self.occupied();
        ws.iter().flatten().filter(|c| c.is_on_board()).any(|&from| {
            let limit = self.heights[from.index()].saturating_add(1);
            neighbours_of(from.index()).iter().any(|&n| {
                let h = self.heights[usize::from(n)];
                occupied & (1 << n) == 0 && h < DOME && h <= limit
            })
        })
    }

    /// Every free cell, in row-major order, during the placement; empty otherwise.
    pub fn legal_placements(&self) -> Vec<Cell> {
        if self.next_worker().is_none() {
            return Vec::new();
        }
        let occupied = self.occupied();
        Cell::all().filter(|c| occupied & (1 << c.index()) == 0 && self.heights[c.index()] < DOME).collect()
    }

    /// Why placing the next worker on `cell` is refused, if it is.
    pub fn check_place(&self, cell: Cell) -> Result<(), Illegal> {
        match self.phase {
            Phase::Placement => {}
            Phase::Playing => return Err(Illegal::NotPlacing),
            Phase::Over { winner } => return Err(Illegal::GameOver { winner }),
        }
        if self.next_worker().is_none() {
            return Err(Illegal::NotPlacing);
        }
        if !cell.is_on_board() {
            return Err(Illegal::OffBoard { action: Action::Place, cell });
        }
        if let Some(by) = self.worker_at(cell) {
            return Err(Illegal::Occupied { action: Action::Place, cell, by });
        }
        if self.heights[cell.index()] >= DOME {
            return Err(Illegal::Domed { action: Action::Place, cell });
        }
        Ok(())
    }

    /// The rule checker for placements.
    pub fn is_legal_place(&self, cell: Cell) -> bool {
        self.check_place(cell).is_ok()
    }

    /// Places the next worker (see [`State::next_worker`]) on `cell`; after the fourth, player 0 is to
    /// play. `self` is untouched.
    pub fn place(&self, cell: Cell) -> Result<State, Illegal> {
        self.check_place(cell)?;
        let Some(id) = self.next_worker() else {
            return Err(Illegal::NotPlacing);
        };
        let mut next = *self;
        let p = usize::from(id.player);
        next.workers[p][usize::from(id.worker)] = Some(cell);
        if next.workers[p].iter().all(Option::is_some) {
            if p == 0 && next.workers[1].iter().any(Option::is_none) {
                next.turn = 1;
            } else {
                next.phase = Phase::Playing;
                next.turn = 0;
                if !next.can_move(0) {
                    next.phase = Phase::Over { winner: 1 };
                }
            }
        }
        Ok(next)
    }

    /// Every legal turn of the player to act: worker 0 before worker 1, destinations and then builds in
    /// row-major order; a winning move appears once, without a build. Empty unless the game is being
    /// played, and never empty while it is.
    pub fn legal_turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        self.for_each_turn(|t| out.push(t));
        out
    }

    /// Calls `f` on each of [`State::legal_turns`] in the same order, without allocating.
    pub fn for_each_turn(&self, mut f: impl FnMut(Turn)) {
        if self.phase != Phase::Playing {
            return;
        }
        let occupied = self.occupied();
        for (w, from) in self.workers[self.mover()].iter().enumerate() {
            let Some(from) = from.filter(|c| c.is_on_board()) else {
                continue;
            };
            let fi = from.index();
            let hf = self.heights[fi];
            // While this worker moves, its old cell is free to build on.
            let others = occupied & !(1 << fi);
            for &n in neighbours_of(fi) {
                let ht = self.heights[usize::from(n)];
                if occupied & (1 << n) != 0 || ht >= DOME || ht > hf.saturating_add(1) {
                    continue;
                }
                let Some(to) = Cell::from_index(usize::from(n)) else {
                    continue;
                };
                if ht == WIN_LEVEL && hf < WIN_LEVEL {
                    f(Turn { worker: w as u8, to, build: None });
                    continue;
                }
                for &b in neighbours_of(usize::from(n)) {
                    if others & (1 << b) == 0 && self.heights[usize::from(b)] < DOME {
                        f(Turn { worker: w as u8, to, build: Cell::from_index(usize::from(b)) });
                    }
                }
            }
        }
    }

    /// Checks `turn` and says whether it wins.
    fn check(&self, turn: Turn) -> Result<bool, Illegal> {
        match self.phase {
            Phase::Playing => {}
            Phase::Placement => return Err(Illegal::StillPlacing),
            Phase::Over { winner } => return Err(Illegal::GameOver { winner }),
        }
        if turn.worker > 1 {
            return Err(Illegal::NoSuchWorker { worker: turn.worker });
        }
        let worker = WorkerId { player: self.mover() as u8, worker: turn.worker };
        let from = self.position(worker).ok_or(Illegal::NotPlaced(worker))?;
        let to = turn.to;
        if !to.is_on_board() {
            return Err(Illegal::OffBoard { action: Action::Move, cell: to });
        }
        if to == from {
            return Err(Illegal::MustMove { worker, at: from });
        }
        if !from.is_adjacent(to) {
            return Err(Illegal::MoveNotAdjacent { worker, from, to });
        }
        if let Some(by) = self.worker_at(to) {
            return Err(Illegal::Occupied { action: Action::Move, cell: to, by });
        }
        let (hf, ht) = (self.heights[from.index()], self.heights[to.index()]);
        if ht >= DOME {
            return Err(Illegal::Domed { action: Action::Move, cell: to });
        }
        if ht > hf.saturating_add(1) {
            return Err(Illegal::TooHigh { worker, from: hf, to: ht });
        }
        let wins = ht == WIN_LEVEL && hf < WIN_LEVEL;
        match (wins, turn.build) {
            (true, None) => Ok(true),
            (true, Some(_)) => Err(Illegal::NoBuildAfterWin { worker, at: to }),
            (false, None) => Err(Illegal::MustBuild { worker, to }),
            (false, Some(b)) => {
                if !b.is_on_board() {
                    return Err(Illegal::OffBoard { action: Action::Build, cell: b });
                }
                if b == to {
                    return Err(Illegal::Occupied { action: Action::Build, cell: b, by: worker });
                }
                if !to.is_adjacent(b) {
                    return Err(Illegal::BuildNotAdjacent { worker, at: to, build: b });
                }
                if b != from
                    && let Some(by) = self.worker_at(b)
                {
                    return Err(Illegal::Occupied { action: Action::Build, cell: b, by });
                }
                if self.heights[b.index()] >= DOME {
                    return Err(Illegal::Domed { action: Action::Build, cell: b });
                }
                Ok(false)
            }
        }
    }

    /// Why `turn` is refused for the player to act, if it is.
    pub fn check_turn(&self, turn: Turn) -> Result<(), Illegal> {
        self.check(turn).map(|_| ())
    }

    /// The rule checker for turns: whether `turn` is legal for the player to act.
    pub fn is_legal_turn(&self, turn: Turn) -> bool {
        self.check(turn).is_ok()
    }

    /// Whether `turn` (assumed legal) wins at once.
    pub fn is_winning_turn(&self, turn: Turn) -> bool {
        self.check(turn) == Ok(true)
    }

    /// Plays `turn` for the player to act and returns the new state: the game is over if the move
    /// wins, or if the opponent is left without a legal turn. `self` is untouched.
    pub fn play(&self, turn: Turn) -> Result<State, Illegal> {
        self.check(turn)?;
        Ok(self.apply(turn))
    }

    /// [`State::play`] without checking `turn` first, for searches that only ever apply turns taken
    /// from [`State::legal_turns`] (or [`State::for_each_turn`]) of this very state: it gives exactly
    /// what `play` gives for those. It never panics, but for any other turn the state it returns may
    /// break the rules: anything untrusted goes through `play`.
    pub fn apply(&self, turn: Turn) -> State {
        let p = self.mover();
        let mut next = *self;
        let slot = &mut next.workers[p][usize::from(turn.worker & 1)];
        let from = slot.filter(|c| c.is_on_board());
        *slot = Some(turn.to);
        let hf = from.map_or(0, |c| self.heights[c.index()]);
        if self.height(turn.to) == WIN_LEVEL && hf < WIN_LEVEL {
            next.phase = Phase::Over { winner: p as u8 };
            return next;
        }
        if let Some(b) = turn.build.filter(|b| b.is_on_board()) {
            let h = &mut next.heights[b.index()];
            *h = h.saturating_add(1);
        }
        next.turn = 1 - p as u8;
        if !next.can_move(next.turn) {
            next.phase = Phase::Over { winner: p as u8 };
        }
        next
    }

    /// The game ended with `player` forfeiting (for instance banned for misbehaving): the other player
    /// wins, whatever the phase, even if the game was already over. Any `player` other than 0 counts
    /// as player 1.
    pub fn forfeit(&self, player: u8) -> State {
        let mut next = *self;
        next.phase = Phase::Over { winner: u8::from(player == 0) };
        next
    }

    /// Whether the state could arise in a game: heights at most 4, `turn` 0 or 1, workers on distinct
    /// undomed cells of the board, placed in order during the placement and all placed afterwards
    /// (except after a forfeit during the placement), the winner 0 or 1. The rules never panic on a
    /// malformed state, but their answers about one mean little.
    pub fn is_valid(&self) -> bool {
        if self.heights.iter().any(|&h| h > DOME) || self.turn > 1 {
            return false;
        }
        let mut seen: Mask = 0;
        for c in self.workers.iter().flatten().flatten() {
            if !c.is_on_board() || seen & (1 << c.index()) != 0 || self.heights[c.index()] >= DOME {
                return false;
            }
            seen |= 1 << c.index();
        }
        let order = [self.workers[0][0], self.workers[0][1], self.workers[1][0], self.workers[1][1]];
        let placed = order.iter().take_while(|w| w.is_some()).count();
        let prefix = order[placed..].iter().all(Option::is_none);
        match self.phase {
            Phase::Placement => prefix && placed < 4 && self.turn == u8::from(placed >= 2),
            Phase::Playing => placed == 4,
            Phase::Over { winner } => prefix && winner <= 1,
        }
    }

    /// The board as text, for people: a header of column numbers, then one line per row starting with
    /// the row number, each cell as its height (`X` for a dome) followed by the worker on it (`A1`,
    /// `A2`, `B1`, `B2`), then a line saying who is to act or who won. For example:
    ///
    /// ```text
    ///    0   1   2   3   4
    /// 0  0   0   0   0   0
    /// 1  0   1A1 2   0   0
    /// 2  0   0   X   3B1 0
    /// 3  0   0A2 0   1   0
    /// 4  0   0   0   0B2 0
    /// player A to play
    /// ```
    pub fn render(&self) -> String {
        let mut out = String::from("   0   1   2   3   4\n");
        for r in 0..SIZE {
            let mut line = format!("{r}  ");
            for c in 0..SIZE {
                let cell = Cell::new(r, c);
                let h = self.heights[cell.index()];
                let mut text = if h >= DOME { "X".to_string() } else { h.to_string() };
                if let Some(w) = self.worker_at(cell) {
                    text.push_str(&w.to_string());
                }
                line.push_str(&format!("{text:<4}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let status = match self.phase {
            Phase::Placement => match self.next_worker() {
                Some(w) => format!("player {} to place worker {w}", player_name(w.player)),
                None => "placement".to_string(),
            },
            Phase::Playing => format!("player {} to play", player_name(self.mover() as u8)),
            Phase::Over { winner } => format!("player {} won", player_name(winner)),
        };
        out.push_str(&status);
        out.push('\n');
        out
    }
}

/// Everything a player sees for one decision: who it is and the whole state. Native bots and Rust
/// guests take exactly this, so the same strategy code runs in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlayerView {
    /// The viewer's player number (0 or 1).
    pub me: u8,
    pub state: State,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state from five rows of tokens: a height (`0`..`3`, `X` for a dome) optionally followed by a
    /// worker (`A1`, `A2`, `B1`, `B2`). Playing, player 0 to act.
    fn board(rows: [&str; 5]) -> State {
        let mut s = State { phase: Phase::Playing, ..State::new() };
        for (r, line) in rows.iter().enumerate() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(tokens.len(), 5, "row {r}: {line}");
            for (c, t) in tokens.iter().enumerate() {
                let cell = Cell::new(r as u8, c as u8);
                let mut chars = t.chars();
                let h = chars.next().unwrap();
                s.heights[cell.index()] = if h == 'X' { DOME } else { h.to_digit(10).unwrap() as u8 };
                let rest: String = chars.collect();
                if !rest.is_empty() {
                    let b = rest.as_bytes();
                    let p = usize::from(b[0] - b'A');
                    let w = usize::from(b[1] - b'1');
                    s.workers[p][w] = Some(cell);
                }
            }
        }
        assert!(s.is_valid(), "{s:?}");
        s
    }

    const fn c(row: u8, col: u8) -> Cell {
        Cell::new(row, col)
    }

    fn turn(worker: u8, to: Cell, build: Option<Cell>) -> Turn {
        Turn { worker, to, build }
    }

    const A1: WorkerId = WorkerId { player: 0, worker: 0 };
    const B1: WorkerId = WorkerId { player: 1, worker: 0 };

    fn basic() -> State {
        board(["0 0 0 0 0", "0 0A1 0 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"])
    }

    #[test]
    fn cells_and_adjacency() {
        assert_eq!(c(2, 3).index(), 13);
        assert_eq!(Cell::from_index(13), Some(c(2, 3)));
        assert_eq!(Cell::from_index(25), None);
        assert_eq!(Cell::all().count(), 25);
        assert!(c(1, 1).is_adjacent(c(0, 0)));
        assert!(c(1, 1).is_adjacent(c(2, 2)));
        assert!(c(1, 1).is_adjacent(c(1, 2)));
        assert!(!c(1, 1).is_adjacent(c(1, 1)));
        assert!(!c(1, 1).is_adjacent(c(1, 3)));
        assert!(!c(1, 1).is_adjacent(c(3, 3)));
        assert_eq!(c(0, 0).neighbours().collect::<Vec<_>>(), vec![c(0, 1), c(1, 0), c(1, 1)]);
        assert_eq!(c(2, 2).neighbours().count(), 8);
        assert_eq!(c(0, 2).neighbours().count(), 5);
        assert_eq!(c(5, 0).neighbours().count(), 0);
        for a in Cell::all() {
            for b in Cell::all() {
                assert_eq!(a.is_adjacent(b), a.neighbours().any(|n| n == b));
                assert_eq!(a.is_adjacent(b), a.distance(b) == 1);
            }
        }
        assert_eq!(c(0, 0).distance(c(4, 3)), 4);
        assert_eq!(c(2, 3).to_string(), "(2,3)");
        assert_eq!(A1.to_string(), "A1");
        assert_eq!(WorkerId { player: 1, worker: 1 }.to_string(), "B2");
    }

    #[test]
    fn placement_order() {
        let s = State::new();
        assert_eq!(s.current(), Some(0));
        assert_eq!(s.next_worker(), Some(A1));
        assert_eq!(s.legal_placements().len(), 25);
        assert!(s.legal_turns().is_empty());
        assert_eq!(s.play(turn(0, c(0, 0), Some(c(0, 1)))), Err(Illegal::StillPlacing));
        let s = s.place(c(2, 2)).unwrap();
        assert_eq!((s.current(), s.next_worker()), (Some(0), Some(WorkerId { player: 0, worker: 1 })));
        assert_eq!(s.legal_placements().len(), 24);
        let e = s.place(c(2, 2)).unwrap_err();
        assert_eq!(e, Illegal::Occupied { action: Action::Place, cell: c(2, 2), by: A1 });
        assert_eq!(e.to_string(), "(2,2) is occupied by worker A1: cannot place a worker there");
        let off = s.place(c(5, 1)).unwrap_err();
        assert_eq!(
            off.to_string(),
            "(5,1) is off the board (rows and columns are 0 to 4): cannot place a worker there"
        );
        let s = s.place(c(2, 3)).unwrap();
        assert_eq!((s.current(), s.next_worker()), (Some(1), Some(B1)));
        let s = s.place(c(0, 0)).unwrap();
        assert_eq!(s.current(), Some(1));
        assert_eq!(s.phase, Phase::Placement);
        let s = s.place(c(4, 4)).unwrap();
        assert_eq!((s.phase, s.current(), s.next_worker()), (Phase::Playing, Some(0), None));
        assert_eq!(s.workers, [[Some(c(2, 2)), Some(c(2, 3))], [Some(c(0, 0)), Some(c(4, 4))]]);
        assert!(s.legal_placements().is_empty());
        assert_eq!(s.place(c(1, 1)), Err(Illegal::NotPlacing));
        assert!(!s.legal_turns().is_empty());
        assert!(s.is_valid());
    }

    #[test]
    fn moving_and_adjacency() {
        let s = basic();
        let e = s.play(turn(0, c(3, 3), Some(c(3, 4)))).unwrap_err();
        assert_eq!(e, Illegal::MoveNotAdjacent { worker: A1, from: c(1, 1), to: c(3, 3) });
        assert_eq!(e.to_string(), "(3,3) is not adjacent to (1,1): worker A1 can only move one step");
        let e = s.play(turn(0, c(1, 1), Some(c(1, 2)))).unwrap_err();
        assert_eq!(e, Illegal::MustMove { worker: A1, at: c(1, 1) });
        let e = s.play(turn(2, c(1, 2), Some(c(1, 3)))).unwrap_err();
        assert_eq!(e, Illegal::NoSuchWorker { worker: 2 });
        assert!(e.to_string().contains("no worker number 2"));
        let e = s.play(turn(1, c(5, 0), Some(c(4, 1)))).unwrap_err();
        assert!(matches!(e, Illegal::OffBoard { action: Action::Move, .. }));
        // All 8 directions from the middle of the board.
        for to in c(1, 1).neighbours() {
            assert!(s.is_legal_turn(turn(0, to, Some(c(1, 1)))), "{to}");
        }
        // A2 in the corner: 3 moves.
        let moves: Vec<Cell> = s.legal_turns().iter().filter(|t| t.worker == 1).map(|t| t.to).collect();
        let mut distinct = moves.clone();
        distinct.dedup();
        assert_eq!(distinct, vec![c(3, 0), c(3, 1), c(4, 1)]);
        // Onto another worker.
        let s2 = board(["0 0 0 0 0", "0 0A1 0B1 0 0", "0 0 0 0 0", "0 0 0 0 0", "0A2 0 0 0 0B2"]);
        let e = s2.play(turn(0, c(1, 2), Some(c(1, 3)))).unwrap_err();
        assert_eq!(e, Illegal::Occupied { action: Action::Move, cell: c(1, 2), by: B1 });
        assert_eq!(e.to_string(), "(1,2) is occupied by worker B1: cannot move there");
    }

    #[test]
    fn climbing_and_descending() {
        let s = board(["0 1 2 3 X", "0 0A1 0 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        assert!(s.is_legal_turn(turn(0, c(0, 1), Some(c(0, 0)))));
        let e = s.play(turn(0, c(0, 2), Some(c(0, 3)))).unwrap_err();
        assert_eq!(e, Illegal::TooHigh { worker: A1, from: 0, to: 2 });
        assert_eq!(e.to_string(), "worker A1 cannot climb from level 0 to level 2: at most one level up");
        // Descending any number of levels.
        let high = board(["0 1 2 3 X", "0 0 3A1 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        for to in [c(1, 1), c(0, 1), c(0, 2), c(2, 1)] {
            let next = high.play(turn(0, to, Some(c(1, 2)))).unwrap();
            assert_eq!(next.workers[0][0], Some(to));
            assert_eq!(next.heights[c(1, 2).index()], DOME);
            assert_eq!(next.phase, Phase::Playing);
        }
    }

    #[test]
    fn domes_block_moves_and_builds() {
        let s = board(["X X 0 0 0", "X 0A1 0 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        let e = s.play(turn(0, c(0, 0), Some(c(1, 1)))).unwrap_err();
        assert_eq!(e, Illegal::Domed { action: Action::Move, cell: c(0, 0) });
        assert_eq!(e.to_string(), "(0,0) has a dome: cannot move there");
        let e = s.play(turn(0, c(1, 2), Some(c(0, 1)))).unwrap_err();
        assert_eq!(e, Illegal::Domed { action: Action::Build, cell: c(0, 1) });
        assert!(s.legal_turns().iter().all(|t| s.height(t.to) < DOME && t.build.is_some_and(|b| s.height(b) < DOME)));
    }

    #[test]
    fn building_rules() {
        let s = basic();
        // Build on the cell just left: allowed.
        let next = s.play(turn(0, c(1, 2), Some(c(1, 1)))).unwrap();
        assert_eq!(next.heights[c(1, 1).index()], 1);
        assert_eq!(next.levels(), 1);
        assert_eq!(next.current(), Some(1));
        // Build on the cell moved to: occupied by the worker itself.
        let e = s.play(turn(0, c(1, 2), Some(c(1, 2)))).unwrap_err();
        assert_eq!(e, Illegal::Occupied { action: Action::Build, cell: c(1, 2), by: A1 });
        // Build next to the old cell but not the new one.
        let e = s.play(turn(0, c(1, 2), Some(c(1, 0)))).unwrap_err();
        assert_eq!(e, Illegal::BuildNotAdjacent { worker: A1, at: c(1, 2), build: c(1, 0) });
        assert_eq!(
            e.to_string(),
            "(1,0) is not adjacent to (1,2), where worker A1 moved: build next to the worker you moved"
        );
        // Build on an opponent's worker.
        let e = s.play(turn(0, c(2, 2), Some(c(3, 2)))).unwrap_err();
        assert_eq!(e, Illegal::Occupied { action: Action::Build, cell: c(3, 2), by: B1 });
        // No build.
        let e = s.play(turn(0, c(2, 2), None)).unwrap_err();
        assert_eq!(e, Illegal::MustBuild { worker: A1, to: c(2, 2) });
        assert!(e.to_string().starts_with("you must build after moving unless you won"));
        let e = s.play(turn(0, c(2, 2), Some(c(5, 5)))).unwrap_err();
        assert!(matches!(e, Illegal::OffBoard { action: Action::Build, .. }));
        // Level 3 becomes a dome.
        let t = board(["0 0 0 0 0", "0 0A1 3 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        let next = t.play(turn(0, c(0, 1), Some(c(1, 2)))).unwrap();
        assert_eq!(next.height(c(1, 2)), DOME);
        assert_eq!(next.levels(), 4);
        // Refusals left everything as it was.
        assert_eq!(s, basic());
    }

    #[test]
    fn win_by_moving_up_to_three() {
        let s = board(["0 0 0 0 0", "0 2A1 3 0 0", "0 0 3 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        let win = turn(0, c(1, 2), None);
        assert!(s.is_legal_turn(win));
        assert!(s.is_winning_turn(win));
        assert!(s.legal_turns().contains(&win));
        assert!(s.legal_turns().contains(&turn(0, c(2, 2), None)));
        assert!(!s.legal_turns().iter().any(|t| t.to == c(1, 2) && t.build.is_some()));
        let e = s.play(turn(0, c(1, 2), Some(c(1, 3)))).unwrap_err();
        assert_eq!(e, Illegal::NoBuildAfterWin { worker: A1, at: c(1, 2) });
        assert_eq!(e.to_string(), "worker A1 wins by moving up to level 3 at (1,2): there is no build after a win");
        let over = s.play(win).unwrap();
        assert_eq!((over.winner(), over.current(), over.phase), (Some(0), None, Phase::Over { winner: 0 }));
        assert_eq!(over.workers[0][0], Some(c(1, 2)));
        assert!(over.legal_turns().is_empty());
        assert_eq!(over.play(turn(0, c(1, 1), Some(c(1, 0)))), Err(Illegal::GameOver { winner: 0 }));
        assert_eq!(over.place(c(0, 0)), Err(Illegal::GameOver { winner: 0 }));
        assert_eq!(Illegal::GameOver { winner: 0 }.to_string(), "the game is over: player A won");
        // Player 1 wins the same way.
        let mut b = s;
        b.turn = 1;
        b.workers = [[Some(c(3, 3)), Some(c(4, 0))], [Some(c(1, 1)), Some(c(4, 4))]];
        assert_eq!(b.play(win).unwrap().winner(), Some(1));
    }

    #[test]
    fn no_win_on_level_three_without_moving_up() {
        // 3 -> 3 does not win: it is an ordinary move that must build.
        let s = board(["0 0 0 0 0", "0 3A1 3 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        let t = turn(0, c(1, 2), None);
        assert!(!s.is_legal_turn(t));
        assert_eq!(s.play(t), Err(Illegal::MustBuild { worker: A1, to: c(1, 2) }));
        let next = s.play(turn(0, c(1, 2), Some(c(1, 3)))).unwrap();
        assert_eq!(next.phase, Phase::Playing);
        // Placement never happens on level 3 in a real game, but even there it does not win.
        let mut p = State::new();
        p.heights[c(2, 2).index()] = 3;
        let p = p.place(c(2, 2)).unwrap();
        assert_eq!(p.phase, Phase::Placement);
        // Moving up from 1 to... 3 is too high, from 2 wins.
        let s = board(["0 0 0 0 0", "0 1A1 3 0 0", "0 0 0 0 0", "0 0 0B1 0 0", "0A2 0 0 0 0B2"]);
        assert!(matches!(s.play(turn(0, c(1, 2), None)), Err(Illegal::TooHigh { from: 1, to: 3, .. })));
    }

    #[test]
    fn loss_by_having_no_move() {
        // B1 is boxed in by (0,1) and (1,0) at level 2 and a dome; B2 can only climb to (3,4).
        let s = board(["0B1 2 0 0 0", "2 X 0 0 0", "0 0 0 0 0", "0 0 0 2 1", "0A2 0 1A1 2 0B2"]);
        assert!(s.can_move(1));
        // A1 climbs next to B2 and raises its last way out: B is left without a move and loses.
        let next = s.play(turn(0, c(3, 3), Some(c(3, 4)))).unwrap();
        assert!(!next.can_move(1));
        assert_eq!(next.phase, Phase::Over { winner: 0 });
        assert_eq!((next.winner(), next.current()), (Some(0), None));
        assert!(next.legal_turns().is_empty());
        // Building elsewhere leaves B its way out, and the game goes on.
        let next = s.play(turn(0, c(3, 3), Some(c(2, 2)))).unwrap();
        assert_eq!((next.phase, next.current()), (Phase::Playing, Some(1)));
        let outs: Vec<Cell> = next.legal_turns().iter().map(|t| t.to).collect();
        assert!(!outs.is_empty() && outs.iter().all(|&to| to == c(3, 4)));
        // The same for player 0: B moves and leaves A stuck.
        let mut m = s;
        m.workers = [m.workers[1], m.workers[0]];
        m.turn = 1;
        assert_eq!(m.play(turn(0, c(3, 3), Some(c(3, 4)))).unwrap().winner(), Some(1));
    }

    #[test]
    fn forfeit_and_render() {
        let s = basic();
        assert_eq!(s.forfeit(0).winner(), Some(1));
        assert_eq!(s.forfeit(1).winner(), Some(0));
        assert_eq!(State::new().forfeit(1).winner(), Some(0));
        assert!(State::new().forfeit(0).is_valid());
        assert_eq!(s.forfeit(0).workers, s.workers);
        let s = board(["0 0 0 0 0", "0 1A1 2 0 0", "0 0 X 3B1 0", "0 0A2 0 1 0", "0 0 0 0B2 0"]);
        let text = s.render();
        assert_eq!(
            text,
            "   0   1   2   3   4\n\
             0  0   0   0   0   0\n\
             1  0   1A1 2   0   0\n\
             2  0   0   X   3B1 0\n\
             3  0   0A2 0   1   0\n\
             4  0   0   0   0B2 0\n\
             player A to play\n"
        );
        assert!(State::new().render().ends_with("player A to place worker A1\n"));
        assert!(s.forfeit(0).render().ends_with("player B won\n"));
    }

    #[test]
    fn malformed_states_do_not_panic() {
        let mut s = basic();
        s.workers[1][0] = Some(c(9, 9));
        s.turn = 7;
        s.heights[3] = 200;
        assert!(!s.is_valid());
        assert_eq!(s.current(), Some(1));
        let _ = s.legal_turns();
        let _ = s.render();
        assert_eq!(s.play(turn(0, c(2, 2), Some(c(2, 3)))), Err(Illegal::NotPlaced(B1)));
        assert!(s.play(turn(1, c(3, 4), Some(c(2, 4)))).is_ok());
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// Plays the game from the start, choosing with `picks` (one per action, modulo the number of legal
    /// actions), checking invariants as it goes; returns the states visited.
    fn walk(picks: &[u16]) -> Vec<State> {
        let mut s = State::new();
        let mut seen = vec![s];
        for &pick in picks {
            match s.phase {
                Phase::Placement => {
                    let legal = s.legal_placements();
                    assert!(!legal.is_empty());
                    let cell = legal[usize::from(pick) % legal.len()];
                    assert!(s.is_legal_place(cell));
                    s = s.place(cell).unwrap();
                }
                Phase::Playing => {
                    let legal = s.legal_turns();
                    assert!(!legal.is_empty(), "no turn in\n{}", s.render());
                    let t = legal[usize::from(pick) % legal.len()];
                    assert!(s.is_legal_turn(t));
                    let levels = s.levels();
                    let next = s.play(t).unwrap();
                    if s.is_winning_turn(t) {
                        assert_eq!(next.levels(), levels);
                    } else {
                        assert_eq!(next.levels(), levels + 1);
                    }
                    s = next;
                }
                Phase::Over { .. } => break,
            }
            assert!(s.is_valid(), "{s:?}");
            seen.push(s);
        }
        seen
    }

    fn cell() -> impl Strategy<Value = Cell> {
        // Mostly on the board, sometimes just off it.
        (0u8..6, 0u8..6).prop_map(|(r, c)| Cell::new(r, c))
    }

    fn any_turn() -> impl Strategy<Value = Turn> {
        (0u8..3, cell(), proptest::option::weighted(0.9, cell())).prop_map(|(worker, to, build)| Turn {
            worker,
            to,
            build,
        })
    }

    /// Any state at all, mostly malformed.
    fn garbage() -> impl Strategy<Value = State> {
        (
            proptest::array::uniform25(prop_oneof![4 => 0u8..=4, 1 => any::<u8>()]),
            proptest::array::uniform4(proptest::option::of((0u8..7, 0u8..7))),
            0u8..3,
            prop_oneof![Just(Phase::Placement), Just(Phase::Playing), (0u8..3).prop_map(|w| Phase::Over { winner: w })],
        )
            .prop_map(|(heights, w, turn, phase)| {
                let cell = |o: Option<(u8, u8)>| o.map(|(r, c)| Cell::new(r, c));
                State { heights, workers: [[cell(w[0]), cell(w[1])], [cell(w[2]), cell(w[3])]], turn, phase }
            })
    }

    proptest! {
        #[test]
        fn random_games_end(picks in proptest::collection::vec(any::<u16>(), 110)) {
            // 4 placements + at most 100 turns + 1.
            let seen = walk(&picks);
            let last = seen.last().unwrap();
            prop_assert!(last.is_over(), "not over after {} actions:\n{}", seen.len(), last.render());
            prop_assert!(seen.len() <= 4 + 100 + 1);
            prop_assert!(last.winner().unwrap() <= 1);
        }

        #[test]
        fn legal_turns_are_exactly_the_accepted_ones(picks in proptest::collection::vec(any::<u16>(), 0..60)) {
            let seen = walk(&picks);
            let s = *seen.last().unwrap();
            let legal = s.legal_turns();
            // Every turn of a worker 0..2 to any cell with any build (or none), on the board or one off.
            let mut accepted = Vec::new();
            for worker in 0..3u8 {
                for to in (0..36).map(|i| Cell::new(i / 6, i % 6)) {
                    for build in std::iter::once(None).chain((0..36).map(|i| Some(Cell::new(i / 6, i % 6)))) {
                        let t = Turn { worker, to, build };
                        let r = s.play(t);
                        prop_assert_eq!(r.is_ok(), s.is_legal_turn(t));
                        prop_assert_eq!(r.is_ok(), s.check_turn(t).is_ok());
                        match r {
                            Ok(next) => {
                                accepted.push(t);
                                prop_assert!(next.is_valid());
                                prop_assert_eq!(next, s.apply(t));
                            }
                            Err(e) => prop_assert!(!e.to_string().is_empty()),
                        }
                    }
                }
            }
            let mut sorted = legal.clone();
            sorted.sort();
            sorted.dedup();
            prop_assert_eq!(sorted.len(), legal.len(), "duplicates in legal_turns");
            prop_assert_eq!(sorted, accepted);
            if s.phase == Phase::Playing {
                prop_assert!(!legal.is_empty());
            }
            let mut counted = 0;
            s.for_each_turn(|_| counted += 1);
            prop_assert_eq!(counted, legal.len());
        }

        #[test]
        fn illegal_actions_leave_the_state_unchanged(
            picks in proptest::collection::vec(any::<u16>(), 0..80),
            turns in proptest::collection::vec(any_turn(), 1..40),
            cells in proptest::collection::vec(cell(), 1..10),
        ) {
            let seen = walk(&picks);
            let s = *seen.last().unwrap();
            let before = s;
            let legal = s.legal_turns();
            for t in turns {
                let r = s.play(t);
                prop_assert_eq!(legal.contains(&t), r.is_ok(), "{:?}: {:?}", t, r);
                if let Err(e) = r {
                    prop_assert!(!e.to_string().is_empty());
                    prop_assert_eq!(s.check_turn(t), Err(e));
                }
                prop_assert_eq!(s, before);
            }
            let places = s.legal_placements();
            for c in cells {
                let r = s.place(c);
                prop_assert_eq!(places.contains(&c), r.is_ok());
                prop_assert_eq!(r.is_ok(), s.is_legal_place(c));
                prop_assert_eq!(s, before);
            }
        }

        #[test]
        fn garbage_never_panics(s in garbage(), turns in proptest::collection::vec(any_turn(), 1..8), c in cell()) {
            let _ = s.is_valid();
            let _ = s.render();
            let _ = s.legal_placements();
            let _ = s.place(c);
            let _ = s.can_move(0);
            let _ = s.can_move(1);
            let _ = s.forfeit(2);
            for t in s.legal_turns() {
                let _ = s.play(t);
            }
            for t in turns {
                let _ = s.play(t);
                let _ = s.apply(t);
                let _ = s.check_turn(t);
            }
        }
    }
}

//! Pure rules of Fish ("Hey, That's My Fish!") for Arena: the hex board and its seeded generation,
//! penguin placement, moves, skipped seats, banned seats and scores.
//! No I/O, no wasm, no clock: randomness comes only from the seed a caller gives ([`Board::generate`]).
//!
//! # The board
//!
//! `rows × cols` hexagonal tiles (pointy-top) in the "odd-r" offset layout: tiles are numbered
//! `(row, col)` from the top left, and every odd row is shifted right by half a tile. Each tile holds
//! 1 to 5 fish, or 0 for a hole (a tile that is gone). [`Board::tiles`] lists them row by row.
//!
//! ```text
//!   col:    0     1     2     3
//! row 0:  (0,0) (0,1) (0,2) (0,3)
//! row 1:     (1,0) (1,1) (1,2) (1,3)
//! row 2:  (2,0) (2,1) (2,2) (2,3)
//! row 3:     (3,0) (3,1) (3,2) (3,3)
//! ```
//!
//! Every tile has up to six neighbours, one in each [`Dir`]: E and W are in the same row
//! (`(r, c+1)`, `(r, c-1)`); the other four are in the rows above and below and depend on whether the
//! row is even or odd:
//!
//! | direction | even row `r` | odd row `r` |
//! | --- | --- | --- |
//! | NE | `(r-1, c)`   | `(r-1, c+1)` |
//! | NW | `(r-1, c-1)` | `(r-1, c)`   |
//! | SE | `(r+1, c)`   | `(r+1, c+1)` |
//! | SW | `(r+1, c-1)` | `(r+1, c)`   |
//!
//! So in the picture (1,1) touches (1,0) and (1,2) beside it, (0,1) and (0,2) above, (2,1) and (2,2)
//! below; (2,2) touches (1,1) and (1,2) above, (3,1) and (3,2) below. Repeating one direction walks a
//! straight line of hexes.
//!
//! # The game
//!
//! 2 to 4 players (seats 0.., shown as the letters A, B, C, D) each get `6 - players` penguins.
//!
//! 1. **Placement** ([`Phase::Placement`]): in seat order, round robin, each seat places *one* penguin
//!    per turn on any tile that is neither a hole nor taken, until every penguin is placed.
//! 2. **Playing** ([`Phase::Playing`]): starts with seat 0. The seat to act moves one of its penguins in
//!    a straight line, any number of tiles, in one of the six directions, never onto or across a hole
//!    or another penguin (of any seat). The tile it leaves becomes a hole and its fish go to the mover.
//!    Turns go round in seat order; a seat that cannot move is skipped (it may move again later if
//!    removals free its way).
//! 3. **Over** ([`Phase::Over`]): as soon as no penguin of any seat can move. Fish on the tiles under
//!    penguins that never moved again are not collected. The winners are the seats with the most fish
//!    (ties are shared); banned seats never win.
//!
//! A banned seat is removed ([`State::remove`]): its penguins leave the board (the tiles they stood on
//! stay, with their fish), its fish stay in [`State::scores`], and it is never asked again. The game
//! goes on for the others, even with one seat left, as long as someone can move.
//!
//! Every action returns a new [`State`]; a refused one returns an [`Illegal`] whose `Display` is a
//! sentence for a human, and changes nothing.

use std::fmt;

use rand_core::{Rng, SeedableRng};

/// Fewest rows and columns of a board.
pub const MIN_SIDE: u8 = 2;
/// Most rows and columns of a board.
pub const MAX_SIDE: u8 = 16;
/// Most fish on one tile.
pub const MAX_FISH: u8 = 5;
/// Fewest players of a game.
pub const MIN_PLAYERS: u8 = 2;
/// Most players of a game.
pub const MAX_PLAYERS: u8 = 4;
/// Fewest tiles with fish a generated board has: room for every penguin of any game (3 players × 3
/// penguins = 9 is the most; 2 × 4 and 4 × 2 are 8).
pub const MIN_TILES: usize = 9;

/// Penguins each seat gets in a game of `n_players`: 6 − n (4, 3 or 2).
pub fn penguins_per_player(n_players: u8) -> u8 {
    6u8.saturating_sub(n_players)
}

/// The letter of a seat in [`State::render`] and messages: 0 → 'A', 1 → 'B', ...
pub fn seat_letter(seat: u8) -> char {
    char::from(b'A'.saturating_add(seat.min(25)))
}

/// A tile: row and column from the top left (see the crate documentation for the layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    pub row: u8,
    pub col: u8,
}

impl Pos {
    pub const fn new(row: u8, col: u8) -> Pos {
        Pos { row, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// The six directions of a hex tile (see the crate documentation for the neighbour formulas).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    E,
    W,
    NE,
    NW,
    SE,
    SW,
}

impl Dir {
    /// Every direction, in the order [`Board::reachable`] and [`State::legal_moves`] use.
    pub const ALL: [Dir; 6] = [Dir::E, Dir::W, Dir::NE, Dir::NW, Dir::SE, Dir::SW];

    /// The direction back.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::E => Dir::W,
            Dir::W => Dir::E,
            Dir::NE => Dir::SW,
            Dir::NW => Dir::SE,
            Dir::SE => Dir::NW,
            Dir::SW => Dir::NE,
        }
    }

    /// (row step, column step) from a tile in an even (`odd == false`) or odd row.
    pub fn delta(self, odd: bool) -> (i8, i8) {
        let o = i8::from(odd);
        match self {
            Dir::E => (0, 1),
            Dir::W => (0, -1),
            Dir::NE => (-1, o),
            Dir::NW => (-1, o - 1),
            Dir::SE => (1, o),
            Dir::SW => (1, o - 1),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::E => "E",
            Dir::W => "W",
            Dir::NE => "NE",
            Dir::NW => "NW",
            Dir::SE => "SE",
            Dir::SW => "SW",
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move of the penguin on `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Pos,
    pub to: Pos,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}->{}", self.from, self.to)
    }
}

/// What stands in a penguin's way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Obstacle {
    Hole,
    /// A penguin of this seat.
    Penguin(u8),
}

/// Why the rules refuse a board, a game or an action. Every refusal leaves the state untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// Rows or columns outside `MIN_SIDE..=MAX_SIDE`.
    BadSize { rows: u8, cols: u8 },
    /// A tile list whose length is not `rows × cols`.
    BadTiles { rows: u8, cols: u8, len: usize },
    /// A tile with more than `MAX_FISH` fish.
    BadFish { pos: Pos, fish: u8 },
    /// Too few tiles with fish for the penguins to be placed.
    TooFewTiles { tiles: usize, needed: usize },
    /// A player count outside `MIN_PLAYERS..=MAX_PLAYERS`.
    BadPlayers(u8),
    /// An action of the wrong phase (`now` is `Over` once the game has ended).
    WrongPhase { now: Phase, wanted: Phase },
    /// An action of a seat that is not to act.
    NotYourTurn { seat: u8, turn: u8 },
    /// A position outside the board.
    OffBoard(Pos),
    /// A placement on, or a move onto, a hole.
    Hole(Pos),
    /// A placement on, or a move onto, a tile with a penguin (of `seat`).
    Occupied { pos: Pos, seat: u8 },
    /// A move from a tile without a penguin.
    NoPenguin(Pos),
    /// A move of another seat's penguin.
    NotYourPenguin { pos: Pos, owner: u8 },
    /// A move that does not leave its tile.
    Stay(Pos),
    /// A move whose target is not on one of the six straight lines from its start.
    NotALine(Move),
    /// A move across a hole or a penguin at `at`.
    Blocked { mv: Move, at: Pos, by: Obstacle },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::BadSize { rows, cols } => {
                write!(f, "a board has {MIN_SIDE} to {MAX_SIDE} rows and columns, not {rows} rows and {cols} columns")
            }
            Illegal::BadTiles { rows, cols, len } => {
                write!(f, "a board of {rows} x {cols} has {} tiles, not {len}", usize::from(*rows) * usize::from(*cols))
            }
            Illegal::BadFish { pos, fish } => {
                write!(f, "{pos} holds {fish} fish, but a tile holds 0 (a hole) to {MAX_FISH}")
            }
            Illegal::TooFewTiles { tiles, needed } => write!(
                f,
                "the board has {tiles} tiles with fish, but at least {needed} are needed to place every penguin"
            ),
            Illegal::BadPlayers(n) => write!(f, "a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}"),
            Illegal::WrongPhase { now: Phase::Over, .. } => f.write_str("the game is over"),
            Illegal::WrongPhase { now, wanted } => write!(f, "it is the {now} phase, not {wanted}"),
            Illegal::NotYourTurn { seat, turn } => write!(
                f,
                "it is the turn of seat {turn} ({}), not seat {seat} ({})",
                seat_letter(*turn),
                seat_letter(*seat)
            ),
            Illegal::OffBoard(p) => write!(f, "{p} is off the board"),
            Illegal::Hole(p) => write!(f, "{p} is a hole"),
            Illegal::Occupied { pos, seat } => {
                write!(f, "{pos} already holds a penguin of seat {seat} ({})", seat_letter(*seat))
            }
            Illegal::NoPenguin(p) => write!(f, "there is no penguin at {p}"),
            Illegal::NotYourPenguin { pos, owner } => {
                write!(f, "{pos} is not your penguin: it belongs to seat {owner} ({})", seat_letter(*owner))
            }
            Illegal::Stay(p) => write!(f, "penguin at {p} must move at least one tile"),
            Illegal::NotALine(mv) => write!(
                f,
                "penguin at {} cannot reach {}: it is not on a straight line in one of the six directions",
                mv.from, mv.to
            ),
            Illegal::Blocked { mv, at, by } => {
                let what = match by {
                    Obstacle::Hole => "a hole".to_string(),
                    Obstacle::Penguin(s) => format!("a penguin of seat {s} ({})", seat_letter(*s)),
                };
                write!(f, "penguin at {} cannot reach {}: the way is blocked by {what} at {at}", mv.from, mv.to)
            }
        }
    }
}

impl std::error::Error for Illegal {}

/// The board: `rows × cols` tiles, row by row, each 0 (a hole) to 5 fish.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    pub rows: u8,
    pub cols: u8,
    /// Fish per tile, row-major: tile `(r, c)` is `tiles[r * cols + c]`; 0 is a hole.
    pub tiles: Vec<u8>,
}

/// A uniform value in `0..n` (n ≥ 1): the next word `x`, skipping any `x >= n × ⌊(2³² − 1) / n⌋`,
/// then `x % n`.
fn below(rng: &mut chacha20::ChaCha8Rng, n: u32) -> u32 {
    let zone = u32::MAX / n * n;
    loop {
        let x = rng.next_u32();
        if x < zone {
            return x % n;
        }
    }
}

impl Board {
    /// A board from its tiles, checked: sides in `MIN_SIDE..=MAX_SIDE`, `rows × cols` tiles, each at
    /// most `MAX_FISH`.
    pub fn new(rows: u8, cols: u8, tiles: Vec<u8>) -> Result<Board, Illegal> {
        let b = Board { rows, cols, tiles };
        b.check()?;
        Ok(b)
    }

    /// Whether this board is well formed (see [`Board::new`]).
    pub fn check(&self) -> Result<(), Illegal> {
        let (rows, cols) = (self.rows, self.cols);
        if !(MIN_SIDE..=MAX_SIDE).contains(&rows) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) {
            return Err(Illegal::BadSize { rows, cols });
        }
        if self.tiles.len() != usize::from(rows) * usize::from(cols) {
            return Err(Illegal::BadTiles { rows, cols, len: self.tiles.len() });
        }
        if let Some(pos) = self.positions().find(|&p| self.get(p).is_some_and(|f| f > MAX_FISH)) {
            return Err(Illegal::BadFish { pos, fish: self.get(pos).unwrap_or(0) });
        }
        Ok(())
    }

    /// A random board of `rows × cols` tiles with 1 to 5 fish each, `holes` of them made holes.
    ///
    /// Refused unless `rows` and `cols` are in `MIN_SIDE..=MAX_SIDE` (2..=16) and at least
    /// [`MIN_TILES`] (9) tiles keep their fish, so that any game (2 to 4 players) can place every
    /// penguin: `holes <= rows × cols − 9`.
    ///
    /// Exact derivation, so the same arguments give the same board anywhere:
    ///
    /// 1. the 32-byte seed is `seed` as 8 little-endian bytes (bytes 0..8), the ASCII bytes `fish`
    ///    (bytes 8..12), then `rows`, `cols` and `holes` as one byte each (bytes 12, 13, 14), then 17
    ///    zero bytes;
    /// 2. `chacha20::ChaCha8Rng::from_seed(seed)` (stream 0, word position 0): the ChaCha keystream
    ///    with 8 rounds, the seed as key, 64-bit block counter from 0 in words 12..14, 64-bit nonce 0,
    ///    read as little-endian `u32` words in order (the same as `rand_chacha::ChaCha8Rng`);
    /// 3. "a uniform value below `n`" takes the next word `x`, skipping any
    ///    `x >= n × ⌊(2³² − 1) / n⌋`, and is `x % n`;
    /// 4. the fish of every tile, row by row: a uniform value below 5, plus 1;
    /// 5. the holes, by a partial Fisher–Yates shuffle of the tile indices `0..rows×cols`: for
    ///    `i` in `0..holes`, `j = i +` a uniform value below `rows × cols − i`; swap the indices at
    ///    `i` and `j`; the tile at index `i` (after the swap) becomes a hole.
    ///
    /// For example `generate(0, 3, 4, 2)` has tiles
    /// `[1, 1, 2, 0, 5, 2, 5, 0, 1, 5, 2, 1]`.
    pub fn generate(seed: u64, rows: u8, cols: u8, holes: u8) -> Result<Board, Illegal> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&rows) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) {
            return Err(Illegal::BadSize { rows, cols });
        }
        let n = usize::from(rows) * usize::from(cols);
        let kept = n.saturating_sub(usize::from(holes));
        if kept < MIN_TILES {
            return Err(Illegal::TooFewTiles { tiles: kept, needed: MIN_TILES });
        }
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..12].copy_from_slice(b"fish");
        key[12] = rows;
        key[13] = cols;
        key[14] = holes;
        let mut rng = chacha20::ChaCha8Rng::from_seed(key);
        let mut tiles = vec![0u8; n];
        for t in &mut tiles {
            *t = below(&mut rng, u32::from(MAX_FISH)) as u8 + 1;
        }
        let mut order: Vec<usize> = (0..n).collect();
        for i in 0..usize::from(holes) {
            let j = i + below(&mut rng, (n - i) as u32) as usize;
            order.swap(i, j);
            tiles[order[i]] = 0;
        }
        Ok(Board { rows, cols, tiles })
    }

    pub fn in_bounds(&self, pos: Pos) -> bool {
        pos.row < self.rows && pos.col < self.cols
    }

    /// The index of `pos` in [`Board::tiles`], if on the board.
    pub fn index(&self, pos: Pos) -> Option<usize> {
        self.in_bounds(pos).then(|| usize::from(pos.row) * usize::from(self.cols) + usize::from(pos.col))
    }

    /// The fish on `pos` (0 for a hole), `None` off the board.
    pub fn get(&self, pos: Pos) -> Option<u8> {
        self.index(pos).and_then(|i| self.tiles.get(i).copied())
    }

    /// Whether `pos` is a tile with fish (on the board and not a hole).
    pub fn has_fish(&self, pos: Pos) -> bool {
        self.get(pos).is_some_and(|f| f > 0)
    }

    /// The neighbour of `pos` in direction `dir`, `None` off the board (or if `pos` is).
    pub fn neighbour(&self, pos: Pos, dir: Dir) -> Option<Pos> {
        if !self.in_bounds(pos) {
            return None;
        }
        let (dr, dc) = dir.delta(pos.row % 2 == 1);
        let row = pos.row.checked_add_signed(dr)?;
        let col = pos.col.checked_add_signed(dc)?;
        let p = Pos { row, col };
        self.in_bounds(p).then_some(p)
    }

    /// Every tile a penguin on `pos` can reach in one move: in each direction of [`Dir::ALL`] in
    /// turn, the tiles in a straight line, nearest first, up to (not including) the first hole,
    /// board edge or tile in `occupied`.
    pub fn reachable(&self, pos: Pos, occupied: &[Pos]) -> Vec<Pos> {
        let mut out = Vec::new();
        for d in Dir::ALL {
            let mut p = pos;
            while let Some(q) = self.neighbour(p, d) {
                if !self.has_fish(q) || occupied.contains(&q) {
                    break;
                }
                out.push(q);
                p = q;
            }
        }
        out
    }

    /// Every position of the board, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.cols).map(move |col| Pos { row, col }))
    }

    /// How many tiles still have fish.
    pub fn fish_tiles(&self) -> usize {
        self.tiles.iter().filter(|&&f| f > 0).count()
    }

    /// All fish still on the board.
    pub fn total_fish(&self) -> u32 {
        self.tiles.iter().map(|&f| u32::from(f)).sum()
    }
}

/// The phases of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    Placement,
    Playing,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Placement => "placement",
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One seat of a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Seat {
    /// Its penguins on the board, in the order they were placed (a move keeps a penguin's place).
    pub penguins: Vec<Pos>,
    /// Fish collected.
    pub fish: u32,
    /// Banned and removed: no penguins, never asked again, never a winner.
    pub out: bool,
}

/// A whole game. Made by [`State::new`] and changed only by the actions; a state built by hand must
/// keep their invariants (a well-formed board, `turn` a seat in the game, penguins on distinct tiles
/// with fish), or the actions may panic.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    pub board: Board,
    /// One per seat, in turn order.
    pub players: Vec<Seat>,
    /// The seat to act (meaningless once the game is over).
    pub turn: u8,
    pub phase: Phase,
}

/// One action of a seat, as reported to the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Place { seat: u8, pos: Pos },
    Move { seat: u8, mv: Move },
}

impl Action {
    pub fn seat(&self) -> u8 {
        match *self {
            Action::Place { seat, .. } | Action::Move { seat, .. } => seat,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place { seat, pos } => write!(f, "{} places a penguin on {pos}", seat_letter(*seat)),
            Action::Move { seat, mv } => write!(f, "{} moves {} to {}", seat_letter(*seat), mv.from, mv.to),
        }
    }
}

/// Everything a player sees for one decision: its seat, the whole game, and the actions of every seat
/// since its own last one (oldest first; for information only, the state already includes them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    pub me: u8,
    pub state: State,
    pub actions_since: Vec<Action>,
}

impl State {
    /// A new game of `n_players` (2..=4) on `board`, in the placement phase with seat 0 to act.
    /// Refused if the board is malformed or has fewer tiles with fish than penguins.
    pub fn new(board: Board, n_players: u8) -> Result<State, Illegal> {
        board.check()?;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n_players) {
            return Err(Illegal::BadPlayers(n_players));
        }
        let needed = usize::from(n_players) * usize::from(penguins_per_player(n_players));
        let tiles = board.fish_tiles();
        if tiles < needed {
            return Err(Illegal::TooFewTiles { tiles, needed });
        }
        Ok(State { board, players: vec![Seat::default(); usize::from(n_players)], turn: 0, phase: Phase::Placement })
    }

    /// Penguins each seat places: 6 − players.
    pub fn penguins_per_seat(&self) -> u8 {
        penguins_per_player(self.players.len().min(6) as u8)
    }

    /// The seat to act, `None` once the game is over.
    pub fn current(&self) -> Option<u8> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The seat whose penguin stands on `pos`.
    pub fn owner(&self, pos: Pos) -> Option<u8> {
        self.players.iter().position(|s| s.penguins.contains(&pos)).map(|i| i as u8)
    }

    /// Every tile with a penguin.
    pub fn occupied(&self) -> Vec<Pos> {
        self.players.iter().flat_map(|s| s.penguins.iter().copied()).collect()
    }

    fn free(&self, pos: Pos) -> bool {
        self.board.has_fish(pos) && self.owner(pos).is_none()
    }

    /// Whether `seat` is in the game and has a penguin that can move (whoever is to act).
    pub fn can_move(&self, seat: u8) -> bool {
        let Some(s) = self.players.get(usize::from(seat)) else {
            return false;
        };
        !s.out
            && s.penguins
                .iter()
                .any(|&p| Dir::ALL.iter().any(|&d| self.board.neighbour(p, d).is_some_and(|q| self.free(q))))
    }

    /// Every move `seat`'s penguins could make on this board (whoever is to act): penguins in order,
    /// then [`Board::reachable`] order.
    pub fn moves_of(&self, seat: u8) -> Vec<Move> {
        let Some(s) = self.players.get(usize::from(seat)) else {
            return Vec::new();
        };
        if s.out {
            return Vec::new();
        }
        let occupied = self.occupied();
        let mut out = Vec::new();
        for &from in &s.penguins {
            out.extend(self.board.reachable(from, &occupied).into_iter().map(|to| Move { from, to }));
        }
        out
    }

    /// Where the seat to act may place a penguin: every free tile with fish, row by row (empty unless
    /// in the placement phase).
    pub fn legal_placements(&self) -> Vec<Pos> {
        if self.phase != Phase::Placement {
            return Vec::new();
        }
        self.board.positions().filter(|&p| self.free(p)).collect()
    }

    /// Every move of the seat to act (empty unless in the playing phase).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        self.moves_of(self.turn)
    }

    fn phase_is(&self, wanted: Phase) -> Result<(), Illegal> {
        if self.phase == wanted { Ok(()) } else { Err(Illegal::WrongPhase { now: self.phase, wanted }) }
    }

    /// Why `pos` cannot take a penguin, if it cannot.
    fn check_target(&self, pos: Pos) -> Result<(), Illegal> {
        match self.board.get(pos) {
            None => Err(Illegal::OffBoard(pos)),
            Some(0) => Err(Illegal::Hole(pos)),
            Some(_) => match self.owner(pos) {
                Some(seat) => Err(Illegal::Occupied { pos, seat }),
                None => Ok(()),
            },
        }
    }

    /// The seat to act places a penguin on `pos`.
    pub fn place(&self, pos: Pos) -> Result<State, Illegal> {
        self.phase_is(Phase::Placement)?;
        self.check_target(pos)?;
        let mut next = self.clone();
        next.players[usize::from(self.turn)].penguins.push(pos);
        next.settle(Some(self.turn));
        Ok(next)
    }

    /// Why the seat to act cannot make `mv`, if it cannot (the phase aside).
    fn check_move(&self, mv: Move) -> Result<(), Illegal> {
        let Move { from, to } = mv;
        for p in [from, to] {
            if !self.board.in_bounds(p) {
                return Err(Illegal::OffBoard(p));
            }
        }
        match self.owner(from) {
            None => return Err(Illegal::NoPenguin(from)),
            Some(owner) if owner != self.turn => return Err(Illegal::NotYourPenguin { pos: from, owner }),
            Some(_) => {}
        }
        if from == to {
            return Err(Illegal::Stay(from));
        }
        // The direction whose line reaches `to`, and the first obstacle on the way.
        let mut line = None;
        for d in Dir::ALL {
            let mut p = from;
            let mut first = None;
            while let Some(q) = self.board.neighbour(p, d) {
                if q == to {
                    line = Some(first);
                    break;
                }
                if first.is_none() {
                    if !self.board.has_fish(q) {
                        first = Some((q, Obstacle::Hole));
                    } else if let Some(s) = self.owner(q) {
                        first = Some((q, Obstacle::Penguin(s)));
                    }
                }
                p = q;
            }
            if line.is_some() {
                break;
            }
        }
        let Some(first) = line else {
            return Err(Illegal::NotALine(mv));
        };
        self.check_target(to)?;
        match first {
            Some((at, by)) => Err(Illegal::Blocked { mv, at, by }),
            None => Ok(()),
        }
    }

    /// The seat to act moves its penguin from `mv.from` to `mv.to`; the tile left becomes a hole and
    /// its fish go to the mover.
    pub fn play(&self, mv: Move) -> Result<State, Illegal> {
        self.phase_is(Phase::Playing)?;
        self.check_move(mv)?;
        let mut next = self.clone();
        let seat = usize::from(self.turn);
        let i = self.board.index(mv.from).expect("checked on the board");
        next.players[seat].fish += u32::from(next.board.tiles[i]);
        next.board.tiles[i] = 0;
        for p in &mut next.players[seat].penguins {
            if *p == mv.from {
                *p = mv.to;
            }
        }
        next.settle(Some(self.turn));
        Ok(next)
    }

    /// [`State::place`] or [`State::play`] for `action`, refused unless its seat is the one to act.
    pub fn apply(&self, action: &Action) -> Result<State, Illegal> {
        let wanted = match action {
            Action::Place { .. } => Phase::Placement,
            Action::Move { .. } => Phase::Playing,
        };
        self.phase_is(wanted)?;
        if action.seat() != self.turn {
            return Err(Illegal::NotYourTurn { seat: action.seat(), turn: self.turn });
        }
        match *action {
            Action::Place { pos, .. } => self.place(pos),
            Action::Move { mv, .. } => self.play(mv),
        }
    }

    /// Removes a banned seat: its penguins leave the board (their tiles stay as they are), its fish stay
    /// in the scores, and it is never asked again. If it was to act, the turn passes on. A seat that is
    /// already out, or does not exist, changes nothing.
    pub fn remove(&self, seat: u8) -> State {
        let mut next = self.clone();
        let Some(s) = next.players.get_mut(usize::from(seat)) else {
            return next;
        };
        if s.out {
            return next;
        }
        s.out = true;
        s.penguins.clear();
        if next.phase != Phase::Over && next.turn == seat {
            next.settle(Some(seat));
        }
        next
    }

    /// Finds the seat to act after `after` acted (or from seat 0 for `None`): in placement the next seat
    /// in the game with penguins left to place, else playing starts with the first seat from 0 that can
    /// move; in playing the next seat that can move (`after` itself last); else the game is over.
    fn settle(&mut self, after: Option<u8>) {
        let n = self.players.len();
        let mut start = after.map_or(0, |s| usize::from(s) + 1);
        if self.phase == Phase::Placement {
            let per = usize::from(self.penguins_per_seat());
            for k in 0..n {
                let s = (start + k) % n;
                if !self.players[s].out && self.players[s].penguins.len() < per {
                    self.turn = s as u8;
                    return;
                }
            }
            self.phase = Phase::Playing;
            start = 0;
        }
        if self.phase == Phase::Playing {
            for k in 0..n {
                let s = ((start + k) % n) as u8;
                if self.can_move(s) {
                    self.turn = s;
                    return;
                }
            }
            self.phase = Phase::Over;
        }
    }

    /// Fish collected per seat (banned seats included).
    pub fn scores(&self) -> Vec<u32> {
        self.players.iter().map(|s| s.fish).collect()
    }

    /// The seats in the game (not out) with the most fish, in seat order: several on a tie, none if
    /// every seat is out. The winners once the game is over; the leaders before.
    pub fn winners(&self) -> Vec<u8> {
        let best = self.players.iter().filter(|s| !s.out).map(|s| s.fish).max();
        (0..self.players.len())
            .filter(|&i| !self.players[i].out && Some(self.players[i].fish) == best)
            .map(|i| i as u8)
            .collect()
    }

    /// The game as text: a header of column numbers, then one line per row (odd rows indented by half
    /// a tile) with the fish of each tile, `.` for a hole and the seat letter for a penguin; then the
    /// fish of every seat and who is to act.
    ///
    /// ```text
    ///      0   1   2
    ///  0   3   A   .
    ///  1     5   1   B
    /// A 0 fish | B 2 fish (out) | A to move
    /// ```
    pub fn render(&self) -> String {
        let mut out = String::from("  ");
        for c in 0..self.board.cols {
            out.push_str(&format!("  {c:>2}"));
        }
        out.push('\n');
        for r in 0..self.board.rows {
            let mut line = format!("{r:>2}");
            if r % 2 == 1 {
                line.push_str("  ");
            }
            for c in 0..self.board.cols {
                let p = Pos { row: r, col: c };
                let cell = match (self.owner(p), self.board.get(p)) {
                    (Some(s), _) => seat_letter(s).to_string(),
                    (None, Some(0) | None) => ".".to_string(),
                    (None, Some(f)) => f.to_string(),
                };
                line.push_str(&format!("  {cell:>2}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let seats: Vec<String> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {} fish{}", seat_letter(i as u8), s.fish, if s.out { " (out)" } else { "" }))
            .collect();
        out.push_str(&seats.join(" | "));
        let who = seat_letter(self.turn);
        match self.phase {
            Phase::Placement => out.push_str(&format!(" | {who} to place")),
            Phase::Playing => out.push_str(&format!(" | {who} to move")),
            Phase::Over => out.push_str(" | game over"),
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(row: u8, col: u8) -> Pos {
        Pos { row, col }
    }

    fn mv(a: (u8, u8), b: (u8, u8)) -> Move {
        Move { from: p(a.0, a.1), to: p(b.0, b.1) }
    }

    /// A board of `rows × cols` tiles with `fish` everywhere but `holes`.
    fn board(rows: u8, cols: u8, fish: u8, holes: &[(u8, u8)]) -> Board {
        let mut b = Board { rows, cols, tiles: vec![fish; usize::from(rows) * usize::from(cols)] };
        for &(r, c) in holes {
            let i = b.index(p(r, c)).unwrap();
            b.tiles[i] = 0;
        }
        b
    }

    /// A game in the playing phase with the given penguins, seat 0 to act (settled).
    fn playing(b: Board, seats: &[&[(u8, u8)]]) -> State {
        let players = seats
            .iter()
            .map(|pens| Seat { penguins: pens.iter().map(|&(r, c)| p(r, c)).collect(), ..Seat::default() })
            .collect();
        let mut s = State { board: b, players, turn: 0, phase: Phase::Playing };
        s.settle(None);
        s
    }

    #[test]
    fn neighbour_formulas() {
        let b = board(4, 4, 1, &[]);
        // Odd row (1,1): the picture in the crate documentation.
        let n = |pos: Pos, d| b.neighbour(pos, d);
        assert_eq!(n(p(1, 1), Dir::E), Some(p(1, 2)));
        assert_eq!(n(p(1, 1), Dir::W), Some(p(1, 0)));
        assert_eq!(n(p(1, 1), Dir::NE), Some(p(0, 2)));
        assert_eq!(n(p(1, 1), Dir::NW), Some(p(0, 1)));
        assert_eq!(n(p(1, 1), Dir::SE), Some(p(2, 2)));
        assert_eq!(n(p(1, 1), Dir::SW), Some(p(2, 1)));
        // Even row (2,2).
        assert_eq!(n(p(2, 2), Dir::NE), Some(p(1, 2)));
        assert_eq!(n(p(2, 2), Dir::NW), Some(p(1, 1)));
        assert_eq!(n(p(2, 2), Dir::SE), Some(p(3, 2)));
        assert_eq!(n(p(2, 2), Dir::SW), Some(p(3, 1)));
        // Edges.
        assert_eq!(n(p(0, 0), Dir::NW), None);
        assert_eq!(n(p(0, 0), Dir::NE), None);
        assert_eq!(n(p(0, 0), Dir::W), None);
        assert_eq!(n(p(0, 0), Dir::SW), None);
        assert_eq!(n(p(0, 0), Dir::SE), Some(p(1, 0)));
        assert_eq!(n(p(1, 3), Dir::E), None);
        assert_eq!(n(p(1, 3), Dir::NE), None);
        assert_eq!(n(p(1, 3), Dir::SE), None);
        assert_eq!(n(p(1, 0), Dir::SW), Some(p(2, 0)));
        assert_eq!(n(p(3, 0), Dir::SE), None);
        assert_eq!(n(p(9, 0), Dir::E), None, "off the board has no neighbours");
    }

    #[test]
    fn neighbours_are_symmetric() {
        for (rows, cols) in [(2, 2), (3, 5), (5, 3), (16, 16)] {
            let b = board(rows, cols, 1, &[]);
            for a in b.positions() {
                let mut seen = Vec::new();
                for d in Dir::ALL {
                    if let Some(q) = b.neighbour(a, d) {
                        assert_eq!(b.neighbour(q, d.opposite()), Some(a), "{a} {d} {q}");
                        assert!(!seen.contains(&q));
                        seen.push(q);
                        // Neighbours are adjacent rows or the same row, and at most one column away.
                        assert!(a.row.abs_diff(q.row) <= 1 && a.col.abs_diff(q.col) <= 1);
                    }
                }
                let interior = a.row > 0 && a.row + 1 < rows && a.col > 0 && a.col + 1 < cols;
                if interior {
                    assert_eq!(seen.len(), 6);
                }
            }
        }
    }

    #[test]
    fn straight_lines() {
        // Walking SE from (0,0) zig-zags through the offset columns: a straight hex line.
        let b = board(6, 6, 1, &[]);
        let mut line = vec![p(0, 0)];
        while let Some(q) = b.neighbour(*line.last().unwrap(), Dir::SE) {
            line.push(q);
        }
        assert_eq!(line, vec![p(0, 0), p(1, 0), p(2, 1), p(3, 1), p(4, 2), p(5, 2)]);
    }

    #[test]
    fn reachability() {
        let b = board(4, 4, 2, &[(1, 2)]);
        // From (1,1): E stops at the hole (1,2); W (1,0); NE (0,2); NW (0,1); SE (2,2), (3,2);
        // SW (2,1), then (3,0) (SW of the even row 2 is one column left).
        let r = b.reachable(p(1, 1), &[]);
        assert_eq!(r, vec![p(1, 0), p(0, 2), p(0, 1), p(2, 2), p(3, 2), p(2, 1), p(3, 0)]);
        // A penguin blocks its tile and everything behind it.
        let r = b.reachable(p(1, 1), &[p(2, 2), p(0, 1)]);
        assert_eq!(r, vec![p(1, 0), p(0, 2), p(2, 1), p(3, 0)]);
        // Corner, along the edge.
        let r = b.reachable(p(0, 0), &[]);
        assert_eq!(r, vec![p(0, 1), p(0, 2), p(0, 3), p(1, 0), p(2, 1), p(3, 1)]);
        // Surrounded by holes: nowhere.
        let b = board(3, 3, 1, &[(0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)]);
        assert_eq!(b.reachable(p(1, 1), &[]), vec![]);
    }

    #[test]
    fn generate_is_seeded_and_checked() {
        // Pinned against an independent ChaCha8 implementation of the documented derivation.
        let b = Board::generate(0, 3, 4, 2).unwrap();
        assert_eq!(b.tiles, vec![1, 1, 2, 0, 5, 2, 5, 0, 1, 5, 2, 1]);
        assert_eq!(
            Board::generate(u64::MAX, 5, 5, 2).unwrap().tiles,
            vec![2, 2, 0, 4, 5, 2, 5, 3, 3, 3, 3, 4, 3, 1, 0, 4, 4, 2, 1, 1, 1, 1, 1, 1, 3]
        );
        assert_eq!(b, Board::generate(0, 3, 4, 2).unwrap());
        assert_ne!(b, Board::generate(1, 3, 4, 2).unwrap());
        let mut seen = [0u32; 6];
        for seed in 0..100 {
            let b = Board::generate(seed, 8, 8, 5).unwrap();
            assert_eq!((b.rows, b.cols, b.tiles.len()), (8, 8, 64));
            assert_eq!(b.fish_tiles(), 59);
            b.check().unwrap();
            for &t in &b.tiles {
                seen[usize::from(t)] += 1;
            }
        }
        // 5_900 fish tiles: each count close to 1_180.
        assert_eq!(seen[0], 500);
        assert!(seen[1..].iter().all(|&n| (1_050..1_310).contains(&n)), "{seen:?}");
        assert_eq!(Board::generate(3, 16, 16, 247).unwrap().fish_tiles(), 9);
        assert_eq!(Board::generate(3, 2, 5, 1).unwrap().fish_tiles(), 9);
        assert_eq!(Board::generate(3, 16, 16, 248), Err(Illegal::TooFewTiles { tiles: 8, needed: 9 }));
        assert_eq!(Board::generate(3, 2, 4, 0), Err(Illegal::TooFewTiles { tiles: 8, needed: 9 }));
        assert_eq!(Board::generate(3, 1, 20, 0), Err(Illegal::BadSize { rows: 1, cols: 20 }));
        assert_eq!(Board::generate(3, 17, 5, 0), Err(Illegal::BadSize { rows: 17, cols: 5 }));
        assert!(Board::generate(3, 5, 1, 0).unwrap_err().to_string().contains("2 to 16 rows and columns"));
    }

    #[test]
    fn board_and_game_checks() {
        assert_eq!(Board::new(3, 3, vec![1; 8]), Err(Illegal::BadTiles { rows: 3, cols: 3, len: 8 }));
        let e = Board::new(3, 3, vec![1, 1, 1, 1, 6, 1, 1, 1, 1]).unwrap_err();
        assert_eq!(e, Illegal::BadFish { pos: p(1, 1), fish: 6 });
        assert_eq!(e.to_string(), "(1,1) holds 6 fish, but a tile holds 0 (a hole) to 5");
        assert!(Board::new(3, 3, vec![0; 9]).is_ok());
        let b = board(3, 3, 1, &[]);
        assert_eq!(State::new(b.clone(), 1), Err(Illegal::BadPlayers(1)));
        assert_eq!(State::new(b.clone(), 5), Err(Illegal::BadPlayers(5)));
        for n in 2..=4 {
            let s = State::new(b.clone(), n).unwrap();
            assert_eq!(s.penguins_per_seat(), 6 - n);
            assert_eq!((s.turn, s.phase, s.current()), (0, Phase::Placement, Some(0)));
        }
        let b8 = board(3, 3, 1, &[(1, 1)]);
        assert!(State::new(b8.clone(), 2).is_ok());
        assert_eq!(State::new(b8.clone(), 3), Err(Illegal::TooFewTiles { tiles: 8, needed: 9 }));
        assert!(State::new(b8, 4).is_ok());
        assert!(matches!(State::new(Board { rows: 3, cols: 3, tiles: vec![] }, 2), Err(Illegal::BadTiles { .. })));
    }

    #[test]
    fn placement_round_robin() {
        let b = board(4, 4, 1, &[(0, 0)]);
        let mut s = State::new(b, 3).unwrap();
        let mut order = Vec::new();
        let mut spots = s.legal_placements();
        assert_eq!(spots.len(), 15);
        assert!(s.legal_moves().is_empty());
        while s.phase == Phase::Placement {
            order.push(s.turn);
            let pos = spots.remove(0);
            s = s.place(pos).unwrap();
            assert!(!s.legal_placements().contains(&pos));
        }
        assert_eq!(order, vec![0, 1, 2, 0, 1, 2, 0, 1, 2]);
        assert!(s.players.iter().all(|seat| seat.penguins.len() == 3));
        assert_eq!(s.phase, Phase::Playing);
        assert_eq!(s.turn, 0);
        assert!(s.legal_placements().is_empty());
        assert_eq!(s.players[0].penguins, vec![p(0, 1), p(1, 0), p(1, 3)]);
    }

    #[test]
    fn placement_refusals() {
        let b = board(4, 4, 2, &[(0, 0)]);
        let s = State::new(b, 2).unwrap();
        let s = s.place(p(1, 1)).unwrap();
        let before = s.clone();
        assert_eq!(s.place(p(0, 0)), Err(Illegal::Hole(p(0, 0))));
        assert_eq!(s.place(p(0, 0)).unwrap_err().to_string(), "(0,0) is a hole");
        assert_eq!(s.place(p(1, 1)), Err(Illegal::Occupied { pos: p(1, 1), seat: 0 }));
        assert_eq!(s.place(p(1, 1)).unwrap_err().to_string(), "(1,1) already holds a penguin of seat 0 (A)");
        assert_eq!(s.place(p(4, 0)), Err(Illegal::OffBoard(p(4, 0))));
        assert_eq!(s.place(p(0, 4)).unwrap_err().to_string(), "(0,4) is off the board");
        let e = s.play(mv((1, 1), (1, 2))).unwrap_err();
        assert_eq!(e, Illegal::WrongPhase { now: Phase::Placement, wanted: Phase::Playing });
        assert_eq!(e.to_string(), "it is the placement phase, not playing");
        assert_eq!(s.apply(&Action::Place { seat: 0, pos: p(2, 2) }), Err(Illegal::NotYourTurn { seat: 0, turn: 1 }));
        assert_eq!(
            Illegal::NotYourTurn { seat: 0, turn: 1 }.to_string(),
            "it is the turn of seat 1 (B), not seat 0 (A)"
        );
        assert_eq!(s.apply(&Action::Place { seat: 1, pos: p(2, 2) }), s.place(p(2, 2)));
        assert_eq!(s, before);
    }

    #[test]
    fn move_refusals_name_the_problem() {
        // Row 1: A at (1,0), hole at (1,2); B at (2,1).
        let b = board(4, 4, 3, &[(1, 2)]);
        let s = playing(b, &[&[(1, 0), (3, 3)], &[(2, 1), (0, 3)]]);
        assert_eq!(s.turn, 0);
        let before = s.clone();
        let err = |m: Move| s.play(m).unwrap_err();
        assert_eq!(
            err(mv((1, 0), (1, 3))),
            Illegal::Blocked { mv: mv((1, 0), (1, 3)), at: p(1, 2), by: Obstacle::Hole }
        );
        assert_eq!(
            err(mv((1, 0), (1, 3))).to_string(),
            "penguin at (1,0) cannot reach (1,3): the way is blocked by a hole at (1,2)"
        );
        // (1,0) SE is (2,1), where B stands; beyond it (3,1).
        assert_eq!(
            err(mv((1, 0), (3, 1))).to_string(),
            "penguin at (1,0) cannot reach (3,1): the way is blocked by a penguin of seat 1 (B) at (2,1)"
        );
        assert_eq!(err(mv((1, 0), (1, 2))), Illegal::Hole(p(1, 2)));
        assert_eq!(err(mv((1, 0), (2, 1))), Illegal::Occupied { pos: p(2, 1), seat: 1 });
        assert_eq!(err(mv((1, 0), (3, 0))), Illegal::NotALine(mv((1, 0), (3, 0))));
        assert_eq!(
            err(mv((1, 0), (3, 0))).to_string(),
            "penguin at (1,0) cannot reach (3,0): it is not on a straight line in one of the six directions"
        );
        assert_eq!(err(mv((2, 1), (2, 2))), Illegal::NotYourPenguin { pos: p(2, 1), owner: 1 });
        assert_eq!(err(mv((2, 1), (2, 2))).to_string(), "(2,1) is not your penguin: it belongs to seat 1 (B)");
        assert_eq!(err(mv((2, 2), (2, 3))), Illegal::NoPenguin(p(2, 2)));
        assert_eq!(err(mv((2, 2), (2, 3))).to_string(), "there is no penguin at (2,2)");
        assert_eq!(err(mv((1, 0), (1, 0))), Illegal::Stay(p(1, 0)));
        assert_eq!(err(mv((1, 0), (9, 9))), Illegal::OffBoard(p(9, 9)));
        let e = s.place(p(2, 2)).unwrap_err();
        assert_eq!(e.to_string(), "it is the playing phase, not placement");
        assert_eq!(s, before);
        // And the legal ones go through.
        let s2 = s.play(mv((1, 0), (0, 0))).unwrap();
        assert_eq!(s2.players[0].fish, 3);
        assert_eq!(s2.board.get(p(1, 0)), Some(0));
        assert_eq!(s2.players[0].penguins, vec![p(0, 0), p(3, 3)]);
        assert_eq!(s2.turn, 1);
        assert_eq!(
            s2.apply(&Action::Move { seat: 0, mv: mv((0, 0), (0, 1)) }),
            Err(Illegal::NotYourTurn { seat: 0, turn: 1 })
        );
    }

    #[test]
    fn legal_moves_list() {
        let b = board(3, 3, 1, &[(1, 1)]);
        let s = playing(b, &[&[(0, 0)], &[(2, 2)]]);
        // (0,0): E (0,1),(0,2); SE (1,0),(2,1); NE/NW/W/SW off the board.
        assert_eq!(
            s.legal_moves(),
            vec![mv((0, 0), (0, 1)), mv((0, 0), (0, 2)), mv((0, 0), (1, 0)), mv((0, 0), (2, 1))]
        );
        // (2,2): W (2,1),(2,0); NE (1,2); NW is the hole.
        assert_eq!(s.moves_of(1), vec![mv((2, 2), (2, 1)), mv((2, 2), (2, 0)), mv((2, 2), (1, 2))]);
        assert!(s.legal_placements().is_empty());
    }

    #[test]
    fn stuck_seat_is_skipped() {
        // B is walled in at (0,0) by holes and A's penguin; A and C can move.
        let b = board(4, 4, 1, &[(0, 1), (1, 0)]);
        let s = playing(b, &[&[(3, 3)], &[(0, 0)], &[(2, 2)]]);
        assert!(!s.can_move(1));
        assert_eq!(s.turn, 0);
        let s = s.play(mv((3, 3), (3, 2))).unwrap();
        assert_eq!(s.turn, 2, "B cannot move and is skipped");
        let s = s.play(mv((2, 2), (2, 3))).unwrap();
        assert_eq!(s.turn, 0);
        // Seat 0 stuck at the start of play: play starts with the first seat that can move.
        let b = board(3, 3, 1, &[(0, 1), (1, 0)]);
        let s = playing(b, &[&[(0, 0)], &[(2, 2)]]);
        assert_eq!((s.phase, s.turn), (Phase::Playing, 1));
    }

    #[test]
    fn mover_goes_again_when_everyone_else_is_stuck() {
        let b = board(3, 4, 2, &[(0, 1), (1, 0)]);
        let s = playing(b, &[&[(2, 2)], &[(0, 0)]]);
        assert_eq!(s.turn, 0);
        let s = s.play(mv((2, 2), (2, 3))).unwrap();
        assert_eq!(s.turn, 0);
        assert_eq!(s.players[0].fish, 2);
    }

    #[test]
    fn game_ends_when_nobody_can_move() {
        // A 2x5 strip: A at (0,0), B at (1,4).
        let b = board(2, 5, 1, &[]);
        let mut s = State::new(b, 2).unwrap();
        for pos in [p(0, 0), p(1, 4), p(0, 4), p(1, 0), p(0, 2), p(1, 2), p(0, 3), p(1, 1)] {
            s = s.place(pos).unwrap();
        }
        assert_eq!(s.phase, Phase::Playing);
        // Free tiles: (0,1), (1,3).
        let mut moves = 0;
        while let Some(_seat) = s.current() {
            let m = s.legal_moves()[0];
            s = s.play(m).unwrap();
            moves += 1;
        }
        assert_eq!(moves, 2);
        assert!(s.is_over());
        assert_eq!(s.current(), None);
        assert!(s.legal_moves().is_empty());
        assert_eq!(s.play(mv((0, 1), (0, 0))).unwrap_err().to_string(), "the game is over");
        assert_eq!(s.scores().iter().sum::<u32>(), 2);
        assert_eq!(s.board.total_fish(), 8);
    }

    #[test]
    fn scores_and_winners() {
        let b = board(3, 3, 1, &[]);
        let mut s = State::new(b, 3).unwrap();
        s.players[0].fish = 5;
        s.players[1].fish = 7;
        s.players[2].fish = 7;
        assert_eq!(s.scores(), vec![5, 7, 7]);
        assert_eq!(s.winners(), vec![1, 2]);
        let s = s.remove(2);
        assert_eq!(s.scores(), vec![5, 7, 7], "a banned seat keeps its fish");
        assert_eq!(s.winners(), vec![1]);
        let s = s.remove(1).remove(0);
        assert_eq!(s.winners(), Vec::<u8>::new());
        assert!(s.is_over());
    }

    #[test]
    fn removal_in_placement() {
        let b = board(4, 4, 1, &[]);
        let s = State::new(b, 3).unwrap();
        let s = s.place(p(0, 0)).unwrap().place(p(0, 1)).unwrap();
        assert_eq!(s.turn, 2);
        // C (to act) is banned: A goes on.
        let s = s.remove(2);
        assert_eq!(s.turn, 0);
        assert!(s.players[2].out);
        // B banned while A is to act: B's penguin leaves, its tile stays.
        let s = s.remove(1);
        assert!(s.players[1].penguins.is_empty());
        assert_eq!(s.board.get(p(0, 1)), Some(1));
        assert!(s.legal_placements().contains(&p(0, 1)));
        let mut s = s;
        let mut order = Vec::new();
        while s.phase == Phase::Placement {
            order.push(s.turn);
            s = s.place(s.legal_placements()[0]).unwrap();
        }
        assert_eq!(order, vec![0, 0]);
        assert_eq!(s.players[0].penguins.len(), 3);
        assert_eq!((s.phase, s.turn), (Phase::Playing, 0));
        // Removing again, or a seat that does not exist, changes nothing.
        assert_eq!(s.remove(1), s);
        assert_eq!(s.remove(7), s);
    }

    #[test]
    fn removal_mid_game_three_players() {
        let b = board(5, 5, 2, &[]);
        let s = playing(b, &[&[(0, 0)], &[(2, 2)], &[(4, 4)]]);
        let s = s.play(mv((0, 0), (0, 1))).unwrap();
        assert_eq!(s.turn, 1);
        // B is banned on its turn: C goes next; B's penguin is gone and (2,2) still has fish.
        let s = s.remove(1);
        assert_eq!(s.turn, 2);
        assert_eq!(s.owner(p(2, 2)), None);
        assert_eq!(s.board.get(p(2, 2)), Some(2));
        let s = s.play(mv((4, 4), (4, 3))).unwrap();
        assert_eq!(s.turn, 0, "B is never asked again");
        let s = s.play(mv((0, 1), (2, 2))).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.turn, 2);
        assert_eq!(s.scores(), vec![4, 0, 2]);
        // The game goes on with one seat left.
        let mut s = s.remove(0);
        assert_eq!(s.turn, 2);
        let mut seats = Vec::new();
        while let Some(seat) = s.current() {
            seats.push(seat);
            s = s.play(s.legal_moves()[0]).unwrap();
        }
        assert!(seats.iter().all(|&x| x == 2) && !seats.is_empty());
        assert_eq!(s.winners(), vec![2]);
        assert_eq!(s.board.total_fish() + s.scores().iter().sum::<u32>(), 50);
    }

    #[test]
    fn removal_mid_game_four_players_frees_a_stuck_seat() {
        // D at (0,0) is walled in by the hole (0,1) and by B's penguin at (1,0).
        let b = board(4, 4, 1, &[(0, 1)]);
        let s = playing(b, &[&[(3, 3), (3, 2)], &[(1, 0), (2, 0)], &[(3, 0), (2, 3)], &[(0, 0)]]);
        assert!(!s.can_move(3));
        assert_eq!(s.turn, 0);
        let s = s.play(mv((3, 2), (3, 1))).unwrap();
        assert_eq!(s.turn, 1);
        // B is banned on its turn: C acts next, and D is free to move now that (1,0) is empty.
        let s = s.remove(1);
        assert_eq!(s.turn, 2);
        assert!(s.can_move(3));
        let s = s.play(mv((2, 3), (1, 3))).unwrap();
        assert_eq!(s.turn, 3);
        let s = s.play(mv((0, 0), (1, 0))).unwrap();
        assert_eq!(s.turn, 0);
        assert_eq!(s.scores(), vec![1, 0, 1, 1]);
        // C banned while A is to act: the turn stays with A, C's tiles keep their fish.
        let s2 = s.remove(2);
        assert_eq!(s2.turn, 0);
        assert!(s2.players[2].penguins.is_empty());
        assert_eq!(s2.board.get(p(3, 0)), Some(1));
        assert_eq!(s2.board.get(p(1, 3)), Some(1));
    }

    #[test]
    fn removal_of_the_last_mover_ends_the_game() {
        let b = board(3, 3, 1, &[(0, 1), (1, 0)]);
        let s = playing(b, &[&[(0, 0)], &[(2, 2)]]);
        assert_eq!(s.turn, 1);
        let s = s.remove(1);
        assert!(s.is_over());
        assert_eq!(s.winners(), vec![0]);
    }

    #[test]
    fn render_shows_the_board() {
        let b = board(2, 3, 3, &[(0, 2)]);
        let mut s = State { board: b, players: vec![Seat::default(); 2], turn: 0, phase: Phase::Placement };
        s.board.tiles[3] = 5;
        let s = s.place(p(0, 1)).unwrap().place(p(1, 2)).unwrap().remove(1);
        let text = s.render();
        assert_eq!(text, "     0   1   2\n 0   3   A   .\n 1     5   3   3\nA 0 fish | B 0 fish (out) | A to place\n");
        assert_eq!(Action::Move { seat: 1, mv: mv((0, 0), (1, 1)) }.to_string(), "B moves (0,0) to (1,1)");
        assert_eq!(Action::Place { seat: 0, pos: p(2, 3) }.to_string(), "A places a penguin on (2,3)");
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// A game to play out: board arguments, players, the choices of every turn and where bans happen.
    #[derive(Debug, Clone)]
    struct Game {
        seed: u64,
        rows: u8,
        cols: u8,
        holes: u8,
        players: u8,
        picks: Vec<u32>,
        bans: Vec<(u16, u8)>,
    }

    fn game() -> impl Strategy<Value = Game> {
        (any::<u64>(), 2u8..=8, 2u8..=8, 0u8..=12, 2u8..=4).prop_flat_map(|(seed, rows, cols, holes, players)| {
            let n = u16::from(rows) * u16::from(cols);
            let rows = if n < 9 { 3 } else { rows };
            let cols = if n < 9 { 3 } else { cols };
            let holes = holes.min((u16::from(rows) * u16::from(cols) - 9) as u8);
            (proptest::collection::vec(any::<u32>(), 200), proptest::collection::vec((0u16..80, 0u8..4), 0..3))
                .prop_map(move |(picks, bans)| Game { seed, rows, cols, holes, players, picks, bans })
        })
    }

    /// Plays `g` out, checking invariants after every step; `probe` is called on every state.
    fn play_out(
        g: &Game,
        mut probe: impl FnMut(&State, usize) -> Result<(), TestCaseError>,
    ) -> Result<State, TestCaseError> {
        let board = Board::generate(g.seed, g.rows, g.cols, g.holes).unwrap();
        let start_fish = board.total_fish();
        let mut s = State::new(board, g.players).unwrap();
        let mut collected = 0u32;
        let mut step = 0usize;
        while !s.is_over() {
            for &(at, who) in &g.bans {
                if usize::from(at) == step && who < g.players {
                    s = s.remove(who);
                }
            }
            if s.is_over() {
                break;
            }
            probe(&s, step)?;
            let pick = g.picks[step % g.picks.len()] as usize;
            s = match s.phase {
                Phase::Placement => {
                    let spots = s.legal_placements();
                    prop_assert!(!spots.is_empty());
                    s.place(spots[pick % spots.len()]).unwrap()
                }
                Phase::Playing => {
                    let moves = s.legal_moves();
                    prop_assert!(!moves.is_empty(), "seat to act must be able to move");
                    let m = moves[pick % moves.len()];
                    collected += u32::from(s.board.get(m.from).unwrap());
                    s.play(m).unwrap()
                }
                Phase::Over => unreachable!(),
            };
            step += 1;
            prop_assert!(step <= 2 * usize::from(g.rows) * usize::from(g.cols), "the game must end");
            // Invariants.
            let total: u32 = s.scores().iter().sum();
            prop_assert_eq!(total, collected);
            prop_assert_eq!(s.board.total_fish() + total, start_fish);
            let occ = s.occupied();
            for (i, a) in occ.iter().enumerate() {
                prop_assert!(s.board.has_fish(*a), "penguin on a hole at {}", a);
                prop_assert!(!occ[i + 1..].contains(a));
            }
            if let Some(t) = s.current() {
                prop_assert!(!s.players[usize::from(t)].out);
            }
        }
        prop_assert!(s.is_over());
        for seat in 0..g.players {
            prop_assert!(!s.can_move(seat));
        }
        Ok(s)
    }

    proptest! {
        #[test]
        fn random_games_end(g in game()) {
            let s = play_out(&g, |_, _| Ok(()))?;
            let per = usize::from(penguins_per_player(g.players));
            for seat in &s.players {
                prop_assert!(seat.out || seat.penguins.len() == per);
                prop_assert!(!seat.out || seat.penguins.is_empty());
            }
            let w = s.winners();
            let any_in = s.players.iter().any(|p| !p.out);
            prop_assert_eq!(w.is_empty(), !any_in);
            prop_assert!(!s.render().is_empty());
        }

        #[test]
        fn illegal_actions_are_refused(g in game(), tries in proptest::collection::vec((0u8..10, 0u8..10, 0u8..10, 0u8..10), 8)) {
            play_out(&g, |s, step| {
                let before = s.clone();
                let legal_p = s.legal_placements();
                let legal_m = s.legal_moves();
                for (k, &(a, b, c, d)) in tries.iter().enumerate() {
                    // Mix in tiles near the seat's penguins so that real near-misses are tried too.
                    let seat = &s.players[usize::from(s.turn)];
                    let from = if (k + step) % 2 == 0 && !seat.penguins.is_empty() {
                        seat.penguins[usize::from(a) % seat.penguins.len()]
                    } else {
                        Pos { row: a, col: b }
                    };
                    let pos = Pos { row: c, col: d };
                    let m = Move { from, to: pos };
                    let rp = s.place(pos);
                    prop_assert_eq!(rp.is_ok(), legal_p.contains(&pos), "place {} {:?}", pos, rp);
                    let rm = s.play(m);
                    prop_assert_eq!(rm.is_ok(), legal_m.contains(&m), "play {} {:?}", m, rm);
                    if let Err(e) = rp {
                        prop_assert!(!e.to_string().is_empty());
                    }
                    if let Err(e) = rm {
                        prop_assert!(!e.to_string().is_empty());
                    }
                    prop_assert_eq!(s, &before);
                }
                // Actions of a seat that is not to act are refused.
                let other = (s.turn + 1) % s.players.len() as u8;
                if let Some(&pos) = legal_p.first() {
                    let refused = s.apply(&Action::Place { seat: other, pos }).is_err();
                    prop_assert!(refused);
                    prop_assert_eq!(s.apply(&Action::Place { seat: s.turn, pos }), s.place(pos));
                }
                if let Some(&mv) = legal_m.first() {
                    let refused = s.apply(&Action::Move { seat: other, mv }).is_err();
                    prop_assert!(refused);
                }
                Ok(())
            })?;
        }

        #[test]
        fn legal_lists_agree_with_actions(g in game()) {
            play_out(&g, |s, _| {
                for pos in s.legal_placements() {
                    let next = s.place(pos);
                    prop_assert!(next.is_ok(), "{} refused: {:?}", pos, next);
                    prop_assert_eq!(next.unwrap().owner(pos), Some(s.turn));
                }
                let moves = s.legal_moves();
                let mut seen = std::collections::HashSet::new();
                for m in &moves {
                    prop_assert!(seen.insert(*m), "duplicate {}", m);
                    let next = s.play(*m);
                    prop_assert!(next.is_ok(), "{} refused: {:?}", m, next);
                    let next = next.unwrap();
                    prop_assert_eq!(next.owner(m.to), Some(s.turn));
                    prop_assert_eq!(next.board.get(m.from), Some(0));
                    prop_assert_eq!(next.scores()[usize::from(s.turn)], s.scores()[usize::from(s.turn)] + u32::from(s.board.get(m.from).unwrap()));
                }
                // Every (penguin, tile) pair not listed is refused.
                if s.phase == Phase::Playing {
                    for &from in &s.players[usize::from(s.turn)].penguins {
                        for to in s.board.positions() {
                            let m = Move { from, to };
                            prop_assert_eq!(s.play(m).is_ok(), moves.contains(&m));
                        }
                    }
                }
                Ok(())
            })?;
        }
    }
}

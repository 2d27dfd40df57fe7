//! Fish's referee as a pure state machine, in the rules crate's types (no wasm, no bindings), so it is
//! tested natively. It does what the host's built-in Fish referee did, call for call:
//!
//! 1. `play-as` to every seat in seat order (the first call of a game), then `play-with` (the other
//!    seats' colours, banned ones included) to every seat still in, in seat order;
//! 2. then, one seat at a time, the seat to act is asked `setup` (placement) or `take-turn` (playing)
//!    with the whole state and every action since its own last request (its own last action
//!    included), until no penguin can move (or, as a safeguard, after `tiles + 25` requests);
//! 3. a refused action, and any other fault, bans the seat: its penguins leave the board (the tiles stay
//!    with their fish), it keeps its fish, is never asked again and never wins; the others play on.
//!
//! The board is `fish_rules::Board::generate(seed, rows, cols, holes)` from the game's own seed, as
//! before. Scores are the fish of every seat, the winners the seats still in with the most fish, and
//! the view is the final board as `fish_rules::State::render` draws it.

use fish_rules::{Action, Board, MAX_SIDE, MIN_SIDE, Move, Phase, Pos, Seat, State, seat_letter};

/// The board a game is played on unless the options say otherwise: 5 × 5 tiles with 2 holes.
pub const ROWS: u8 = 5;
pub const COLS: u8 = 5;
pub const HOLES: u8 = 2;

/// Fewest and most players of a game.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=4;

/// Seat colours in turn order, as the player contract names them.
pub const COLOURS: [&str; 4] = ["red", "white", "brown", "black"];

/// The colour name of a seat.
pub fn colour_name(seat: u8) -> &'static str {
    COLOURS[usize::from(seat) % COLOURS.len()]
}

/// What the referee asks a seat: the player export of that name. Seats (and colours, their seat in
/// turn order) are indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// The tournament is starting (only through [`tournament`]).
    Start,
    /// The seat's colour: the first call of a game.
    PlayAs(u8),
    /// The other seats of the game.
    PlayWith(Vec<u8>),
    /// Where to place the next penguin.
    Setup(State),
    /// The move, given the state and every action since the seat's last request.
    TakeTurn(State, Vec<Action>),
    /// The tournament is over: whether the player won it (only through [`tournament`]).
    End(bool),
}

impl Request {
    /// The export it calls.
    pub fn call(&self) -> &'static str {
        match self {
            Request::Start => "start",
            Request::PlayAs(_) => "play-as",
            Request::PlayWith(_) => "play-with",
            Request::Setup(_) => "setup",
            Request::TakeTurn(..) => "take-turn",
            Request::End(_) => "end",
        }
    }
}

/// A seat's answer: the same case as its request, with the export's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Start,
    PlayAs,
    PlayWith,
    Setup(Pos),
    TakeTurn(Move),
    End,
}

impl Answer {
    /// The export it answers.
    pub fn call(&self) -> &'static str {
        match self {
            Answer::Start => "start",
            Answer::PlayAs => "play-as",
            Answer::PlayWith => "play-with",
            Answer::Setup(_) => "setup",
            Answer::TakeTurn(_) => "take-turn",
            Answer::End => "end",
        }
    }
}

/// What a player is asked when a tournament starts (`None`) or ends (`Some(won)`): `start`, or
/// `end(won)`, as the host's built-in Fish did.
pub fn tournament(ended: Option<bool>) -> Request {
    match ended {
        None => Request::Start,
        Some(won) => Request::End(won),
    }
}

/// The board options: `rows`, `cols` and `holes`, each as decimal text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub rows: u8,
    pub cols: u8,
    pub holes: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { rows: ROWS, cols: COLS, holes: HOLES }
    }
}

impl Options {
    /// The options as the setup carries them, over the defaults; refused if a name is unknown or a
    /// value is not a whole number in its range (whether the board can seat every penguin is
    /// [`Options::board`]'s).
    pub fn parse(options: &[(String, String)]) -> Result<Options, String> {
        let mut o = Options::default();
        for (name, value) in options {
            let (slot, min, max) = match name.as_str() {
                "rows" => (&mut o.rows, MIN_SIDE, MAX_SIDE),
                "cols" => (&mut o.cols, MIN_SIDE, MAX_SIDE),
                "holes" => (&mut o.holes, 0, u8::MAX),
                _ => return Err(format!("fish has no option `{name}` (it has: rows, cols, holes)")),
            };
            let v: i64 =
                value.trim().parse().map_err(|_| format!("option `{name}`: `{value}` is not a whole number"))?;
            if !(i64::from(min)..=i64::from(max)).contains(&v) {
                return Err(format!("option `{name}` must be from {min} to {max}, not {v}"));
            }
            *slot = v as u8;
        }
        Ok(o)
    }

    /// The board of a game from `seed`: refused unless at least 9 tiles keep their fish.
    pub fn board(&self, seed: u64) -> Result<Board, String> {
        Board::generate(seed, self.rows, self.cols, self.holes).map_err(|e| {
            let Options { rows, cols, holes } = *self;
            format!("bad board: {e} (rows {rows}, cols {cols}, holes {holes}: at most rows x cols - 9 holes)")
        })
    }
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `play-as` to this seat next (seats that are out are skipped).
    PlayAs(usize),
    /// `play-with` to this seat next (seats that are out are skipped).
    PlayWith(usize),
    /// Placements and moves: the seat to act is asked.
    Turns,
    Over,
}

/// One game.
#[derive(Debug, Clone)]
pub struct Table {
    stage: Stage,
    state: State,
    /// Banned seats.
    failed: Vec<bool>,
    /// Every action so far.
    log: Vec<Action>,
    /// Per seat, the length of the log when it was last asked to act.
    seen: Vec<usize>,
    /// Placements and moves asked so far (answered, refused or failed).
    asked: u32,
    /// At most this many are asked (set when the turns start).
    cap: u32,
    /// Events not yet handed to the host, oldest first (every one for everyone).
    events: Vec<String>,
}

impl Table {
    /// A game of `players` seats on the board the options and the seed make.
    pub fn start(players: usize, seed: u64, options: &[(String, String)]) -> Result<Table, String> {
        if !SEATS.contains(&players) {
            return Err(format!("fish seats {} to {} players, not {players}", SEATS.start(), SEATS.end()));
        }
        let o = Options::parse(options)?;
        let board = o.board(seed)?;
        let state = State::new(board, players as u8).map_err(|e| format!("bad game: {e}"))?;
        let seats: Vec<String> = (0..players as u8).map(|s| format!("{} {}", seat_letter(s), colour_name(s))).collect();
        let mut game = Table {
            stage: Stage::PlayAs(0),
            failed: vec![false; players],
            log: Vec::new(),
            seen: vec![0; players],
            asked: 0,
            cap: 0,
            events: vec![format!(
                "a {} x {} board with {} holes; {players} players with {} penguins each: {}",
                o.rows,
                o.cols,
                o.holes,
                state.penguins_per_seat(),
                seats.join(", ")
            )],
            state,
        };
        game.settle();
        Ok(game)
    }

    /// The game as it stands.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Whether the game is over: nobody is asked anything any more.
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The seat asked now, and its request (none once the game is over).
    pub fn requests(&self) -> Vec<(u32, Request)> {
        self.asked_now().map(|(seat, r)| vec![(seat as u32, r)]).unwrap_or_default()
    }

    /// The seat asked now and the export it is asked.
    fn asked_seat(&self) -> Option<(usize, &'static str)> {
        match self.stage {
            Stage::PlayAs(i) => Some((i, "play-as")),
            Stage::PlayWith(i) => Some((i, "play-with")),
            Stage::Turns => {
                let p = usize::from(self.state.current()?);
                Some((p, if self.state.phase == Phase::Placement { "setup" } else { "take-turn" }))
            }
            Stage::Over => None,
        }
    }

    fn asked_now(&self) -> Option<(usize, Request)> {
        let n = self.failed.len();
        match self.stage {
            Stage::PlayAs(i) => Some((i, Request::PlayAs(i as u8))),
            Stage::PlayWith(i) => Some((i, Request::PlayWith((0..n as u8).filter(|&o| usize::from(o) != i).collect()))),
            Stage::Turns => {
                let p = self.state.current()?;
                let i = usize::from(p);
                let since = self.seen.get(i).copied().unwrap_or(0).min(self.log.len());
                let state = self.state.clone();
                Some(match self.state.phase {
                    Phase::Placement => (i, Request::Setup(state)),
                    _ => (i, Request::TakeTurn(state, self.log[since..].to_vec())),
                })
            }
            Stage::Over => None,
        }
    }

    /// Seat `seat`'s answer to its request: refused (and nothing changes) unless the seat was asked that,
    /// and unless the rules allow the placement or move. The host bans a seat whose answer is refused.
    pub fn apply(&mut self, seat: u32, answer: Answer) -> Result<(), String> {
        let Some((asked, call)) = self.asked_seat() else {
            return Err(format!("the game is over: seat {seat} was not asked"));
        };
        if seat as usize != asked {
            return Err(format!("seat {seat} was not asked: seat {asked} is asked `{call}`"));
        }
        match (self.stage, answer) {
            (Stage::PlayAs(i), Answer::PlayAs) => self.stage = Stage::PlayAs(i + 1),
            (Stage::PlayWith(i), Answer::PlayWith) => self.stage = Stage::PlayWith(i + 1),
            (Stage::Turns, Answer::Setup(pos)) if self.state.phase == Phase::Placement => {
                let next = self.state.place(pos).map_err(|e| e.to_string())?;
                self.acted(asked, Action::Place { seat: asked as u8, pos }, next);
            }
            (Stage::Turns, Answer::TakeTurn(mv)) if self.state.phase == Phase::Playing => {
                let next = self.state.play(mv).map_err(|e| e.to_string())?;
                let fish = self.state.board.get(mv.from).unwrap_or(0);
                self.acted(asked, Action::Move { seat: asked as u8, mv }, next);
                if let Some(text) = self.events.last_mut() {
                    text.push_str(&format!(" and takes {fish} fish"));
                }
            }
            _ => return Err(format!("seat {seat} was asked `{call}`, not `{}`", answer.call())),
        }
        self.settle();
        Ok(())
    }

    /// A placement or move was made: the log grows and the game goes on from `next`.
    fn acted(&mut self, seat: usize, action: Action, next: State) {
        if let Some(s) = self.seen.get_mut(seat) {
            *s = self.log.len();
        }
        self.asked += 1;
        let was_placing = self.state.phase == Phase::Placement;
        self.state = next;
        self.log.push(action);
        self.events.push(action.to_string());
        if was_placing && self.state.phase == Phase::Playing {
            let first = self.state.current().map_or('?', seat_letter);
            self.events.push(format!("every penguin is placed: {first} moves first"));
        }
    }

    /// Seat `seat` failed (`why`: how, for the event): its penguins leave the board, it is never asked
    /// again, and the others play on. Its request, if it was being asked, is over.
    pub fn banned(&mut self, seat: u32, why: &str) {
        let i = seat as usize;
        if self.failed.get(i).is_none_or(|&f| f) {
            return;
        }
        if self.asked_seat().is_some_and(|(asked, _)| asked == i) {
            match self.stage {
                Stage::PlayAs(_) => self.stage = Stage::PlayAs(i + 1),
                Stage::PlayWith(_) => self.stage = Stage::PlayWith(i + 1),
                Stage::Turns => {
                    if let Some(s) = self.seen.get_mut(i) {
                        *s = self.log.len();
                    }
                    self.asked += 1;
                }
                Stage::Over => {}
            }
        }
        self.failed[i] = true;
        let placing = self.state.phase == Phase::Placement;
        self.state = self.state.remove(seat as u8);
        let letter = seat_letter(seat as u8);
        self.events.push(format!("{letter} is banned ({why}); its penguins leave the board"));
        if placing && self.state.phase == Phase::Playing && self.stage == Stage::Turns {
            let first = self.state.current().map_or('?', seat_letter);
            self.events.push(format!("every penguin is placed: {first} moves first"));
        }
        self.settle();
    }

    /// Moves on past seats that are out, into the turns, and to the end when nobody can move.
    fn settle(&mut self) {
        let n = self.failed.len();
        let out = |i: usize| self.failed.get(i).copied().unwrap_or(true);
        if let Stage::PlayAs(mut i) = self.stage {
            while i < n && out(i) {
                i += 1;
            }
            self.stage = if i < n { Stage::PlayAs(i) } else { Stage::PlayWith(0) };
        }
        if let Stage::PlayWith(mut i) = self.stage {
            while i < n && out(i) {
                i += 1;
            }
            if i < n {
                self.stage = Stage::PlayWith(i);
            } else {
                self.stage = Stage::Turns;
                // Each action places a penguin or turns a tile into a hole: the game cannot outlast this.
                self.cap = self.state.board.tiles.len() as u32 + 4 * 6 + 1;
            }
        }
        if self.stage == Stage::Turns && (self.state.current().is_none() || self.asked >= self.cap) {
            self.stage = Stage::Over;
            self.events.push(self.summary());
        }
    }

    /// The last event: every seat's fish and the winners.
    fn summary(&self) -> String {
        let fish: Vec<String> = (0..self.state.players.len())
            .map(|i| {
                let p = &self.state.players[i];
                let out = if p.out { " (out)" } else { "" };
                format!("{} {} fish{out}", seat_letter(i as u8), p.fish)
            })
            .collect();
        let winners: Vec<String> = self.state.winners().into_iter().map(|w| seat_letter(w).to_string()).collect();
        let result = match winners.len() {
            0 => "nobody wins".to_string(),
            1 => format!("{} wins", winners[0]),
            _ => format!("{} share the win", winners.join(" and ")),
        };
        let how = if self.state.is_over() { "game over" } else { "game stopped" };
        format!("{how}: {}; {result}", fish.join(", "))
    }

    /// Once the game is over: the fish of every seat, and the winners (the seats still in with the most
    /// fish; several on a tie, none if every seat is out).
    pub fn outcome(&self) -> Option<(Vec<i64>, Vec<u32>)> {
        if self.stage != Stage::Over {
            return None;
        }
        let scores = self.state.scores().into_iter().map(i64::from).collect();
        let winners = self.state.winners().into_iter().map(u32::from).collect();
        Some((scores, winners))
    }

    /// The board as text, with every seat's fish and who is to act: the same for everyone.
    pub fn view(&self) -> String {
        self.state.render()
    }

    /// The board as an SVG drawing: pointy-top hexes in the odd-r layout, each tile with its fish (a
    /// hole left blank), penguins as discs in their seat's colour with its letter, the seats' fish below.
    pub fn svg(&self) -> String {
        use std::fmt::Write as _;
        let board = &self.state.board;
        const R: f64 = 28.0; // a hex's circumradius
        let w = 3f64.sqrt() * R;
        let (cols, rows) = (f64::from(board.cols), f64::from(board.rows));
        let width = w * (cols + 0.5) + 8.0;
        // The status line ("A 16 fish | B 21 fish | … | game over"), wrapped at `|` to the board's
        // width (about 7.5 px a character at 13 px): a small board with four seats needs two lines.
        let status = self.state.render().lines().last().unwrap_or_default().to_string();
        let per_line = ((width - 8.0) / 7.5).max(10.0) as usize;
        let mut lines: Vec<String> = vec![];
        for part in status.split(" | ") {
            match lines.last_mut() {
                Some(l) if l.chars().count() + 3 + part.chars().count() <= per_line => {
                    l.push_str(" | ");
                    l.push_str(part);
                }
                _ => lines.push(part.to_string()),
            }
        }
        let height = R * 1.5 * (rows - 1.0) + 2.0 * R + 20.0 + 16.0 * lines.len() as f64;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
             viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">"
        );
        let colours = ["#c8372d", "#f4f4f4", "#8b5a2b", "#222222"];
        for r in 0..board.rows {
            for c in 0..board.cols {
                let pos = fish_rules::Pos { row: r, col: c };
                let cx = 4.0 + w / 2.0 + w * f64::from(c) + if r % 2 == 1 { w / 2.0 } else { 0.0 };
                let cy = R + R * 1.5 * f64::from(r);
                let fish = board.get(pos).unwrap_or(0);
                let points: Vec<String> = (0..6)
                    .map(|k| {
                        let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 30.0);
                        format!("{:.1},{:.1}", cx + (R - 1.0) * a.cos(), cy + (R - 1.0) * a.sin())
                    })
                    .collect();
                let fill = if fish == 0 { "#ffffff" } else { "#cfe3f3" };
                let _ = write!(s, "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"#6b8ba4\"/>", points.join(" "));
                if let Some(seat) = self.state.owner(pos) {
                    let colour = colours[usize::from(seat) % colours.len()];
                    let ink = if seat == 1 { "#222" } else { "#fff" };
                    let _ = write!(
                        s,
                        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"13\" fill=\"{colour}\" stroke=\"#222\"/>\
                         <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"{ink}\">{}</text>",
                        cy + 4.5,
                        fish_rules::seat_letter(seat)
                    );
                } else if fish > 0 {
                    let _ = write!(
                        s,
                        "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"14\">{fish}</text>",
                        cy + 5.0
                    );
                }
            }
        }
        let top = height - 10.0 - 16.0 * (lines.len() as f64 - 1.0);
        for (i, line) in lines.iter().enumerate() {
            let _ = write!(s, "<text x=\"4\" y=\"{:.0}\" font-size=\"13\">{line}</text>", top + 16.0 * i as f64);
        }
        s.push_str("</svg>");
        s
    }

    /// The events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}

/// A state a player sent to the rule checker, `None` unless it is well formed: a board the rules
/// accept, 2 to 4 seats, every penguin on the board, and `turn` one of the seats.
pub fn checked_state(rows: u8, cols: u8, tiles: Vec<u8>, players: Vec<Seat>, turn: u8, phase: Phase) -> Option<State> {
    let board = Board::new(rows, cols, tiles).ok()?;
    if !SEATS.contains(&players.len()) || players.iter().flat_map(|p| &p.penguins).any(|&q| !board.in_bounds(q)) {
        return None;
    }
    (usize::from(turn) < players.len()).then_some(State { board, players, turn, phase })
}

/// Where the seat to act may place a penguin: empty unless the state is well formed and placing.
pub fn legal_placements(state: Option<State>) -> Vec<Pos> {
    state.filter(|s| s.phase == Phase::Placement).map(|s| s.legal_placements()).unwrap_or_default()
}

/// Every move of the seat to act: empty unless the state is well formed and playing.
pub fn legal_moves(state: Option<State>) -> Vec<Move> {
    state.filter(|s| s.phase == Phase::Playing).map(|s| s.legal_moves()).unwrap_or_default()
}

#[cfg(test)]
mod tests;

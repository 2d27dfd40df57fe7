//! Santorini's referee as a pure state machine (no bindings, tested natively): tells both players a
//! match starts (before its first game) and a game starts, places four workers, then alternates
//! move-and-build turns until someone climbs onto level 3 or is left without a legal turn. Every answer
//! goes through the rules; a seat that fails forfeits the game. After the game every seat that has not
//! failed hears whether it won (seed 002's "game winner"); failing there is a fault like any other.

use santorini_rules::{Cell, Phase, State, Turn};

/// Turns after which a game is stopped as a safety net; every turn builds a level, so a game cannot
/// last longer than 25 × 4 turns.
pub const MAX_TURNS: u32 = 200;

/// What the match looks like from seat 0.
#[derive(Debug, Clone, Default)]
pub struct Match {
    pub game: u32,
    pub games_in_match: u32,
    pub wins: [u32; 2],
    pub number: u32,
    pub matches: u32,
}

/// A game-start notification for one seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub opponent: String,
    pub you: u8,
    pub game: u32,
    pub games_in_match: u32,
    pub my_wins: u32,
    pub their_wins: u32,
}

/// What the referee asks a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    MatchStart { opponent: String, number: u32, total: u32 },
    GameStart(Info),
    Place(State),
    TakeTurn(State),
    GameOver(bool),
}

/// A seat's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// A notification was taken.
    Done,
    Place(Cell),
    TakeTurn(Turn),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    MatchStart(u8),
    GameStart(u8),
    Play,
    GameOver(u8),
    Done,
}

pub struct Table {
    names: [String; 2],
    so_far: Match,
    pub state: State,
    stage: Stage,
    /// The seat whose failure ended the game (it forfeits).
    failed: Option<u8>,
    faulted: [bool; 2],
    turns: u32,
    winner: Option<u8>,
    /// The last move, drawn on the board: (cell, what happened there).
    last: Vec<(Cell, Mark)>,
}

/// How a cell of the last move is outlined on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// A worker left it (dashed blue).
    From,
    /// A worker was placed or moved onto it (blue).
    To,
    /// A level or a dome was built on it (orange).
    Built,
}

impl Table {
    pub fn new(names: [String; 2], so_far: Match) -> Table {
        let stage = if so_far.game == 1 { Stage::MatchStart(0) } else { Stage::GameStart(0) };
        Table {
            names,
            so_far,
            state: State::new(),
            stage,
            failed: None,
            faulted: [false; 2],
            turns: 0,
            winner: None,
            last: vec![],
        }
    }

    /// The seat to ask now and what, or `None` once the game is over.
    pub fn ask(&self) -> Option<(u8, Ask)> {
        let other = |i: u8| self.names[usize::from(1 - i)].clone();
        Some(match self.stage {
            Stage::MatchStart(i) => {
                (i, Ask::MatchStart { opponent: other(i), number: self.so_far.number, total: self.so_far.matches })
            }
            Stage::GameStart(i) => {
                let s = &self.so_far;
                let (me, them) = (usize::from(i), usize::from(1 - i));
                let info = Info {
                    opponent: other(i),
                    you: i,
                    game: s.game,
                    games_in_match: s.games_in_match,
                    my_wins: s.wins[me],
                    their_wins: s.wins[them],
                };
                (i, Ask::GameStart(info))
            }
            Stage::Play => {
                let p = self.state.turn;
                match self.state.phase {
                    Phase::Placement => (p, Ask::Place(self.state)),
                    _ => (p, Ask::TakeTurn(self.state)),
                }
            }
            Stage::GameOver(i) => (i, Ask::GameOver(self.winner == Some(i))),
            Stage::Done => return None,
        })
    }

    /// Applies seat `seat`'s answer; an `Err` is a refusal (the seat is then banned as illegal).
    pub fn apply(&mut self, seat: u8, reply: Reply) -> Result<(), String> {
        let Some((asked, ask)) = self.ask() else { return Err("the game is over".into()) };
        if seat != asked {
            return Err(format!("seat {seat} was not asked"));
        }
        match (ask, reply) {
            (Ask::MatchStart { .. } | Ask::GameStart(_) | Ask::GameOver(_), Reply::Done) => {}
            (Ask::Place(_), Reply::Place(cell)) => {
                self.turns += 1;
                self.state = self.state.place(cell).map_err(|e| e.to_string())?;
                self.last = vec![(cell, Mark::To)];
            }
            (Ask::TakeTurn(_), Reply::TakeTurn(turn)) => {
                self.turns += 1;
                let from = self.state.position(santorini_rules::WorkerId { player: seat, worker: turn.worker });
                self.state = self.state.play(turn).map_err(|e| e.to_string())?;
                self.last = from.map(|c| (c, Mark::From)).into_iter().chain([(turn.to, Mark::To)]).collect();
                self.last.extend(turn.build.map(|c| (c, Mark::Built)));
            }
            _ => return Err("answered another call than the one asked".into()),
        }
        self.stage = match self.stage {
            Stage::MatchStart(0) => Stage::MatchStart(1),
            Stage::MatchStart(_) => Stage::GameStart(0),
            Stage::GameStart(0) => Stage::GameStart(1),
            Stage::GameStart(_) | Stage::Play => Stage::Play,
            Stage::GameOver(i) => self.game_over_after(i),
            Stage::Done => Stage::Done,
        };
        if self.stage == Stage::Play && (self.state.is_over() || self.turns >= MAX_TURNS) {
            self.finish();
        }
        Ok(())
    }

    /// Seat `seat` failed (a fault, or an answer refused): before the end it forfeits the game; at the
    /// game-over notification it only loses a win it had.
    pub fn banned(&mut self, seat: u8) {
        let seat = seat.min(1);
        self.faulted[usize::from(seat)] = true;
        match self.stage {
            Stage::MatchStart(_) | Stage::GameStart(_) | Stage::Play => {
                self.failed = Some(seat);
                self.finish();
            }
            Stage::GameOver(i) => {
                self.failed.get_or_insert(i);
                self.stage = self.game_over_after(i);
            }
            Stage::Done => {}
        }
    }

    /// The game is decided: a failed seat forfeits; then the game-over notifications.
    fn finish(&mut self) {
        if let Some(i) = self.failed {
            self.state = self.state.forfeit(i);
        }
        self.winner = self.state.winner();
        self.stage = self.game_over_after(u8::MAX);
    }

    /// The game-over notification after seat `i`'s (`u8::MAX`: the first), skipping failed seats.
    fn game_over_after(&self, i: u8) -> Stage {
        let from = if i == u8::MAX { 0 } else { i + 1 };
        (from..2).find(|&s| !self.faulted[usize::from(s)]).map_or(Stage::Done, Stage::GameOver)
    }

    /// Scores and winners once the game is over: the winner if it never failed, else every seat that
    /// did not fail; a sole winner scores 1.
    pub fn outcome(&self) -> Option<(Vec<i64>, Vec<u32>)> {
        if self.stage != Stage::Done {
            return None;
        }
        let winners: Vec<u32> = match self.winner {
            Some(w) if !self.faulted[usize::from(w)] => vec![u32::from(w)],
            _ => (0..2).filter(|&s| !self.faulted[s as usize]).collect(),
        };
        let scores = (0..2).map(|i| i64::from(winners == [i])).collect();
        Some((scores, winners))
    }

    /// The board as text, the same for everyone (Santorini hides nothing).
    pub fn view(&self) -> String {
        self.state.render()
    }

    /// The board as an SVG drawing: each cell shaded by its height (a dome is a blue disc), each worker
    /// a disc with its letter and number (A red, B white), the status under the board.
    pub fn svg(&self) -> String {
        use std::fmt::Write as _;
        const CELL: u32 = 64;
        let size = CELL * 5;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{}\" viewBox=\"0 0 {size} {}\" \
             font-family=\"sans-serif\">",
            size + 28,
            size + 28
        );
        for cell in santorini_rules::Cell::all() {
            let (x, y) = (u32::from(cell.col) * CELL, u32::from(cell.row) * CELL);
            let h = self.state.height(cell);
            let fill = ["#dfe8cf", "#cfcfcf", "#a9a9a9", "#858585", "#858585"][usize::from(h.min(4))];
            let _ = write!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#555\"/>"
            );
            if h > 0 && h < 4 {
                let _ = write!(s, "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#333\">{h}</text>", x + 4, y + 14);
            }
            if h >= 4 {
                let _ =
                    write!(s, "<circle cx=\"{}\" cy=\"{}\" r=\"24\" fill=\"#2a5bd7\"/>", x + CELL / 2, y + CELL / 2);
            }
            if let Some(w) = self.state.worker_at(cell) {
                let (fill, ink) = if w.player == 0 { ("#c8372d", "#fff") } else { ("#fafafa", "#222") };
                let (cx, cy) = (x + CELL / 2, y + CELL / 2);
                let _ = write!(
                    s,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"18\" fill=\"{fill}\" stroke=\"#222\"/>\
                     <text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-size=\"15\" fill=\"{ink}\">{}{}</text>",
                    cy + 5,
                    santorini_rules::player_name(w.player),
                    w.worker + 1
                );
            }
        }
        // The last move, outlined: where a worker came from (dashed), went to, and what it built.
        for (cell, mark) in &self.last {
            let (x, y) = (u32::from(cell.col) * CELL + 3, u32::from(cell.row) * CELL + 3);
            let (colour, dash) = match mark {
                Mark::From => ("#1f5fa8", " stroke-dasharray=\"6 4\""),
                Mark::To => ("#1f5fa8", ""),
                Mark::Built => ("#e08a00", ""),
            };
            let _ = write!(
                s,
                "<rect class=\"last-move\" x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                 stroke=\"{colour}\" stroke-width=\"4\"{dash}/>",
                CELL - 6,
                CELL - 6
            );
        }
        let status = self.state.render().lines().last().unwrap_or_default().to_string();
        let _ = write!(s, "<text x=\"4\" y=\"{}\" font-size=\"15\">{status}</text></svg>", size + 20);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(first: bool) -> Table {
        let so_far = Match { game: if first { 1 } else { 2 }, games_in_match: 3, wins: [1, 0], number: 1, matches: 1 };
        Table::new(["a".into(), "b".into()], so_far)
    }

    /// Plays by always taking the first legal move.
    fn play_out(g: &mut Table) {
        while let Some((seat, ask)) = g.ask() {
            let reply = match ask {
                Ask::Place(s) => Reply::Place(s.legal_placements()[0]),
                Ask::TakeTurn(s) => Reply::TakeTurn(s.legal_turns()[0]),
                _ => Reply::Done,
            };
            g.apply(seat, reply).unwrap();
        }
    }

    #[test]
    fn a_match_starts_before_its_first_game_only_and_game_starts_follow() {
        let g = game(true);
        assert!(matches!(g.ask(), Some((0, Ask::MatchStart { ref opponent, .. })) if opponent == "b"));
        let mut g = game(false);
        let Some((0, Ask::GameStart(info))) = g.ask() else { panic!() };
        assert_eq!((info.my_wins, info.their_wins, info.you), (1, 0, 0));
        g.apply(0, Reply::Done).unwrap();
        let Some((1, Ask::GameStart(info))) = g.ask() else { panic!() };
        assert_eq!((info.my_wins, info.their_wins, info.opponent.as_str()), (0, 1, "a"));
    }

    #[test]
    fn a_game_played_out_ends_with_one_winner_told_first() {
        let mut g = game(true);
        play_out(&mut g);
        let (scores, winners) = g.outcome().unwrap();
        assert_eq!(winners.len(), 1);
        assert_eq!(scores.iter().sum::<i64>(), 1);
    }

    #[test]
    fn an_illegal_placement_is_refused_and_the_seat_forfeits() {
        let mut g = game(false);
        g.apply(0, Reply::Done).unwrap();
        g.apply(1, Reply::Done).unwrap();
        let err = g.apply(0, Reply::Place(Cell { row: 9, col: 9 })).unwrap_err();
        assert!(!err.is_empty());
        g.banned(0);
        // Only the seat that did not fail hears the result.
        assert_eq!(g.ask(), Some((1, Ask::GameOver(true))));
        g.apply(1, Reply::Done).unwrap();
        assert_eq!(g.outcome(), Some((vec![0, 1], vec![1])));
    }

    #[test]
    fn the_drawing_shows_every_cell_and_every_worker() {
        let mut g = game(false);
        play_out(&mut g);
        let svg = g.svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        // The last move is outlined: where the worker came from and went to (and built, if it did).
        let marks = svg.matches("class=\"last-move\"").count();
        assert!((2..=3).contains(&marks) && svg.contains("stroke-dasharray"), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 25 + marks);
        assert!(svg.contains(">A1<") && svg.contains(">B2<"), "{svg}");
        assert!(svg.contains("won"), "the status line says who won: {svg}");
        // A placement outlines the one cell placed on.
        let mut g = game(false);
        g.apply(0, Reply::Done).unwrap();
        g.apply(1, Reply::Done).unwrap();
        assert_eq!(g.svg().matches("class=\"last-move\"").count(), 0);
        g.apply(0, Reply::Place(Cell { row: 2, col: 3 })).unwrap();
        let svg = g.svg();
        assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
        assert!(svg.contains("<rect class=\"last-move\" x=\"195\" y=\"131\""), "{svg}");
    }

    #[test]
    fn out_of_turn_and_wrong_answers_are_refused() {
        let mut g = game(false);
        assert!(g.apply(1, Reply::Done).is_err());
        assert!(g.apply(0, Reply::Place(Cell { row: 0, col: 0 })).is_err());
        assert!(g.outcome().is_none());
    }

    #[test]
    fn a_winner_failing_at_game_over_loses_the_win() {
        let mut g = game(false);
        play_out(&mut g);
        let (_, winners) = g.outcome().unwrap();
        let w = winners[0] as u8;
        let mut g = game(false);
        while let Some((seat, ask)) = g.ask() {
            if let Ask::GameOver(_) = ask
                && seat == w
            {
                g.banned(seat);
                continue;
            }
            let reply = match ask {
                Ask::Place(s) => Reply::Place(s.legal_placements()[0]),
                Ask::TakeTurn(s) => Reply::TakeTurn(s.legal_turns()[0]),
                _ => Reply::Done,
            };
            g.apply(seat, reply).unwrap();
        }
        assert_eq!(g.outcome().unwrap().1, vec![u32::from(1 - w)]);
    }
}

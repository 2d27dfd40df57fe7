//! A Santorini seat: a sandboxed component or a native bot, as the referee sees it.

use super::GameInfo;
use super::bindings::{Player, PlayerPre, state_to_wit, wit};
use crate::fault::Fault;
use crate::games::TournamentInfo;
use crate::games::wasm_seat::{guarded, instantiate_pre, native};
use crate::sandbox::PlayerState;
use santorini_rules::{Cell, PlayerView, Turn};

/// A call's answer and the fuel it used (0 for native bots).
pub type Answer<T> = Result<(T, u64), Fault>;

/// A player compiled into the host; every method may fail with a `Fault`, so tests can stage any failure.
pub trait NativeBot: Send {
    fn tournament_start(&mut self, _info: &TournamentInfo) -> Result<(), Fault> {
        Ok(())
    }
    fn match_start(&mut self, _opponent: &str, _number: u32, _total: u32) -> Result<(), Fault> {
        Ok(())
    }
    fn game_start(&mut self, _info: &GameInfo) -> Result<(), Fault> {
        Ok(())
    }
    fn place(&mut self, view: &PlayerView) -> Result<Cell, Fault>;
    fn take_turn(&mut self, view: &PlayerView) -> Result<Turn, Fault>;
    fn game_over(&mut self, _won: bool) -> Result<(), Fault> {
        Ok(())
    }
    fn tournament_end(&mut self, _won: bool) -> Result<(), Fault> {
        Ok(())
    }
}

/// The minimax strategy of the `santorini-minimax` sample player, compiled natively.
pub struct Minimax;
impl NativeBot for Minimax {
    fn place(&mut self, v: &PlayerView) -> Result<Cell, Fault> {
        Ok(santorini_bots::minimax::place(v))
    }
    fn take_turn(&mut self, v: &PlayerView) -> Result<Turn, Fault> {
        Ok(santorini_bots::minimax::take_turn(v))
    }
}

/// The strategy of the `santorini-random` sample player, compiled natively.
pub struct Random;
impl NativeBot for Random {
    fn place(&mut self, v: &PlayerView) -> Result<Cell, Fault> {
        Ok(santorini_bots::random::place(v))
    }
    fn take_turn(&mut self, v: &PlayerView) -> Result<Turn, Fault> {
        Ok(santorini_bots::random::take_turn(v))
    }
}

pub type WasmSeat = crate::games::wasm_seat::WasmSeat<PlayerPre<PlayerState>>;

instantiate_pre!(PlayerPre<PlayerState>, Player);

pub enum Seat {
    Wasm(Box<WasmSeat>),
    Native(Box<dyn NativeBot>),
}

impl Seat {
    pub async fn tournament_start(&mut self, info: &TournamentInfo) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.tournament_start(info)),
            Seat::Wasm(w) => {
                guarded!(w, "tournament-start", |p, s| p.call_tournament_start(s, &info.you, &info.players))
            }
        }
    }

    pub async fn match_start(&mut self, opponent: &str, number: u32, total: u32) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.match_start(opponent, number, total)),
            Seat::Wasm(w) => guarded!(w, "match-start", |p, s| p.call_match_start(s, opponent, number, total)),
        }
    }

    pub async fn game_start(&mut self, info: &GameInfo) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.game_start(info)),
            Seat::Wasm(w) => {
                let arg = wit::GameInfo {
                    opponent: info.opponent.clone(),
                    you: info.you,
                    game: info.game,
                    games_in_match: info.games_in_match,
                    my_wins: info.my_wins,
                    their_wins: info.their_wins,
                };
                guarded!(w, "game-start", |p, s| p.call_game_start(s, &arg))
            }
        }
    }

    pub async fn place(&mut self, view: &PlayerView) -> Answer<Cell> {
        match self {
            Seat::Native(b) => native(b.place(view)),
            Seat::Wasm(w) => {
                let arg = state_to_wit(&view.state, view.me);
                guarded!(w, "place", |p, s| p.call_place(s, &arg)).map(|(c, f)| (c.into(), f))
            }
        }
    }

    pub async fn take_turn(&mut self, view: &PlayerView) -> Answer<Turn> {
        match self {
            Seat::Native(b) => native(b.take_turn(view)),
            Seat::Wasm(w) => {
                let arg = state_to_wit(&view.state, view.me);
                guarded!(w, "take-turn", |p, s| p.call_take_turn(s, &arg)).map(|(t, f)| (t.into(), f))
            }
        }
    }

    pub async fn game_over(&mut self, won: bool) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.game_over(won)),
            Seat::Wasm(w) => guarded!(w, "game-over", |p, s| p.call_game_over(s, won)),
        }
    }

    pub async fn tournament_end(&mut self, won: bool) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.tournament_end(won)),
            Seat::Wasm(w) => guarded!(w, "tournament-end", |p, s| p.call_tournament_end(s, won)),
        }
    }

    pub fn log(&self) -> String {
        match self {
            Seat::Wasm(w) => w.log(),
            Seat::Native(_) => String::new(),
        }
    }
}

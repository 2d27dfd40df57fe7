//! A Yahtzee seat: the referee's view of one player for one game, either a sandboxed component (a
//! fresh instance from its `InstancePre`, called through guarded calls) or a native bot compiled into
//! the host (the tests' players and the speed baseline).

use super::bindings::{Player, PlayerPre, wit};
use super::{GameInfo, TournamentInfo};
use crate::fault::Fault;
use crate::games::wasm_seat::{guarded, instantiate_pre, native};
use crate::sandbox::PlayerState;
use yahtzee_rules::{Category, PlayerView};

/// A call's answer and the fuel it used (0 for native bots).
pub type Answer<T> = Result<(T, u64), Fault>;

/// A player compiled into the host. Every method may fail with a `Fault`, so tests can stage any failure.
pub trait NativeBot: Send {
    fn tournament_start(&mut self, _info: &TournamentInfo) -> Result<(), Fault> {
        Ok(())
    }
    fn game_start(&mut self, _info: &GameInfo) -> Result<(), Fault> {
        Ok(())
    }
    fn keep(&mut self, view: &PlayerView) -> Result<Vec<u8>, Fault>;
    fn choose(&mut self, view: &PlayerView) -> Result<Category, Fault>;
    fn tournament_end(&mut self, _won: bool) -> Result<(), Fault> {
        Ok(())
    }
}

/// The greedy strategy of the `yahtzee-greedy` sample player, compiled natively.
pub struct Greedy;
impl NativeBot for Greedy {
    fn keep(&mut self, v: &PlayerView) -> Result<Vec<u8>, Fault> {
        Ok(yahtzee_bots::greedy::keep(v))
    }
    fn choose(&mut self, v: &PlayerView) -> Result<Category, Fault> {
        Ok(yahtzee_bots::greedy::choose(v))
    }
}

/// The strategy of the `yahtzee-random` sample player, compiled natively.
pub struct Random;
impl NativeBot for Random {
    fn keep(&mut self, v: &PlayerView) -> Result<Vec<u8>, Fault> {
        Ok(yahtzee_bots::random::keep(v))
    }
    fn choose(&mut self, v: &PlayerView) -> Result<Category, Fault> {
        Ok(yahtzee_bots::random::choose(v))
    }
}

/// One player in one game (or one lifecycle call).
pub enum Seat {
    Wasm(Box<WasmSeat>),
    Native(Box<dyn NativeBot>),
}

/// A Yahtzee component seat.
pub type WasmSeat = crate::games::wasm_seat::WasmSeat<PlayerPre<PlayerState>>;

instantiate_pre!(PlayerPre<PlayerState>, Player);

impl Seat {
    pub async fn tournament_start(&mut self, info: &TournamentInfo) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.tournament_start(info)),
            Seat::Wasm(w) => {
                let arg = wit::TournamentInfo {
                    you: info.you.clone(),
                    players: info.players.clone(),
                    games_per_match: info.games_per_match,
                };
                guarded!(w, "tournament-start", |p, s| p.call_tournament_start(s, &arg))
            }
        }
    }

    pub async fn game_start(&mut self, info: &GameInfo) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.game_start(info)),
            Seat::Wasm(w) => {
                let arg = wit::GameInfo {
                    opponent: info.opponent.clone(),
                    you_start: info.you_start,
                    match_state: (&info.match_view).into(),
                };
                guarded!(w, "game-start", |p, s| p.call_game_start(s, &arg))
            }
        }
    }

    pub async fn keep(&mut self, view: &PlayerView) -> Answer<Vec<u8>> {
        match self {
            Seat::Native(b) => native(b.keep(view)),
            Seat::Wasm(w) => {
                let arg = wit::TurnState::from(view);
                guarded!(w, "keep", |p, s| p.call_keep(s, &arg))
            }
        }
    }

    pub async fn choose(&mut self, view: &PlayerView) -> Answer<Category> {
        match self {
            Seat::Native(b) => native(b.choose(view)),
            Seat::Wasm(w) => {
                let arg = wit::TurnState::from(view);
                guarded!(w, "choose", |p, s| p.call_choose(s, &arg)).map(|(c, f)| (c.into(), f))
            }
        }
    }

    pub async fn tournament_end(&mut self, won: bool) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.tournament_end(won)),
            Seat::Wasm(w) => guarded!(w, "tournament-end", |p, s| p.call_tournament_end(s, won)),
        }
    }

    /// What the player printed (empty for native bots).
    pub fn log(&self) -> String {
        match self {
            Seat::Wasm(w) => w.log(),
            Seat::Native(_) => String::new(),
        }
    }
}

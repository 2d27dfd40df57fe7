//! A Fish seat: a sandboxed component or a native bot, as the referee sees it.

use super::bindings::{Player, PlayerPre, action, colour, state};
use crate::fault::Fault;
use crate::games::wasm_seat::{guarded, instantiate_pre, native};
use crate::sandbox::PlayerState;
use fish_rules::{Move, PlayerView, Pos};

/// A call's answer and the fuel it used (0 for native bots).
pub type Answer<T> = Result<(T, u64), Fault>;

/// A player compiled into the host; every method may fail with a `Fault`, so tests can stage any failure.
pub trait NativeBot: Send {
    fn start(&mut self) -> Result<(), Fault> {
        Ok(())
    }
    fn play_as(&mut self, _seat: u8) -> Result<(), Fault> {
        Ok(())
    }
    fn play_with(&mut self, _others: &[u8]) -> Result<(), Fault> {
        Ok(())
    }
    fn setup(&mut self, view: &PlayerView) -> Result<Pos, Fault>;
    fn take_turn(&mut self, view: &PlayerView) -> Result<Move, Fault>;
    fn end(&mut self, _won: bool) -> Result<(), Fault> {
        Ok(())
    }
}

/// The strategy of the `fish-greedy` sample player, compiled natively.
pub struct Greedy;
impl NativeBot for Greedy {
    fn setup(&mut self, v: &PlayerView) -> Result<Pos, Fault> {
        Ok(fish_bots::greedy::place(v))
    }
    fn take_turn(&mut self, v: &PlayerView) -> Result<Move, Fault> {
        Ok(fish_bots::greedy::take_turn(v))
    }
}

/// The strategy of the `fish-random` sample player, compiled natively.
pub struct Random;
impl NativeBot for Random {
    fn setup(&mut self, v: &PlayerView) -> Result<Pos, Fault> {
        Ok(fish_bots::random::place(v))
    }
    fn take_turn(&mut self, v: &PlayerView) -> Result<Move, Fault> {
        Ok(fish_bots::random::take_turn(v))
    }
}

pub type WasmSeat = crate::games::wasm_seat::WasmSeat<PlayerPre<PlayerState>>;

instantiate_pre!(PlayerPre<PlayerState>, Player);

pub enum Seat {
    Wasm(Box<WasmSeat>),
    Native(Box<dyn NativeBot>),
}

impl Seat {
    pub async fn start(&mut self) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.start()),
            Seat::Wasm(w) => guarded!(w, "start", |p, s| p.call_start(s)),
        }
    }

    pub async fn play_as(&mut self, seat: u8) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.play_as(seat)),
            Seat::Wasm(w) => guarded!(w, "play-as", |p, s| p.call_play_as(s, colour(seat))),
        }
    }

    pub async fn play_with(&mut self, others: &[u8]) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.play_with(others)),
            Seat::Wasm(w) => {
                let arg: Vec<_> = others.iter().map(|&o| colour(o)).collect();
                guarded!(w, "play-with", |p, s| p.call_play_with(s, &arg))
            }
        }
    }

    pub async fn setup(&mut self, view: &PlayerView) -> Answer<Pos> {
        match self {
            Seat::Native(b) => native(b.setup(view)),
            Seat::Wasm(w) => {
                let arg = state(&view.state);
                guarded!(w, "setup", |p, s| p.call_setup(s, &arg)).map(|(x, f)| (x.into(), f))
            }
        }
    }

    pub async fn take_turn(&mut self, view: &PlayerView) -> Answer<Move> {
        match self {
            Seat::Native(b) => native(b.take_turn(view)),
            Seat::Wasm(w) => {
                let arg = state(&view.state);
                let actions: Vec<_> = view.actions_since.iter().map(action).collect();
                guarded!(w, "take-turn", |p, s| p.call_take_turn(s, &arg, &actions)).map(|(x, f)| (x.into(), f))
            }
        }
    }

    pub async fn end(&mut self, won: bool) -> Answer<()> {
        match self {
            Seat::Native(b) => native(b.end(won)),
            Seat::Wasm(w) => guarded!(w, "end", |p, s| p.call_end(s, won)),
        }
    }

    pub fn log(&self) -> String {
        match self {
            Seat::Wasm(w) => w.log(),
            Seat::Native(_) => String::new(),
        }
    }
}

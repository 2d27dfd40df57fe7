//! Santorini in Arena (seed 002): loading players against the `arena:santorini/player` world, seating
//! them, and the `Game` the tournaments use. The rules live in the `santorini-rules` crate.

pub mod bindings;
mod referee;
pub mod replay;
mod seat;

pub use seat::{Minimax, NativeBot, Random, Seat, WasmSeat};

/// Players in one game.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=2;

use crate::fault::Fault;
use crate::games::{Entry, Game, GameOutcome, GameSetup, TournamentInfo};
use crate::sandbox::{LoadError, Loaded, PlayerState, Sandbox, SandboxError, WorldSpec};
use bindings::PlayerPre;
use std::path::Path;
use std::sync::Arc;
use wasmtime::component::Linker;

pub static SPEC: WorldSpec = WorldSpec::new("santorini", "arena:santorini", "arena:santorini/player");

/// What a player is told when a game starts.
#[derive(Debug, Clone)]
pub struct GameInfo {
    pub opponent: String,
    /// 0 places and moves first.
    pub you: u8,
    pub game: u32,
    pub games_in_match: u32,
    pub my_wins: u32,
    pub their_wins: u32,
}

pub enum SantoriniPlayer {
    Wasm(PlayerPre<PlayerState>),
    Native(fn() -> Box<dyn NativeBot>),
}

pub struct Santorini {
    sandbox: Arc<Sandbox>,
    linker: Linker<PlayerState>,
}

impl Santorini {
    pub fn new(sandbox: Arc<Sandbox>) -> Result<Santorini, SandboxError> {
        let mut linker = sandbox.linker()?;
        bindings::add_to_linker(&mut linker).map_err(SandboxError::Linker)?;
        Ok(Santorini { sandbox, linker })
    }

    pub fn native(name: &str) -> Option<SantoriniPlayer> {
        let make: fn() -> Box<dyn NativeBot> = match name {
            "minimax" => || Box::new(Minimax),
            "random" => || Box::new(Random),
            _ => return None,
        };
        Some(SantoriniPlayer::Native(make))
    }

    pub fn seat(&self, p: &SantoriniPlayer, seed: u64) -> Seat {
        match p {
            SantoriniPlayer::Wasm(pre) => Seat::Wasm(Box::new(WasmSeat::new(self.sandbox.clone(), pre.clone(), seed))),
            SantoriniPlayer::Native(make) => Seat::Native(make()),
        }
    }
}

impl Game for Santorini {
    type Player = SantoriniPlayer;

    fn name(&self) -> &'static str {
        "santorini"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        SEATS
    }

    fn spec(&self) -> &'static WorldSpec {
        &SPEC
    }

    fn load(&self, path: &Path) -> Result<(Loaded, SantoriniPlayer), LoadError> {
        let (loaded, pre) = self.sandbox.load_world(path, &SPEC, &self.linker)?;
        let pre = PlayerPre::new(pre).map_err(|e| LoadError::wrong_world(path, &SPEC, e))?;
        Ok((loaded, SantoriniPlayer::Wasm(pre)))
    }

    fn builtin(&self, name: &str) -> Option<SantoriniPlayer> {
        Santorini::native(name)
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        &["minimax", "random"]
    }

    async fn tournament_start(&self, p: &Entry<SantoriniPlayer>, info: &TournamentInfo, seed: u64) -> Option<Fault> {
        self.seat(&p.player, seed).tournament_start(info).await.err()
    }

    async fn play(&self, setup: GameSetup<SantoriniPlayer>) -> GameOutcome {
        let seats = [0, 1].map(|i| self.seat(&setup.players[i].player, crate::seed::derive(setup.seed, &[i as u64])));
        referee::play(seats, &setup).await
    }

    async fn tournament_end(&self, p: &Entry<SantoriniPlayer>, won: bool, seed: u64) -> Option<Fault> {
        self.seat(&p.player, seed).tournament_end(won).await.err()
    }
}

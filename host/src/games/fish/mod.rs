//! Fish in Arena (seeds 001 and 003): loading players against the `arena:fish/player` world, seating
//! 2 to 4 of them, and the `Game` the tournaments use. The rules live in the `fish-rules` crate.

pub mod bindings;
mod referee;
pub mod replay;
mod seat;

pub use seat::{Greedy, NativeBot, Random, Seat, WasmSeat};

/// Players in one game.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=4;

use crate::fault::Fault;
use crate::games::{Entry, Game, GameOutcome, GameSetup, TournamentInfo};
use crate::sandbox::{LoadError, Loaded, PlayerState, Sandbox, SandboxError, WorldSpec};
use bindings::PlayerPre;
use std::path::Path;
use std::sync::Arc;
use wasmtime::component::Linker;

pub static SPEC: WorldSpec = WorldSpec::new("fish", "arena:fish", "arena:fish/player");

/// The boards games are played on: generated from each game's seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Options {
    pub rows: u8,
    pub cols: u8,
    pub holes: u8,
}

impl Default for Options {
    /// 5 × 5 tiles with 2 holes: room for 4 players' 8 penguins and a few moves each.
    fn default() -> Self {
        Options { rows: 5, cols: 5, holes: 2 }
    }
}

pub enum FishPlayer {
    Wasm(PlayerPre<PlayerState>),
    Native(fn() -> Box<dyn NativeBot>),
}

pub struct Fish {
    sandbox: Arc<Sandbox>,
    linker: Linker<PlayerState>,
    options: Options,
}

impl Fish {
    /// Refuses boards that cannot seat four players (see `fish_rules::Board::generate`).
    pub fn new(sandbox: Arc<Sandbox>, options: Options) -> Result<Fish, FishError> {
        fish_rules::Board::generate(0, options.rows, options.cols, options.holes)
            .map_err(|e| FishError::Board(e.to_string()))?;
        let mut linker = sandbox.linker()?;
        bindings::add_to_linker(&mut linker).map_err(SandboxError::Linker)?;
        Ok(Fish { sandbox, linker, options })
    }

    pub fn native(name: &str) -> Option<FishPlayer> {
        let make: fn() -> Box<dyn NativeBot> = match name {
            "greedy" => || Box::new(Greedy),
            "random" => || Box::new(Random),
            _ => return None,
        };
        Some(FishPlayer::Native(make))
    }

    pub fn seat(&self, p: &FishPlayer, seed: u64) -> Seat {
        match p {
            FishPlayer::Wasm(pre) => Seat::Wasm(Box::new(WasmSeat::new(self.sandbox.clone(), pre.clone(), seed))),
            FishPlayer::Native(make) => Seat::Native(make()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FishError {
    #[error("bad board: {0}")]
    Board(String),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

impl Game for Fish {
    type Player = FishPlayer;

    fn name(&self) -> &'static str {
        "fish"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        SEATS
    }

    fn options(&self) -> serde_json::Value {
        serde_json::to_value(self.options).unwrap_or_default()
    }

    fn spec(&self) -> &'static WorldSpec {
        &SPEC
    }

    fn load(&self, path: &Path) -> Result<(Loaded, FishPlayer), LoadError> {
        let (loaded, pre) = self.sandbox.load_world(path, &SPEC, &self.linker)?;
        let pre = PlayerPre::new(pre).map_err(|e| LoadError::wrong_world(path, &SPEC, e))?;
        Ok((loaded, FishPlayer::Wasm(pre)))
    }

    fn builtin(&self, name: &str) -> Option<FishPlayer> {
        Fish::native(name)
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        &["greedy", "random"]
    }

    async fn tournament_start(&self, p: &Entry<FishPlayer>, _info: &TournamentInfo, seed: u64) -> Option<Fault> {
        self.seat(&p.player, seed).start().await.err()
    }

    async fn play(&self, setup: GameSetup<FishPlayer>) -> GameOutcome {
        let seats = (0..setup.players.len())
            .map(|i| self.seat(&setup.players[i].player, crate::seed::derive(setup.seed, &[i as u64])))
            .collect();
        referee::play(seats, &setup, &self.options).await
    }

    async fn tournament_end(&self, p: &Entry<FishPlayer>, won: bool, seed: u64) -> Option<Fault> {
        self.seat(&p.player, seed).end(won).await.err()
    }
}

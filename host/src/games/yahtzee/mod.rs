//! Yahtzee in Arena: loading players against the `arena:yahtzee/player` world, seating them, and the
//! `Game` implementation the tournaments use. The rules themselves live in the `yahtzee-rules` crate.

pub mod bindings;
mod referee;
pub mod replay;
mod seat;

pub use crate::games::TournamentInfo;
pub use seat::{Answer, Greedy, NativeBot, Random, Seat, WasmSeat};

/// Players in one game.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=2;

use crate::fault::Fault;
use crate::games::{Entry, Game, GameOutcome, GameSetup};
use crate::sandbox::{LoadError, Loaded, PlayerState, Sandbox, SandboxError, WorldSpec};
use bindings::PlayerPre;
use std::path::Path;
use std::sync::Arc;
use wasmtime::component::Linker;
use yahtzee_rules::MatchView;

/// What a Yahtzee player component must be.
pub static SPEC: WorldSpec = WorldSpec::new("yahtzee", "arena:yahtzee", "arena:yahtzee/player");

/// What a player is told when a game starts.
#[derive(Debug, Clone)]
pub struct GameInfo {
    pub opponent: String,
    pub you_start: bool,
    pub match_view: MatchView,
}

/// A Yahtzee player: a pre-instantiated component, or a native bot.
pub enum YahtzeePlayer {
    Wasm(PlayerPre<PlayerState>),
    Native(fn() -> Box<dyn NativeBot>),
}

/// The game, holding the sandbox and the linker every Yahtzee player is instantiated with.
pub struct Yahtzee {
    sandbox: Arc<Sandbox>,
    linker: Linker<PlayerState>,
}

impl Yahtzee {
    pub fn new(sandbox: Arc<Sandbox>) -> Result<Yahtzee, SandboxError> {
        let mut linker = sandbox.linker()?;
        bindings::add_to_linker(&mut linker).map_err(SandboxError::Linker)?;
        Ok(Yahtzee { sandbox, linker })
    }

    pub fn sandbox(&self) -> &Arc<Sandbox> {
        &self.sandbox
    }

    /// The native bots built into the host, by name.
    pub fn native(name: &str) -> Option<YahtzeePlayer> {
        let make: fn() -> Box<dyn NativeBot> = match name {
            "greedy" => || Box::new(Greedy),
            "random" => || Box::new(Random),
            _ => return None,
        };
        Some(YahtzeePlayer::Native(make))
    }

    /// A fresh seat for one game or lifecycle call.
    pub fn seat(&self, p: &YahtzeePlayer, seed: u64) -> Seat {
        match p {
            YahtzeePlayer::Wasm(pre) => Seat::Wasm(Box::new(WasmSeat::new(self.sandbox.clone(), pre.clone(), seed))),
            YahtzeePlayer::Native(make) => Seat::Native(make()),
        }
    }
}

impl Game for Yahtzee {
    type Player = YahtzeePlayer;

    fn name(&self) -> &'static str {
        "yahtzee"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        SEATS
    }

    fn spec(&self) -> &'static WorldSpec {
        &SPEC
    }

    fn load(&self, path: &Path) -> Result<(Loaded, YahtzeePlayer), LoadError> {
        let (loaded, pre) = self.sandbox.load_world(path, &SPEC, &self.linker)?;
        let pre = PlayerPre::new(pre).map_err(|e| LoadError::wrong_world(path, &SPEC, e))?;
        Ok((loaded, YahtzeePlayer::Wasm(pre)))
    }

    fn builtin(&self, name: &str) -> Option<YahtzeePlayer> {
        Yahtzee::native(name)
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        &["greedy", "random"]
    }

    async fn tournament_start(&self, p: &Entry<YahtzeePlayer>, info: &TournamentInfo, seed: u64) -> Option<Fault> {
        self.seat(&p.player, seed).tournament_start(info).await.err()
    }

    async fn play(&self, setup: GameSetup<YahtzeePlayer>) -> GameOutcome {
        let seats = [0, 1].map(|i| self.seat(&setup.players[i].player, crate::seed::derive(setup.seed, &[i as u64])));
        referee::play(seats, &setup).await
    }

    async fn tournament_end(&self, p: &Entry<YahtzeePlayer>, won: bool, seed: u64) -> Option<Fault> {
        self.seat(&p.player, seed).tournament_end(won).await.err()
    }
}

//! `arena tournament`: the players given (or the players registered in the store, every game recorded
//! there as it finishes) in a knockout, a round robin or elimination rounds, played here or by workers.

use super::flags::{CacheArgs, DataArgs, GameArg, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{Plays, Setup, load_players};
use super::progress::{print_result, progress_bar, replays_written, run_stored, watch, writing_replays};
use anyhow::anyhow;
use arena_core::{DataDir, Limits};
use arena_service::packages::LoadPlayers;
use arena_service::store::Store;
use arena_service::tournaments::{Format, Settings};
use arena_service::tournaments::{NewTournament, check_settings, create, registered_entrants, seed_or_clock};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game: a package's name (see `arena games`) or its directory (with its game.toml).
    #[arg(long, value_parser = parse_game_arg)]
    pub game: GameArg,
    #[arg(long, value_parser = super::flags::format_parser(), default_value = "knockout")]
    pub format: Format,
    /// Games per match: k in best of k for a knockout (odd), the series length in a round robin.
    #[arg(long, default_value_t = 3, value_parser = arena_core::parse_games_per_match)]
    pub games_per_match: u32,
    /// Seed for dice, boards and every game; drawn from the clock (and shown) if absent.
    #[arg(long, value_parser = arena_core::parse_seed)]
    pub seed: Option<u64>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write one JSON Lines replay per game into this directory.
    #[arg(long)]
    pub replay_dir: Option<PathBuf>,
    /// Play the players registered for the game in the store (`arena submit`), latest versions,
    /// first come first served, and record every game there as it finishes.
    #[arg(long, conflicts_with = "players")]
    pub registered: bool,
    /// With --registered: take only the first N registered players.
    #[arg(long, requires = "registered")]
    pub max_players: Option<usize>,
    /// Have the games played by workers (`arena worker`) over NATS JetStream at this URL; the
    /// tournament's logic, its store and its output stay here.
    #[arg(long, value_name = "URL")]
    pub nats: Option<String>,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Players in slot order: PATH, NAME=PATH, or builtin:NAME. The name defaults to the file stem.
    #[arg(required_unless_present = "registered")]
    pub players: Vec<String>,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    super::game::run(a)
}

impl Plays for Args {
    fn setup(&self) -> anyhow::Result<Setup> {
        let mut s = Setup::new(&self.game, &self.limits, &self.options, self.cache.dir())?;
        if self.registered {
            // Registered players are compiled once, ever, into the store, and the tournament is played
            // with the store's own copy of the package.
            if !self.cache.no_cache {
                s.cache = Some(DataDir::new(&self.data.dir).compiled());
            }
            s.dir = arena_service::packages::keep(&self.data.dir, &self.game.dir)?;
        }
        s.nats = self.nats.clone();
        Ok(s)
    }

    async fn with<G: LoadPlayers>(self, game: Arc<G>, limits: Limits) -> anyhow::Result<ExitCode> {
        let format = self.format;
        // Registered players are checked once they are read from the store.
        if !self.registered {
            check_settings(game.name(), game.seats(), (format, self.games_per_match), self.players.len())
                .map_err(anyhow::Error::msg)?;
        }
        let settings = Settings::new(format, self.games_per_match, seed_or_clock(self.seed));
        if self.registered {
            let r = Registered {
                data: &self.data.dir,
                max_players: self.max_players,
                json: self.json,
                replay_dir: self.replay_dir.as_deref(),
            };
            return registered(game, limits, settings, r).await;
        }
        run_tournament(game, limits, settings, self.json, self.replay_dir.as_deref(), &self.players).await
    }
}

async fn run_tournament<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    mut settings: Settings,
    json: bool,
    replay_dir: Option<&Path>,
    players: &[String],
) -> anyhow::Result<ExitCode> {
    let entries = load_players(&game, players).await?;
    let (bar, observe) = progress_bar(if settings.format == Format::Rounds { "rounds" } else { "matches" });
    let _watch = watch(&game, &bar);
    let (observe, failed) =
        writing_replays(observe, replay_dir, (game.name(), game.referee_hash(), limits, game.options()))?;
    settings.progress = Some(observe);
    // Nobody reads a game's course but the replay files: without them, games keep their results only.
    settings.course = replay_dir.is_some();
    let result = arena_service::tournaments::run(game, entries, limits, &settings).await;
    bar.finish_and_clear();
    replays_written(&failed)?;
    print_result(&result, json)?;
    Ok(ExitCode::SUCCESS)
}

/// What `tournament --registered` was given besides the settings.
pub struct Registered<'a> {
    pub data: &'a Path,
    pub max_players: Option<usize>,
    pub json: bool,
    pub replay_dir: Option<&'a Path>,
}

async fn registered<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    settings: Settings,
    r: Registered<'_>,
) -> anyhow::Result<ExitCode> {
    let mut store = Store::open(r.data)?;
    let format = (settings.format, settings.games_per_match);
    let versions = registered_entrants(&store, (game.name(), game.seats()), format, r.max_players)?
        .map_err(|why| anyhow!("{}: {why} (register players with `arena submit`)", r.data.display()))?;
    // Loaded before the tournament is recorded, so a damaged store records nothing.
    let entries = arena_service::players::load_versions(&game, &store.components_dir(), &versions).await?;
    let (id, lock) = create(
        &mut store,
        &*game,
        NewTournament {
            kind: settings.format.into(),
            games_per_match: settings.games_per_match,
            seed: settings.seed,
            versions: &versions,
            limits,
            rated: true,
            by: None,
        },
    )?;
    eprintln!("Tournament {id}: {} registered players of {}, seed {}", versions.len(), game.name(), settings.seed);
    run_stored(game, store, (id, lock), entries, &versions, limits, settings, (r.json, r.replay_dir)).await
}

//! `arena play`: one game between the players given, shown as a spectator or as one seat saw it.

use super::flags::{CacheArgs, GameArg, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{Plays, Setup, load_players};
use anyhow::{Context, bail};
use arena_core::Limits;
use arena_service::packages::LoadPlayers;
use arena_service::submit::one_game;
use arena_service::tournaments::report;
use arena_service::tournaments::seed_or_clock;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game: a package's name (see `arena games`) or its directory (with its game.toml).
    #[arg(long, value_parser = parse_game_arg)]
    pub game: GameArg,
    /// Show the game as this seat (from 0) saw it, its private events included, instead of as a
    /// spectator.
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<usize>,
    /// Write the referee's drawing of the final position (as the spectators, or `--seat`, see it)
    /// to this SVG file; for games whose package draws.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Seed for dice and boards; drawn from the clock (and shown) if absent.
    #[arg(long, value_parser = arena_core::parse_seed)]
    pub seed: Option<u64>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Profile seat SEAT's player: where its fuel goes, sampled every 50 µs of its running wasm, as
    /// fuel-weighted folded stacks in FILE (for flame-graph tools; functions are named for components
    /// built with a name section), the costliest functions said on stderr. Repeatable.
    #[arg(long, value_name = "SEAT=FILE", value_parser = super::game::parse_profile_arg)]
    pub profile: Vec<super::game::ProfileArg>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// The players in seat order: PATH (a .wasm or .wat component), NAME=PATH, or builtin:NAME.
    #[arg(required = true)]
    pub players: Vec<String>,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    super::game::run(a)
}

impl Plays for Args {
    fn setup(&self) -> anyhow::Result<Setup> {
        let setup = Setup::new(&self.game, &self.limits, &self.options, self.cache.dir())?;
        Ok(Setup { profiling: !self.profile.is_empty(), ..setup })
    }

    async fn with<G: LoadPlayers>(self, game: Arc<G>, limits: Limits) -> anyhow::Result<ExitCode> {
        let shown = Shown { json: self.json, seat: self.seat, svg: self.svg, profile: self.profile };
        play(game, limits, seed_or_clock(self.seed), shown, &self.players).await
    }
}

/// How `play` shows its game.
struct Shown {
    json: bool,
    /// As this seat saw it (`None`: as a spectator).
    seat: Option<usize>,
    /// Where to write the final drawing.
    svg: Option<PathBuf>,
    /// The seats profiled, and where their profiles go.
    profile: Vec<super::game::ProfileArg>,
}

async fn play<G: LoadPlayers>(
    game: Arc<G>,
    limits: Limits,
    seed: u64,
    Shown { json, seat, svg, profile }: Shown,
    players: &[String],
) -> anyhow::Result<ExitCode> {
    if !game.seats().contains(&players.len()) {
        bail!(
            "{} is played by {}, and {} were given: name one player per seat (PATH, NAME=PATH or builtin:NAME)",
            game.name(),
            arena_core::seats_text(&game.seats()),
            players.len()
        );
    }
    if let Some(path) = &svg
        && !game.draws_svg()
    {
        bail!("--svg {}: {} does not draw its positions (its referee exports no `svg`)", path.display(), game.name());
    }
    if let Some(s) = seat.filter(|&s| s >= players.len()) {
        bail!("--seat {s}: a game of {} players has seats 0 to {}", players.len(), players.len() - 1);
    }
    let mut entries = load_players(&game, players).await?;
    let sinks = super::game::profile_seats(&*game, &mut entries, &profile)?;
    let record = one_game(&*game, seed, entries).await;
    super::game::write_profiles(&record.players, &sinks)?;
    // Spectators see public events only; a seat sees its own private ones too.
    let events: Vec<&str> = record.events.iter().filter(|e| e.seen_by(seat)).map(|e| e.text.as_str()).collect();
    let view = match seat {
        Some(s) => record.seat_views.get(s).cloned().unwrap_or_default(),
        None => record.board.clone(),
    };
    if let Some(path) = &svg {
        let drawn = match seat {
            Some(s) => record.seat_svgs.get(s).cloned().flatten(),
            None => record.svg.clone(),
        };
        let drawn = drawn.with_context(|| format!("--svg {}: the referee drew nothing", path.display()))?;
        std::fs::write(path, drawn).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    if json {
        // Written out from the record itself: what the referee emitted is never held twice.
        #[derive(serde::Serialize)]
        struct Doc<'a> {
            game: &'a str,
            seed: u64,
            options: serde_json::Value,
            limits: Limits,
            result: &'a arena_service::tournaments::GameRecord,
            board: &'a str,
            seat: Option<usize>,
            events: &'a [&'a str],
            view: &'a str,
            game_fault: &'a Option<arena_core::Fault>,
        }
        let doc = Doc {
            game: game.name(),
            seed,
            options: game.options(),
            limits,
            result: &record,
            board: &record.board,
            seat,
            events: &events,
            view: &view,
            game_fault: &record.game_fault,
        };
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
        out.flush()?;
    } else {
        println!("{}, seed {seed}\n", game.name());
        if let Some(s) = seat {
            println!("as seen by seat {s} ({}):\n", record.players[s]);
        }
        for e in &events {
            println!("  {e}");
        }
        if !events.is_empty() {
            println!();
        }
        println!("{view}\n");
        match (&record.game_fault, record.winners.as_slice()) {
            (Some(f), _) => println!("No result: the referee failed (game fault): {f}"),
            (None, [w]) => println!("Winner: {w}"),
            (None, []) => println!("No winner"),
            (None, ws) => println!("Tie: {}", ws.join(", ")),
        }
        print!("{}", report::ban_table(&record.bans()));
        print!("{}", report::game_fault_table(game.name(), &arena_service::tournaments::GameFaultRow::of([&record])));
    }
    Ok(ExitCode::SUCCESS)
}

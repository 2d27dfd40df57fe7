//! `arena candidate`: should this version replace that one? Mirrored games between the two until a
//! sequential probability ratio test between two Elo bounds decides, or a cap on the games.

use super::flags::{CacheArgs, GameArg, LimitArgs, OptionArgs, parse_game_arg};
use super::game::{Plays, Setup, load_players};
use arena_core::Limits;
use arena_service::candidate::{Bounds, Verdict, judge};
use arena_service::packages::LoadPlayers;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game of two players: a package's name (see `arena games`) or its directory.
    #[arg(long, value_parser = parse_game_arg)]
    pub game: GameArg,
    /// The version in use: PATH (a .wasm or .wat component) or builtin:NAME.
    #[arg(long, value_name = "PATH")]
    pub current: String,
    /// The version that would replace it.
    #[arg(long, value_name = "PATH")]
    pub candidate: String,
    /// H0: the candidate is at most this many Elo stronger (rejected when the games favour it).
    #[arg(long, default_value_t = Bounds::default().elo0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// H1: it is at least this many Elo stronger (accepted when the games favour it).
    #[arg(long, default_value_t = Bounds::default().elo1, allow_negative_numbers = true)]
    pub elo1: f64,
    /// The most games to play (pairs of mirrored games); undecided past it.
    #[arg(long, default_value_t = 400)]
    pub max_games: u32,
    /// Seed of the pairs' games; drawn from the clock (and shown) if absent.
    #[arg(long, value_parser = arena_core::parse_seed)]
    pub seed: Option<u64>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    super::game::run(a)
}

impl Plays for Args {
    fn setup(&self) -> anyhow::Result<Setup> {
        Setup::new(&self.game, &self.limits, &self.options, self.cache.dir())
    }

    async fn with<G: LoadPlayers>(self, game: Arc<G>, _: Limits) -> anyhow::Result<ExitCode> {
        let named = [format!("current={}", self.current), format!("candidate={}", self.candidate)];
        let mut entries = load_players(&game, &named).await?;
        let (candidate, current) = (entries.remove(1), entries.remove(0));
        let bounds = Bounds { elo0: self.elo0, elo1: self.elo1, ..Bounds::default() };
        let seed = arena_service::tournaments::seed_or_clock(self.seed);
        let json = self.json;
        let progress = |e: &arena_service::candidate::Evidence| {
            if !json && e.games().is_multiple_of(20) {
                eprintln!(
                    "  after {} games: {} won, {} drawn, {} lost; LLR {:.2} (accepted at {:.2}, rejected at {:.2})",
                    e.games(),
                    e.wins,
                    e.draws,
                    e.losses,
                    e.llr,
                    e.upper,
                    e.lower
                );
            }
        };
        let j = judge(&*game, (current, candidate), (seed, bounds, self.max_games), progress)
            .await
            .map_err(anyhow::Error::msg)?;
        if json {
            let doc = serde_json::json!({"game": game.name(), "seed": seed.to_string(), "current": self.current,
                "candidate": self.candidate, "max_games": self.max_games, "result": j});
            let mut out = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &doc)?;
            writeln!(out)?;
        } else {
            let e = &j.evidence;
            println!(
                "{} candidate {} against {} (seed {seed}), H0 {} Elo, H1 {} Elo, at most {} games:",
                game.name(),
                self.candidate,
                self.current,
                bounds.elo0,
                bounds.elo1,
                self.max_games
            );
            println!(
                "  {} games: {} won, {} drawn, {} lost by the candidate{}; LLR {:.2} (accepted at {:.2}, rejected at {:.2})",
                e.games(),
                e.wins,
                e.draws,
                e.losses,
                if j.void > 0 { format!(" ({} void: the referee failed)", j.void) } else { String::new() },
                e.llr,
                e.upper,
                e.lower
            );
            println!(
                "{}",
                match j.verdict {
                    Verdict::Accepted => "Accepted: the candidate is stronger; promote it.",
                    Verdict::Rejected => "Rejected: the candidate is not stronger by the margin asked.",
                    Verdict::Undecided =>
                        "Undecided: the games did not tell within the cap (raise --max-games, or widen the bounds).",
                }
            );
        }
        Ok(match j.verdict {
            Verdict::Accepted => ExitCode::SUCCESS,
            Verdict::Rejected => ExitCode::from(1),
            Verdict::Undecided => ExitCode::from(3),
        })
    }
}

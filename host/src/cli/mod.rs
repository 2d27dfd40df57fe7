//! The `arena` command: turns validated flags into loaded players, runs the game or tournament on a
//! tokio runtime, and prints text or JSON. The only place that uses `anyhow`.

pub mod args;

use crate::games::yahtzee::{SPEC, Yahtzee, YahtzeePlayer};
use crate::games::{Entry, Game, GameSetup, MatchSoFar};
use crate::sandbox::{Limits, Sandbox};
use crate::tournament::{self, GameRecord, Observer, Progress, Settings, report};
use anyhow::{Context, bail};
use args::{Cli, Command, GameName, PlayerArg, Source};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;
use std::sync::Arc;

/// Runs a parsed command line; `Ok` carries the exit code (1 when `check` finds a fault).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async move {
        match cli.command {
            Command::Play { game: GameName::Yahtzee, seed, json, limits, players } => {
                play(limits.to_limits()?, seed_or_clock(seed), json, &players).await
            }
            Command::Tournament {
                game: GameName::Yahtzee,
                format,
                games_per_match,
                seed,
                json,
                replay_dir,
                limits,
                players,
            } => {
                if games_per_match == 0 || games_per_match % 2 == 0 {
                    bail!("--games-per-match must be odd (best of k), got {games_per_match}");
                }
                if players.len() < 2 {
                    bail!("a tournament needs at least 2 players, got {}", players.len());
                }
                let limits = limits.to_limits()?;
                let settings = Settings { format, games_per_match, seed: seed_or_clock(seed), progress: None };
                run_tournament(limits, settings, json, replay_dir.as_deref(), &players).await
            }
            Command::Check { game: GameName::Yahtzee, seed, limits, file } => {
                check(limits.to_limits()?, seed_or_clock(seed), &file).await
            }
        }
    })
}

fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
    })
}

fn yahtzee(limits: Limits) -> anyhow::Result<Arc<Yahtzee>> {
    let sandbox = Arc::new(Sandbox::new(limits)?);
    Ok(Arc::new(Yahtzee::new(sandbox)?))
}

/// Loads every player (each distinct file compiled once, in parallel on the blocking pool).
async fn load_players(game: &Arc<Yahtzee>, raw: &[String]) -> anyhow::Result<Vec<Arc<Entry<YahtzeePlayer>>>> {
    let args = PlayerArg::parse_all(raw)?;
    let loads: Vec<_> = args
        .into_iter()
        .map(|a| {
            let game = game.clone();
            tokio::task::spawn_blocking(move || -> anyhow::Result<Entry<YahtzeePlayer>> {
                match &a.source {
                    Source::Builtin(b) => {
                        let player = Yahtzee::builtin(b).with_context(|| {
                            format!("builtin:{b}: no such built-in {} player (there are: greedy, random)", SPEC.game)
                        })?;
                        Ok(Entry { name: a.name, source: format!("builtin:{b}"), hash: None, player })
                    }
                    Source::File(path) => {
                        let (loaded, player) = game.load(path)?;
                        Ok(Entry { name: a.name, source: path.display().to_string(), hash: Some(loaded.hash), player })
                    }
                }
            })
        })
        .collect();
    let mut entries = Vec::new();
    for l in loads {
        entries.push(Arc::new(l.await.context("loading a player")??));
    }
    Ok(entries)
}

/// A bar of matches on stderr (hidden when stderr is not a terminal), with games played and the last ban.
fn progress_bar() -> (ProgressBar, Observer) {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} matches {msg}")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let b = bar.clone();
    let games = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let last_ban = Arc::new(std::sync::Mutex::new(String::new()));
    let observe = move |p: Progress<'_>| match p {
        Progress::Matches(n) => b.set_length(n),
        Progress::Match(_) => b.inc(1),
        Progress::Game(g) => {
            let n = games.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            let mut ban = last_ban.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(f) = g.faults.first() {
                *ban = format!(", last ban: {} ({})", f.player, f.kind);
            }
            b.set_message(format!("{n} games played{ban}"));
        }
    };
    (bar, Arc::new(observe))
}

async fn run_tournament(
    limits: Limits,
    mut settings: Settings,
    json: bool,
    replay_dir: Option<&std::path::Path>,
    players: &[String],
) -> anyhow::Result<ExitCode> {
    let game = yahtzee(limits)?;
    let entries = load_players(&game, players).await?;
    let (bar, observe) = progress_bar();
    settings.progress = Some(observe);
    let result = tournament::knockout(game, entries, limits, &settings).await;
    bar.finish_and_clear();
    if let Some(dir) = replay_dir {
        report::write_replays(dir, &result).with_context(|| format!("{}: cannot write replays", dir.display()))?;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&result)?);
    } else {
        print!("{}", report::human(&result));
    }
    Ok(ExitCode::SUCCESS)
}

async fn play(limits: Limits, seed: u64, json: bool, players: &[String]) -> anyhow::Result<ExitCode> {
    let game = yahtzee(limits)?;
    let entries = load_players(&game, players).await?;
    let setup = GameSetup {
        id: "game".into(),
        seed,
        players: entries.clone(),
        so_far: MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() },
    };
    let outcome = game.play(setup).await;
    let record =
        GameRecord::new("game".into(), (1, 1, 1), entries.iter().map(|e| e.name.clone()).collect(), seed, outcome);
    if json {
        let doc = serde_json::json!({"game": "yahtzee", "seed": seed, "limits": limits, "result": record, "board": record.board});
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        println!("yahtzee, seed {seed}\n\n{}\n", record.board);
        match record.winners.as_slice() {
            [w] => println!("Winner: {w}"),
            [] => println!("No winner"),
            _ => println!("Tie: {}", record.winners.join(", ")),
        }
        let bans: Vec<_> = record
            .faults
            .iter()
            .map(|f| tournament::Ban {
                player: f.player.clone(),
                kind: f.kind,
                reason: f.reason.clone(),
                call: f.call.clone(),
                game: Some(record.id.clone()),
            })
            .collect();
        print!("{}", report::ban_table(&bans));
    }
    Ok(ExitCode::SUCCESS)
}

async fn check(limits: Limits, seed: u64, file: &std::path::Path) -> anyhow::Result<ExitCode> {
    let game = yahtzee(limits)?;
    let g = game.clone();
    let f = file.to_path_buf();
    let (loaded, player) = tokio::task::spawn_blocking(move || g.load(&f)).await.context("loading")??;
    println!("{}: a component implementing {}", file.display(), SPEC.world);
    println!("  size {} bytes, sha256 {}", loaded.size, loaded.hash);
    println!("  imports: {}", if loaded.imports.is_empty() { "nothing".into() } else { loaded.imports.join(", ") });
    println!("  exports: {}", loaded.exports.join(", "));
    let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("player").to_string();
    let me =
        Arc::new(Entry { name: name.clone(), source: file.display().to_string(), hash: Some(loaded.hash), player });
    let greedy = Arc::new(Entry {
        name: "builtin-greedy".into(),
        source: "builtin:greedy".into(),
        hash: None,
        player: Yahtzee::builtin("greedy").expect("greedy is built in"),
    });
    let setup = GameSetup {
        id: "check".into(),
        seed,
        players: vec![me, greedy],
        so_far: MatchSoFar { game: 1, games_in_match: 1, wins: vec![0, 0], ..Default::default() },
    };
    let o = game.play(setup).await;
    let mine: Vec<u64> = o.calls.iter().filter(|c| c.seat == 0).map(|c| c.fuel).collect();
    let max = mine.iter().copied().max().unwrap_or(0);
    println!("  played one game against builtin:greedy (seed {seed}): {} to {}", o.scores[0], o.scores[1]);
    println!(
        "  fuel: {} over {} calls, at most {} in one call (limits: {} per call, {} for the first)",
        o.fuel[0],
        mine.len(),
        max,
        limits.fuel,
        limits.first_fuel
    );
    match o.faults.iter().find(|(s, _)| *s == 0) {
        Some((_, f)) => {
            println!("  FAULT: {f}");
            println!("  this player would be banned");
            Ok(ExitCode::from(1))
        }
        None => {
            println!("  ok: no fault");
            Ok(ExitCode::SUCCESS)
        }
    }
}

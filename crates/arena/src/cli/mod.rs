//! The `arena` command line: one module per command (its flags and its `execute`), over leaf modules
//! the commands share (flag groups, opening a game, progress and results, the rating table, the web
//! client). It prints what the layers below answer; the only place that uses `anyhow`.

mod backup;
mod candidate;
mod check;
mod check_game;
mod client;
mod fetch_player;
mod flags;
mod fork;
mod game;
mod games;
mod ladder;
mod leaderboard;
mod new;
mod new_game;
mod play;
mod players;
mod progress;
mod publish;
mod replay;
mod reproduce;
mod resume;
mod serve;
mod stats;
mod submit;
mod table;
mod tournament;
mod tournaments;
mod user;
mod worker;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "arena", version, about = "Sandboxed tournaments between WebAssembly game-playing bots")]
#[command(after_help = "Examples (GAME is a game package's name, as `arena games` lists them, or its directory):\n  \
    arena games\n  \
    arena tournament --game GAME --format knockout target/players/*.wasm\n  \
    arena play --game GAME --seed 7 my-player.wasm builtin:random\n  \
    arena check --game GAME my-player.wasm\n  \
    arena new --game GAME --lang python my-player\n  \
    arena submit --game GAME --name alice my-player.wasm\n  \
    arena tournament --game GAME --format round-robin --registered\n  \
    arena leaderboard --game GAME")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game between players and show how it went.
    ///
    /// Play one game between the players given (as many as the game seats; see `arena games`) and show
    /// the final position.
    Play(play::Args),
    /// Run a knockout, round robin or elimination rounds.
    ///
    /// Run a tournament.
    Tournament(tournament::Args),
    /// Validate a player and register it in the store (or on a server).
    ///
    /// Validate a player and register it in the store: it must be a component under the size cap that
    /// implements the game's world, compiles, and plays one game against the strongest built-in bot
    /// without a fault. Submitting a name again stores a new version; the latest version plays.
    Submit(submit::Args),
    /// The registered players with their version, rating and record.
    Players(players::Args),
    /// List the tournaments in the store.
    ///
    /// Oldest first: id, game, format, status, winner.
    Tournaments(tournaments::Args),
    /// Finish an interrupted tournament.
    ///
    /// Finish an interrupted tournament from where it stopped: games already recorded are not played
    /// again.
    Resume(resume::Args),
    /// A player's record: tournaments, games, faults, fuel, rating.
    ///
    /// A player's tournaments, matches and games won and lost, faults by kind, fuel per decision,
    /// rating and its history, and head-to-head records.
    Stats(stats::Args),
    /// The registered players of a game by rating, best first.
    Leaderboard(leaderboard::Args),
    /// Show a stored or saved game step by step.
    ///
    /// Show a game turn by turn: TOURNAMENT/GAME from the store (e.g. `3/R1-M2-G1`), or a replay file
    /// written by `--replay-dir`.
    Replay(replay::Args),
    /// Play a saved game again from a step, one seat by another version.
    ///
    /// Fork a game from a replay file: the recorded answers are replayed through the same referee up
    /// to --step, bit-exact, while every player follows the game in its own state; from --step on,
    /// the players given play live (--seat being the one you changed). Says the first step where the
    /// fork differs from the original. Never rated, nothing stored.
    Fork(fork::Args),
    /// Judge a new version against the one in use, on evidence.
    ///
    /// Play a candidate version against the current one in mirrored pairs of games (each seed twice,
    /// the seats swapped) until a sequential probability ratio test between two Elo bounds decides:
    /// exit 0 when the candidate is accepted as stronger, 1 when rejected, 3 when the cap is reached
    /// undecided. Nothing is rated or stored.
    Candidate(candidate::Args),
    /// Run the web arena over a results store.
    ///
    /// The web arena: pages (games, leaderboards, players, tournaments, replays), accounts and uploads,
    /// live tournaments and a JSON API under /api/, over the results store.
    Serve(serve::Args),
    /// Run a game's rated ladder among its registered players.
    ///
    /// Run the game's ladder: rated games without end among its registered players, paired by
    /// rating (uncertain and new players more often, a share of opponents at random), new versions
    /// entering as they are submitted, a version benched after --max-faults faults. Ctrl-C stops it
    /// cleanly; running it again goes on with the same ladder (its stored limits and options).
    Ladder(ladder::Args),
    /// Play games for coordinators over NATS JetStream.
    ///
    /// Play games for coordinators (`arena tournament --nats`): pull jobs from NATS JetStream, fetch
    /// packages and components by sha256, play them with the sandbox and limits they name, publish the
    /// outcomes. Stateless; run any number, on any number of machines.
    Worker(worker::Args),
    /// Accounts of the web arena.
    User(user::Args),
    /// List the games this host can run.
    ///
    /// The games this host can run: every package found by name (name, seats, options, description,
    /// referee hash, directory).
    Games(games::Args),
    /// Start a player project for a game in a language.
    ///
    /// Write a minimal, buildable player project for a game in a language into DIR.
    New(new::Args),
    /// Start a new game package (for game authors).
    ///
    /// Write a new game package for game authors into DIR: a tiny complete game (its WIT, manifest, an
    /// option, its referee and a sample player, in Rust, Python or JavaScript) that builds with
    /// DIR/build.sh and runs as is.
    NewGame(new_game::Args),
    /// Try a player: load it, play one game, show its faults and fuel.
    ///
    /// Load and validate a component, play one game against the strongest built-in bot, and show what
    /// it imports and exports and the fuel it used.
    Check(check::Args),
    /// Run the conformance checks every game package must pass.
    ///
    /// The conformance run every game package must pass: the manifest, WIT and referee load; the
    /// sample players play each other at every seat count over --seeds seeds, each game twice with
    /// identical records; then each seat in turn is played by a fuzzer answering with random values of
    /// the answer's type (edge values included). The referee must accept or refuse, never trap, loop
    /// or overrun a limit; games end within the step cap; private events stay private. Exit 1 names
    /// the first failing game and the flags that play it again.
    CheckGame(check_game::Args),
    /// Publish a game package to a web arena.
    ///
    /// Publish a game package to a web arena (`arena serve`): packed as a .tar.gz and judged there by
    /// `arena check-game`; live at once when it passes. A game's name is the account's that first
    /// publishes it.
    Publish(publish::Args),
    /// Download the exact package a web arena plays for a game.
    ///
    /// Download the exact package a web arena plays for a game (its referee's sha256 checked against
    /// the server's), so `play`, `check` and `new` work on it offline.
    FetchGame(publish::FetchArgs),
    /// Download a version another player offers as a sparring partner.
    ///
    /// Download the component of a version its owner offers as a sparring partner on a web arena
    /// (its sha256 checked against the server's), to practise against locally with `play`,
    /// `tournament` or `fork`.
    FetchPlayer(fetch_player::Args),
    /// Pack a game package into the archive a web arena's publish page takes.
    ///
    /// The package's own files only (its manifest, README, referee, sample players, wit/ and
    /// templates/), as `arena publish` sends them: no build folders.
    Pack(publish::PackArgs),
    /// Back up a results store while it serves.
    ///
    /// Write a backup of a results store while it serves: its database at one moment (SQLite's online
    /// backup; tournaments may go on recording) and the components and packages it names, as one
    /// .tar.gz.
    Backup(backup::Args),
    /// Make a new data directory from a backup.
    ///
    /// Make a new data directory from a backup: unpacked with bounds, its database and every file it
    /// names checked (sha256) before anything is put in place.
    Restore(backup::RestoreArgs),
}

/// Runs a parsed command line; `Ok` carries the exit code (1 when `check` finds a fault).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Play(a) => play::execute(a),
        Command::Tournament(a) => tournament::execute(a),
        Command::Submit(a) => submit::execute(a),
        Command::Players(a) => players::execute(a),
        Command::Tournaments(a) => tournaments::execute(a),
        Command::Resume(a) => resume::execute(a),
        Command::Stats(a) => stats::execute(a),
        Command::Leaderboard(a) => leaderboard::execute(a),
        Command::Replay(a) => replay::execute(a),
        Command::Fork(a) => fork::execute(a),
        Command::Candidate(a) => candidate::execute(a),
        Command::Serve(a) => serve::execute(a),
        Command::Ladder(a) => ladder::execute(a),
        Command::Worker(a) => worker::execute(a),
        Command::User(a) => user::execute(a),
        Command::Games(a) => games::execute(a),
        Command::New(a) => new::execute(a),
        Command::NewGame(a) => new_game::execute(a),
        Command::Check(a) => check::execute(a),
        Command::CheckGame(a) => check_game::execute(a),
        Command::Publish(a) => publish::execute(a),
        Command::FetchGame(a) => publish::fetch(a),
        Command::FetchPlayer(a) => fetch_player::execute(a),
        Command::Pack(a) => publish::pack(a),
        Command::Backup(a) => backup::execute(a),
        Command::Restore(a) => backup::restore(a),
    }
}

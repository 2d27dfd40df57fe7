//! Submitting a player: the one validation every submission goes through, from `arena submit` and from
//! the web arena's uploads alike — a component of the game's world that compiles under the compile
//! limits and plays one game against the game's strongest sample player without a fault — and then
//! its version stored (under the name's owner, for an account).

use arena_core::Fault;
use arena_core::{Entry, Finals, Game, GameSetup, MatchSoFar};
use arena_play::LoadPlayers;
use arena_store::{Store, StoreError, Submitted, User, check_name};
use arena_tournament::GameRecord;
use bytes::Bytes;
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;

/// A file to submit as version of `name`, from its bytes (a file read by the command line, an upload's
/// body): what is validated is what is stored, with no file in between.
pub struct Submission<'a> {
    pub name: &'a str,
    /// The file, as read (its hash is the version's; WebAssembly text is read as text). Shared, not
    /// copied, with the compile on the blocking pool: an upload is held once.
    pub bytes: Bytes,
    /// How it is called in messages (its path, or an upload's file name).
    pub label: &'a str,
    /// Seed of the validation game.
    pub seed: u64,
}

/// A stored submission, with its validation game.
#[derive(Debug, Clone, Serialize)]
pub struct Accepted {
    #[serde(flatten)]
    pub version: arena_store::Version,
    pub new_player: bool,
    /// Identical to the latest version: nothing new was stored.
    pub unchanged: bool,
    pub imports: Vec<String>,
    pub validation: Validation,
}

/// The validation game: against which sample player, with which seed, and how it went.
#[derive(Debug, Clone, Serialize)]
pub struct Validation {
    pub opponent: String,
    pub seed: u64,
    pub scores: Vec<i64>,
    pub fuel: u64,
    pub calls: u32,
    /// The most fuel one call used.
    pub max_call_fuel: u64,
    /// How long compiling it took, in milliseconds (0: it was compiled already).
    pub compile_ms: u64,
    /// How long its validation game took, in milliseconds.
    pub game_ms: u64,
    /// The validation game played quick code, compiled for it in about half the time and spending the
    /// same fuel (see [`arena_sandbox::Tier::Quick`]); the code games are played with is compiled
    /// next (`arena serve` compiles it at once, in the background; otherwise its first game does).
    pub quick: bool,
}

/// Why a submission was refused; nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("{0}; nothing was stored")]
    Name(String),
    #[error("{label}: {error}; nothing was stored")]
    Load { label: String, error: String },
    #[error(
        "{label}: failed its validation game against builtin:{opponent} (seed {seed}): {} in `{}`: {}; nothing was \
         stored{}",
        fault.kind, fault.call, fault.reason, details
    )]
    Validation {
        label: String,
        opponent: String,
        seed: u64,
        /// Boxed: a refusal travels by value through every `Result` of the submit path.
        fault: Box<Fault>,
        /// Where it failed, what it was asked and its last output, one per line (for its uploader:
        /// whoever submits a file owns what it printed).
        details: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Game(String),
}

impl Refused {
    /// The fault that refused it, if a validation game did.
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Refused::Validation { fault, .. } => Some(fault.as_ref()),
            _ => None,
        }
    }
}

/// Validates `s` and stores it as the next version of its name in the store at `data` (by `by`, whose
/// name it must be or become: checked in the transaction that stores the version, so two accounts
/// racing for a new name cannot both have it).
pub async fn submit<G: LoadPlayers>(
    game: Arc<G>,
    data: &Path,
    s: Submission<'_>,
    by: Option<&User>,
) -> Result<Accepted, Refused> {
    check_name(s.name).map_err(Refused::Name)?;
    let mut store = Store::open(data)?;
    if let Some(user) = by {
        // A name somebody else owns is refused before anything is compiled.
        store.owner_of(s.name)?.admits(s.name, user)?;
    }
    let kept = store.has_component(&arena_core::sha256_hex(&s.bytes)).unwrap_or(true);
    let v = validate(&game, kept, &s).await?;
    let stored = store.add_version_as(game.name(), s.name, &s.bytes, &v.hash, by);
    let Submitted { version, new_player, unchanged } = stored.inspect_err(|_| v.forget(&*game, &store))?;
    Ok(Accepted { version, new_player, unchanged, imports: v.imports, validation: v.validation })
}

/// A submission that loaded and played its validation game without a fault, not stored yet.
pub(crate) struct Validated {
    pub hash: String,
    pub imports: Vec<String>,
    pub validation: Validation,
}

impl Validated {
    /// Drops what was compiled for it, unless a stored version or candidate is the same component.
    pub fn forget<G: LoadPlayers>(&self, game: &G, store: &Store) {
        if !store.has_component(&self.hash).unwrap_or(true) {
            game.forget(&self.hash);
        }
    }
}

/// Loads `s` under the compile limits and plays its validation game against the game's strongest
/// sample player; what a refused submission compiled is not kept, in memory or on disk (unless the
/// same component is stored already, `kept`: then it is that one's).
pub(crate) async fn validate<G: LoadPlayers>(
    game: &Arc<G>,
    kept: bool,
    s: &Submission<'_>,
) -> Result<Validated, Refused> {
    let forget = || {
        if !kept {
            game.forget(&arena_core::sha256_hex(&s.bytes));
        }
    };
    let (g, bytes, label) = (game.clone(), s.bytes.clone(), s.label.to_string());
    let loaded = tokio::task::spawn_blocking(move || g.load_to_validate(Path::new(&label), &bytes))
        .await
        .map_err(|e| Refused::Load { label: s.label.to_string(), error: e.to_string() })?
        .map_err(|e| Refused::Load { label: s.label.to_string(), error: strip_label(&e.to_string(), s.label) });
    let (loaded, player) = loaded.inspect_err(|_| forget())?;
    let (label, hash) = (s.label.to_string(), loaded.hash.clone());
    let me = Arc::new(Entry { name: s.name.to_string(), source: label.clone(), hash: Some(hash.clone()), player });
    let quick = loaded.quick;
    let compile_ms = match loaded.compilation {
        arena_sandbox::Compilation::Compiled(took) | arena_sandbox::Compilation::Quick(took) => took.as_millis() as u64,
        _ => 0,
    };
    let started = std::time::Instant::now();
    let (best, o) = against_strongest(&**game, s.seed, me).await.map_err(Refused::Game)?;
    let game_ms = started.elapsed().as_millis() as u64;
    if let Some(f) = o.faults.iter().find(|f| f.player == s.name) {
        forget();
        let fault = Box::new(Fault { kind: f.kind, call: f.call.clone(), reason: f.reason.clone() });
        let details = format!(
            "\n{}`arena check --game {} --seed {} FILE` plays the same game on your machine",
            fault_details(&o, 0, ""),
            game.name(),
            s.seed
        );
        return Err(Refused::Validation { label, opponent: best.to_string(), seed: s.seed, fault, details });
    }
    let max_call_fuel = o.replay.iter().filter(|c| c.seat == 0).map(|c| c.fuel).max().unwrap_or(0);
    Ok(Validated {
        hash,
        imports: loaded.imports,
        validation: Validation {
            opponent: format!("builtin:{best}"),
            seed: s.seed,
            scores: o.scores.clone(),
            fuel: o.fuel[0],
            calls: o.calls[0],
            max_call_fuel,
            compile_ms,
            game_ms,
            quick,
        },
    })
}

/// What to show under seat `seat`'s fault in `o` (as `arena check` and a refused submission show it),
/// each line behind `indent` and ended: the step and what it was asked (cut to a line), then its last
/// output.
pub fn fault_details(o: &GameRecord, seat: usize, indent: &str) -> String {
    let mut s = String::new();
    if let Some(c) = o.fault_line(seat) {
        s.push_str(&format!("{indent}at step {}", c.turn));
        if let Some(r) = &c.request {
            let r = arena_tournament::report::quoted_text(r);
            s.push_str(&format!(", asked {}", arena_core::quote_at(&r, 200)));
        }
        s.push('\n');
    }
    s + &arena_tournament::report::last_words(o.last_words.get(seat).map_or("", String::as_str), indent)
}

/// A load error without the file's name it starts with (the refusal names the file once).
fn strip_label(error: &str, label: &str) -> String {
    error.strip_prefix(&format!("{label}: ")).unwrap_or(error).replace(label, "the file")
}

/// One game of the players in the order given, keeping what each seat saw at the end (`arena play
/// --seat` shows it).
pub async fn one_game<G: Game>(game: &G, seed: u64, entries: Vec<Arc<Entry<G::Player>>>) -> GameRecord {
    let n = entries.len();
    let names = entries.iter().map(|e| e.name.clone()).collect();
    let so_far =
        MatchSoFar { game: 1, games_in_match: 1, wins: vec![0; n], match_no: 1, matches: 1, ..Default::default() };
    let outcome = game.play(GameSetup { id: "game".into(), seed, players: entries, so_far, finals: Finals::All }).await;
    GameRecord::new("game".into(), (1, 1, 1), names, seed, outcome)
}

/// One game of `me` (seat 0) against the game's strongest built-in bot, as `check` and `submit` play
/// it. The bot is named `builtin:NAME`, which no player can be called (names have no `:`).
pub async fn against_strongest<G: Game>(
    game: &G,
    seed: u64,
    me: Arc<Entry<G::Player>>,
) -> Result<(String, GameRecord), String> {
    let Some((best, player)) = game.builtin_names().first().and_then(|b| Some((b.clone(), game.builtin(b)?))) else {
        return Err(format!(
            "{} has no sample player to play against (a package lists them in its game.toml)",
            game.name()
        ));
    };
    let opponent =
        Arc::new(Entry { name: format!("builtin:{best}"), source: format!("builtin:{best}"), hash: None, player });
    Ok((best, one_game(game, seed, vec![me, opponent]).await))
}

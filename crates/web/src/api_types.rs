//! What every `/api/` answer holds, with its OpenAPI schema (the document at `/api/openapi.json` is
//! generated from these types and the handlers). Integers that may pass 2^53 (seeds, fuel, cursors)
//! are strings: a JavaScript number holds integers exactly only up to there. Players are structured
//! (name, version, owner), scores are numbers, and every error is `{"error": {"code", "message"}}`.

pub use super::error::ErrorBody;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

mod workbench;
pub use workbench::*;

/// A page: how many rows (1 to 500, 100 when not given) after which cursor (a previous page's `next`
/// holds both).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Paging {
    /// Rows in the page, 1 to 500 (default 100).
    pub limit: Option<usize>,
    /// The cursor a previous page ended at (opaque; from its `next`).
    pub after: Option<String>,
}

impl Paging {
    /// The page's size and where it starts, checked: 400 for a size out of range or a cursor that is
    /// not one.
    pub fn checked(&self) -> Result<(usize, Option<i64>), super::error::WebError> {
        let limit = self.limit.unwrap_or(100);
        if !(1..=arena_service::store::MAX_PAGE).contains(&limit) {
            let m = format!("`limit` must be 1 to {}, not {limit}", arena_service::store::MAX_PAGE);
            return Err(super::error::WebError::bad(m));
        }
        let after = match &self.after {
            None => None,
            Some(a) => Some(a.parse::<i64>().map_err(|_| {
                super::error::WebError::bad(format!("`after` is not a cursor: `{}`", super::error::quoted(a)))
            })?),
        };
        Ok((limit, after))
    }
}

/// The link to the page after the one that ended at cursor `last`, when that page was full.
pub fn next_page(base: &str, limit: usize, rows: usize, last: Option<i64>) -> Option<String> {
    (rows == limit).then_some(())?;
    Some(format!("{base}?limit={limit}&after={}", last?))
}

/// A game package this arena offers.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameInfo {
    pub name: String,
    pub description: String,
    pub min_seats: usize,
    pub max_seats: usize,
    pub options: BTreeMap<String, OptionInfo>,
    /// The package's sample players (built-in opponents).
    pub players: Vec<String>,
    /// The sha256 of its referee component.
    pub referee: String,
    /// Who published it (absent for the arena's own games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Its published versions, the latest last (empty for the arena's own games).
    pub versions: Vec<GameVersionOut>,
    /// `listed`, `hidden` or `removed` (the operator's choice; shipped games are `listed`).
    pub listing: String,
    /// Why the arena stopped playing it, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended: Option<String>,
    /// Its package as a `.tar.gz` (`arena fetch-game` downloads it).
    pub package: String,
}

/// One published version of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameVersionOut {
    pub version: u32,
    /// The sha256 of its referee.
    pub referee: String,
    /// Bytes of the archive it was published as.
    pub size: u64,
    pub published_by: String,
    pub published_at: String,
}

/// A game published: its version, and what checked it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublishOut {
    pub game: String,
    pub version: u32,
    pub referee: String,
    /// The game's page.
    pub url: String,
    /// Games the conformance run (`arena check-game`) played.
    pub games_checked: usize,
    /// Registered players checked against it, each still loading.
    pub players_kept: usize,
}

/// A game package to publish: multipart `package`, the package as a `.tar.gz`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct PublishForm {
    /// The package (game.toml, referee, sample players, wit/, templates/) as a `.tar.gz`.
    #[schema(value_type = String, format = Binary)]
    pub package: Vec<u8>,
}

/// The operator's listing of a published game.
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct ListingIn {
    /// `listed`, `hidden` or `removed`.
    pub listing: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OptionInfo {
    pub default: i64,
    pub min: i64,
    pub max: i64,
    pub description: String,
}

/// A rating and its uncertainty.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingOut {
    pub rating: f64,
    pub deviation: f64,
}

/// Games won, lost and tied.
#[derive(Debug, Serialize, ToSchema)]
pub struct Tally {
    pub won: u32,
    pub lost: u32,
    pub tied: u32,
}

/// A line of a game's leaderboard (its latest version per player).
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderOut {
    pub name: String,
    pub version: u32,
    pub rating: RatingOut,
    pub games: Tally,
    pub faults: u32,
    pub submitted_at: String,
    /// The places (best, worst; 1 is first) the rating's interval (rating ± 1.96 deviations, about 95%)
    /// allows among the board's players: `[3, 5]` when it overlaps the intervals of the players
    /// placed 3 to 5, `[3, 3]` when it overlaps nobody's.
    pub rank_range: [u32; 2],
}

/// A game that ended in a game fault: its package's referee failed (no result, nobody banned).
#[derive(Debug, Serialize, ToSchema)]
pub struct GameFaultAtOut {
    pub tournament: i64,
    pub game: String,
    /// The referee's call that failed, and why.
    pub call: String,
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GameFaultsOut {
    pub game: String,
    pub count: i64,
    /// The latest 50.
    pub latest: Vec<GameFaultAtOut>,
}

/// A player, with its games (one entry per game it is registered for).
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerOut {
    pub name: String,
    /// The account that owns the name (none: submitted from the command line).
    pub owner: Option<String>,
    pub games: Vec<StatsOut>,
    /// Its games, newest first, page by page.
    pub games_played: String,
}

/// A player's statistics in one game, as `arena stats --json` shows them.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatsOut {
    pub game: String,
    pub versions: u32,
    pub registered_at: String,
    pub tournaments: TournamentTally,
    pub matches: Tally,
    pub games: Tally,
    /// Faults by kind.
    pub faults: BTreeMap<String, u32>,
    pub fuel: FuelOut,
    pub rating_system: String,
    pub rating: RatingOut,
    pub rating_history: Vec<RatingPointOut>,
    pub head_to_head: Vec<HeadToHeadOut>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentTally {
    pub played: u32,
    pub won: u32,
}

/// Fuel spent in all its games (64-bit: strings).
#[derive(Debug, Serialize, ToSchema)]
pub struct FuelOut {
    pub total: String,
    pub decisions: String,
    pub per_decision: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPointOut {
    pub tournament: i64,
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HeadToHeadOut {
    pub opponent: String,
    pub won: u32,
    pub lost: u32,
    pub tied: u32,
}

/// A tournament (or a ladder, or a scrimmage) as listed.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentOut {
    pub id: i64,
    pub game: String,
    /// `knockout`, `round-robin`, `rounds` or `ladder`.
    pub format: String,
    pub games_per_match: u32,
    pub seed: String,
    /// `running`, `finished` or `interrupted`.
    pub status: String,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub winner: Option<String>,
    pub players: u32,
    /// Games recorded so far.
    pub games: u32,
    /// Whether its games count for ratings (a scrimmage's do not).
    pub rated: bool,
    pub started_by: Option<String>,
    /// What it forks, when it is a fork of a stored game (a tournament of one game, never rated).
    pub fork: Option<ForkOut>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentsPage {
    /// Newest first.
    pub tournaments: Vec<TournamentOut>,
    /// The next page, if there is one.
    pub next: Option<String>,
}

/// A player banned from a tournament: the host's classification only.
#[derive(Debug, Serialize, ToSchema)]
pub struct BanOut {
    pub player: String,
    pub kind: String,
    pub call: String,
    pub reason: String,
    /// The game it was banned in; none at the tournament's start or end.
    pub game: Option<String>,
}

/// A tournament: its row, standings, bans and game faults; its games are paged apart.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentDetail {
    pub tournament: TournamentOut,
    pub standings: Vec<super::view::Standing>,
    /// Places, best first, once finished; players sharing a place share a list.
    pub ranking: Option<Vec<Vec<String>>>,
    pub banned: Vec<BanOut>,
    pub game_faults: Vec<GameFaultRowOut>,
    /// Its games as played, page by page.
    pub games: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GameFaultRowOut {
    pub game: String,
    pub call: String,
    pub reason: String,
}

/// A player in a game: the name, the version that played and its owner.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerRef {
    pub name: String,
    /// None for a seat no registered version played (a built-in player).
    pub version: Option<u32>,
    pub owner: Option<String>,
}

/// A fault of a seat in a game: the host's classification only.
#[derive(Debug, Serialize, ToSchema)]
pub struct FaultOut {
    pub player: String,
    pub kind: String,
    pub call: String,
    pub reason: String,
}

/// A game that ended in a game fault: the referee's call and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameFaultOut {
    pub kind: String,
    pub call: String,
    pub reason: String,
}

/// One stored game.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOut {
    pub tournament: i64,
    /// Its id in the tournament (`R1-M2-G1`).
    pub id: String,
    /// The game (package) played.
    pub game: String,
    pub round: u32,
    #[serde(rename = "match")]
    pub match_no: u32,
    pub number: u32,
    pub seed: String,
    pub finished_at: String,
    /// In seat order.
    pub players: Vec<PlayerRef>,
    /// In seat order.
    pub scores: Vec<i64>,
    pub winners: Vec<String>,
    pub faults: Vec<FaultOut>,
    pub game_fault: Option<GameFaultOut>,
    /// Fuel per seat (64-bit: strings).
    pub fuel: Vec<String>,
    /// Its replay page.
    pub replay: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GamesPage {
    pub games: Vec<GameOut>,
    /// The next page, if there is one.
    pub next: Option<String>,
}

/// What a seat's player printed in a game: its whole log and each call's part.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatLog {
    pub seat: usize,
    pub player: String,
    pub log: String,
    pub calls: Vec<CallOutput>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CallOutput {
    pub step: u32,
    pub call: String,
    pub output: String,
}

/// The logs of the asking account's seats in a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameLogs {
    pub tournament: i64,
    pub game: String,
    pub seats: Vec<SeatLog>,
}

/// An upload accepted: the version stored and its validation game.
#[derive(Debug, Serialize, ToSchema)]
pub struct UploadOut {
    pub game: String,
    pub name: String,
    pub version: u32,
    pub hash: String,
    pub size: u64,
    pub submitted_at: String,
    pub new_player: bool,
    /// Identical to the latest version: nothing new was stored.
    pub unchanged: bool,
    pub imports: Vec<String>,
    pub validation: ValidationOut,
}

/// The validation game: against which sample player, with which seed, and how it went.
#[derive(Debug, Serialize, ToSchema)]
pub struct ValidationOut {
    pub opponent: String,
    pub seed: String,
    pub scores: Vec<i64>,
    pub fuel: String,
    pub calls: u32,
    /// The most fuel one call used.
    pub max_call_fuel: String,
    /// How long compiling it took, in milliseconds (0: the same component was compiled already).
    pub compile_ms: u64,
    /// How long its validation game took, in milliseconds.
    pub game_ms: u64,
    /// Compiled as quick code for its validation game: about half the compile, the same fuel; the
    /// code games are played with is compiled next, in the background.
    pub quick: bool,
}

/// The multipart form of an upload.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct UploadForm {
    /// A game's name (`GET /api/games`).
    pub game: String,
    /// The player's name: 1 to 40 ASCII letters, digits, `-`, `_` and `.`.
    pub name: String,
    /// The component (`.wasm`, or `.wat` text).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// `true`: a candidate, judged against the player's version in use in mirrored games before it
    /// becomes a version (202 with the candidate); otherwise stored as the next version at once.
    pub candidate: Option<bool>,
}

//! The API's shapes of the bot author's workbench: forks of stored games, sparring partners and
//! candidates.

use serde::Serialize;
use utoipa::ToSchema;

/// A fork to play: from `step` (from 1) on, `seat` (from 0; one of yours) is played by `version` of its
/// player, the latest when absent; every other seat by the version that played.
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct ForkBody {
    pub seat: usize,
    pub step: u32,
    /// The seat's player, if you name it: a version of another player is refused.
    #[serde(default)]
    pub player: Option<String>,
    #[serde(default)]
    pub version: Option<u32>,
}

/// A fork, recorded and started: its tournament (of one game, never rated).
#[derive(Debug, Serialize, ToSchema)]
pub struct ForkCreated {
    pub tournament: i64,
    /// Its page.
    pub url: String,
    /// Its API resource.
    pub api: String,
}

/// What a fork forks: the original game (its tournament and key) at `step`, `seat` changed; and, once
/// it is played, the first step whose answers differ from the original's (`null` when none do).
#[derive(Debug, Serialize, ToSchema)]
pub struct ForkOut {
    pub tournament: i64,
    pub game: String,
    pub step: u32,
    pub seat: usize,
    /// The original game in the replay viewer, at the fork's step.
    pub original: String,
    /// Whether the fork has been played (`diverged_at` is known: in `/api/tournaments/{id}` only).
    pub played: bool,
    pub diverged_at: Option<u32>,
}

/// Whether a version is offered as a sparring partner.
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct SparringWanted {
    pub offered: bool,
}

/// A version offered as a sparring partner: anyone may download its component.
#[derive(Debug, Serialize, ToSchema)]
pub struct SparringVersion {
    pub version: u32,
    pub hash: String,
    pub size: u64,
    pub submitted_at: String,
    /// Its component's download.
    pub component: String,
}

/// The versions of a player its owner offers as sparring partners, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct SparringOut {
    pub game: String,
    pub name: String,
    pub versions: Vec<SparringVersion>,
}

/// A candidate version and its evidence: mirrored pairs of games against the version it would replace
/// (`against`), until a sequential probability ratio test between two Elo bounds decides or `cap`
/// games are played. `status`: `testing`, `accepted` (it became `version`), `rejected`, `undecided`
/// (the cap came first) or `superseded` (a newer version was uploaded meanwhile).
#[derive(Debug, Serialize, ToSchema)]
pub struct CandidateOut {
    pub id: i64,
    pub game: String,
    pub name: String,
    pub against: u32,
    pub hash: String,
    pub size: u64,
    pub submitted_at: String,
    /// The seed of its pairs (`arena candidate --seed` with the two files plays the same games).
    pub seed: String,
    pub status: String,
    pub decided_at: Option<String>,
    pub version: Option<u32>,
    /// Games played (void ones too) and the most it may play.
    pub games: u32,
    pub cap: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games the referee failed: they count for nobody.
    pub void: u32,
    /// The log-likelihood ratio, and where it accepts (`upper`) and rejects (`lower`).
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// The Elo bounds: H0 (`elo0`) against H1 (`elo1`), at error rates `alpha` and `beta`.
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Its validation game (in the answer to its upload only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<super::ValidationOut>,
}

/// A competition: its game, its deadline, its final and, when the final is played until its top
/// places are decided, where that stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompetitionOut {
    pub id: i64,
    pub game: String,
    pub title: String,
    pub description: String,
    /// When submissions close (and the final starts).
    pub deadline: String,
    pub open: bool,
    pub format: String,
    pub games_per_match: u32,
    pub seed: String,
    /// The final's (first leg's) tournament, once recorded.
    pub final_tournament: Option<i64>,
    /// The top places its final is played until they are decided (0: played once), and the most games.
    pub decide: u32,
    pub final_games: u32,
    pub decision: Option<DecisionOut>,
}

/// A final played until its top places are decided: its legs (tournaments), the games they played,
/// every player not banned by all the legs' games (best first), and the places decided (only one
/// player's 95% interval allows each).
#[derive(Debug, Serialize, ToSchema)]
pub struct DecisionOut {
    pub legs: Vec<i64>,
    pub games: u32,
    pub cap: u32,
    pub placed: Vec<PlacedOut>,
    pub decided: Vec<u32>,
    /// The top places asked for are all decided.
    pub settled: bool,
    /// Every leg is played and no other is due: the final is over.
    pub over: bool,
}

/// A player of a final by all its legs' games.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlacedOut {
    pub name: String,
    pub rating: f64,
    pub interval: [f64; 2],
    pub rank_range: [u32; 2],
}

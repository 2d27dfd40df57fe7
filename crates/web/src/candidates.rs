//! Candidates from the web: an upload marked `candidate` is judged against its player's version in use
//! in mirrored pairs of games played here (in the validation pool, each game counted against its
//! owner's uploads for the hour, waiting for room when there is none) until the test decides; the
//! player page and `GET /api/games/{game}/players/{name}/candidates` show the evidence as it comes.
//! A server that starts goes on with the candidates under test where they stopped.

use super::App;
use super::api_types::{CandidateOut, ErrorBody, ValidationOut};
use super::error::{ApiResult, WebError};
use arena_service::candidate::stored::{self, evidence_of};
use arena_service::packages::PackageGame;
use arena_service::store::Candidate;
use axum::Json;
use axum::extract::{Path, State};
use std::sync::Arc;
use std::time::Duration;

/// The most candidates a player's page and the API list, newest first.
pub const LISTED: u32 = 10;

/// What the API and the player page show of candidate `c` (and of its validation game, when it was
/// just uploaded).
pub fn out(c: &Candidate, validation: Option<ValidationOut>) -> CandidateOut {
    let e = evidence_of(c);
    let [elo0, elo1, alpha, beta] = c.bounds;
    CandidateOut {
        id: c.id,
        game: c.game.clone(),
        name: c.name.clone(),
        against: c.against,
        hash: c.hash.clone(),
        size: c.size,
        submitted_at: c.submitted_at.clone(),
        seed: c.seed.to_string(),
        status: c.status.clone(),
        decided_at: c.decided_at.clone(),
        version: c.version,
        games: c.pairs * 2,
        cap: c.cap,
        wins: c.wins,
        draws: c.draws,
        losses: c.losses,
        void: c.void,
        llr: e.llr,
        lower: e.lower,
        upper: e.upper,
        elo0,
        elo1,
        alpha,
        beta,
        validation,
    }
}

/// Candidate `c`'s row on its player's page: its number, the version it is judged against, its status,
/// its games, won, drawn, lost, its log-likelihood ratio and where the test decides (`arena.js`
/// writes the same cells from the API's JSON).
pub fn cells(c: &CandidateOut) -> Vec<String> {
    let status = match (c.status.as_str(), c.version) {
        ("accepted", Some(v)) => format!("accepted: now v{v}"),
        ("undecided", _) => "undecided at the cap (not promoted)".into(),
        ("superseded", _) => "superseded by a newer version".into(),
        (s, _) => s.to_string(),
    };
    vec![
        c.id.to_string(),
        format!("v{}", c.against),
        status,
        format!("{} / {}", c.games, c.cap),
        c.wins.to_string(),
        c.draws.to_string(),
        c.losses.to_string(),
        format!("{:.2}", c.llr),
        format!("{:.2} … {:.2}", c.lower, c.upper),
    ]
}

/// Holds a place in the validation pool while a pair of games plays.
struct Turn(Arc<App>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.uploads.add_permits(1);
    }
}

/// A pair's turn for an account's candidate: two of the account's uploads for the hour (waiting for
/// them), then a place in the validation pool.
async fn turn(app: Arc<App>, owner: Option<i64>) -> Turn {
    if let Some(user) = owner {
        let games = 2.min(app.cfg.uploads_per_hour.max(1));
        while let Err(wait) = app.take_slots(user, games) {
            tokio::time::sleep(wait.min(Duration::from_secs(60))).await;
        }
    }
    if let Ok(p) = app.uploads.acquire().await {
        p.forget();
    }
    Turn(app)
}

/// Judges candidate `c` with `game` in the background, pair by pair (unless a task here judges it
/// already: a server starting while it is uploaded finds it twice).
pub(crate) fn judge(app: &Arc<App>, game: Arc<PackageGame>, c: &Candidate) {
    let (app, id, owner) = (app.clone(), c.id, c.submitted_by);
    if !app.judging.lock().unwrap_or_else(|e| e.into_inner()).insert(id) {
        return;
    }
    tokio::spawn(async move {
        let a = app.clone();
        let pair = move |_: &Candidate| turn(a.clone(), owner);
        match stored::run(game, app.data(), id, pair).await {
            Ok(c) => {
                tracing::info!("candidate {id} of {} ({}): {} after {} games", c.name, c.game, c.status, c.pairs * 2)
            }
            Err(e) => tracing::error!("candidate {id}: {e:#}"),
        }
        app.judging.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    });
}

/// Goes on with every candidate under test (a server that starts).
pub(crate) async fn resume(app: Arc<App>) {
    let testing = match app.read(|s| s.testing_candidates()).await {
        Ok(t) => t,
        Err(e) => return tracing::error!("candidates under test: {}", e.message),
    };
    for c in testing {
        let game = match app.catalogue.open(&c.game) {
            Ok(entry) => app.game_in(entry.dir).await,
            Err(e) => Err(e),
        };
        match game {
            Ok(g) => judge(&app, g, &c),
            Err(e) => tracing::error!("candidate {} of {}: {}: not judged now", c.id, c.name, e.message),
        }
    }
}

/// A player's latest candidates for a game, newest first: each with its evidence (games won, drawn and
/// lost against the version it would replace, the log-likelihood ratio and its bounds) and its status.
#[utoipa::path(get, path = "/api/games/{game}/players/{name}/candidates", tag = "players",
    params(("game" = String, Path, description = "a game's name"), ("name" = String, Path, description = "a player's name")),
    responses((status = 200, body = Vec<CandidateOut>), (status = 404, body = ErrorBody)))]
pub async fn candidates(
    State(app): State<Arc<App>>,
    Path((game, name)): Path<(String, String)>,
) -> ApiResult<Vec<CandidateOut>> {
    let (g, n) = (game.clone(), name.clone());
    let (known, list) =
        app.read(move |s| Ok((s.latest_version(&g, &n)?.is_some(), s.candidates_of(&g, &n, LISTED)?))).await?;
    if !known {
        return Err(WebError::not_found(format!(
            "no player `{}` is registered for {}",
            super::error::quoted(&name),
            super::error::quoted(&game)
        ))
        .into());
    }
    Ok(Json(list.iter().map(|c| out(c, None)).collect::<Vec<_>>()))
}

/// This resource's API routes.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    r.routes(utoipa_axum::routes!(candidates))
}

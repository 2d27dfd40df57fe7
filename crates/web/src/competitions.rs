//! Competitions run from the browser: an admin sets a game, a title, a description, a submission
//! deadline and the final (format, games per match, seed); until the deadline the game's ladder runs
//! here and its page shows it live; at the deadline submissions to the game close and the server
//! records the final of every player's last version submitted before it, once (however often it is
//! restarted: the final is recorded with the competition in one transaction, and an interrupted final
//! is resumed), and plays it; the page then shows its standings and rounds, and a CSV of them.

use super::App;
use super::api_types::{CompetitionOut, DecisionOut, ErrorBody, PlacedOut};
use super::auth::Viewer;
use super::error::{ApiResult, WebError};
use super::layout::{Nav, html};
use arena_core::unix_now as now;
use arena_service::store::{Competition, Kind, NewCompetition, Status};
use arena_service::tournaments::{Format, Settings};
use askama::Template;
use axum::extract::{Form, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;

#[derive(Template)]
#[template(path = "competitions.html")]
struct List {
    nav: Nav,
    live: String,
    rows: Vec<(Competition, String, bool)>,
    admin_csrf: Option<String>,
    games: Vec<String>,
}

/// `GET /competitions`.
pub async fn list(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    let t = now();
    let rows = app.read(|s| s.competitions()).await?;
    let rows = rows.into_iter().map(|c| {
        let closes = arena_service::store::stamp(c.deadline);
        let open = c.deadline > t;
        (c, closes, open)
    });
    html(&List {
        nav: Nav::of(&viewer),
        live: String::new(),
        rows: rows.collect(),
        admin_csrf: viewer.0.as_ref().filter(|s| s.user.admin).map(|s| s.csrf.clone()),
        games: app.catalogue.listed().iter().map(|e| e.manifest.name.clone()).collect(),
    })
}

#[derive(serde::Deserialize)]
pub struct NewForm {
    csrf: String,
    game: String,
    title: String,
    #[serde(default)]
    description: String,
    /// How long submissions stay open: `90s`, `30m`, `12h`, `7d`.
    closes_in: String,
    format: String,
    games_per_match: String,
    #[serde(default)]
    seed: String,
    /// The top places the final is played again until they are decided (empty or 0: played once).
    #[serde(default)]
    decide: String,
    /// The most games its legs play in all (empty: [`FINAL_GAMES`]).
    #[serde(default)]
    final_games: String,
}

/// The most games a final played until its top places are decided plays, unless the form says.
const FINAL_GAMES: u32 = 1000;

/// `POST /competitions` (admins): records it and starts the game's ladder here.
pub async fn create(
    State(app): State<Arc<App>>,
    super::auth::SignedIn(viewer): super::auth::SignedIn,
    Form(f): Form<NewForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    if !session.user.admin {
        return Err(WebError::forbidden("only an admin creates a competition"));
    }
    let entry = app.catalogue.open(&f.game)?;
    let secs = arena_core::duration_secs(&f.closes_in)
        .filter(|d| *d <= 366 * 86400)
        .ok_or_else(|| WebError::bad("closes in: a number and a unit (90s, 30m, 12h, 7d), at most a year"))?;
    let format: Format = f.format.parse().map_err(WebError::bad)?;
    let k = arena_core::parse_games_per_match(&f.games_per_match).map_err(WebError::bad)?;
    let seed = match f.seed.trim() {
        "" => arena_service::tournaments::seed_or_clock(None),
        typed => arena_core::parse_seed(typed).map_err(WebError::bad)?,
    };
    let number = |v: &str, default: u32, max: u32, what: &str| match v.trim() {
        "" => Ok(default),
        typed => typed
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= max)
            .ok_or_else(|| WebError::bad(format!("{what}: a whole number from 0 to {max}"))),
    };
    let decide = number(&f.decide, 0, 64, "top places to decide")?;
    let final_games = number(&f.final_games, FINAL_GAMES, 100_000, "games in all")?.max(1);
    if f.title.chars().count() > arena_service::store::TITLE_CHARS
        || f.description.chars().count() > arena_service::store::DESCRIPTION_CHARS
    {
        return Err(WebError::bad(format!(
            "a title is at most {} characters, a description {}",
            arena_service::store::TITLE_CHARS,
            arena_service::store::DESCRIPTION_CHARS
        )));
    }
    let (by, game) = (session.user.clone(), entry.manifest.name.clone());
    let id = app
        .write(move |s| {
            let c = NewCompetition {
                game: &game,
                title: &f.title,
                description: &f.description,
                deadline: now() + secs,
                format: Kind::from(format),
                games_per_match: k,
                seed,
                decide,
                final_games,
            };
            s.create_competition(&c, &by).map(Ok).or_else(|e| match e {
                arena_service::store::StoreError::Invalid(m) => Ok(Err(WebError::bad(m))),
                e => Err(e),
            })
        })
        .await??;
    if super::ladders::running(&app, entry.name()).is_none() {
        super::ladders::start(&app, entry.name(), &session.user, super::ladders::default_config()).await?;
    }
    Ok(Redirect::to(&format!("/competitions/{id}")).into_response())
}

#[derive(Template)]
#[template(path = "competition.html")]
struct Page {
    nav: Nav,
    live: String,
    c: Competition,
    closes: String,
    open: bool,
    /// The game's ladder, if it has one.
    ladder: Option<i64>,
    leaders: Vec<(usize, String, String, u32)>,
    /// The final, once recorded: its status and rendered parts.
    final_parts: Option<(String, String, String)>,
    /// A final played until its top places are decided: where it stands.
    decision: Option<arena_service::decider::Decision>,
}

/// `GET /competitions/{id}`.
pub async fn page(State(app): State<Arc<App>>, viewer: Viewer, Path(id): Path<i64>) -> Result<Response, WebError> {
    let c = app
        .read(move |s| s.competition(id))
        .await?
        .ok_or_else(|| WebError::not_found(format!("there is no competition {id}")))?;
    let open = c.deadline > now();
    let g = c.game.clone();
    let ladder = app.read(move |s| Ok(s.ladder_of(&g)?.map(|r| r.id))).await?;
    // The game's ladder: live before the deadline, and still shown after it, under the final.
    let leaders = app
        .leaderboard(&c.game)
        .await?
        .iter()
        .enumerate()
        .map(|(i, l)| {
            (i + 1, l.name.clone(), format!("{:.1}", l.rating.rating), l.games.won + l.games.lost + l.games.tied)
        })
        .collect();
    let final_parts = match c.final_id {
        Some(f) => {
            let parts = super::tournaments::tournament_view(&app, f).await?;
            Some((parts.row.status.as_str().to_string(), parts.standings.clone(), parts.rounds.clone()))
        }
        None => None,
    };
    let cc = c.clone();
    let decision = match c.decide {
        0 => None,
        _ => app.read(move |s| arena_service::decider::decision(s, &cc)).await?,
    };
    let closes = arena_service::store::stamp(c.deadline);
    let page =
        Page { nav: Nav::of(&viewer), live: String::new(), c, closes, open, ladder, leaders, final_parts, decision };
    html(&page)
}

/// `GET /competitions/{id}/final.csv`: the final's standings.
pub async fn final_csv(State(app): State<Arc<App>>, Path(id): Path<i64>) -> Result<Response, WebError> {
    let c = app
        .read(move |s| s.competition(id))
        .await?
        .ok_or_else(|| WebError::not_found(format!("there is no competition {id}")))?;
    let f = c.final_id.ok_or_else(|| WebError::not_found("its final has not been played yet"))?;
    let parts = super::tournaments::tournament_view(&app, f).await?;
    let mut csv = String::from("place,player,played,won,lost,tied,points,score,faults,banned\n");
    for s in &parts.view.standings {
        // Names are plain (letters, digits, `-`, `_`, `.`, or `builtin:…`): no quoting is needed.
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            s.place, s.name, s.played, s.won, s.lost, s.tied, s.points, s.score, s.faults, s.banned
        ));
    }
    let disposition = format!("attachment; filename=\"competition-{id}-final.csv\"");
    Ok((
        [(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        csv,
    )
        .into_response())
}

/// Refuses an upload to `game` once a competition of it has closed, saying when.
pub async fn check_open(app: &App, game: &str) -> Result<(), WebError> {
    let (g, t) = (game.to_string(), now());
    if let Some(c) = app.read(move |s| s.closed_competition(&g, t)).await? {
        return Err(WebError::forbidden(format!(
            "submissions to {} closed at {} (the deadline of the competition \"{}\"); nothing was stored",
            c.game,
            arena_service::store::stamp(c.deadline),
            c.title
        )));
    }
    Ok(())
}

/// Starts each final whose deadline has passed, once, and resumes a final a restart interrupted;
/// runs as long as the server does.
pub async fn scheduler(app: Arc<App>) {
    let mut skipped: std::collections::HashSet<i64> = Default::default();
    loop {
        if let Err(e) = due(&app, &mut skipped).await {
            tracing::error!("competitions: {}", e.message);
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// `skipped`: the competitions settled (their final played to its end, or none possible), looked at no
/// more.
async fn due(app: &Arc<App>, skipped: &mut std::collections::HashSet<i64>) -> Result<(), WebError> {
    let t = now();
    let all = app.read(|s| s.competitions()).await?;
    let due: Vec<Competition> = all.into_iter().filter(|c| c.deadline <= t && !skipped.contains(&c.id)).collect();
    for c in due {
        if c.final_id.is_none() {
            start_final(app, &c, skipped).await?;
            continue;
        }
        let (id, cc) = (c.id, c.clone());
        let (last, decision) = app
            .read(move |s| {
                let last = match s.final_legs(id)?.last() {
                    Some(&t) => s.tournament(t)?.map(|r| (t, r.status)),
                    None => None,
                };
                Ok((last, arena_service::decider::decision(s, &cc)?))
            })
            .await?;
        match last {
            Some((t, Status::Interrupted)) => super::tournaments::resume(app, t).await?,
            // Played to its end: another leg if its top places are not decided and the cap allows,
            // which the next look resumes (a recorded leg nobody runs); otherwise settled.
            Some((_, Status::Finished)) | None => match decision.and_then(|d| d.next) {
                Some((leg, seed)) => {
                    app.write(move |s| s.create_final_leg(id, leg, seed)).await?;
                }
                None => {
                    skipped.insert(c.id);
                }
            },
            _ => {}
        }
    }
    Ok(())
}

async fn start_final(
    app: &Arc<App>,
    c: &Competition,
    skipped: &mut std::collections::HashSet<i64>,
) -> Result<(), WebError> {
    // Its ladder stops: submissions are closed, and the final has the machine.
    if super::ladders::running(app, &c.game).is_some() {
        let _ = super::ladders::pause(app, &c.game);
    }
    let (g, deadline) = (c.game.clone(), c.deadline);
    let versions = app.read(move |s| s.versions_before(&g, deadline)).await?;
    let entry = app.catalogue.find(&c.game)?;
    let format = Kind::parse(&c.format).and_then(Kind::format).ok_or_else(|| WebError::internal("a final's format"))?;
    if let Err(why) = arena_service::tournaments::check_settings(
        &c.game,
        entry.manifest.seats(),
        (format, c.games_per_match),
        versions.len(),
    ) {
        tracing::warn!("competition {}: no final: {why}", c.id);
        skipped.insert(c.id);
        return Ok(());
    }
    let settings = Settings::new(format, c.games_per_match, c.seed);
    super::tournaments::start_final(app, c.id, &entry.dir, versions, settings).await?;
    Ok(())
}

/// A competition: its deadline and final and, for a final played until its top places are decided,
/// where that stands (its legs, each player's place range and interval, the places decided).
#[utoipa::path(get, path = "/api/competitions/{id}", tag = "tournaments",
    params(("id" = i64, Path, description = "a competition's id")),
    responses((status = 200, body = CompetitionOut), (status = 404, body = ErrorBody)))]
pub async fn competition(State(app): State<Arc<App>>, Path(id): Path<i64>) -> ApiResult<CompetitionOut> {
    let (c, d) = app
        .read(move |s| {
            let Some(c) = s.competition(id)? else { return Ok(None) };
            let d = if c.decide > 0 { arena_service::decider::decision(s, &c)? } else { None };
            Ok(Some((c, d)))
        })
        .await?
        .ok_or_else(|| WebError::not_found(format!("there is no competition {id}")))?;
    let decision = d.map(|d| DecisionOut {
        over: d.finished && d.next.is_none(),
        legs: d.legs,
        games: d.games,
        cap: d.cap,
        placed: d
            .placed
            .into_iter()
            .map(|p| PlacedOut { name: p.name, rating: p.rating, interval: p.interval, rank_range: p.rank_range })
            .collect(),
        decided: d.decided,
        settled: d.settled,
    });
    Ok(axum::Json(CompetitionOut {
        id: c.id,
        open: c.deadline > now(),
        deadline: arena_service::store::stamp(c.deadline),
        game: c.game,
        title: c.title,
        description: c.description,
        format: c.format,
        games_per_match: c.games_per_match,
        seed: c.seed.to_string(),
        final_tournament: c.final_id,
        decide: c.decide,
        final_games: c.final_games,
        decision,
    }))
}

/// This resource's API routes.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    r.routes(utoipa_axum::routes!(competition))
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    use axum::routing::get;
    axum::Router::new()
        .route("/competitions", get(list).merge(form_post(create)))
        .route("/competitions/{id}", get(page))
        .route("/competitions/{id}/final.csv", get(final_csv))
}

//! The replay viewer: a stored game re-run through the referee it was played with (the store's copy
//! of the package), each step's view, drawing, events and calls handed to `replay.js` as JSON. A
//! spectator gets public events only; a signed-in player also its own seat's private events and its
//! own logs. The same data makes `arena replay --html`'s one offline file, and the JSON Lines download.

use super::App;
use super::auth::Viewer;
use super::error::WebError;
use arena_core::Frame;
use arena_service::tournaments::GameRecord;
use arena_service::{packages, tournaments};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;

/// What `replay.js` plays.
#[derive(Debug, Serialize)]
pub struct ReplayData {
    pub game: String,
    pub tournament: Option<i64>,
    pub id: String,
    /// As text: a 64-bit seed is past what a JavaScript number holds exactly.
    pub seed: String,
    pub players: Vec<String>,
    /// The seats the viewer plays (their private events and logs are shown); empty for a spectator.
    pub viewer_seats: Vec<usize>,
    pub viewer_seat: Option<usize>,
    pub frames: Vec<FrameData>,
    pub result: ResultData,
    pub logs: std::collections::BTreeMap<String, String>,
    pub download: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct FrameData {
    pub step: u32,
    pub lines: Vec<arena_core::CallLine>,
    pub events: Vec<String>,
    pub view: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct ResultData {
    pub scores: Vec<i64>,
    pub winners: Vec<String>,
    pub faults: Vec<arena_core::PlayerFault>,
    pub game_fault: Option<String>,
}

impl ReplayData {
    /// The frames of `record`, as the viewer playing `seats` may see them.
    pub fn new(
        game: &str,
        tournament: Option<i64>,
        record: &GameRecord,
        frames: Vec<Frame>,
        seats: Vec<usize>,
    ) -> ReplayData {
        let frames = frames
            .into_iter()
            .map(|mut f| FrameData {
                step: f.step,
                lines: {
                    arena_service::tournaments::hide_output(&mut f.lines, &seats);
                    f.lines
                },
                events: f.events.iter().filter(|e| e.seen_by_any(&seats)).map(|e| e.text.clone()).collect(),
                view: f.view,
                svg: f.svg,
            })
            .collect();
        let logs = seats
            .iter()
            .filter_map(|&s| Some((record.players.get(s)?.clone(), record.logs.get(s)?.clone())))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        ReplayData {
            game: game.to_string(),
            tournament,
            id: record.id.clone(),
            seed: record.seed.to_string(),
            players: record.players.clone(),
            viewer_seat: seats.first().copied(),
            viewer_seats: seats,
            frames,
            result: ResultData {
                scores: record.scores.clone(),
                winners: record.winners.clone(),
                faults: record.faults.clone(),
                game_fault: record.game_fault.as_ref().map(|f| f.to_string()),
            },
            logs,
            download: tournament.map(|t| format!("/tournaments/{t}/games/{}.jsonl", record.id)),
        }
    }

    /// As JSON that is safe inside a `<script type="application/json">` element: `<`, `>` and `&` are
    /// escaped (a player's `</script>` cannot end the element).
    pub fn script_json(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_else(|_| "null".into());
        json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
    }
}

/// One HTML file that plays the replay offline: the viewer's script and styles inlined.
pub fn standalone_html(data: &ReplayData) -> String {
    let title = format!("{} {}", data.game, data.id).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\
         <title>{title} · Arena replay</title>\n<style>\n{}\n</style></head>\n<body><main>\n\
         <script type=\"application/json\" id=\"replay-data\">{}</script>\n<div id=\"viewer\"></div>\n</main>\n\
         <script>\n{}\n</script>\n</body></html>\n",
        super::layout::CSS,
        data.script_json(),
        super::layout::REPLAY_JS.replace("</script", "<\\/script"),
    )
}

/// A stored game and its tournament, or which of them is not there.
async fn stored(
    app: &App,
    tournament: i64,
    key: &str,
) -> Result<(arena_service::store::TournamentRow, GameRecord), WebError> {
    let k = key.to_string();
    let (row, record) = app.read(move |s| Ok((s.tournament(tournament)?, s.game(tournament, &k)?))).await?;
    let row = row.ok_or_else(|| WebError::not_found(format!("there is no tournament {tournament}")))?;
    let record = record.ok_or_else(|| {
        WebError::not_found(format!("tournament {tournament} has no game `{}`", super::error::quoted(key)))
    })?;
    Ok((row, record))
}

/// Re-runs a stored game through the referee it was played with.
async fn frames(
    app: &App,
    tournament: i64,
    key: &str,
) -> Result<(arena_service::store::TournamentRow, GameRecord, Vec<Frame>), WebError> {
    let (row, record) = stored(app, tournament, key).await?;
    let found = packages::of_tournament(app.data(), &row, packages::Find::Kept)
        .map_err(|e| WebError::not_found(format!("{:#}", e.context(format!("game {tournament}/{key}")))))?;
    let _permit = app.replays.acquire().await.map_err(|e| WebError::internal(e.to_string()))?;
    let (game, referee) = (row.game.as_str(), row.settings.referee.as_deref());
    let o = tournaments::replay(app.sandbox.clone(), (game, &found.dir), referee, &found.options, &record)
        .await
        .map_err(|e| WebError::internal(format!("game {tournament}/{key}: {e:#}")))?;
    Ok((row, record, o.frames))
}

/// The seats of `record` whose private events and output `user` may see: those its account plays,
/// every seat for an admin, none for a spectator.
async fn seats_of(
    app: &App,
    user: Option<&arena_service::store::User>,
    record: &GameRecord,
) -> Result<Vec<usize>, WebError> {
    if user.is_some_and(|u| u.admin) {
        return Ok((0..record.players.len()).collect());
    }
    owned_seats(app, user, record).await
}

/// The seats of `record` whose players `user` owns (an admin's included only if they are its own).
async fn owned_seats(
    app: &App,
    user: Option<&arena_service::store::User>,
    record: &GameRecord,
) -> Result<Vec<usize>, WebError> {
    let Some(user) = user.cloned() else { return Ok(vec![]) };
    let players = record.players.clone();
    app.read(move |s| {
        let mut mine = vec![];
        for (seat, p) in players.iter().enumerate() {
            if s.owner_of(p)? == arena_service::store::Owner::Account(user.clone()) {
                mine.push(seat);
            }
        }
        Ok(mine)
    })
    .await
}

#[derive(askama::Template)]
#[template(path = "replay.html")]
struct ReplayPage {
    nav: super::layout::Nav,
    live: String,
    game: String,
    tournament: i64,
    key: String,
    seat: Option<usize>,
    data: String,
    fork: Option<ForkChoices>,
}

/// The fork form of a seat's owner: the form's token, the owner's seats (seat, player) and the game's
/// last step.
struct ForkChoices {
    csrf: String,
    seats: Vec<(usize, String)>,
    steps: u32,
}

/// `/tournaments/{id}/games/{key}`: the viewer; `{key}.jsonl`: the replay file.
pub async fn page(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path((tournament, key)): Path<(i64, String)>,
) -> Result<Response, WebError> {
    if let Some(key) = key.strip_suffix(".jsonl") {
        return download(&app, &viewer, tournament, key).await;
    }
    let (row, record, frames) = frames(&app, tournament, &key).await?;
    let seats = seats_of(&app, viewer.user(), &record).await?;
    // The owner of a seat may fork the game from any step (see `forks`).
    let owned = owned_seats(&app, viewer.user(), &record).await?;
    let fork = viewer.0.as_ref().filter(|_| !owned.is_empty()).map(|session| ForkChoices {
        csrf: session.csrf.clone(),
        seats: owned.iter().map(|&i| (i, record.players[i].clone())).collect(),
        steps: frames.last().map_or(1, |f| f.step.max(1)),
    });
    let data = ReplayData::new(&row.game, Some(tournament), &record, frames, seats);
    let page = ReplayPage {
        nav: super::layout::Nav::of(&viewer),
        live: String::new(),
        game: row.game,
        tournament,
        key,
        seat: data.viewer_seat,
        data: data.script_json(),
        fork,
    };
    Ok(Html(askama::Template::render(&page)?).into_response())
}

#[derive(askama::Template)]
#[template(path = "embed.html")]
struct EmbedPage {
    game: String,
    tournament: i64,
    key: String,
    data: String,
}

/// `/embed/tournaments/{id}/games/{key}`: the viewer alone, for other sites to frame; always as a
/// spectator sees the game (a framing site never gets a player's private events or output).
pub async fn embed(
    State(app): State<Arc<App>>,
    Path((tournament, key)): Path<(i64, String)>,
) -> Result<Response, WebError> {
    let (row, record, frames) = frames(&app, tournament, &key).await?;
    let data = ReplayData::new(&row.game, Some(tournament), &record, frames, vec![]);
    let page = EmbedPage { game: row.game, tournament, key, data: data.script_json() };
    let mut res = Html(askama::Template::render(&page)?).into_response();
    res.extensions_mut().insert(super::auth::Embeddable);
    Ok(res)
}

/// The JSON Lines replay, as `--replay-dir` writes it, holding only what the viewer may see.
async fn download(app: &App, viewer: &Viewer, tournament: i64, key: &str) -> Result<Response, WebError> {
    let (row, mut record) = stored(app, tournament, key).await?;
    let seats = seats_of(app, viewer.user(), &record).await?;
    record.only_for(&seats);
    let mut out = Vec::new();
    let with = arena_service::tournaments::report::PlayedWith {
        game: &row.game,
        referee: row.settings.referee.as_deref(),
        limits: &row.settings.limits,
        options: &row.settings.options,
    };
    arena_service::tournaments::report::write_replay_to(&mut out, with, &record)
        .map_err(|e| WebError::internal(e.to_string()))?;
    let name = format!("attachment; filename=\"tournament-{tournament}-{}.jsonl\"", record.id);
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson".to_string()), (header::CONTENT_DISPOSITION, name)], out)
        .into_response())
}

/// What the asking account's seats printed in a game, whole and call by call. 401 without a valid
/// token, 403 for a game the account has no seat in (an admin sees every seat), 404 for a game that is
/// not there.
#[utoipa::path(get, path = "/api/tournaments/{id}/games/{key}/logs", tag = "tournaments",
    params(("id" = i64, Path, description = "a tournament's id"), ("key" = String, Path, description = "a game's id")),
    security(("token" = [])),
    responses((status = 200, body = super::api_types::GameLogs), (status = 401, body = super::api_types::ErrorBody),
        (status = 403, body = super::api_types::ErrorBody), (status = 404, body = super::api_types::ErrorBody)))]
pub async fn logs(
    State(app): State<Arc<App>>,
    super::auth::ApiUser(user): super::auth::ApiUser,
    Path((tournament, key)): Path<(i64, String)>,
) -> Result<axum::Json<super::api_types::GameLogs>, super::error::ApiError> {
    use super::api_types::{CallOutput, GameLogs, SeatLog};
    let (_, mut record) = stored(&app, tournament, &key).await?;
    let seats = seats_of(&app, Some(&user), &record).await?;
    if seats.is_empty() {
        let m = format!("`{}` plays no seat in game {tournament}/{key}: its logs are its players' owners'", user.name);
        return Err(WebError::forbidden(m).into());
    }
    record.only_for(&seats);
    let seats = seats
        .iter()
        .map(|&s| SeatLog {
            seat: s,
            player: record.players.get(s).cloned().unwrap_or_default(),
            log: record.logs.get(s).cloned().unwrap_or_default(),
            calls: record
                .replay
                .iter()
                .filter(|l| l.seat == s && !l.output.is_empty())
                .map(|l| CallOutput { step: l.turn, call: l.call.to_string(), output: l.output.clone() })
                .collect(),
        })
        .collect();
    Ok(axum::Json(GameLogs { tournament, game: record.id, seats }))
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new()
        .route("/tournaments/{id}/games/{key}", get(page))
        .route("/embed/tournaments/{id}/games/{key}", get(embed))
}

/// This resource's API routes, each with its OpenAPI operation.
pub(crate) fn api(r: utoipa_axum::router::OpenApiRouter<Arc<App>>) -> utoipa_axum::router::OpenApiRouter<Arc<App>> {
    r.routes(utoipa_axum::routes!(logs))
}

//! Live tournaments: server-sent events that carry the tournament page's standings, rounds and games,
//! re-rendered whenever the store has recorded another game, until the tournament finishes. The
//! store is polled (a count), so a tournament run by another `arena` process is followed as well.

use super::App;
use super::error::WebError;
use super::pages::{GamesPart, RoundsPart, StandingsPart, tournament_view};
use askama::Template;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// How often the store is asked whether another game was recorded.
const POLL: Duration = Duration::from_millis(400);
/// A live page is followed for at most this long (then the browser reconnects).
const MAX_FOLLOW: Duration = Duration::from_secs(30 * 60);

/// The message the page applies: element id → its new inner HTML (rendered and escaped here).
async fn update(app: &App, id: i64) -> Result<(String, bool), WebError> {
    let (t, view) = tournament_view(app, id).await?;
    let done = t.status != crate::store::Status::Running;
    let html = serde_json::json!({
        "standings": StandingsPart { view: &view }.render()?,
        "rounds": RoundsPart { id, view: &view }.render()?,
        "game-list": GamesPart { id, view: &view }.render()?,
        "status": t.status.as_str(),
    });
    Ok((serde_json::json!({"html": html, "done": done}).to_string(), done))
}

/// `GET /tournaments/{id}/live`.
pub async fn tournament(
    State(app): State<Arc<App>>,
    Path(id): Path<i64>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, WebError> {
    // A tournament that does not exist is an error now, not an empty stream.
    app.read(move |s| s.progress(id)).await.map_err(|_| WebError::not_found(format!("there is no tournament {id}")))?;
    let started = tokio::time::Instant::now();
    let state = (app, None::<(u32, bool)>, false);
    let stream = futures_util::stream::unfold(state, move |(app, mut last, ended)| async move {
        if ended || started.elapsed() > MAX_FOLLOW {
            return None;
        }
        loop {
            let now = app.read(move |s| s.progress(id)).await.ok();
            if now.is_some() && now != last {
                last = now;
                let (data, done) = update(&app, id)
                    .await
                    .unwrap_or_else(|e| (serde_json::json!({"error": e.message}).to_string(), true));
                return Some((Ok(Event::default().data(data)), (app, last, done)));
            }
            if now.is_none() || started.elapsed() > MAX_FOLLOW {
                return None;
            }
            tokio::time::sleep(POLL).await;
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

//! Live tournaments: server-sent events that carry the tournament page's standings, rounds and games,
//! sent whenever the store has recorded more (at most once a [`super::FRESH`] while games keep coming),
//! until the tournament finishes: its last message carries the final standings, the status and the
//! winner, then the stream ends. The store is polled, so a tournament run by another `arena` process
//! is followed as well. Streams are capped per client address and in all (`LIVE_STREAMS`).

use super::App;
use super::error::WebError;
use super::tournaments::tournament_view;
use super::view::Rendered;
use arena_net::conn::Client;
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

/// The message the page applies: element id → its new inner HTML (rendered and escaped once for
/// every viewer), and whether the tournament is over.
fn update(parts: &Rendered) -> (String, bool) {
    let done = parts.row.status != arena_service::store::Status::Running;
    let html = serde_json::json!({
        "standings": parts.standings,
        "rounds": parts.rounds,
        "game-list": parts.games,
        "status": parts.row.status.as_str(),
        "winner-line": parts.winner,
    });
    (serde_json::json!({"html": html, "done": done}).to_string(), done)
}

/// `GET /tournaments/{id}/live`.
pub async fn tournament(
    State(app): State<Arc<App>>,
    Client(client): Client,
    Path(id): Path<i64>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, WebError> {
    // A tournament that does not exist is an error now, not an empty stream.
    let first = tournament_view(&app, id).await?;
    let permit = app.live.take(client).ok_or_else(|| {
        let m = format!(
            "too many live pages are open (at most {} from one address, {} in all); retry in a minute",
            app.live.caps.per_address, app.live.caps.total
        );
        WebError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, m)
    })?;
    let started = tokio::time::Instant::now();
    // The permit travels with the stream's state: it is given back when the stream ends.
    let state = (app, None::<Arc<Rendered>>, Some(first), false, permit);
    let stream = futures_util::stream::unfold(state, move |(app, last, mut next, ended, permit)| async move {
        loop {
            if ended || started.elapsed() > MAX_FOLLOW {
                return None;
            }
            let parts = match next.take() {
                Some(p) => p,
                None => {
                    tokio::time::sleep(POLL).await;
                    tournament_view(&app, id).await.ok()?
                }
            };
            if last.as_ref().is_some_and(|l| Arc::ptr_eq(l, &parts)) {
                continue;
            }
            let (data, done) = update(&parts);
            return Some((Ok(Event::default().data(data)), (app, Some(parts), None, done, permit)));
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new().route("/tournaments/{id}/live", get(tournament))
}

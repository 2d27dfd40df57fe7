//! Scrimmages: one unrated game of a signed-in user's own player against another registered player,
//! recorded and shown as a tournament of one game.

use super::App;
use super::auth::SignedIn;
use super::error::WebError;
use super::tournaments::start;
use arena_service::store::User;
use arena_service::tournaments::Format;
use arena_service::tournaments::seed_or_clock;
use axum::extract::{Form, State};
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;

#[derive(serde::Deserialize)]
pub struct ScrimmageForm {
    csrf: String,
    game: String,
    player: String,
    opponent: String,
}

/// `POST /scrimmages`: one unrated game of the user's player against another registered player.
pub async fn scrimmage(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Form(f): Form<ScrimmageForm>,
) -> Result<Response, WebError> {
    let session = viewer.checked(&f.csrf)?;
    let id = scrimmage_of(&app, &session.user, &f.game, &f.player, &f.opponent).await?;
    Ok(Redirect::to(&format!("/tournaments/{id}")).into_response())
}

pub async fn scrimmage_of(app: &App, user: &User, game: &str, player: &str, opponent: &str) -> Result<i64, WebError> {
    let entry = app.catalogue.open(game)?;
    let m = entry.manifest.clone();
    if !m.seats().contains(&2) {
        return Err(WebError::bad(format!("{} is not played by two: no scrimmages", m.name)));
    }
    if player == opponent {
        return Err(WebError::bad("a scrimmage needs two different players"));
    }
    if opponent.starts_with("builtin:") {
        // A built-in opponent (one of the game's sample players) is stored as a version of its own.
        let file = entry.sample_file(opponent).ok_or_else(|| {
            WebError::not_found(format!("{} has no built-in player `{}`", m.name, super::error::quoted(opponent)))
        })?;
        let (g, o) = (m.name.clone(), opponent.to_string());
        app.write(move |s| {
            let bytes = std::fs::read(&file)
                .map_err(|error| arena_service::store::StoreError::Io { path: file.clone(), error })?;
            s.builtin_version(&g, &o, &bytes, &arena_core::sha256_hex(&bytes))
        })
        .await?;
    }
    let (g, p, o, u) = (m.name.clone(), player.to_string(), opponent.to_string(), user.clone());
    let versions = app
        .read(move |s| {
            if s.owner_of(&p)? != arena_service::store::Owner::Account(u) {
                return Ok(Err(WebError::forbidden(format!(
                    "`{p}` is not yours: a scrimmage plays one of your own players"
                ))));
            }
            let mine = s.latest_version(&g, &p)?;
            let theirs = s.latest_version(&g, &o)?;
            Ok(match (mine, theirs) {
                (Some(a), Some(b)) => Ok(vec![a, b]),
                _ => Err(WebError::not_found(format!("both players must be registered for {g}"))),
            })
        })
        .await??;
    app.take_upload(user.id)?;
    start(app, &m.name, versions, (Format::RoundRobin, 1, seed_or_clock(None)), (false, user.clone())).await
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    axum::Router::new().route("/scrimmages", form_post(scrimmage))
}

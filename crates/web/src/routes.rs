//! The site's routes: every page and form, the API with its OpenAPI document, the static assets, and
//! the layers every request goes through.

use super::{
    App, account, api, auth, competitions, error, games, ladders, layout, live, metrics, players, publish, replays,
    scrimmages, tournaments, uploads,
};
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;

/// The site's routes: the pages, and the API (with its OpenAPI document, made from the same routes).
pub fn router(app: Arc<App>) -> Router {
    let body_cap = app.cfg.max_upload + 64 * 1024;
    let (api, doc) = api::routes();
    let doc = Arc::new(doc.to_pretty_json().unwrap_or_default());
    let api = api
        .route(
            "/api/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], (*doc).clone()) }
            }),
        )
        .route("/api", axum::routing::any(error::api_not_found))
        .route("/api/{*rest}", axum::routing::any(error::api_not_found))
        .layer(axum::middleware::map_response(error::api_errors));
    // The site's forms are small: a larger body is refused before more of it is read (uploads and
    // publications, multipart, are bounded by the upload cap below).
    let form = tower::ServiceBuilder::new()
        .layer(axum::middleware::from_fn(auth::small_form))
        .layer(axum::extract::DefaultBodyLimit::max(auth::FORM_BYTES));
    Router::new()
        .route("/", get(games::index))
        .route("/games/{game}", get(games::leaderboard_page))
        .route("/players/{name}", get(players::player_page))
        .route("/players/{name}/games", get(players::player_games_html))
        .route(
            "/tournaments",
            get(tournaments::tournaments_page).post(tournaments::start_tournament).layer(form.clone()),
        )
        .route("/tournaments/{id}", get(tournaments::tournament_page))
        .route("/tournaments/{id}/live", get(live::tournament))
        .route("/tournaments/{id}/games/{key}", get(replays::page))
        .route("/embed/tournaments/{id}/games/{key}", get(replays::embed))
        .route("/scrimmages", post(scrimmages::scrimmage).layer(form.clone()))
        .route("/ladders", post(ladders::control).layer(form.clone()))
        .route("/competitions", get(competitions::list).post(competitions::create).layer(form.clone()))
        .route("/competitions/{id}", get(competitions::page))
        .route("/competitions/{id}/final.csv", get(competitions::final_csv))
        .route("/upload", get(uploads::upload_form).post(uploads::upload_submit))
        .route("/publish", get(publish::publish_form).post(publish::publish_submit))
        .route("/games/{game}/package.tar.gz", get(publish::package_download))
        .route("/games/{game}/wit", get(publish::wit_download))
        .route("/games/{game}/templates/{file}", get(publish::templates_download))
        .route("/signin", get(account::signin_form).post(account::signin).layer(form.clone()))
        .route("/signout", post(auth::signout).layer(form.clone()))
        .route("/signup", get(account::signup_form).post(account::signup).layer(form.clone()))
        .route("/account", get(account::account))
        .route("/account/token", post(account::replace_token).layer(form.clone()))
        .route("/account/signout-everywhere", post(account::sign_out_everywhere).layer(form.clone()))
        .route("/account/invites", post(account::invite).layer(form.clone()))
        .route("/account/users", post(account::set_account).layer(form.clone()))
        .route("/assets/{file}", get(layout::asset))
        .route("/favicon.ico", get(|| async { axum::http::StatusCode::NO_CONTENT }))
        .route("/healthz", get(metrics::healthz))
        .route("/metrics", get(metrics::metrics))
        .layer(axum::middleware::map_response(error::page_errors))
        .merge(api)
        .route_layer(axum::middleware::from_fn_with_state(app.clone(), metrics::observe))
        .layer(axum::extract::DefaultBodyLimit::max(body_cap))
        .layer(axum::middleware::from_fn(auth::security_headers))
        .layer(axum::middleware::from_fn_with_state(app.clone(), arena_net::fair::scope))
        .with_state(app)
}

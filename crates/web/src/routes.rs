//! The site's routes: every page and form, the API with its OpenAPI document, the static assets, and
//! the layers every request goes through.

use super::{
    App, account, api, auth, competitions, error, forks, games, ladders, layout, live, metrics, players, publish,
    replays, scrimmages, sparring, tournaments, uploads,
};
use axum::Router;
use axum::routing::get;
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
    // Each resource's pages, each module with its own routes.
    Router::new()
        .merge(games::pages())
        .merge(players::pages())
        .merge(tournaments::pages())
        .merge(live::pages())
        .merge(replays::pages())
        .merge(scrimmages::pages())
        .merge(forks::pages())
        .merge(sparring::pages())
        .merge(ladders::pages())
        .merge(competitions::pages())
        .merge(uploads::pages())
        .merge(publish::pages())
        .merge(account::pages())
        .merge(auth::pages())
        .merge(metrics::pages())
        .route("/assets/{file}", get(layout::asset))
        .route("/favicon.ico", get(|| async { axum::http::StatusCode::NO_CONTENT }))
        .layer(axum::middleware::map_response(error::page_errors))
        .merge(api)
        .route_layer(axum::middleware::from_fn_with_state(app.clone(), metrics::observe))
        .layer(axum::extract::DefaultBodyLimit::max(body_cap))
        .layer(axum::middleware::from_fn(auth::security_headers))
        .layer(axum::middleware::from_fn_with_state(app.clone(), arena_net::fair::scope))
        .with_state(app)
}

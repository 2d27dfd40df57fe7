//! The JSON API under `/api/`, its handlers kept with their resources (games, players, tournaments,
//! uploads, replays): games, a game's leaderboard and game faults, players and their games,
//! tournaments and their games (paged by cursor), a game's logs for its owners, and uploads (`POST
//! /api/players`, multipart `game`, `name`, `file`, with `Authorization: Bearer TOKEN`). Every route
//! is registered through [`routes`], which also builds the OpenAPI document served at
//! `/api/openapi.json`: a route cannot be missing from it.

use super::App;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;

/// The API's routes and its OpenAPI document, made together.
pub fn routes() -> (axum::Router<Arc<App>>, utoipa::openapi::OpenApi) {
    #[derive(utoipa::OpenApi)]
    #[openapi(
        info(title = "Arena", description = "The web arena's JSON API. Errors are always \
            `{\"error\": {\"code\", \"message\"}}`; 64-bit integers are strings; lists that grow without \
            end are paged by cursor (`limit`, `after`, and a `next` link)."),
        modifiers(&BearerToken)
    )]
    struct Doc;
    let r = OpenApiRouter::with_openapi(<Doc as utoipa::OpenApi>::openapi());
    let r = super::games::api(r);
    let r = super::publish::api(r);
    let r = super::uploads::api(r);
    let r = super::players::api(r);
    let r = super::tournaments::api(r);
    let r = super::forks::api(r);
    let r = super::sparring::api(r);
    let r = super::candidates::api(r);
    let r = super::competitions::api(r);
    super::replays::api(r).split_for_parts()
}

/// Adds the bearer-token scheme the upload and logs routes name.
struct BearerToken;

impl utoipa::Modify for BearerToken {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = api.components.get_or_insert_with(Default::default);
        let scheme =
            HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("a token from `arena user add`"));
        components.add_security_scheme("token", SecurityScheme::Http(scheme.build()));
    }
}

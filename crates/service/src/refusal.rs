//! Why the service refuses what an account asks (a fork, a sparring offer), by kind: each front end
//! answers a kind its own way (the web with a status code, the command line with the message).

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// No such tournament, game, player or version.
    #[error("{0}")]
    NotFound(String),
    /// Not the account's to ask (another's seat or player), or not offered.
    #[error("{0}")]
    Forbidden(String),
    /// A step, seat or player the request names that does not fit.
    #[error("{0}")]
    Bad(String),
    /// What it needs is no longer kept (a referee, a version's component).
    #[error("{0}")]
    Gone(String),
    #[error("{0}")]
    Store(#[from] StoreError),
}

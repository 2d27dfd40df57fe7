//! The service layer under both front ends (the command line and the web arena): submitting a player,
//! loading the registered versions of players, and running a ladder against the store.

pub mod ladder;
pub mod registered;
pub mod submit;

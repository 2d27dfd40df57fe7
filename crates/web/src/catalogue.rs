//! The game catalogue: the packages this arena offers, found by name, and each game's rating system.

use super::error::WebError;
use arena_match::Manifest;
use arena_tournament::ratings::System;

/// The packages this arena offers, found once, when the server starts (a new package needs a restart).
pub fn shipped() -> &'static [(Manifest, std::path::PathBuf)] {
    static FOUND: std::sync::OnceLock<Vec<(Manifest, std::path::PathBuf)>> = std::sync::OnceLock::new();
    FOUND.get_or_init(arena_match::shipped)
}

/// A package by name; a web request names a game only among these (never a path).
pub fn find_game(name: &str) -> Result<(Manifest, std::path::PathBuf), WebError> {
    shipped()
        .iter()
        .find(|(m, _)| m.name == name)
        .cloned()
        .ok_or_else(|| WebError::not_found(format!("there is no game `{name}` here")))
}

pub fn system(game: &str) -> System {
    let seats = shipped().iter().find(|(m, _)| m.name == game).map(|(m, _)| m.seats());
    System::for_seats(seats.unwrap_or(2..=2))
}

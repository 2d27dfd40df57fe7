//! A package's manifest, `game.toml`: its name, description, how many seats a game has, and where its
//! referee component is. Unknown keys and impossible values are refused with the file's name.

use super::PackageError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The most seats a package may declare.
pub const MAX_SEATS: usize = 64;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// 1 to 40 lower-case letters, digits and `-`: also the game's WIT package name, `arena:NAME`.
    pub name: String,
    pub description: String,
    pub min_seats: usize,
    pub max_seats: usize,
    /// The referee component, relative to the package directory.
    pub referee: PathBuf,
    /// Sample players' components, relative to the package directory, the strongest first: they are
    /// the package's built-in opponents (`builtin:STEM`; `arena check` plays the first).
    #[serde(default)]
    pub players: Vec<PathBuf>,
}

impl Manifest {
    /// Reads and validates `dir/game.toml`.
    pub fn read(dir: &Path) -> Result<Manifest, PackageError> {
        let path = dir.join("game.toml");
        let bad = |detail: String| PackageError::Manifest { path: path.clone(), detail };
        let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("cannot read: {e}")))?;
        let m: Manifest = toml::from_str(&text).map_err(|e| bad(format!("not a valid manifest: {}", e.message())))?;
        let name_ok = !m.name.is_empty()
            && m.name.len() <= 40
            && m.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !name_ok {
            return Err(bad(format!("`name` must be 1 to 40 lower-case letters, digits and `-`, not {:?}", m.name)));
        }
        if m.min_seats == 0 || m.min_seats > m.max_seats || m.max_seats > MAX_SEATS {
            return Err(bad(format!(
                "seats must satisfy 1 <= min_seats <= max_seats <= {MAX_SEATS}, not {}..{}",
                m.min_seats, m.max_seats
            )));
        }
        let outside =
            |p: &Path| p.is_absolute() || p.components().any(|c| matches!(c, std::path::Component::ParentDir));
        if let Some(p) = std::iter::once(&m.referee).chain(&m.players).find(|p| outside(p)) {
            return Err(bad(format!("every file must be a path inside the package, not {}", p.display())));
        }
        Ok(m)
    }

    pub fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.min_seats..=self.max_seats
    }
}

//! A package's manifest, `game.toml`: its name, description, how many seats a game has, and where its
//! referee component is. Unknown keys and impossible values are refused with the file's name.

use super::PackageError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most seats a package may declare.
pub const MAX_SEATS: usize = 64;
/// The largest manifest read.
pub const MAX_MANIFEST_BYTES: u64 = 64 * 1024;
/// The largest referee component loaded.
pub const MAX_REFEREE_BYTES: u64 = 32 << 20;

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
    /// The game's options (`--option NAME=VALUE`), each an integer with a default and a range.
    #[serde(default)]
    pub options: BTreeMap<String, OptionSpec>,
}

/// One option a package declares: `[options.rounds] default = 5, min = 1, max = 99`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionSpec {
    pub default: i64,
    pub min: i64,
    pub max: i64,
    #[serde(default)]
    pub description: String,
}

impl Manifest {
    /// The game as `arena games --json` and `GET /api/games` list it, with its referee's sha256.
    pub fn describe(&self, referee: &str) -> serde_json::Value {
        let options: serde_json::Map<String, serde_json::Value> = self
            .options
            .iter()
            .map(|(k, o)| {
                let o =
                    serde_json::json!({"default": o.default, "min": o.min, "max": o.max, "description": o.description});
                (k.clone(), o)
            })
            .collect();
        serde_json::json!({"name": self.name, "description": self.description, "min_seats": self.min_seats,
            "max_seats": self.max_seats, "options": options, "players": self.players, "referee": referee})
    }

    /// Reads and validates `dir/game.toml`.
    pub fn read(dir: &Path) -> Result<Manifest, PackageError> {
        let path = dir.join("game.toml");
        let bad = |detail: String| PackageError::Manifest { path: path.clone(), detail };
        let size = std::fs::metadata(&path).map_err(|e| bad(format!("cannot read: {e}")))?.len();
        if size > MAX_MANIFEST_BYTES {
            return Err(bad(format!("{size} bytes; a manifest may have at most {MAX_MANIFEST_BYTES}")));
        }
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
        for (name, o) in &m.options {
            let ok = !name.is_empty() && name.len() <= 40 && name.chars().all(|c| c.is_ascii_lowercase() || c == '-');
            if !(ok && o.min <= o.default && o.default <= o.max) {
                return Err(bad(format!("option `{name}`: a lower-case name and min <= default <= max")));
            }
        }
        Ok(m)
    }

    /// The options' values: the defaults, with `raw` (`NAME=VALUE` each) over them, checked.
    pub fn option_values(&self, raw: &[String]) -> Result<BTreeMap<String, i64>, String> {
        let mut values: BTreeMap<String, i64> = self.options.iter().map(|(k, o)| (k.clone(), o.default)).collect();
        for r in raw {
            let Some((name, value)) = r.split_once('=') else {
                return Err(format!("--option {r}: expected NAME=VALUE"));
            };
            let Some(spec) = self.options.get(name) else {
                let known: Vec<&str> = self.options.keys().map(String::as_str).collect();
                return Err(format!(
                    "--option {r}: {} has no option `{name}` (it has: {})",
                    self.name,
                    known.join(", ")
                ));
            };
            let v: i64 = value.parse().map_err(|_| format!("--option {r}: `{value}` is not a whole number"))?;
            if !(spec.min..=spec.max).contains(&v) {
                return Err(format!("--option {r}: `{name}` must be from {} to {}", spec.min, spec.max));
            }
            values.insert(name.to_string(), v);
        }
        Ok(values)
    }

    pub fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.min_seats..=self.max_seats
    }
}

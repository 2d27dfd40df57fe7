//! A package's WIT, read as its players' authors will read it: it must parse (with its `deps/`), be
//! the package `arena:NAME` of the manifest's name, and define a `player` world exporting a function
//! for every request the referee can make, and a `referee` world. The host plays from the referee's
//! own types; this keeps the text a player is built from in step with them.

use super::Package;
use std::path::Path;

/// The most bytes of WIT text a package may hold (its `deps/` included).
pub const MAX_WIT_BYTES: u64 = 1 << 20;

/// Checks the WIT in `dir/wit` against the loaded package.
pub fn check_wit(dir: &Path, pkg: &Package) -> Result<(), String> {
    let wit = dir.join("wit");
    if !wit.is_dir() {
        return Err(format!("{}: no WIT directory", wit.display()));
    }
    let bytes = wit_bytes(&wit).map_err(|e| format!("{}: {e}", wit.display()))?;
    if bytes > MAX_WIT_BYTES {
        return Err(format!("{}: {bytes} bytes of WIT; a package may have at most {MAX_WIT_BYTES}", wit.display()));
    }
    let mut resolve = wit_parser::Resolve::default();
    let (id, _) = resolve.push_dir(&wit).map_err(|e| resolve.render_error(&e))?;
    let name = &resolve.packages[id].name;
    if name.namespace != "arena" || name.name != pkg.manifest.name {
        return Err(format!(
            "the WIT package is {name}, not arena:{} as the manifest names the game",
            pkg.manifest.name
        ));
    }
    let world =
        |w: &str| resolve.select_world(&[id], Some(w)).map(|id| &resolve.worlds[id]).map_err(|e| format!("{e:#}"));
    let player = world("player")?;
    world("referee")?;
    for call in pkg.calls() {
        let exported = player.exports.iter().any(|(key, item)| {
            matches!((key, item), (wit_parser::WorldKey::Name(n), wit_parser::WorldItem::Function(_)) if n == call)
        });
        if !exported {
            return Err(format!("the player world exports no function `{call}`, which the referee requests"));
        }
    }
    Ok(())
}

/// The bytes of the files wit-parser reads: those in `wit/`, in `wit/deps/` and in its folders, and no
/// deeper (so a link looping back up is never followed further).
fn wit_bytes(wit: &Path) -> std::io::Result<u64> {
    let mut bytes = 0;
    let mut dirs = vec![(wit.to_path_buf(), 0)];
    while let Some((dir, depth)) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let meta = std::fs::metadata(&path)?;
            if meta.is_dir() {
                if depth < 2 {
                    dirs.push((path, depth + 1));
                }
            } else {
                bytes += meta.len();
            }
        }
    }
    Ok(bytes)
}

//! Finds each game's integration tests for the test binary (tests/all): a game's tests live in its own
//! folder, `games/<name>/tests.rs`, and are compiled as the module `<name>` of that binary (they use its
//! helpers through `super::*`). A new game's tests are picked up without a list to edit.

use std::path::Path;

fn main() {
    // Read when the script runs, not when it is compiled: a target directory shared by two checkouts
    // reuses one compiled script, which must list the games of the checkout being built.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let games = Path::new(&manifest_dir).join("../../games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut dirs: Vec<_> = std::fs::read_dir(&games)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    let mut out = String::new();
    for dir in dirs {
        let tests = dir.join("tests.rs");
        let Some(name) = dir.file_name().and_then(|n| n.to_str()) else { continue };
        if !tests.is_file() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", tests.display());
        let module = name.replace('-', "_");
        let path = tests.canonicalize().unwrap_or(tests);
        out.push_str(&format!("#[path = {:?}]\nmod {module};\n", path.display().to_string()));
    }
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("game_tests.rs"), out).expect("writing the list of game tests");
}

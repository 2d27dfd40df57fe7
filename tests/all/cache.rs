//! The compile cache: a component is compiled once, later runs load it; a damaged entry is compiled
//! again, never trusted.

use super::*;

fn check_line(dir: &std::path::Path, file: &str) -> String {
    let out = arena().env("ARENA_CACHE_DIR", dir).args(["check", "--game", "yahtzee", file]).bounded();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    text.lines().find(|l| l.contains("compile")).unwrap_or_else(|| panic!("no compile line in {text}")).to_string()
}

#[test]
fn a_second_run_loads_the_compiled_component_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = player("yahtzee-greedy");
    assert!(check_line(dir.path(), &greedy).contains("compiled in"));
    assert!(check_line(dir.path(), &greedy).contains("loaded from the compile cache"));
    // Another file is another entry (beside the game's referee, cached when the package first loads).
    assert!(check_line(dir.path(), &player("yahtzee-random")).contains("compiled in"));
    assert!(cached(dir.path(), &greedy) && cached(dir.path(), &player("yahtzee-random")));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[test]
fn a_damaged_cache_entry_is_compiled_again() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = player("yahtzee-greedy");
    check_line(dir.path(), &greedy);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        std::fs::write(entry.unwrap().path(), b"not a compiled component").unwrap();
    }
    assert!(check_line(dir.path(), &greedy).contains("compiled in"));
    assert!(check_line(dir.path(), &greedy).contains("loaded from the compile cache"));
}

#[test]
fn no_cache_compiles_and_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena()
        .env("ARENA_CACHE_DIR", dir.path())
        .args(["check", "--game", "yahtzee", "--no-cache", &player("yahtzee-greedy")])
        .bounded();
    assert!(String::from_utf8_lossy(&out.stdout).contains("compiled in"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

//! Bad files get a clear error naming the file and the problem, and a non-zero exit.

use super::*;
use std::path::Path;

fn refused(file: &Path, want: &str) {
    for cmd in [&["check", "--game", "yahtzee"][..], &["play", "--game", "yahtzee", "builtin:greedy"][..]] {
        let mut args: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        args.push(file.display().to_string());
        let out = arena().args(&args).bounded();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&file.display().to_string()), "the error names the file: {err}");
        assert!(err.contains(want), "expected `{want}` in: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("empty.wasm");
    std::fs::write(&f, b"").unwrap();
    refused(&f, "the file is empty");
}

#[test]
fn random_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("noise.wasm");
    let bytes: Vec<u8> = (0..4096u32).map(|i| (arena_core::seed::mix(u64::from(i)) & 0xff) as u8).collect();
    std::fs::write(&f, bytes).unwrap();
    refused(&f, "not a WebAssembly file");
}

#[test]
fn truncated_component() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("truncated.wasm");
    let whole = std::fs::read(player("yahtzee-greedy")).unwrap();
    std::fs::write(&f, &whole[..whole.len() / 2]).unwrap();
    refused(&f, "not a valid component");
}

#[test]
fn core_module() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("core.wasm");
    std::fs::write(&f, wat::parse_str("(module (func (export \"keep\")))").unwrap()).unwrap();
    refused(&f, "core WebAssembly module, not a component");
}

#[test]
fn component_of_another_world() {
    refused(&fixture("wrong-world.wat"), "does not implement the arena:yahtzee/player world");
}

#[test]
fn component_that_imports_something_else() {
    refused(&fixture("forbidden-import.wat"), "imports `evil:host/files`");
}

#[test]
fn missing_file() {
    refused(Path::new("/nonexistent/player.wasm"), "cannot read");
    // The cause is said once, not repeated by the error chain.
    let out = run(&["check", "--game", "santorini", "/nonexistent/player.wasm"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "arena: error: /nonexistent/player.wasm: cannot read: No such file or directory (os error 2)"
    );
}

#[test]
fn bad_flags_are_refused_before_anything_runs() {
    let out = run(&["tournament", "--game", "yahtzee", "--games-per-match", "2", "builtin:greedy", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("must be odd"));
    let out = run(&["tournament", "--game", "yahtzee", "builtin:greedy", "builtin:greedy"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two players are named `greedy`"));
    let out = run(&["tournament", "--game", "yahtzee", "builtin:nobody", "builtin:greedy"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such built-in"));
}

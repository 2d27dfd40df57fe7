//! The workspace keeps Arena's layers: each crate depends only on the crates below it, and the crates
//! that must not run wasm (the shared vocabulary, the tournaments, the store, the connection layer)
//! reach no wasmtime crate, directly or through another of Arena's crates. Read from the crates'
//! own manifests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Each crate of the workspace and the crates of Arena it may depend on.
const LAYERS: &[(&str, &[&str])] = &[
    ("arena-core", &[]),
    ("arena-sandbox", &["arena-core"]),
    ("arena-play", &["arena-core", "arena-sandbox"]),
    ("arena-tournament", &["arena-core"]),
    ("arena-store", &["arena-core", "arena-tournament"]),
    ("arena-cluster", &["arena-core", "arena-sandbox", "arena-play"]),
    (
        "arena-service",
        &["arena-core", "arena-sandbox", "arena-play", "arena-tournament", "arena-store", "arena-cluster"],
    ),
    ("arena-net", &[]),
    // The front ends name the service layer and the shared words alone: every type of a layer below
    // that they use is one the service re-exports, and what both of them do is one service call.
    ("arena-web", &["arena-core", "arena-service", "arena-net"]),
    ("arena", &["arena-core", "arena-service", "arena-web"]),
];

/// Every crate under `crates/`: its name and the names of its (normal) dependencies.
fn manifests() -> BTreeMap<String, BTreeSet<String>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = BTreeMap::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let path = dir.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let doc: toml::Table = text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = doc["package"]["name"].as_str().unwrap().to_string();
        let deps =
            doc.get("dependencies").and_then(|d| d.as_table()).map(|t| t.keys().cloned().collect()).unwrap_or_default();
        out.insert(name, deps);
    }
    out
}

#[test]
fn every_crate_depends_only_on_the_layers_below_it() {
    let crates = manifests();
    let named: BTreeSet<&str> = LAYERS.iter().map(|(n, _)| *n).collect();
    let found: BTreeSet<&str> = crates.keys().map(String::as_str).collect();
    assert_eq!(found, named, "the crates under crates/ are the layers this test knows");
    for (name, allowed) in LAYERS {
        let ours: BTreeSet<&str> = crates[*name].iter().map(String::as_str).filter(|d| named.contains(d)).collect();
        let extra: Vec<&&str> = ours.iter().filter(|d| !allowed.contains(d)).collect();
        assert!(extra.is_empty(), "{name} depends on {extra:?}, which are not below it");
    }
}

#[test]
fn the_vocabulary_the_tournaments_and_the_store_reach_no_wasmtime() {
    let crates = manifests();
    for top in ["arena-core", "arena-tournament", "arena-store", "arena-net"] {
        // Every crate of Arena's it reaches, itself included.
        let mut seen = BTreeSet::new();
        let mut todo = vec![top.to_string()];
        while let Some(c) = todo.pop() {
            if seen.insert(c.clone()) {
                todo.extend(crates[&c].iter().filter(|d| crates.contains_key(*d)).cloned());
            }
        }
        for c in &seen {
            let wasm: Vec<&String> = crates[c].iter().filter(|d| d.starts_with("wasmtime")).collect();
            assert!(wasm.is_empty(), "{top} reaches {c}, which depends on {wasm:?}");
        }
    }
}

/// The Rust sources under `dir`, recursively.
fn sources(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A source file's code, its unit tests (from `#[cfg(test)]` on) left out.
fn code_of(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("\n#[cfg(test)]") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// No source file of the host's crates or the referee kit is over 450 lines, its unit tests aside: a
/// file that grows past it is split by what its parts do.
#[test]
fn no_source_file_is_over_450_lines_tests_aside() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut long = vec![];
    for top in ["crates", "sdk"] {
        for path in sources(&root.join(top)) {
            let s = path.to_string_lossy();
            // Integration tests and benchmarks are tests.
            if s.contains("/tests/") || s.contains("/benches/") {
                continue;
            }
            let lines = code_of(&path).lines().count();
            if lines > 450 {
                long.push(format!("{} ({lines} lines)", path.strip_prefix(&root).unwrap_or(&path).display()));
            }
        }
    }
    assert!(long.is_empty(), "over 450 lines:\n{}", long.join("\n"));
}

/// The web crate's modules import one another without a circle: each module's file (or folder) names
/// the sibling modules it uses as `super::NAME` or `crate::NAME`, and following those never leads back
/// (so a module can be read, and moved, knowing only what it imports).
#[test]
fn the_web_crates_modules_import_one_another_without_a_circle() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/src");
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            modules.insert(name, sources(&path));
        } else if name != "lib" && path.extension().is_some_and(|e| e == "rs") {
            modules.insert(name, vec![path]);
        }
    }
    assert!(modules.len() > 10, "{modules:?}");
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, files) in &modules {
        let mut used = BTreeSet::new();
        for file in files {
            let code = code_of(file);
            for prefix in ["super::", "crate::", "super::super::"] {
                for (i, _) in code.match_indices(prefix) {
                    let rest = &code[i + prefix.len()..];
                    // `super::{a, b::C}` names several.
                    let listed: Vec<&str> = match rest.strip_prefix('{') {
                        Some(list) => list.split('}').next().unwrap_or_default().split(',').collect(),
                        None => vec![rest],
                    };
                    for item in listed {
                        let word: String =
                            item.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                        if names.contains(&word) && &word != module {
                            used.insert(word);
                        }
                    }
                }
            }
        }
        uses.insert(module.clone(), used);
    }
    // A circle is a module that reaches itself.
    for start in uses.keys() {
        let mut path = vec![start.clone()];
        let mut seen = BTreeSet::new();
        fn reach(
            uses: &BTreeMap<String, BTreeSet<String>>,
            start: &str,
            path: &mut Vec<String>,
            seen: &mut BTreeSet<String>,
        ) -> bool {
            let here = path.last().unwrap().clone();
            for next in &uses[&here] {
                if next == start {
                    path.push(next.clone());
                    return true;
                }
                if seen.insert(next.clone()) {
                    path.push(next.clone());
                    if reach(uses, start, path, seen) {
                        return true;
                    }
                    path.pop();
                }
            }
            false
        }
        assert!(!reach(&uses, start, &mut path, &mut seen), "a circle of imports in crates/web: {}", path.join(" → "));
    }
}

/// The names retired so that each concept has one stay out of the code, the docs and the templates: the
/// crate that plays one game is `arena-play` (a match is a tournament's best-of-k), a format is
/// `arena_tournament::Format` on the command line too, and a referee's state of one game is its
/// `Table` (`Game` names a kind of game).
#[test]
fn retired_names_stay_retired() {
    // Spelled in two halves, so that this file does not hold them.
    let retired = [
        concat!("arena", "_match"),
        concat!("arena", "-match"),
        concat!("crates/", "match"),
        concat!("Format", "Arg"),
        concat!("match", " host"),
        concat!("game::", "Game"),
    ];
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = vec![];
    let mut files = vec![root.join("README.md"), root.join("Makefile"), root.join("Cargo.toml")];
    let mut dirs: Vec<PathBuf> =
        ["crates", "sdk", "games", "templates", "tests", "docs/src", "scripts", "wit"].map(|d| root.join(d)).into();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                if !["target", "node_modules", ".venv", "__pycache__"].contains(&name.as_str()) {
                    dirs.push(path);
                }
            } else if ["rs", "md", "toml", "sh", "py", "js", "html", "wit", "c", "h", "cpp", "zig", "go"]
                .iter()
                .any(|ext| name.ends_with(&format!(".{ext}")))
            {
                files.push(path);
            }
        }
    }
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        for name in retired {
            if text.contains(name) {
                found.push(format!("{}: {name}", path.strip_prefix(&root).unwrap_or(&path).display()));
            }
        }
    }
    assert!(found.is_empty(), "retired names:\n{}", found.join("\n"));
}

//! The workspace keeps Arena's layers: each crate depends only on the crates below it, and the crates
//! that must not run wasm (the shared vocabulary, the tournaments, the store) reach no wasmtime crate,
//! directly or through another of Arena's crates. Read from the crates' own manifests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Each crate of the workspace and the crates of Arena it may depend on.
const LAYERS: &[(&str, &[&str])] = &[
    ("arena-core", &[]),
    ("arena-sandbox", &["arena-core"]),
    ("arena-match", &["arena-core", "arena-sandbox"]),
    ("arena-tournament", &["arena-core"]),
    ("arena-store", &["arena-core", "arena-tournament"]),
    ("arena-cluster", &["arena-core", "arena-sandbox", "arena-match"]),
    (
        "arena-service",
        &["arena-core", "arena-sandbox", "arena-match", "arena-tournament", "arena-store", "arena-cluster"],
    ),
    (
        "arena-web",
        &[
            "arena-core",
            "arena-sandbox",
            "arena-match",
            "arena-tournament",
            "arena-store",
            "arena-cluster",
            "arena-service",
        ],
    ),
    (
        "arena",
        &[
            "arena-core",
            "arena-sandbox",
            "arena-match",
            "arena-tournament",
            "arena-store",
            "arena-cluster",
            "arena-service",
            "arena-web",
        ],
    ),
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
    for top in ["arena-core", "arena-tournament", "arena-store"] {
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

//! `arena new`: every starter (game × language) is written, builds with its own build script, and
//! passes `arena check`: a game author's own template without a fault, one generated from the WIT
//! (Nim's, pennies') at worst refused by the rules, never crashing. The toolchains are the ones `make
//! players` installed under the target dir.

use super::*;

fn build_and_check(lang: &str) {
    let target = players_dir().parent().expect("target dir").to_path_buf();
    let tools = target.join("tools");
    let path = format!(
        "{}:{}:{}:{}",
        tools.join("venv/bin").display(),
        tools.join("py-venv/bin").display(),
        tools.join("node/node_modules/.bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let root = tempfile::tempdir().unwrap();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let names = shipped_games();
    for game in names.iter().map(String::as_str) {
        let own = games.join(game).join("templates").join(lang).is_dir();
        let dir = root.path().join(format!("my-{game}-player"));
        let out = run(&["new", "--game", game, "--lang", lang, dir.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(said.contains("generated from the game's WIT"), !own, "{lang} {game}: {said}");
        for file in ["README.md", "build.sh", &format!("wit/{game}.wit")] {
            assert!(dir.join(file).is_file(), "{lang} {game}: no {file}");
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(readme.contains(&format!("arena check --game {game} player.wasm")), "{readme}");
        let built = std::process::Command::new(dir.join("build.sh"))
            .env("PATH", &path)
            // Tools a build installs for itself (Zig, Go) are installed once, under the target dir.
            .env("ARENA_TOOLS", tools.join("arena-tools"))
            .env("CARGO_TARGET_DIR", target.join("template-build"))
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "{lang} {game}: build.sh failed:\n{}{}",
            String::from_utf8_lossy(&built.stdout),
            String::from_utf8_lossy(&built.stderr)
        );
        let wasm = dir.join("player.wasm");
        let out = run(&["check", "--game", game, wasm.to_str().unwrap()]);
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        if own {
            assert!(out.status.success() && text.contains("ok: no fault"), "{lang} {game}:\n{text}");
        } else {
            // The simplest answers: the rules may refuse them, with their reason; nothing else goes wrong.
            assert!(text.contains("ok: no fault") || text.contains("FAULT: illegal in"), "{lang} {game}:\n{text}");
        }
    }
    // A project is never written over another.
    let taken = root.path().join("my-yahtzee-player");
    let out = run(&["new", "--game", "yahtzee", "--lang", lang, taken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
}

#[test]
fn rust_templates_build_and_pass_check() {
    build_and_check("rust");
}

#[test]
fn python_templates_build_and_pass_check() {
    build_and_check("python");
}

#[test]
fn javascript_templates_build_and_pass_check() {
    build_and_check("js");
}

#[test]
fn c_templates_build_and_pass_check() {
    build_and_check("c");
}

#[test]
fn cpp_templates_build_and_pass_check() {
    build_and_check("cpp");
}

#[test]
fn zig_templates_build_and_pass_check() {
    build_and_check("zig");
}

#[test]
fn go_templates_build_and_pass_check() {
    build_and_check("go");
}

#[test]
fn a_python_template_installs_its_toolchain_on_its_first_build() {
    // A new user's PATH: no componentize-py anywhere on it; their tools in a cache folder of their own.
    let path = std::env::var("PATH").unwrap_or_default();
    let path: Vec<&str> =
        path.split(':').filter(|d| !std::path::Path::new(d).join("componentize-py").exists()).collect();
    let root = tempfile::tempdir().unwrap();
    let cache = root.path().join("cache");
    let build = |dir: &std::path::Path| {
        let built = std::process::Command::new(dir.join("build.sh"))
            .env("PATH", path.join(":"))
            .env("XDG_CACHE_HOME", &cache)
            .env_remove("ARENA_TOOLS")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&built.stderr).into_owned();
        assert!(built.status.success(), "build.sh failed:\n{}{err}", String::from_utf8_lossy(&built.stdout));
        err
    };
    let dir = root.path().join("first");
    let out = run(&["new", "--game", "santorini", "--lang", "python", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = build(&dir);
    assert!(err.contains("installing componentize-py 0.25.1 into") && err.contains("once per user"), "{err}");
    assert!(err.contains("compiling app.py"), "it says what the long wait is: {err}");
    assert!(cache.join("arena-tools/componentize-py-0.25.1/bin/componentize-py").exists());
    assert!(!dir.join(".tools").exists(), "no project keeps its own 70 MB of tools");
    let out = run(&["check", "--game", "santorini", dir.join("player.wasm").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok: no fault"));
    // The next project of the same user builds with the tools already installed.
    let second = root.path().join("second");
    let out = run(&["new", "--game", "nim", "--lang", "python", second.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = build(&second);
    assert!(!err.contains("installing"), "{err}");
    assert!(second.join("player.wasm").is_file());
}

#[test]
fn a_new_game_package_builds_and_runs_a_tournament_as_written() {
    let target = players_dir().parent().expect("target dir").to_path_buf();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("Take Away");
    let out = run(&["new-game", "--lang", "rust", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The game is named after its directory, and that name is its WIT package's.
    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    assert!(manifest.contains("name = \"take-away\""), "{manifest}");
    assert!(std::fs::read_to_string(dir.join("wit/take-away.wit")).unwrap().contains("package arena:take-away@0.1.0;"));
    let built = std::process::Command::new(dir.join("build.sh"))
        .env("CARGO_TARGET_DIR", target.join("template-build"))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "build.sh failed:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let game = dir.to_str().unwrap();
    let first = dir.join("players/first.wasm");
    let out = run(&["check", "--game", game, first.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("ok: no fault"), "{text}{}", String::from_utf8_lossy(&out.stderr));
    // It passes the conformance run every package must pass.
    let out = run(&["check-game", game, "--seeds", "5"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("ok: take-away passes the check"), "{text}");
    let (a, b) = (format!("a={}", first.display()), format!("b={}", first.display()));
    let v = run_json(&[
        "tournament",
        "--game",
        game,
        "--format",
        "round-robin",
        "--seed",
        "4",
        "--json",
        "--option",
        "heaps=5",
        &a,
        &b,
        "builtin:first",
    ]);
    assert_eq!(v["game"], "take-away");
    assert_eq!(v["games"].as_array().unwrap().len(), 9, "three pairs, three games each");
    assert!(bans(&v).is_empty(), "{v}");
    // Its options are its manifest's.
    let out = run(&["play", "--game", game, "--option", "heaps=9", &a, &b]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`heaps` must be from 1 to 8"));
    // A player of it can be started at once, in any language, generated from its WIT: here the ones
    // over generated glue or bindings (C, C++, Zig, Go).
    let tools = target.join("tools");
    let path = format!("{}:{}", tools.join("venv/bin").display(), std::env::var("PATH").unwrap_or_default());
    for lang in ["c", "cpp", "zig", "go"] {
        let mine = root.path().join(format!("mine-{lang}"));
        let out = run(&["new", "--game", game, "--lang", lang, mine.to_str().unwrap()]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("generated from the game's WIT"), "{out:?}");
        let built = std::process::Command::new(mine.join("build.sh"))
            .env("PATH", &path)
            .env("ARENA_TOOLS", tools.join("arena-tools"))
            .output()
            .unwrap();
        assert!(built.status.success(), "{lang}: {}", String::from_utf8_lossy(&built.stderr));
        let out = run(&["check", "--game", game, mine.join("player.wasm").to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("FAULT: illegal in `take-turn`"),
            "{lang}: taking 0 stones is refused by the rules: {text}"
        );
    }
    // A package is never written over another.
    let out = run(&["new-game", "--lang", "rust", game]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn new_game_packages_in_python_and_javascript_build_and_pass_check_game() {
    let tools = players_dir().parent().expect("target dir").join("tools");
    let root = tempfile::tempdir().unwrap();
    for lang in ["python", "js"] {
        let dir = root.path().join(format!("heaps-{lang}"));
        let out = run(&["new-game", "--lang", lang, dir.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let built = std::process::Command::new(dir.join("build.sh"))
            .env("COMPONENTIZE_PY", tools.join("py-venv/bin/componentize-py"))
            .env("COMPONENTIZE_QJS", tools.join("node/node_modules/.bin/componentize-qjs"))
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "{lang}: build.sh failed:\n{}{}",
            String::from_utf8_lossy(&built.stdout),
            String::from_utf8_lossy(&built.stderr)
        );
        let game = dir.to_str().unwrap();
        let out = run(&["check-game", game, "--seeds", "3"]);
        let text = String::from_utf8_lossy(&out.stdout);
        let name = format!("heaps-{lang}");
        assert!(out.status.success() && text.contains(&format!("ok: {name} passes the check")), "{lang}: {text}");
        // Its option reaches the referee, and the game is played without a fault.
        let first = dir.join("players/first.wasm");
        let v = run_json(&[
            "play",
            "--game",
            game,
            "--seed",
            "2",
            "--json",
            "--option",
            "heaps=5",
            &format!("a={}", first.display()),
            "builtin:first",
        ]);
        let heaps = v["events"][0].as_str().unwrap_or_default();
        assert_eq!(heaps.split_whitespace().count(), 6, "heaps and five numbers: {v}");
        assert_eq!(v["result"]["faults"], serde_json::json!([]), "{v}");
        assert_eq!(v["result"]["scores"].as_array().map(Vec::len), Some(2), "{v}");
    }
}

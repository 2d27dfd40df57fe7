//! `arena new`: writes a minimal, buildable player project for a game and a language — the game's WIT,
//! the game's starter for the language (its author's, or generated from its WIT), a build script and a
//! README with the one command that builds it and the `arena check` command that tries it.

use super::flags::{GameArg, GameLang, Lang, parse_game_arg};
use anyhow::{Context, bail};
use arena_service::packages::Manifest;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game: a package's name (see `arena games`) or its directory; with --server, a game of that
    /// web arena.
    #[arg(long)]
    pub game: String,
    #[arg(long, value_enum)]
    pub lang: Lang,
    /// The new project's directory (new or empty); its name is the player's.
    pub dir: PathBuf,
    /// Start from the exact package the web arena (`arena serve`) at this URL plays for --game (as
    /// `arena fetch-game` downloads it).
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    match &a.server {
        Some(url) => {
            let fetched = tempfile::tempdir().context("a scratch folder for the package")?;
            let package = fetched.path().join(&a.game);
            super::game::runtime()?.block_on(super::client::fetch_game(url, &a.game, &package, false))?;
            // The package was fetched into a scratch folder, gone after this: nothing points into it.
            // Errors name the game on its arena, not the scratch folder.
            let scratch = package.display().to_string();
            write(&package, a.lang, &a.dir).map_err(|e| {
                anyhow::anyhow!("{}", format!("{e:#}").replace(&scratch, &format!("{url}: {}", a.game)))
            })?;
        }
        None => {
            let GameArg { dir } = parse_game_arg(&a.game).map_err(|e| anyhow::anyhow!("--game {}: {e}", a.game))?;
            write(&dir, a.lang, &a.dir)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

const README: &str = include_str!("../../../../templates/README.md.tmpl");

/// The language's build files, the same for every game.
fn build_files(lang: Lang) -> Vec<(&'static str, &'static str)> {
    match lang {
        Lang::Rust => vec![
            ("Cargo.toml", include_str!("../../../../templates/rust/Cargo.toml")),
            ("build.sh", include_str!("../../../../templates/rust/build.sh")),
        ],
        Lang::Python => vec![("build.sh", include_str!("../../../../templates/python/build.sh"))],
        Lang::Js => vec![("build.sh", include_str!("../../../../templates/js/build.sh"))],
        Lang::C => vec![
            ("build.sh", include_str!("../../../../templates/c/build.sh")),
            ("alloc.c", include_str!("../../../../templates/c/alloc.c")),
        ],
        Lang::Cpp => vec![
            ("build.sh", include_str!("../../../../templates/cpp/build.sh")),
            ("alloc.c", include_str!("../../../../templates/libc-alloc.c")),
        ],
        Lang::Go => vec![("build.sh", include_str!("../../../../templates/go/build.sh"))],
        Lang::Zig => vec![
            ("build.sh", include_str!("../../../../templates/zig/build.sh")),
            ("alloc.c", include_str!("../../../../templates/libc-alloc.c")),
        ],
    }
}

/// The language's binary build files: C++, Go and Zig turn their WASI module into a component with
/// the WASI preview-1 reactor adapter of the host's wasmtime version.
fn binary_files(lang: Lang) -> Vec<(&'static str, &'static [u8])> {
    match lang {
        Lang::Cpp | Lang::Go | Lang::Zig => vec![(
            "wasi_snapshot_preview1.reactor.wasm",
            wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_REACTOR_ADAPTER,
        )],
        _ => vec![],
    }
}

/// Writes the project into `dir`, which must not exist or be empty.
pub fn write(package: &Path, lang: Lang, dir: &Path) -> anyhow::Result<()> {
    let manifest = Manifest::read(package)?;
    if dir.exists() && dir.read_dir().with_context(|| format!("{}: cannot read", dir.display()))?.next().is_some() {
        bail!("{}: the directory is not empty; choose a new one", dir.display());
    }
    let name = kebab(dir, "player");
    let game_name = manifest.name.clone();
    let lang_name = format!("{lang:?}").to_lowercase();
    let fill = |s: &str| {
        s.replace("{{name}}", &name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{game}}", &game_name)
            .replace("{{lang}}", &lang_name)
    };
    let starter = arena_service::starter::files(package, &lang_name).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut all: Vec<(String, String)> = starter.files;
    all.extend(build_files(lang).into_iter().map(|(p, t)| (p.to_string(), t.to_string())));
    all.push(("README.md".into(), README.into()));
    // What the build makes stays out of version control (its tools are installed once per user).
    all.push((
        ".gitignore".into(),
        "/target/\n__pycache__/\n/player.wasm\n/abi.zig\n/.zig-cache/\n/core.wasm\n/embedded.wasm\n".into(),
    ));
    let mut wit = Vec::new();
    for rel in arena_service::starter::wit_files(package, &game_name).map_err(|e| anyhow::anyhow!("{e}"))? {
        let path = package.join("wit").join(&rel);
        let text = std::fs::read_to_string(&path).with_context(|| format!("{}: cannot read", path.display()))?;
        wit.push((format!("wit/{}", rel.display()), text));
    }
    for (path, text) in all.iter().map(|(p, t)| (p.clone(), fill(t))).chain(wit) {
        let target = dir.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("{}: cannot create", parent.display()))?;
        }
        std::fs::write(&target, text).with_context(|| format!("{}: cannot write", target.display()))?;
        if path.ends_with(".sh") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    let from = if starter.generated { ", generated from the game's WIT," } else { "" };
    for (path, bytes) in binary_files(lang) {
        let target = dir.join(path);
        std::fs::write(&target, bytes).with_context(|| format!("{}: cannot write", target.display()))?;
    }
    println!(
        "wrote a {lang_name} player for {game_name}{from} in {}: build it with {}/build.sh",
        dir.display(),
        dir.display()
    );
    Ok(())
}

/// What every language's game package has: its manifest and its WIT.
const PACKAGE_COMMON: [(&str, &str); 4] = [
    ("game.toml", include_str!("../../../../templates/game/rust/game.toml")),
    ("wit/{{name}}.wit", include_str!("../../../../templates/game/rust/wit/{{name}}.wit")),
    ("wit/referee.wit", include_str!("../../../../templates/game/rust/wit/referee.wit")),
    ("wit/deps/game/game.wit", include_str!("../../../../wit/game/game.wit")),
];

/// A game package's files for game authors (`arena new-game`): path (with `{{name}}`), text.
fn package_files(lang: GameLang) -> Vec<(&'static str, &'static str)> {
    match lang {
        GameLang::Python => [
            ("build.sh", include_str!("../../../../templates/game/python/build.sh")),
            ("README.md", include_str!("../../../../templates/game/python/README.md")),
            ("referee/referee.py", include_str!("../../../../templates/game/python/referee/referee.py")),
            ("players/first.py", include_str!("../../../../templates/game/python/players/first.py")),
        ]
        .into_iter()
        .chain(PACKAGE_COMMON)
        .collect(),
        GameLang::Js => [
            ("build.sh", include_str!("../../../../templates/game/js/build.sh")),
            ("README.md", include_str!("../../../../templates/game/js/README.md")),
            ("referee/referee.js", include_str!("../../../../templates/game/js/referee/referee.js")),
            ("players/first.js", include_str!("../../../../templates/game/js/players/first.js")),
        ]
        .into_iter()
        .chain(PACKAGE_COMMON)
        .collect(),
        GameLang::Rust => [
            ("Cargo.toml", include_str!("../../../../templates/game/rust/Cargo.toml")),
            ("build.sh", include_str!("../../../../templates/game/rust/build.sh")),
            ("README.md", include_str!("../../../../templates/game/rust/README.md")),
            ("rules/Cargo.toml", include_str!("../../../../templates/game/rust/rules/Cargo.toml")),
            ("rules/src/lib.rs", include_str!("../../../../templates/game/rust/rules/src/lib.rs")),
            ("referee/Cargo.toml", include_str!("../../../../templates/game/rust/referee/Cargo.toml")),
            ("referee/src/lib.rs", include_str!("../../../../templates/game/rust/referee/src/lib.rs")),
            ("players/first/Cargo.toml", include_str!("../../../../templates/game/rust/players/first/Cargo.toml")),
            ("players/first/src/lib.rs", include_str!("../../../../templates/game/rust/players/first/src/lib.rs")),
            // The referee kit, as Arena's own referees use it.
            ("kit/Cargo.toml", include_str!("../../../../templates/game/rust/kit/Cargo.toml")),
            ("kit/src/lib.rs", include_str!("../../../../sdk/referee/src/lib.rs")),
            ("kit/src/protocol.rs", include_str!("../../../../sdk/referee/src/protocol.rs")),
            ("kit/src/export.rs", include_str!("../../../../sdk/referee/src/export.rs")),
            ("kit/src/rng.rs", include_str!("../../../../sdk/referee/src/rng.rs")),
            ("kit/src/svg.rs", include_str!("../../../../sdk/referee/src/svg.rs")),
        ]
        .into_iter()
        .chain(PACKAGE_COMMON)
        .collect(),
    }
}

/// Writes a new game package into `dir`, which must not exist or be empty. The game is named after the
/// directory (lower-case letters, digits and `-`), which is also its WIT package name, `arena:NAME`.
pub fn write_game(lang: GameLang, dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && dir.read_dir().with_context(|| format!("{}: cannot read", dir.display()))?.next().is_some() {
        bail!("{}: the directory is not empty; choose a new one", dir.display());
    }
    let name = kebab(dir, "game");
    let crate_name = name.replace('-', "_");
    let fill = |s: &str| s.replace("{{name}}", &name).replace("{{crate}}", &crate_name);
    for (path, text) in package_files(lang) {
        let target = dir.join(fill(path));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("{}: cannot create", parent.display()))?;
        }
        std::fs::write(&target, fill(text)).with_context(|| format!("{}: cannot write", target.display()))?;
        if path.ends_with(".sh") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    std::fs::write(dir.join(".gitignore"), "/target/\n__pycache__/\n/referee.wasm\n/players/*.wasm\n")
        .with_context(|| format!("{}: cannot write", dir.display()))?;
    println!(
        "wrote the game package {name} in {}: build it with {}/build.sh, then `arena play --game {} ...`",
        dir.display(),
        dir.display(),
        dir.display()
    );
    Ok(())
}

/// The directory's name as a lower-case kebab-case name that starts with a letter (`prefix-…` if not).
fn kebab(dir: &Path, prefix: &str) -> String {
    let name: String = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(prefix)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        format!("{prefix}-{name}")
    } else {
        name
    }
}

//! `arena new`: writes a minimal, buildable player project for a game and a language — the game's WIT,
//! a player that always answers legally (through the host's rule checker), a build script and a README
//! with the one command that builds it and the `arena check` command that tries it.

use super::args::{GameName, Lang};
use anyhow::{Context, bail};
use std::path::Path;

const README: &str = include_str!("../../../templates/README.md.tmpl");

fn wit(game: GameName) -> &'static str {
    match game {
        GameName::Yahtzee => include_str!("../../../games/yahtzee/wit/yahtzee.wit"),
        GameName::Fish => include_str!("../../../games/fish/wit/fish.wit"),
        GameName::Santorini => include_str!("../../../games/santorini/wit/santorini.wit"),
    }
}

/// The project's files, paths relative to its directory.
fn files(game: GameName, lang: Lang) -> anyhow::Result<Vec<(&'static str, &'static str)>> {
    use GameName::*;
    Ok(match lang {
        Lang::Rust => vec![
            ("Cargo.toml", include_str!("../../../templates/rust/Cargo.toml")),
            ("build.sh", include_str!("../../../templates/rust/build.sh")),
            (
                "src/lib.rs",
                match game {
                    Yahtzee => include_str!("../../../templates/rust/yahtzee.rs"),
                    Fish => include_str!("../../../templates/rust/fish.rs"),
                    Santorini => include_str!("../../../templates/rust/santorini.rs"),
                },
            ),
        ],
        Lang::Python => vec![
            ("build.sh", include_str!("../../../templates/python/build.sh")),
            (
                "app.py",
                match game {
                    Yahtzee => include_str!("../../../templates/python/yahtzee.py"),
                    Fish => include_str!("../../../templates/python/fish.py"),
                    Santorini => include_str!("../../../templates/python/santorini.py"),
                },
            ),
        ],
        Lang::Js => vec![
            ("build.sh", include_str!("../../../templates/js/build.sh")),
            (
                "player.js",
                match game {
                    Yahtzee => include_str!("../../../templates/js/yahtzee.js"),
                    Fish => include_str!("../../../templates/js/fish.js"),
                    Santorini => include_str!("../../../templates/js/santorini.js"),
                },
            ),
        ],
        Lang::C => {
            let (player, abi_h, abi_c) = match game {
                Yahtzee => (
                    include_str!("../../../templates/c/yahtzee/player.c"),
                    include_str!("../../../templates/c/yahtzee/abi.h"),
                    include_str!("../../../templates/c/yahtzee/abi.c"),
                ),
                Fish => (
                    include_str!("../../../templates/c/fish/player.c"),
                    include_str!("../../../templates/c/fish/abi.h"),
                    include_str!("../../../templates/c/fish/abi.c"),
                ),
                Santorini => (
                    include_str!("../../../templates/c/santorini/player.c"),
                    include_str!("../../../templates/c/santorini/abi.h"),
                    include_str!("../../../templates/c/santorini/abi.c"),
                ),
            };
            vec![
                ("build.sh", include_str!("../../../templates/c/build.sh")),
                ("alloc.c", include_str!("../../../templates/c/alloc.c")),
                ("player.c", player),
                ("abi.h", abi_h),
                ("abi.c", abi_c),
            ]
        }
    })
}

/// Writes the project into `dir`, which must not exist or be empty.
pub fn write(game: GameName, lang: Lang, dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && dir.read_dir().with_context(|| format!("{}: cannot read", dir.display()))?.next().is_some() {
        bail!("{}: the directory is not empty; choose a new one", dir.display());
    }
    let name: String = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("player")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .to_string();
    let name =
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) { format!("player-{name}") } else { name };
    let game_name = format!("{game:?}").to_lowercase();
    let lang_name = format!("{lang:?}").to_lowercase();
    let fill = |s: &str| {
        s.replace("{{name}}", &name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{game}}", &game_name)
            .replace("{{lang}}", &lang_name)
    };
    let mut all = files(game, lang)?;
    all.push(("README.md", README));
    // What the first build installs and what it builds stay out of version control.
    all.push((".gitignore", "/.tools/\n/target/\n__pycache__/\n"));
    let wit_path = format!("wit/{game_name}.wit");
    for (path, text) in all.iter().map(|(p, t)| (p.to_string(), fill(t))).chain([(wit_path, wit(game).to_string())]) {
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
    println!(
        "wrote a {lang_name} player for {game_name} in {}: build it with {}/build.sh",
        dir.display(),
        dir.display()
    );
    Ok(())
}

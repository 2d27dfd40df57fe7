//! `arena new`: writes a minimal, buildable player project for a game and a language — the game's WIT,
//! a player that always answers legally (through the host's rule checker), a build script and a README
//! with the one command that builds it and the `arena check` command that tries it.

use super::args::Lang;
use crate::package::Manifest;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

const README: &str = include_str!("../../../templates/README.md.tmpl");

/// The language's build files, the same for every game.
fn build_files(lang: Lang) -> Vec<(&'static str, &'static str)> {
    match lang {
        Lang::Rust => vec![
            ("Cargo.toml", include_str!("../../../templates/rust/Cargo.toml")),
            ("build.sh", include_str!("../../../templates/rust/build.sh")),
        ],
        Lang::Python => vec![("build.sh", include_str!("../../../templates/python/build.sh"))],
        Lang::Js => vec![("build.sh", include_str!("../../../templates/js/build.sh"))],
        Lang::C => vec![
            ("build.sh", include_str!("../../../templates/c/build.sh")),
            ("alloc.c", include_str!("../../../templates/c/alloc.c")),
        ],
    }
}

/// Every file under `dir`, as paths relative to it, sorted.
fn files_under(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)? {
            let path = e?.path();
            if path.is_dir() {
                todo.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                out.push(rel.to_path_buf());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The game's starter files for `lang`, from the package's `templates/LANG/`: (path, text).
fn game_files(package: &Path, lang_name: &str) -> anyhow::Result<Vec<(String, String)>> {
    let dir = package.join("templates").join(lang_name);
    if !dir.is_dir() {
        let have: Vec<String> = std::fs::read_dir(package.join("templates"))
            .map(|r| r.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
            .unwrap_or_default();
        bail!(
            "{}: the game has no {lang_name} template (it has: {})",
            package.display(),
            if have.is_empty() { "none".to_string() } else { have.join(", ") }
        );
    }
    let mut out = Vec::new();
    for rel in files_under(&dir).with_context(|| format!("{}: cannot read", dir.display()))? {
        let path = dir.join(&rel);
        let text = std::fs::read_to_string(&path).with_context(|| format!("{}: cannot read", path.display()))?;
        out.push((rel.to_string_lossy().into_owned(), text));
    }
    Ok(out)
}

/// Writes the project into `dir`, which must not exist or be empty.
pub fn write(package: &Path, lang: Lang, dir: &Path) -> anyhow::Result<()> {
    let manifest = Manifest::read(package)?;
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
    let game_name = manifest.name.clone();
    let lang_name = format!("{lang:?}").to_lowercase();
    let wit_file = package.join("wit").join(format!("{game_name}.wit"));
    let wit = std::fs::read_to_string(&wit_file)
        .with_context(|| format!("{}: cannot read the game's player WIT", wit_file.display()))?;
    let fill = |s: &str| {
        s.replace("{{name}}", &name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{game}}", &game_name)
            .replace("{{lang}}", &lang_name)
    };
    let mut all: Vec<(String, String)> = game_files(package, &lang_name)?;
    all.extend(build_files(lang).into_iter().map(|(p, t)| (p.to_string(), t.to_string())));
    all.push(("README.md".into(), README.into()));
    // What the first build installs and what it builds stay out of version control.
    all.push((".gitignore".into(), "/.tools/\n/target/\n__pycache__/\n".into()));
    let wit_path = format!("wit/{game_name}.wit");
    for (path, text) in all.iter().map(|(p, t)| (p.clone(), fill(t))).chain([(wit_path, wit)]) {
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

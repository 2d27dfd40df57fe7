//! A player's starter files for a game and a language: the package's own `templates/LANG/` when its
//! author wrote one, else generated from its `player` world, so that every game (a shipped one, one
//! from `arena new-game`, one whose WIT just changed) can be started in every language `arena new`
//! supports. A generated starter has every call of the world with its WIT docs, and answers the
//! simplest value each result's type allows: it builds and plays, and the rules say what to change.

mod c;
mod go;
mod js;
mod python;
mod rust;

use std::path::{Path, PathBuf};
use wit_parser::{Function, Resolve, Type, TypeDefKind, TypeId, WorldId, WorldItem};

/// The languages `arena new` writes players in, as its `--lang` spells them.
pub const LANGUAGES: [&str; 7] = ["c", "cpp", "go", "js", "python", "rust", "zig"];

/// A language's starter files for one game: (path in the project, text, with `{{name}}` for the
/// player's name), and whether they were generated from the WIT rather than written by the game's author.
#[derive(Debug)]
pub struct Starter {
    pub files: Vec<(String, String)>,
    pub generated: bool,
}

/// The starter files of `lang` for the package in `dir`: its `templates/LANG/` if it has one, else
/// generated from its player world; an error says why neither can be had.
pub fn files(dir: &Path, lang: &str) -> Result<Starter, String> {
    let own = dir.join("templates").join(lang);
    if own.is_dir() {
        let mut files = Vec::new();
        for rel in arena_play::files_under(&own).map_err(|e| format!("{}: {e}", own.display()))? {
            let path = own.join(&rel);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            files.push((rel.to_string_lossy().into_owned(), text));
        }
        return Ok(Starter { files, generated: false });
    }
    Ok(Starter { files: generate(dir, lang)?, generated: true })
}

/// The starter of `lang` generated from the player world of the package in `dir` (whether or not the
/// package has its own).
pub fn generate(dir: &Path, lang: &str) -> Result<Vec<(String, String)>, String> {
    if !LANGUAGES.contains(&lang) {
        return Err(format!("no {lang} starter: `arena new` writes players in {}", LANGUAGES.join(", ")));
    }
    from_world(&PlayerWorld::read(dir)?, lang).map_err(|e| {
        format!(
            "{}: no {lang} starter could be generated from its player world ({e}); a package's own \
             templates/{lang}/ folder takes the place of the generated one (see games/goofspiel/templates/ \
             in Arena's sources)",
            dir.display()
        )
    })
}

/// The starter of `lang` (one of [`LANGUAGES`]) generated from `world`, or why there is none.
fn from_world(world: &PlayerWorld, lang: &str) -> Result<Vec<(String, String)>, String> {
    match lang {
        "rust" => rust::generate(world),
        "python" => python::generate(world),
        "js" => js::generate(world),
        "cpp" => c::generate(world, c::Flavour::Cpp),
        "zig" => c::generate(world, c::Flavour::Zig),
        "go" => go::generate(world),
        _ => c::generate(world, c::Flavour::C),
    }
}

/// The languages the package in `dir` has starters in: its own templates', and those generated from
/// its WIT, sorted.
pub fn languages(dir: &Path) -> Vec<String> {
    // The WIT is read once (if any language needs generating), not once a language.
    let world = std::cell::OnceCell::new();
    let generated = |lang: &str| {
        world.get_or_init(|| PlayerWorld::read(dir).ok()).as_ref().is_some_and(|w| from_world(w, lang).is_ok())
    };
    LANGUAGES
        .iter()
        .filter(|l| if dir.join("templates").join(l).is_dir() { files(dir, l).is_ok() } else { generated(l) })
        .map(|l| l.to_string())
        .collect()
}

/// The WIT files a player project needs, relative to the package's `wit/`: the game's own file, and
/// its `deps/` when that file uses another package (as Nim's does) and so cannot be read alone.
pub fn wit_files(dir: &Path, game: &str) -> Result<Vec<PathBuf>, String> {
    let wit = dir.join("wit");
    let own = PathBuf::from(format!("{game}.wit"));
    let alone = tempfile::tempdir().map_err(|e| format!("a scratch folder: {e}"))?;
    std::fs::copy(wit.join(&own), alone.path().join(&own))
        .map_err(|e| format!("{}: cannot read the game's player WIT: {e}", wit.join(&own).display()))?;
    let mut files = vec![own];
    if Resolve::default().push_dir(alone.path()).is_err() && wit.join("deps").is_dir() {
        let deps = arena_play::files_under(&wit.join("deps")).map_err(|e| format!("{}/deps: {e}", wit.display()))?;
        files.extend(deps.into_iter().map(|f| Path::new("deps").join(f)));
    }
    Ok(files)
}

/// A package's `player` world, parsed, with what every generator needs to name its parts.
pub(crate) struct PlayerWorld {
    pub resolve: Resolve,
    pub world: WorldId,
    /// The game's name (`arena:GAME`).
    pub game: String,
}

impl PlayerWorld {
    fn read(dir: &Path) -> Result<PlayerWorld, String> {
        let wit = dir.join("wit");
        let mut resolve = Resolve::default();
        let (id, _) = resolve.push_dir(&wit).map_err(|e| format!("{}: {}", wit.display(), resolve.render_error(&e)))?;
        let world = resolve.select_world(&[id], Some("player")).map_err(|e| format!("{}: {e:#}", wit.display()))?;
        let game = resolve.packages[id].name.name.clone();
        Ok(PlayerWorld { resolve, world, game })
    }

    /// The functions the world exports, in order. An exported interface has no generated starter.
    pub fn exports(&self) -> Result<Vec<&Function>, String> {
        let mut out = Vec::new();
        for (key, item) in &self.resolve.worlds[self.world].exports {
            match item {
                WorldItem::Function(f) => out.push(f),
                WorldItem::Interface { .. } => {
                    return Err(format!("it exports the interface `{}`", self.resolve.name_world_key(key)));
                }
                WorldItem::Type { .. } => {}
            }
        }
        if out.is_empty() {
            return Err("it exports no function".into());
        }
        Ok(out)
    }

    /// The definition behind `id`, through any `use` or `type x = y` aliases.
    pub fn origin(&self, mut id: TypeId) -> TypeId {
        while let TypeDefKind::Type(Type::Id(next)) = self.resolve.types[id].kind {
            id = next;
        }
        id
    }

    /// `ty` with any alias resolved to what it names (a plain type stays itself).
    pub fn deref(&self, ty: &Type) -> Type {
        match ty {
            Type::Id(id) => match &self.resolve.types[self.origin(*id)].kind {
                TypeDefKind::Type(t) => *t,
                _ => Type::Id(self.origin(*id)),
            },
            t => *t,
        }
    }

    /// `Some(its ok type)` when `t` is a `result` (an export's result is answered as its ok value).
    pub fn ok_of(&self, t: &Type) -> Option<Option<Type>> {
        match t {
            Type::Id(id) => match &self.resolve.types[self.origin(*id)].kind {
                TypeDefKind::Result(r) => Some(r.ok),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Why a type has no place in a generated starter: the kinds of value a starter cannot build.
pub(crate) fn cannot(kind: &TypeDefKind) -> String {
    let what = match kind {
        TypeDefKind::Handle(_) | TypeDefKind::Resource => "a resource",
        TypeDefKind::Map(..) => "a map",
        TypeDefKind::Future(_) => "a future",
        TypeDefKind::Stream(_) => "a stream",
        TypeDefKind::FixedLengthList(..) => "a fixed-length list",
        other => other.as_str(),
    };
    format!("its types include {what}, which a generated starter does not handle")
}

/// A name in lower snake case (`take-turn` → `take_turn`).
pub(crate) fn snake(name: &str) -> String {
    name.replace('-', "_")
}

/// A name in upper camel case (`round-result` → `RoundResult`).
pub(crate) fn upper_camel(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// A name in lower camel case (`take-turn` → `takeTurn`).
pub(crate) fn lower_camel(name: &str) -> String {
    let upper = upper_camel(name);
    let mut c = upper.chars();
    c.next().map(|f| f.to_ascii_lowercase().to_string() + c.as_str()).unwrap_or_default()
}

/// A name in upper snake case (`full-house` → `FULL_HOUSE`).
pub(crate) fn shouty(name: &str) -> String {
    snake(name).to_ascii_uppercase()
}

/// WIT docs as comment lines, each prefixed (`/// `, `# `, `// `), indented.
pub(crate) fn comment(docs: &wit_parser::Docs, prefix: &str, indent: &str) -> String {
    docs.contents
        .as_deref()
        .map(|d| d.trim().lines().map(|l| format!("{indent}{prefix}{}\n", l.trim_end()).replace(" \n", "\n")).collect())
        .unwrap_or_default()
}

/// The sentence every generated starter opens with.
pub(crate) fn preamble(world: &PlayerWorld) -> String {
    format!(
        "{{{{name}}}}: an Arena {game} player, generated from the game's WIT (wit/{game}.wit, the world \
         `arena:{game}/player`). Each call of the world is below, with its docs; each answers the simplest \
         value its type allows, which the rules may well refuse (`arena check` says why). Put your strategy \
         in its place.",
        game = world.game
    )
}

/// `text` wrapped at 100 columns, each line prefixed.
pub(crate) fn wrapped(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && prefix.len() + line.len() + 1 + word.len() > 100 {
            out.push_str(&format!("{prefix}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{prefix}{line}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_spelled_as_each_language_binds_them() {
        assert_eq!(snake("take-turn"), "take_turn");
        assert_eq!(upper_camel("round-result"), "RoundResult");
        assert_eq!(lower_camel("take-turn"), "takeTurn");
        assert_eq!(shouty("full-house"), "FULL_HOUSE");
        assert_eq!(wrapped("a b c", "// "), "// a b c\n");
    }

    fn package(wit: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("wit")).unwrap();
        std::fs::write(dir.path().join("wit/g.wit"), wit).unwrap();
        dir
    }

    #[test]
    fn a_world_no_starter_can_be_generated_for_says_why_and_how_to_write_one() {
        let dir = package("package arena:g@0.1.0; interface play { go: func() -> u32; } world player { export play; }");
        for lang in LANGUAGES {
            let why = files(dir.path(), lang).unwrap_err();
            assert!(why.contains(&format!("no {lang} starter could be generated")), "{why}");
            assert!(why.contains("it exports the interface `arena:g/play@0.1.0`"), "{why}");
            assert!(why.contains(&format!("templates/{lang}/ folder takes the place")), "{why}");
        }
        assert!(languages(dir.path()).is_empty());
        let resource = package(
            "package arena:g@0.1.0; interface t { resource r; } world player { use t.{r}; export go: func() -> r; }",
        );
        // Refused before any generator runs (wit-bindgen's Go generator included), in every language.
        for lang in LANGUAGES {
            let why = files(resource.path(), lang).unwrap_err();
            assert!(
                why.contains("(its types include a resource, which a generated starter does not handle)"),
                "{lang}: {why}"
            );
        }
        // A package's own template is used as written, and a language `arena new` does not write is refused.
        std::fs::create_dir_all(dir.path().join("templates/rust/src")).unwrap();
        std::fs::write(dir.path().join("templates/rust/src/lib.rs"), "// mine\n").unwrap();
        let own = files(dir.path(), "rust").unwrap();
        assert!(!own.generated && own.files == [("src/lib.rs".to_string(), "// mine\n".to_string())]);
        assert_eq!(languages(dir.path()), ["rust"]);
        assert!(
            files(dir.path(), "cobol")
                .unwrap_err()
                .contains("`arena new` writes players in c, cpp, go, js, python, rust, zig")
        );
    }

    #[test]
    fn a_player_project_gets_the_wit_deps_only_when_its_world_needs_them() {
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
        assert_eq!(wit_files(&games.join("goofspiel"), "goofspiel").unwrap(), [PathBuf::from("goofspiel.wit")]);
        let nim = wit_files(&games.join("nim"), "nim").unwrap();
        assert!(
            nim.contains(&PathBuf::from("nim.wit")) && nim.contains(&PathBuf::from("deps/game/game.wit")),
            "{nim:?}"
        );
    }
}

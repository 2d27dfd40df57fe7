//! The generated Go starter: bindings from wit-bindgen's own Go generator (run here, in-process), the
//! runtime package they import (`go.bytecodealliance.org/pkg`, carried in the project: Go's module proxy
//! is not needed), and `export_wit_world/player.go`, the player's own file: each export with its docs,
//! answering its type's zero value.

use super::{PlayerWorld, comment, preamble, upper_camel, wrapped};
use std::collections::HashSet;
use wit_parser::{Type, TypeDefKind, TypeId};

/// The package the bindings import, as wit-bindgen 0.63 ships it (templates/go/pkg/README.md).
const PKG: [(&str, &str); 11] = [
    ("LICENSE", include_str!("../../../../templates/go/pkg/LICENSE")),
    ("README.md", include_str!("../../../../templates/go/pkg/README.md")),
    ("wit/async/async.go", include_str!("../../../../templates/go/pkg/wit/async/async.go")),
    ("wit/async/empty.s", include_str!("../../../../templates/go/pkg/wit/async/empty.s")),
    ("wit/runtime/runtime.go", include_str!("../../../../templates/go/pkg/wit/runtime/runtime.go")),
    ("wit/runtime/empty.s", include_str!("../../../../templates/go/pkg/wit/runtime/empty.s")),
    ("wit/types/future.go", include_str!("../../../../templates/go/pkg/wit/types/future.go")),
    ("wit/types/option.go", include_str!("../../../../templates/go/pkg/wit/types/option.go")),
    ("wit/types/result.go", include_str!("../../../../templates/go/pkg/wit/types/result.go")),
    ("wit/types/stream.go", include_str!("../../../../templates/go/pkg/wit/types/stream.go")),
    ("wit/types/tuple.go", include_str!("../../../../templates/go/pkg/wit/types/tuple.go")),
];

/// Where the player's own code lives: the package wit-bindgen's entry points call.
const PLAYER_FILE: &str = "export_wit_world/player.go";
/// The file wit-bindgen writes its stubs to, made into [`PLAYER_FILE`].
const STUBS: &str = "export_wit_world/wit_bindings.go";

pub(super) fn generate(w: &PlayerWorld) -> Result<Vec<(String, String)>, String> {
    let funcs = w.exports()?;
    let mut seen = HashSet::new();
    for f in &funcs {
        for t in f.params.iter().map(|p| &p.ty).chain(&f.result) {
            supported(w, t, &mut seen)?;
        }
    }
    let bindings = bindings(w)?;
    let mut files = Vec::new();
    let mut stubs = None;
    for (name, text) in bindings {
        match name.as_str() {
            STUBS => stubs = Some(text),
            "go.mod" => files.push((
                name,
                format!(
                    "{}\n// The runtime package the bindings import, carried in pkg/ (Go's module proxy is not needed).\n\
                     replace go.bytecodealliance.org/pkg => ./pkg\n",
                    text.trim_end()
                ),
            )),
            _ => files.push((name, text)),
        }
    }
    let stubs = stubs.ok_or("wit-bindgen wrote no stubs for the world's exports")?;
    files.push((PLAYER_FILE.into(), player(w, &funcs, &stubs)));
    files.push(("pkg/go.mod".into(), "module go.bytecodealliance.org/pkg\n\ngo 1.25\n".into()));
    files.extend(PKG.iter().map(|(p, t)| (format!("pkg/{p}"), t.to_string())));
    Ok(files)
}

/// wit-bindgen's Go bindings for the world, with stubs for its exports: (path, text). The generator
/// panics on what it does not support; that is an error here, never a crash of the host.
fn bindings(w: &PlayerWorld) -> Result<Vec<(String, String)>, String> {
    let mut resolve = w.resolve.clone();
    let world = w.world;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let opts = wit_bindgen_go::Opts {
            // Never run gofmt: nothing is started on the host to write a starter.
            format: wit_bindgen_go::Format::False,
            generate_stubs: true,
            ..Default::default()
        };
        let mut files = wit_bindgen_core::Files::default();
        opts.build().generate(&mut resolve, world, &mut files).map(|()| {
            files.iter().map(|(p, b)| (p.to_string(), String::from_utf8_lossy(b).into_owned())).collect::<Vec<_>>()
        })
    }));
    match run {
        Ok(Ok(files)) => Ok(files),
        Ok(Err(e)) => Err(format!("wit-bindgen's Go generator: {e:#}")),
        Err(_) => Err("wit-bindgen's Go generator does not handle one of its types".into()),
    }
}

/// Fails, saying why, when `t` holds a kind of value the starter cannot answer.
fn supported(w: &PlayerWorld, t: &Type, seen: &mut HashSet<TypeId>) -> Result<(), String> {
    let Type::Id(id) = t else { return Ok(()) };
    if !seen.insert(*id) {
        return Ok(());
    }
    match &w.resolve.types[*id].kind {
        TypeDefKind::Type(t) | TypeDefKind::List(t) | TypeDefKind::Option(t) => supported(w, t, seen),
        TypeDefKind::Record(r) => r.fields.iter().try_for_each(|f| supported(w, &f.ty, seen)),
        TypeDefKind::Tuple(t) => t.types.iter().try_for_each(|t| supported(w, t, seen)),
        TypeDefKind::Variant(v) => v.cases.iter().filter_map(|c| c.ty.as_ref()).try_for_each(|t| supported(w, t, seen)),
        TypeDefKind::Result(r) => r.ok.iter().chain(&r.err).try_for_each(|t| supported(w, t, seen)),
        TypeDefKind::Enum(_) | TypeDefKind::Flags(_) => Ok(()),
        other => Err(super::cannot(other)),
    }
}

/// `export_wit_world/player.go`: wit-bindgen's stubs, each with its WIT docs, answering its result type's
/// zero value instead of panicking, its parameters named as in the WIT.
fn player(w: &PlayerWorld, funcs: &[&wit_parser::Function], stubs: &str) -> String {
    let mut out = wrapped(&preamble(w), "// ");
    out.push_str("//\n");
    out.push_str(&wrapped(
        "This file is yours; the rest of the project is generated from the WIT by wit-bindgen (`arena new \
         --lang go` writes it afresh). Print a debug line with fmt.Fprintln(os.Stderr, ...): `arena check` \
         and `arena play` show it.",
        "// ",
    ));
    let mut lines = stubs.lines();
    // The package clause and imports, as wit-bindgen wrote them; its own header comments are dropped.
    for line in lines.by_ref() {
        if line.starts_with("package ") {
            out.push_str(&format!("\n{line}\n"));
            break;
        }
    }
    while let Some(line) = lines.next() {
        if line.trim() == "// TODO: Implement" {
            continue;
        }
        if let Some(rest) = line.strip_prefix("func ") {
            let name = rest.split('(').next().unwrap_or_default();
            if let Some(f) = funcs.iter().find(|f| upper_camel(&f.name) == name) {
                out.push_str(&comment(&f.docs, "// ", ""));
            }
            let (signature, result) = signature(line);
            out.push_str(&format!("{signature}\n"));
            // The stub's body (a panic) is replaced by the zero value of the result.
            for body in lines.by_ref() {
                if body.starts_with('}') {
                    break;
                }
            }
            if let Some(result) = result {
                out.push_str(&format!("\tvar answer {result}\n\treturn answer\n"));
            }
            out.push_str("}\n\n");
            continue;
        }
        // The imports, indented as gofmt would.
        let line = line.trim();
        let indent = if line.is_empty() || line.starts_with("import") || line == ")" { "" } else { "\t" };
        out.push_str(&format!("{indent}{line}\n"));
    }
    out.trim_end().to_string() + "\n"
}

/// A stub's `func` line with its parameters' leading `_` dropped (Go allows an unused parameter), and its
/// result type, if any.
fn signature(line: &str) -> (String, Option<String>) {
    let open = line.find('(').unwrap_or(line.len());
    let mut depth = 0;
    let mut close = line.len();
    for (i, c) in line.char_indices().skip(open) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    close = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let params = line.get(open + 1..close).unwrap_or_default();
    let params = params.split(", ").map(|p| p.strip_prefix('_').unwrap_or(p)).collect::<Vec<_>>().join(", ");
    let result = line.get(close + 1..).unwrap_or_default().trim().trim_end_matches('{').trim();
    let head = &line[..open];
    let result = (!result.is_empty()).then(|| result.to_string());
    let text = match &result {
        Some(r) => format!("{head}({params}) {r} {{"),
        None => format!("{head}({params}) {{"),
    };
    (text, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stub_signature_loses_its_underscores_and_tells_its_result() {
        let (line, result) = signature("func Keep(_state arena_yahtzee_types.TurnState) []uint8 {");
        assert_eq!(line, "func Keep(state arena_yahtzee_types.TurnState) []uint8 {");
        assert_eq!(result.as_deref(), Some("[]uint8"));
        let (line, result) = signature("func TournamentEnd(_won bool, _x witTypes.Option[uint8])  {");
        assert_eq!(line, "func TournamentEnd(won bool, x witTypes.Option[uint8]) {");
        assert_eq!(result, None);
    }

    #[test]
    fn every_shipped_game_has_a_go_starter_with_its_runtime_package() {
        let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
        for game in ["yahtzee", "goofspiel", "nim", "fish", "santorini", "pennies"] {
            let files = super::super::generate(&games.join(game), "go").unwrap();
            let get = |p: &str| files.iter().find(|(n, _)| n == p).map(|(_, t)| t.as_str());
            let player = get(PLAYER_FILE).unwrap_or_else(|| panic!("{game}: no player file"));
            assert!(player.contains("package export_wit_world") && !player.contains("panic("), "{game}:\n{player}");
            assert!(get("go.mod").unwrap().contains("replace go.bytecodealliance.org/pkg => ./pkg"));
            assert!(get("pkg/wit/runtime/runtime.go").is_some() && get("wit_exports.go").is_some());
        }
    }
}

//! The generated JavaScript starter: `player.js`, the world's exports as exported functions in lower
//! camel case, answers as componentize-qjs takes them (records as objects with lower-camel-case keys,
//! variants as `{ tag, val }`, enums as their case's name, options as `null` or the value).

use super::{PlayerWorld, comment, lower_camel, preamble, wrapped};
use wit_parser::{Type, TypeDefKind};

pub(super) fn generate(w: &PlayerWorld) -> Result<Vec<(String, String)>, String> {
    let mut out = wrapped(&preamble(w), "// ");
    for f in w.exports()? {
        out.push('\n');
        out.push_str(&comment(&f.docs, "// ", ""));
        let params: Vec<String> = f.params.iter().map(|p| ident(&lower_camel(&p.name))).collect();
        out.push_str(&format!("export function {}({}) {{\n", ident(&lower_camel(&f.name)), params.join(", ")));
        if let Some(t) = &f.result {
            let answer = match w.ok_of(t) {
                // An export's `result` is returned as its ok value (an error is thrown).
                Some(Some(ok)) => value(w, &ok)?,
                Some(None) => "undefined".into(),
                None => value(w, t)?,
            };
            out.push_str(&format!("  return {answer};\n"));
        }
        out.push_str("}\n");
    }
    Ok(vec![("player.js".into(), out)])
}

const KEYWORDS: [&str; 38] = [
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "let",
];

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) { format!("{name}_") } else { name.to_string() }
}

/// The simplest value of type `t`, as a JavaScript expression.
fn value(w: &PlayerWorld, t: &Type) -> Result<String, String> {
    Ok(match t {
        Type::Bool => "false".into(),
        Type::U64 | Type::S64 => "0n".into(),
        Type::Char => "\"a\"".into(),
        Type::String => "\"\"".into(),
        Type::ErrorContext => return Err("an error-context".into()),
        Type::Id(id) => match &w.resolve.types[w.origin(*id)].kind {
            TypeDefKind::Type(t) => value(w, t)?,
            TypeDefKind::Record(r) => {
                let fields: Vec<String> = r
                    .fields
                    .iter()
                    .map(|f| Ok(format!("{}: {}", lower_camel(&f.name), value(w, &f.ty)?)))
                    .collect::<Result<_, String>>()?;
                if fields.is_empty() { "{}".into() } else { format!("{{ {} }}", fields.join(", ")) }
            }
            TypeDefKind::Variant(v) => {
                let case = v.cases.first().ok_or("a variant without cases")?;
                match &case.ty {
                    Some(t) => format!("{{ tag: \"{}\", val: {} }}", case.name, value(w, t)?),
                    None => format!("{{ tag: \"{}\" }}", case.name),
                }
            }
            TypeDefKind::Enum(e) => format!("\"{}\"", e.cases.first().ok_or("an enum without cases")?.name),
            TypeDefKind::Flags(_) => "{}".into(),
            TypeDefKind::Tuple(t) => {
                let parts: Vec<String> = t.types.iter().map(|t| value(w, t)).collect::<Result<_, _>>()?;
                format!("[{}]", parts.join(", "))
            }
            TypeDefKind::Option(_) => "null".into(),
            TypeDefKind::Result(r) => {
                let ok = r.ok.as_ref().map(|t| value(w, t)).transpose()?;
                ok.map_or("{ tag: \"ok\" }".into(), |v| format!("{{ tag: \"ok\", val: {v} }}"))
            }
            TypeDefKind::List(_) => "[]".into(),
            other => return Err(super::cannot(other)),
        },
        _ => "0".into(),
    })
}

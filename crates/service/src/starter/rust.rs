//! The generated Rust starter: `src/lib.rs` over `wit_bindgen::generate!`, every export a method of
//! `Guest` named and typed as wit-bindgen 0.61 binds it.

use super::{PlayerWorld, comment, preamble, snake, upper_camel, wrapped};
use wit_parser::{Type, TypeDefKind, TypeId, TypeOwner};

pub(super) fn generate(w: &PlayerWorld) -> Result<Vec<(String, String)>, String> {
    let mut methods = String::new();
    for f in w.exports()? {
        methods.push_str(&comment(&f.docs, "/// ", "    "));
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| Ok(format!("{}: {}", ident(&snake(&p.name)), ty(w, &p.ty)?)))
            .collect::<Result<_, String>>()?;
        let result = match &f.result {
            Some(t) => format!(" -> {}", ty(w, t)?),
            None => String::new(),
        };
        methods.push_str(&format!("    fn {}({}){result} {{\n", ident(&snake(&f.name)), params.join(", ")));
        if !f.params.is_empty() {
            let names: Vec<String> = f.params.iter().map(|p| format!("&{}", ident(&snake(&p.name)))).collect();
            let names = if names.len() == 1 { names[0].clone() } else { format!("({})", names.join(", ")) };
            methods
                .push_str(&format!("        let _ = {names}; // what this call tells you: see wit/{}.wit\n", w.game));
        }
        if let Some(t) = &f.result {
            methods.push_str(&format!("        {}\n", value(w, t)?));
        }
        methods.push_str("    }\n\n");
    }
    let lib = format!(
        "{}\nwit_bindgen::generate!({{ path: \"wit\", world: \"arena:{game}/player\" }});\n\nstruct Player;\n\n\
         impl Guest for Player {{\n{}}}\n\nexport!(Player);\n",
        wrapped(&preamble(w), "//! "),
        methods.trim_end_matches('\n').to_string() + "\n",
        game = w.game
    );
    Ok(vec![("src/lib.rs".into(), lib)])
}

/// Rust's keywords, which wit-bindgen binds with a trailing `_`.
const KEYWORDS: [&str; 52] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
    "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "Self",
];

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) { format!("{name}_") } else { name.to_string() }
}

/// The Rust path of a named type: a world's own (and `use`d) types are at the crate's root, an
/// interface's under `namespace::package::interface`.
fn path(w: &PlayerWorld, id: TypeId) -> Result<String, String> {
    let def = &w.resolve.types[id];
    let name = def.name.as_deref().ok_or("an unnamed type")?;
    match def.owner {
        TypeOwner::World(_) => Ok(upper_camel(name)),
        TypeOwner::Interface(i) => {
            let iface = &w.resolve.interfaces[i];
            let pkg = iface.package.map(|p| &w.resolve.packages[p].name).ok_or("an interface outside any package")?;
            let iname = iface.name.as_deref().ok_or("an unnamed interface")?;
            Ok(format!(
                "{}::{}::{}::{}",
                ident(&snake(&pkg.namespace)),
                ident(&snake(&pkg.name)),
                ident(&snake(iname)),
                upper_camel(name)
            ))
        }
        TypeOwner::None => Err(format!("the type `{name}` has no owner")),
    }
}

/// The Rust type of `t` as an export's parameter or result.
fn ty(w: &PlayerWorld, t: &Type) -> Result<String, String> {
    Ok(match t {
        Type::Bool => "bool".into(),
        Type::U8 => "u8".into(),
        Type::U16 => "u16".into(),
        Type::U32 => "u32".into(),
        Type::U64 => "u64".into(),
        Type::S8 => "i8".into(),
        Type::S16 => "i16".into(),
        Type::S32 => "i32".into(),
        Type::S64 => "i64".into(),
        Type::F32 => "f32".into(),
        Type::F64 => "f64".into(),
        Type::Char => "char".into(),
        Type::String => "String".into(),
        Type::ErrorContext => return Err("an error-context".into()),
        Type::Id(id) => {
            let def = &w.resolve.types[*id];
            if def.name.is_some() {
                return match &w.resolve.types[w.origin(*id)].kind {
                    TypeDefKind::Type(t) => ty(w, t),
                    _ => path(w, *id),
                };
            }
            match &def.kind {
                TypeDefKind::List(t) => format!("Vec<{}>", ty(w, t)?),
                TypeDefKind::Option(t) => format!("Option<{}>", ty(w, t)?),
                TypeDefKind::Result(r) => format!(
                    "Result<{}, {}>",
                    r.ok.as_ref().map(|t| ty(w, t)).transpose()?.unwrap_or("()".into()),
                    r.err.as_ref().map(|t| ty(w, t)).transpose()?.unwrap_or("()".into())
                ),
                TypeDefKind::Tuple(t) => {
                    let parts: Vec<String> = t.types.iter().map(|t| ty(w, t)).collect::<Result<_, _>>()?;
                    format!("({},)", parts.join(", "))
                }
                TypeDefKind::FixedLengthList(t, n) => format!("[{}; {n}]", ty(w, t)?),
                TypeDefKind::Type(t) => ty(w, t)?,
                other => return Err(super::cannot(other)),
            }
        }
    })
}

/// The simplest value of type `t`, as a Rust expression.
fn value(w: &PlayerWorld, t: &Type) -> Result<String, String> {
    Ok(match t {
        Type::Bool => "false".into(),
        Type::F32 | Type::F64 => "0.0".into(),
        Type::Char => "'a'".into(),
        Type::String => "String::new()".into(),
        Type::ErrorContext => return Err("an error-context".into()),
        Type::Id(id) => {
            let named = || path(w, *id);
            match &w.resolve.types[w.origin(*id)].kind {
                TypeDefKind::Type(t) => value(w, t)?,
                TypeDefKind::Record(r) => {
                    let fields: Vec<String> = r
                        .fields
                        .iter()
                        .map(|f| Ok(format!("{}: {}", ident(&snake(&f.name)), value(w, &f.ty)?)))
                        .collect::<Result<_, String>>()?;
                    format!("{} {{ {} }}", named()?, fields.join(", "))
                }
                TypeDefKind::Variant(v) => {
                    let case = v.cases.first().ok_or("a variant without cases")?;
                    match &case.ty {
                        Some(t) => format!("{}::{}({})", named()?, upper_camel(&case.name), value(w, t)?),
                        None => format!("{}::{}", named()?, upper_camel(&case.name)),
                    }
                }
                TypeDefKind::Enum(e) => {
                    format!("{}::{}", named()?, upper_camel(&e.cases.first().ok_or("an enum without cases")?.name))
                }
                TypeDefKind::Flags(_) => format!("{}::empty()", named()?),
                TypeDefKind::Tuple(t) => {
                    let parts: Vec<String> = t.types.iter().map(|t| value(w, t)).collect::<Result<_, _>>()?;
                    format!("({},)", parts.join(", "))
                }
                TypeDefKind::Option(_) => "None".into(),
                TypeDefKind::Result(r) => {
                    format!("Ok({})", r.ok.as_ref().map(|t| value(w, t)).transpose()?.unwrap_or("()".into()))
                }
                TypeDefKind::List(_) => "Vec::new()".into(),
                TypeDefKind::FixedLengthList(t, _) => format!("core::array::from_fn(|_| {})", value(w, t)?),
                other => return Err(super::cannot(other)),
            }
        }
        _ => "0".into(),
    })
}

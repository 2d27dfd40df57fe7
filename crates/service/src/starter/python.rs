//! The generated Python starter: `app.py`, the world's exports as methods of componentize-py 0.25's
//! `wit_world.WitWorld`, building answers from the classes it generates (records, variant cases, enums).

use super::{PlayerWorld, comment, preamble, shouty, snake, upper_camel, wrapped};
use std::collections::BTreeSet;
use wit_parser::{Type, TypeDefKind, TypeId, TypeOwner, WorldItem};

pub(super) fn generate(w: &PlayerWorld) -> Result<Vec<(String, String)>, String> {
    let mut names = Names { used: BTreeSet::new() };
    let mut methods = String::new();
    for f in w.exports()? {
        let params: Vec<String> = f.params.iter().map(|p| ident(&snake(&p.name))).collect();
        methods.push_str(&format!(
            "    def {}(self{}):\n",
            ident(&snake(&f.name)),
            params.iter().map(|p| format!(", {p}")).collect::<String>()
        ));
        methods.push_str(&comment(&f.docs, "# ", "        "));
        let answer = match (&f.result, f.result.as_ref().and_then(|t| w.ok_of(t))) {
            // componentize-py returns an export's `result` as its ok value (an error is raised as `Err`).
            (Some(_), Some(Some(ok))) => value(w, &ok, &mut names)?,
            (Some(_), Some(None)) => "None".into(),
            (Some(t), None) => value(w, t, &mut names)?,
            (None, _) => String::new(),
        };
        if f.result.is_some() {
            methods.push_str(&format!("        return {answer}\n\n"));
        } else {
            methods.push_str("        pass\n\n");
        }
    }
    let mut imports = String::from("import wit_world\n");
    for (module, class) in &names.used {
        imports.push_str(&format!("from {module} import {class}\n"));
    }
    let app = format!(
        "{}{imports}\n\nclass WitWorld(wit_world.WitWorld):\n{}",
        wrapped(&preamble(w), "# "),
        methods.trim_end_matches('\n').to_string() + "\n"
    );
    Ok(vec![("app.py".into(), app)])
}

/// The classes the answers use, as (module, class) imports.
struct Names {
    used: BTreeSet<(String, String)>,
}

const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) { format!("{name}_") } else { name.to_string() }
}

/// The module componentize-py puts a named type's class in: an imported interface's is
/// `wit_world.imports.NAME`, or `wit_world.imports.NAMESPACE_PACKAGE_NAME` when two imported
/// interfaces share the name; a world's own types are in `wit_world`.
fn module(w: &PlayerWorld, id: TypeId) -> Result<String, String> {
    let TypeOwner::Interface(i) = w.resolve.types[id].owner else { return Ok("wit_world".into()) };
    let iface = &w.resolve.interfaces[i];
    let name = iface.name.as_deref().ok_or("an unnamed interface")?;
    let same = w.resolve.worlds[w.world]
        .imports
        .values()
        .filter(|item| {
            matches!(item, WorldItem::Interface { id, .. } if w.resolve.interfaces[*id].name.as_deref() == Some(name))
        })
        .count();
    if same <= 1 {
        return Ok(format!("wit_world.imports.{}", snake(name)));
    }
    let pkg = iface.package.map(|p| &w.resolve.packages[p].name).ok_or("an interface outside any package")?;
    Ok(format!("wit_world.imports.{}_{}_{}", snake(&pkg.namespace), snake(&pkg.name), snake(name)))
}

/// A class by name, imported from its module.
fn class(w: &PlayerWorld, id: TypeId, class: String, names: &mut Names) -> Result<String, String> {
    names.used.insert((module(w, id)?, class.clone()));
    Ok(class)
}

/// The simplest value of type `t`, as a Python expression.
fn value(w: &PlayerWorld, t: &Type, names: &mut Names) -> Result<String, String> {
    Ok(match t {
        Type::Bool => "False".into(),
        Type::F32 | Type::F64 => "0.0".into(),
        Type::Char => "\"a\"".into(),
        Type::String => "\"\"".into(),
        Type::ErrorContext => return Err("an error-context".into()),
        Type::Id(id) => {
            let origin = w.origin(*id);
            let name = w.resolve.types[origin].name.as_deref().map(upper_camel).unwrap_or_default();
            match &w.resolve.types[origin].kind {
                TypeDefKind::Type(t) => value(w, t, names)?,
                TypeDefKind::Record(r) => {
                    let fields: Vec<String> = r
                        .fields
                        .iter()
                        .map(|f| Ok(format!("{}={}", ident(&snake(&f.name)), value(w, &f.ty, names)?)))
                        .collect::<Result<_, String>>()?;
                    format!("{}({})", class(w, origin, name, names)?, fields.join(", "))
                }
                TypeDefKind::Variant(v) => {
                    let case = v.cases.first().ok_or("a variant without cases")?;
                    let cls = class(w, origin, format!("{name}_{}", upper_camel(&case.name)), names)?;
                    match &case.ty {
                        Some(t) => format!("{cls}({})", value(w, t, names)?),
                        None => format!("{cls}()"),
                    }
                }
                TypeDefKind::Enum(e) => {
                    let case = e.cases.first().ok_or("an enum without cases")?;
                    format!("{}.{}", class(w, origin, name, names)?, shouty(&case.name))
                }
                TypeDefKind::Flags(_) => format!("{}(0)", class(w, origin, name, names)?),
                TypeDefKind::Tuple(t) => {
                    let parts: Vec<String> = t.types.iter().map(|t| value(w, t, names)).collect::<Result<_, _>>()?;
                    if parts.len() == 1 { format!("({},)", parts[0]) } else { format!("({})", parts.join(", ")) }
                }
                TypeDefKind::Option(_) => "None".into(),
                TypeDefKind::Result(r) => {
                    names.used.insert(("componentize_py_types".into(), "Ok".into()));
                    format!("Ok({})", r.ok.as_ref().map(|t| value(w, t, names)).transpose()?.unwrap_or("None".into()))
                }
                TypeDefKind::List(Type::U8) => "b\"\"".into(),
                TypeDefKind::List(_) => "[]".into(),
                other => return Err(super::cannot(other)),
            }
        }
        _ => "0".into(),
    })
}

//! The generated C starter: the canonical ABI glue that Arena's hand-written C templates spell out by
//! hand, written from the WIT. `abi.h` lays out every type as the component model does in wasm32
//! memory (each layout checked by a `_Static_assert` against wit-parser's sizes), `abi.c` exports each
//! call under its `cm32p2` name, lifting its flat arguments or reading them from memory, and lowers the
//! answer; `player.c` is the part the author writes. Freestanding: no libc (alloc.c is the heap).

mod glue;
mod zig;

use zig::{zig_ident, zig_type};

use super::{PlayerWorld, comment, preamble, snake, wrapped};
use std::collections::{HashMap, HashSet};
use wit_parser::abi::{FlatTypes, WasmType};
use wit_parser::{SizeAlign, Type, TypeDefKind, TypeId};

/// The language the player's own file is written in: C (`player.c`), C++ (`player.cpp`, over the same
/// C glue, its calls declared `extern "C"`) or Zig (`player.zig`, its calls exported with the C
/// calling convention, the types read from abi.h by `zig translate-c` as the build makes `abi.zig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flavour {
    C,
    Cpp,
    Zig,
}

/// The files of a starter for `w` in `flavour`: the C glue (abi.h, abi.c) and the player's own file.
pub(super) fn generate(w: &PlayerWorld, flavour: Flavour) -> Result<Vec<(String, String)>, String> {
    let file = match flavour {
        Flavour::C => "player.c",
        Flavour::Cpp => "player.cpp",
        Flavour::Zig => "player.zig",
    };
    let mut sizes = SizeAlign::default();
    sizes.fill(&w.resolve).map_err(|e| format!("its types cannot be laid out in memory: {e}"))?;
    let mut g = Gen { w, sizes, named: HashMap::new(), taken: HashSet::new(), decls: String::new() };
    let funcs = w.exports()?;
    let mut protos = String::new();
    let mut glue = String::new();
    let mut player = String::new();
    for f in &funcs {
        let sig = g.signature(f)?;
        protos.push_str(&comment(&f.docs, "// ", ""));
        protos.push_str(&format!("{};\n", sig.proto));
        glue.push_str(&g.glue(f, &sig)?);
        player.push_str(&comment(&f.docs, "// ", ""));
        if flavour == Flavour::Zig {
            let args: Vec<String> = sig
                .params
                .iter()
                .zip(&sig.types)
                .map(|((name, by_ptr), t)| {
                    let name = zig_ident(name);
                    if *by_ptr { format!("{name}: *const {}", zig_type(t)) } else { format!("{name}: {}", zig_type(t)) }
                })
                .collect();
            let ret = f.result.as_ref().map(|t| g.ty(t)).transpose()?.map_or("void".into(), |t| zig_type(&t));
            player.push_str(&format!("export fn player_{}({}) {ret} {{\n", snake(&f.name), args.join(", ")));
            for (name, _) in &sig.params {
                player.push_str(&format!("    _ = {};\n", zig_ident(name)));
            }
            if let Some(t) = &f.result {
                let zero = match zero(w, t) {
                    "{0}" => format!("std.mem.zeroes({ret})"),
                    z => z.to_string(),
                };
                player.push_str(&format!("    return {zero};\n"));
            }
            player.push_str("}\n\n");
            continue;
        }
        player.push_str(&format!("{} {{\n", sig.proto));
        for (name, _) in &sig.params {
            player.push_str(&format!("  (void){name};\n"));
        }
        if let Some(t) = &f.result {
            let zero = if flavour == Flavour::Cpp && zero(w, t) == "{0}" { "{}" } else { zero(w, t) };
            player.push_str(&format!("  {} answer = {zero};\n  return answer;\n", g.ty(t)?));
        }
        player.push_str("}\n\n");
    }
    let game = &w.game;
    let guard = format!("ARENA_{}_ABI_H", snake(game).to_ascii_uppercase());
    let header = format!(
        "{}#ifndef {guard}\n#define {guard}\n\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n\
         // alloc.c: the heap, emptied after every call by its post-return function.\n\
         void heap_reset(void);\n\
         void *cm32p2_realloc(void *old, uint32_t old_size, uint32_t align, uint32_t new_size);\n\n\
         // The types of wit/{game}.wit as the canonical ABI lays them out in wasm32 memory: a record is its\n\
         // fields in order, each at its alignment; a list or string is (pointer, length); a variant, option or\n\
         // result is a tag and then its payload. Lists passed to a call live in memory allocated for that call\n\
         // only: keep no pointer into them between calls.\n\n{}\n\
         #ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n// The calls of the world, written in {file}.\n{protos}\n#ifdef __cplusplus\n}}\n#endif\n\n#endif\n",
        wrapped(
            &format!("{{{{name}}}}: the arena:{game}/player world's types and calls, generated from the WIT."),
            "// "
        ),
        g.decls
    );
    let abi = format!(
        "{}#include \"abi.h\"\n\n#define EXPORT(name) __attribute__((export_name(name)))\n\n\
         __attribute__((unused)) static inline float f32_bits(uint32_t b) {{\n  union {{ uint32_t i; float f; }} u = {{b}};\n  return u.f;\n}}\n\
         __attribute__((unused)) static inline double f64_bits(uint64_t b) {{\n  union {{ uint64_t i; double f; }} u = {{b}};\n  return u.f;\n}}\n\n{glue}",
        wrapped(
            "{{name}}: the canonical ABI glue, generated from the WIT: each call of the world exported under its \
             component-model name (`cm32p2||NAME`), its arguments lifted from their flat values (or read from \
             memory when they are too many), its answer lowered, and a post-return function that empties the heap.",
            "// "
        )
    );
    let includes = match flavour {
        Flavour::C => "#include \"abi.h\"\n",
        // The C++ standard library is there (libc++ over WASI's C library): use what you like.
        Flavour::Cpp => "#include \"abi.h\"\n\n#include <algorithm>\n#include <vector>\n",
        // abi.zig is abi.h as Zig reads it, made by build.sh (`zig translate-c`).
        Flavour::Zig => "const std = @import(\"std\");\nconst abi = @import(\"abi.zig\");\n",
    };
    let player =
        format!("{}{includes}\n{}", wrapped(&preamble(w), "// "), player.trim_end_matches('\n').to_string() + "\n");
    Ok(vec![("abi.h".into(), header), ("abi.c".into(), abi), (file.into(), player)])
}

/// The C side of one call: its prototype in player.c, its parameters (name, by pointer) and their C types.
struct Sig {
    proto: String,
    params: Vec<(String, bool)>,
    types: Vec<String>,
}

struct Gen<'a> {
    w: &'a PlayerWorld,
    sizes: SizeAlign,
    /// C names of the types declared so far: by definition, and by structure for unnamed ones.
    named: HashMap<TypeId, String>,
    taken: HashSet<String>,
    decls: String,
}

const KEYWORDS: [&str; 37] = [
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float",
    "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "true", "false",
];

fn ident(name: &str) -> String {
    let s = snake(name);
    if KEYWORDS.contains(&s.as_str()) { format!("{s}_") } else { s }
}

/// The integer a variant's or enum's tag is stored in, by its number of cases.
fn tag(cases: usize) -> &'static str {
    if cases <= 256 {
        "uint8_t"
    } else if cases <= 65536 {
        "uint16_t"
    } else {
        "uint32_t"
    }
}

/// A flat core value's C type.
fn flat_c(t: WasmType) -> &'static str {
    match t {
        WasmType::I32 | WasmType::Pointer | WasmType::Length => "int32_t",
        WasmType::I64 | WasmType::PointerOrI64 => "int64_t",
        WasmType::F32 => "float",
        WasmType::F64 => "double",
    }
}

/// The simplest value of `t` in C: zero, which is also every variant's first case and an empty list.
fn zero(w: &PlayerWorld, t: &Type) -> &'static str {
    match w.deref(t) {
        Type::Bool => "false",
        Type::String => "{0}",
        Type::Id(id) => match w.resolve.types[id].kind {
            TypeDefKind::Enum(_) | TypeDefKind::Flags(_) => "0",
            _ => "{0}",
        },
        _ => "0",
    }
}

impl Gen<'_> {
    /// How many flat values `t` lowers to.
    fn flat_count(&self, t: &Type) -> usize {
        let mut storage = [WasmType::I32; 64];
        let mut flat = FlatTypes::new(&mut storage);
        self.w.resolve.push_flat(t, &mut flat);
        flat.to_vec().len()
    }

    fn scalar(t: &Type) -> Option<&'static str> {
        Some(match t {
            Type::Bool => "bool",
            Type::U8 => "uint8_t",
            Type::U16 => "uint16_t",
            Type::U32 | Type::Char => "uint32_t",
            Type::U64 => "uint64_t",
            Type::S8 => "int8_t",
            Type::S16 => "int16_t",
            Type::S32 => "int32_t",
            Type::S64 => "int64_t",
            Type::F32 => "float",
            Type::F64 => "double",
            _ => return None,
        })
    }

    /// A short name for `t` inside the names of the types built from it (`list_u8_t`, `option_cell_t`).
    fn short(&mut self, t: &Type) -> Result<String, String> {
        Ok(match self.w.deref(t) {
            Type::Bool => "bool".into(),
            Type::U8 => "u8".into(),
            Type::U16 => "u16".into(),
            Type::U32 => "u32".into(),
            Type::U64 => "u64".into(),
            Type::S8 => "s8".into(),
            Type::S16 => "s16".into(),
            Type::S32 => "s32".into(),
            Type::S64 => "s64".into(),
            Type::F32 => "f32".into(),
            Type::F64 => "f64".into(),
            Type::Char => "char".into(),
            t => self.ty(&t)?.trim_end_matches("_t").to_string(),
        })
    }

    /// Declares (once) a struct type named `name` with `body` (its members), and checks its layout.
    fn declare(&mut self, id: TypeId, name: String, docs: String, body: String) -> String {
        let t = Type::Id(id);
        let (size, align) = (self.sizes.size(&t).size_wasm32(), self.sizes.align(&t).align_wasm32());
        self.decls.push_str(&format!(
            "{docs}typedef struct {{\n{body}}} {name};\n_Static_assert(sizeof({name}) == {size} && _Alignof({name}) == {align}, \"{name}: the canonical ABI's layout\");\n\n"
        ));
        self.named.insert(id, name.clone());
        name
    }

    /// A C name for a named WIT type, `_t` after it; a second type of the same name gets a number.
    fn fresh(&mut self, base: &str) -> String {
        let mut name = format!("{}_t", snake(base));
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{}_{n}_t", snake(base));
            n += 1;
        }
        name
    }

    /// The C type of `t`, declaring it (and what it is built from) on first use.
    fn ty(&mut self, t: &Type) -> Result<String, String> {
        if let Some(s) = Self::scalar(t) {
            return Ok(s.into());
        }
        let id = match t {
            Type::String => {
                if self.taken.insert("string_t".into()) {
                    self.decls.push_str(
                        "// A string: UTF-8 bytes, not NUL-terminated.\ntypedef struct {\n  char *ptr;\n  uint32_t len;\n} string_t;\n\n",
                    );
                }
                return Ok("string_t".into());
            }
            Type::Id(id) => self.w.origin(*id),
            _ => return Err("an error-context".into()),
        };
        if let Some(name) = self.named.get(&id) {
            return Ok(name.clone());
        }
        let def = &self.w.resolve.types[id];
        let docs = comment(&def.docs, "// ", "");
        let wit_name = def.name.clone();
        Ok(match def.kind.clone() {
            TypeDefKind::Type(t) => self.ty(&t)?,
            TypeDefKind::Record(r) => {
                let mut body = String::new();
                for f in &r.fields {
                    let ft = self.ty(&f.ty)?;
                    body.push_str(&comment(&f.docs, "// ", "  "));
                    body.push_str(&format!("  {ft} {};\n", ident(&f.name)));
                }
                let name = self.fresh(wit_name.as_deref().unwrap_or("record"));
                self.declare(id, name, docs, body)
            }
            TypeDefKind::Tuple(tu) => {
                let mut body = String::new();
                let mut parts = Vec::new();
                for (i, t) in tu.types.iter().enumerate() {
                    body.push_str(&format!("  {} f{i};\n", self.ty(t)?));
                    parts.push(self.short(t)?);
                }
                let name = self.fresh(&format!("tuple{}_{}", tu.types.len(), parts.join("_")));
                self.declare(id, name, docs, body)
            }
            TypeDefKind::List(t) => {
                let (et, short) = (self.ty(&t)?, self.short(&t)?);
                let name = self.fresh(&format!("list_{short}"));
                self.declare(id, name, docs, format!("  {et} *ptr;\n  uint32_t len;\n"))
            }
            TypeDefKind::Option(t) => {
                let (vt, short) = (self.ty(&t)?, self.short(&t)?);
                let name = self.fresh(&format!("option_{short}"));
                self.declare(id, name, docs, format!("  bool is_some;\n  {vt} val;\n"))
            }
            TypeDefKind::Result(r) => {
                let mut union = String::new();
                let mut parts = Vec::new();
                for (field, t) in [("ok", r.ok), ("err", r.err)] {
                    match t {
                        Some(t) => {
                            union.push_str(&format!("    {} {field};\n", self.ty(&t)?));
                            parts.push(self.short(&t)?);
                        }
                        None => parts.push("void".into()),
                    }
                }
                let name = self.fresh(&format!("result_{}", parts.join("_")));
                let union = if union.is_empty() { String::new() } else { format!("  union {{\n{union}  }} val;\n") };
                self.declare(id, name, docs, format!("  bool is_err;\n{union}"))
            }
            TypeDefKind::Variant(v) => {
                let name = self.fresh(wit_name.as_deref().unwrap_or("variant"));
                let prefix = name.trim_end_matches("_t").to_ascii_uppercase();
                let mut union = String::new();
                let mut consts = Vec::new();
                for (i, c) in v.cases.iter().enumerate() {
                    consts.push(format!("{prefix}_{} = {i}", snake(&c.name).to_ascii_uppercase()));
                    if let Some(t) = &c.ty {
                        union.push_str(&comment(&c.docs, "// ", "    "));
                        union.push_str(&format!("    {} {};\n", self.ty(t)?, ident(&c.name)));
                    }
                }
                let union = if union.is_empty() { String::new() } else { format!("  union {{\n{union}  }} val;\n") };
                let body = format!("  {} tag; // {}\n{union}", tag(v.cases.len()), consts.join(", "));
                self.decls.push_str(&format!("enum {{ {} }};\n", consts.join(", ")));
                self.declare(id, name, docs, body)
            }
            TypeDefKind::Enum(e) => {
                let name = self.fresh(wit_name.as_deref().unwrap_or("enum"));
                let prefix = name.trim_end_matches("_t").to_ascii_uppercase();
                let consts: Vec<String> = e
                    .cases
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{prefix}_{} = {i}", snake(&c.name).to_ascii_uppercase()))
                    .collect();
                self.decls.push_str(&format!(
                    "{docs}typedef {} {name};\nenum {{ {} }};\n\n",
                    tag(e.cases.len()),
                    consts.join(", ")
                ));
                self.named.insert(id, name.clone());
                name
            }
            TypeDefKind::Flags(fl) => {
                let n = fl.flags.len();
                let int = match n {
                    0..=8 => "uint8_t",
                    9..=16 => "uint16_t",
                    17..=32 => "uint32_t",
                    _ => return Err("flags of more than 32".into()),
                };
                let name = self.fresh(wit_name.as_deref().unwrap_or("flags"));
                let prefix = name.trim_end_matches("_t").to_ascii_uppercase();
                let consts: Vec<String> = fl
                    .flags
                    .iter()
                    .enumerate()
                    .map(|(i, f)| format!("{prefix}_{} = 1u << {i}", snake(&f.name).to_ascii_uppercase()))
                    .collect();
                self.decls.push_str(&format!("{docs}typedef {int} {name};\nenum {{ {} }};\n\n", consts.join(", ")));
                self.named.insert(id, name.clone());
                name
            }
            other => return Err(crate::starter::cannot(&other)),
        })
    }
}

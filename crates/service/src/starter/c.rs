//! The generated C starter: the canonical ABI glue that Arena's hand-written C templates spell out by
//! hand, written from the WIT. `abi.h` lays out every type as the component model does in wasm32
//! memory (each layout checked by a `_Static_assert` against wit-parser's sizes), `abi.c` exports each
//! call under its `cm32p2` name, lifting its flat arguments or reading them from memory, and lowers the
//! answer; `player.c` is the part the author writes. Freestanding: no libc (alloc.c is the heap).

use super::{PlayerWorld, comment, preamble, snake, wrapped};
use std::collections::{HashMap, HashSet};
use wit_parser::abi::{AbiVariant, FlatTypes, WasmType};
use wit_parser::{Function, SizeAlign, Type, TypeDefKind, TypeId};

pub(super) fn generate(w: &PlayerWorld) -> Result<Vec<(String, String)>, String> {
    let mut sizes = SizeAlign::default();
    sizes.fill(&w.resolve);
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
        player.push_str(&format!("{} {{\n", sig.proto));
        for (name, _) in &sig.params {
            player.push_str(&format!("  (void){name};\n"));
        }
        if let Some(t) = &f.result {
            player.push_str(&format!("  {} answer = {};\n  return answer;\n", g.ty(t)?, zero(w, t)));
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
         // The calls of the world, written in player.c.\n{protos}\n#endif\n",
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
    let player = format!(
        "{}#include \"abi.h\"\n\n{}",
        wrapped(&preamble(w), "// "),
        player.trim_end_matches('\n').to_string() + "\n"
    );
    Ok(vec![("abi.h".into(), header), ("abi.c".into(), abi), ("player.c".into(), player)])
}

/// The C side of one call: its prototype in player.c, and its parameters (name, C type, by pointer).
struct Sig {
    proto: String,
    params: Vec<(String, bool)>,
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
            other => return Err(super::cannot(&other)),
        })
    }

    /// Whether a value of `t` is passed as itself (a number, bool, enum or flags) rather than by pointer.
    fn by_value(&self, t: &Type) -> bool {
        match self.w.deref(t) {
            Type::Id(id) => matches!(self.w.resolve.types[id].kind, TypeDefKind::Enum(_) | TypeDefKind::Flags(_)),
            Type::String => false,
            _ => true,
        }
    }

    /// The call's C prototype in player.c: compound arguments by const pointer, scalars by value.
    fn signature(&mut self, f: &Function) -> Result<Sig, String> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        for p in &f.params {
            let t = self.ty(&p.ty)?;
            let by_ptr = !self.by_value(&p.ty);
            let name = ident(&p.name);
            args.push(if by_ptr { format!("const {t} *{name}") } else { format!("{t} {name}") });
            params.push((name, by_ptr));
        }
        let ret = match &f.result {
            Some(t) => self.ty(t)?,
            None => "void".into(),
        };
        let args = if args.is_empty() { "void".into() } else { args.join(", ") };
        Ok(Sig { proto: format!("{ret} player_{}({args})", snake(&f.name)), params })
    }

    /// The exported wrapper of one call and its post-return function.
    fn glue(&mut self, f: &Function, sig: &Sig) -> Result<String, String> {
        let core = self.w.resolve.wasm_signature(AbiVariant::GuestExport, f);
        let fname = snake(&f.name);
        let mut body = String::new();
        let mut core_params = Vec::new();
        let mut call_args = Vec::new();
        if core.indirect_params {
            // Too many flat values: the arguments are a record in memory, laid out as a struct of them.
            let mut fields = String::new();
            for p in &f.params {
                fields.push_str(&format!("    {} {};\n", self.ty(&p.ty)?, ident(&p.name)));
            }
            body.push_str(&format!("  const struct {{\n{fields}  }} *args = (const void *)(uintptr_t)(uint32_t)p0;\n"));
            core_params.push("int32_t p0".to_string());
            for (name, by_ptr) in &sig.params {
                call_args.push(if *by_ptr { format!("&args->{name}") } else { format!("args->{name}") });
            }
        } else {
            let slots: Vec<(String, WasmType)> =
                core.params.iter().enumerate().map(|(i, t)| (format!("p{i}"), *t)).collect();
            core_params = slots.iter().map(|(n, t)| format!("{} {n}", flat_c(*t))).collect();
            let mut at = 0;
            for (p, (name, by_ptr)) in f.params.iter().zip(&sig.params) {
                body.push_str(&format!("  {} {name};\n", self.ty(&p.ty)?));
                at += self.lift(&p.ty, name, &slots[at..], "  ", &mut body)?;
                call_args.push(if *by_ptr { format!("&{name}") } else { name.clone() });
            }
        }
        let call = format!("player_{fname}({})", call_args.join(", "));
        let (ret, post) = match (&f.result, core.results.as_slice()) {
            (None, _) | (Some(_), []) => {
                body.push_str(&format!("  {call};\n"));
                ("void".to_string(), "void".to_string())
            }
            (Some(t), [_]) if core.retptr => {
                let (ct, align) = (self.ty(t)?, self.sizes.align(t).align_wasm32());
                body.push_str(&format!(
                    "  {ct} *ret = cm32p2_realloc(0, 0, {align}, sizeof({ct}));\n  *ret = {call};\n  return (int32_t)(uintptr_t)ret;\n"
                ));
                ("int32_t".to_string(), "int32_t ret".to_string())
            }
            (Some(t), [flat]) => {
                body.push_str(&format!("  {} answer = {call};\n", self.ty(t)?));
                body.push_str(&format!("  return {};\n", self.lower_single(t, "answer", *flat)?));
                (flat_c(*flat).to_string(), format!("{} ret", flat_c(*flat)))
            }
            _ => return Err("a call with more than one flat result".into()),
        };
        let unused = if post == "void" { "" } else { "  (void)ret;\n" };
        let core_params = if core_params.is_empty() { "void".into() } else { core_params.join(", ") };
        Ok(format!(
            "// {name}\nEXPORT(\"cm32p2||{name}\")\n{ret} export_{fname}({core_params}) {{\n{body}}}\n\n\
             EXPORT(\"cm32p2||{name}_post\")\nvoid export_{fname}_post({post}) {{\n{unused}  heap_reset();\n}}\n\n",
            name = f.name
        ))
    }

    /// Reads a flat value of type `want` from a slot whose core type is `have` (a variant's payload
    /// slots hold the widest type any case puts there).
    fn read(slot: &(String, WasmType), want: WasmType) -> Result<String, String> {
        let have = match slot.1 {
            WasmType::Pointer | WasmType::Length => WasmType::I32,
            WasmType::PointerOrI64 => WasmType::I64,
            t => t,
        };
        let want = match want {
            WasmType::Pointer | WasmType::Length => WasmType::I32,
            WasmType::PointerOrI64 => WasmType::I64,
            t => t,
        };
        let n = &slot.0;
        Ok(match (have, want) {
            (h, w) if h == w => n.clone(),
            (WasmType::I64, WasmType::I32) => format!("(int32_t){n}"),
            (WasmType::I32 | WasmType::I64, WasmType::F32) => format!("f32_bits((uint32_t){n})"),
            (WasmType::I64, WasmType::F64) => format!("f64_bits((uint64_t){n})"),
            _ => return Err("a flat value the canonical ABI never joins".into()),
        })
    }

    /// Statements that fill the C lvalue `dst` of type `t` from the flat values in `slots`; returns
    /// how many it read.
    fn lift(
        &mut self,
        t: &Type,
        dst: &str,
        slots: &[(String, WasmType)],
        ind: &str,
        out: &mut String,
    ) -> Result<usize, String> {
        let slot = |i: usize| slots.get(i).ok_or_else(|| "fewer flat values than the type needs".to_string());
        let t = self.w.deref(t);
        if let Some(ct) = Self::scalar(&t) {
            let want = match t {
                Type::U64 | Type::S64 => WasmType::I64,
                Type::F32 => WasmType::F32,
                Type::F64 => WasmType::F64,
                _ => WasmType::I32,
            };
            let v = Self::read(slot(0)?, want)?;
            out.push_str(&if t == Type::Bool {
                format!("{ind}{dst} = {v} != 0;\n")
            } else {
                format!("{ind}{dst} = ({ct}){v};\n")
            });
            return Ok(1);
        }
        let list = |elem: &str, out: &mut String| -> Result<usize, String> {
            out.push_str(&format!(
                "{ind}{dst}.ptr = ({elem} *)(uintptr_t)(uint32_t){};\n{ind}{dst}.len = (uint32_t){};\n",
                Self::read(slot(0)?, WasmType::I32)?,
                Self::read(slot(1)?, WasmType::I32)?
            ));
            Ok(2)
        };
        let Type::Id(id) = t else {
            return match t {
                Type::String => list("char", out),
                _ => Err("an error-context".into()),
            };
        };
        match self.w.resolve.types[id].kind.clone() {
            TypeDefKind::List(e) => {
                let et = self.ty(&e)?;
                list(&et, out)
            }
            TypeDefKind::Record(r) => {
                let mut at = 0;
                for f in &r.fields {
                    at += self.lift(&f.ty, &format!("{dst}.{}", ident(&f.name)), &slots[at..], ind, out)?;
                }
                Ok(at)
            }
            TypeDefKind::Tuple(tu) => {
                let mut at = 0;
                for (i, t) in tu.types.iter().enumerate() {
                    at += self.lift(t, &format!("{dst}.f{i}"), &slots[at..], ind, out)?;
                }
                Ok(at)
            }
            TypeDefKind::Enum(_) | TypeDefKind::Flags(_) => {
                let ct = self.ty(&t)?;
                out.push_str(&format!("{ind}{dst} = ({ct}){};\n", Self::read(slot(0)?, WasmType::I32)?));
                Ok(1)
            }
            kind @ (TypeDefKind::Variant(_) | TypeDefKind::Option(_) | TypeDefKind::Result(_)) => {
                // (tag field, C case names with their payloads) per kind.
                let cases: Vec<(String, Option<Type>)> = match &kind {
                    TypeDefKind::Variant(v) => {
                        v.cases.iter().map(|c| (format!("val.{}", ident(&c.name)), c.ty)).collect()
                    }
                    TypeDefKind::Option(t) => vec![(String::new(), None), ("val".into(), Some(*t))],
                    TypeDefKind::Result(r) => vec![("val.ok".into(), r.ok), ("val.err".into(), r.err)],
                    _ => unreachable!(),
                };
                let tag = match kind {
                    TypeDefKind::Variant(_) => "tag",
                    TypeDefKind::Option(_) => "is_some",
                    _ => "is_err",
                };
                let disc = Self::read(slot(0)?, WasmType::I32)?;
                out.push_str(&format!("{ind}{dst}.{tag} = {disc};\n{ind}switch ({disc}) {{\n"));
                let payload = cases.iter().map(|(_, t)| t.map_or(0, |t| self.flat_count(&t))).max().unwrap_or(0);
                let rest = slots.get(1..1 + payload).ok_or("fewer flat values than the type needs")?;
                for (i, (field, t)) in cases.iter().enumerate() {
                    if let Some(t) = t {
                        out.push_str(&format!("{ind}  case {i}:\n"));
                        self.lift(t, &format!("{dst}.{field}"), rest, &format!("{ind}    "), out)?;
                        out.push_str(&format!("{ind}    break;\n"));
                    }
                }
                out.push_str(&format!("{ind}  default:\n{ind}    break;\n{ind}}}\n"));
                Ok(1 + payload)
            }
            TypeDefKind::Type(t) => self.lift(&t, dst, slots, ind, out),
            other => Err(super::cannot(&other)),
        }
    }

    /// The one flat value an answer of type `t` lowers to, as a C expression of `flat`'s type.
    fn lower_single(&mut self, t: &Type, v: &str, flat: WasmType) -> Result<String, String> {
        let cast = flat_c(flat);
        let t = self.w.deref(t);
        if Self::scalar(&t).is_some() {
            return Ok(format!("({cast}){v}"));
        }
        let Type::Id(id) = t else { return Err("a string answer needs memory".into()) };
        match self.w.resolve.types[id].kind.clone() {
            TypeDefKind::Enum(_) | TypeDefKind::Flags(_) => Ok(format!("({cast}){v}")),
            TypeDefKind::Variant(_) => Ok(format!("({cast}){v}.tag")),
            TypeDefKind::Record(r) => {
                let f = r.fields.iter().find(|f| self.flat_count(&f.ty) == 1).ok_or("an answer of no flat value")?;
                self.lower_single(&f.ty, &format!("{v}.{}", ident(&f.name)), flat)
            }
            TypeDefKind::Tuple(tu) => {
                let (i, t) = tu
                    .types
                    .iter()
                    .enumerate()
                    .find(|(_, t)| self.flat_count(t) == 1)
                    .ok_or("an answer of no flat value")?;
                self.lower_single(t, &format!("{v}.f{i}"), flat)
            }
            other => Err(format!("a {} answer in one flat value", other.as_str())),
        }
    }
}

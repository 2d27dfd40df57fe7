//! The C starter's glue, call by call: each export's prototype in player.c, and its wrapper in abi.c
//! that lifts the arguments from their flat values (or reads them from memory), calls the player, and
//! lowers the answer (as one flat value, or through a return area).

use super::{Gen, Sig, flat_c, ident};
use crate::starter::snake;
use wit_parser::abi::{AbiVariant, WasmType};
use wit_parser::{Function, Type, TypeDefKind};

impl Gen<'_> {
    /// Whether a value of `t` is passed as itself (a number, bool, enum or flags) rather than by pointer.
    fn by_value(&self, t: &Type) -> bool {
        match self.w.deref(t) {
            Type::Id(id) => matches!(self.w.resolve.types[id].kind, TypeDefKind::Enum(_) | TypeDefKind::Flags(_)),
            Type::String => false,
            _ => true,
        }
    }

    /// The call's C prototype in player.c: compound arguments by const pointer, scalars by value.
    pub(super) fn signature(&mut self, f: &Function) -> Result<Sig, String> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut types = Vec::new();
        for p in &f.params {
            let t = self.ty(&p.ty)?;
            types.push(t.clone());
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
        Ok(Sig { proto: format!("{ret} player_{}({args})", snake(&f.name)), params, types })
    }

    /// The exported wrapper of one call and its post-return function.
    pub(super) fn glue(&mut self, f: &Function, sig: &Sig) -> Result<String, String> {
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
            other => Err(crate::starter::cannot(&other)),
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

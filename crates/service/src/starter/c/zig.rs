//! The names the generated Zig starter gives: identifiers that are no Zig keyword, and the glue's C
//! types as Zig spells them.

/// Zig's keywords and primitive type names, which a parameter may not be called (it gets a `_`).
const ZIG_RESERVED: [&str; 60] = [
    "addrspace",
    "align",
    "allowzero",
    "and",
    "anyframe",
    "anytype",
    "asm",
    "break",
    "callconv",
    "catch",
    "comptime",
    "const",
    "continue",
    "defer",
    "else",
    "enum",
    "errdefer",
    "error",
    "export",
    "extern",
    "fn",
    "for",
    "if",
    "inline",
    "linksection",
    "noalias",
    "noinline",
    "nosuspend",
    "opaque",
    "or",
    "orelse",
    "packed",
    "pub",
    "resume",
    "return",
    "struct",
    "suspend",
    "switch",
    "test",
    "threadlocal",
    "try",
    "union",
    "unreachable",
    "var",
    "volatile",
    "while",
    "bool",
    "void",
    "type",
    "anyerror",
    "isize",
    "usize",
    "f16",
    "f32",
    "f64",
    "f80",
    "f128",
    "noreturn",
    "true",
    "false",
];

pub(super) fn zig_ident(name: &str) -> String {
    let int = |s: &str| s.len() > 1 && s[1..].chars().all(|c| c.is_ascii_digit()) && s.starts_with(['u', 'i']);
    if ZIG_RESERVED.contains(&name) || int(name) { format!("{name}_") } else { name.to_string() }
}

/// A C type of the glue as Zig names it: a number as itself, any other through abi.zig.
pub(super) fn zig_type(c: &str) -> String {
    let known = [
        ("bool", "bool"),
        ("uint8_t", "u8"),
        ("uint16_t", "u16"),
        ("uint32_t", "u32"),
        ("uint64_t", "u64"),
        ("int8_t", "i8"),
        ("int16_t", "i16"),
        ("int32_t", "i32"),
        ("int64_t", "i64"),
        ("float", "f32"),
        ("double", "f64"),
    ];
    known.iter().find(|(k, _)| *k == c).map_or_else(|| format!("abi.{c}"), |(_, z)| z.to_string())
}

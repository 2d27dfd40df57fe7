//! Starters generated from a game's WIT: the C glue, written by Arena rather than by a toolchain, passes
//! every kind of value through unchanged (flat and in memory, variants whose payloads share slots,
//! too many arguments, answers of one flat value and in memory); and a game without templates of its
//! own (Nim, pennies) gets a starter in every language that builds and plays.

use super::*;
use wasmtime::component::{Component, Linker, Val};

/// A world with every kind of value a player can be given or answer.
const WIT: &str = r#"
package arena:abitest@0.1.0;

interface types {
    variant shape { circle(f32), square(u64), dot, label(string) }
    enum colour { red, green, blue }
    flags perms { read, write, exec }
    record mix {
        a: option<u8>,
        b: result<u32, string>,
        c: shape,
        d: tuple<bool, f64, char>,
        e: list<option<shape>>,
        f: colour,
        g: perms,
        h: s16,
        i: string,
    }
}

world player {
    use types.{shape, colour, perms, mix};
    export echo-mix: func(m: mix) -> mix;
    export echo-shape: func(s: shape) -> shape;
    export echo-colour: func(c: colour) -> colour;
    export echo-perms: func(p: perms) -> perms;
    export sum: func(a: u32, b: u32, c: u32, d: u32, e: u32, f: u32, g: u32, h: u32, i: u32, j: u32, k: u32,
        l: u32, m: u32, n: u32, o: u32, p: u32, q: u64) -> u64;
    export echo-options: func(a: option<f64>, b: option<s64>, c: result<f32, u64>)
        -> tuple<option<f64>, option<s64>, result<f32, u64>>;
}
"#;

/// The player: every call answers what it was given (the sum, for `sum`).
const ECHO: &str = r#"
#include "abi.h"
mix_t player_echo_mix(const mix_t *m) { return *m; }
shape_t player_echo_shape(const shape_t *s) { return *s; }
colour_t player_echo_colour(colour_t c) { return c; }
perms_t player_echo_perms(perms_t p) { return p; }
uint64_t player_sum(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f, uint32_t g,
                    uint32_t h, uint32_t i, uint32_t j, uint32_t k, uint32_t l, uint32_t m, uint32_t n,
                    uint32_t o, uint32_t p, uint64_t q) {
  return (uint64_t)a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q;
}
tuple3_option_f64_option_s64_result_f32_u64_t player_echo_options(const option_f64_t *a, const option_s64_t *b,
                                                                  const result_f32_u64_t *c) {
  tuple3_option_f64_option_s64_result_f32_u64_t r = {*a, *b, *c};
  return r;
}
"#;

fn tools_path() -> String {
    let tools = players_dir().parent().expect("target dir").join("tools");
    format!(
        "{}:{}:{}:{}",
        tools.join("venv/bin").display(),
        tools.join("py-venv/bin").display(),
        tools.join("node/node_modules/.bin").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn generated_c_glue_passes_every_kind_of_value_through_unchanged() {
    let root = tempfile::tempdir().unwrap();
    let package = root.path().join("abitest");
    std::fs::create_dir_all(package.join("wit")).unwrap();
    std::fs::write(package.join("wit/abitest.wit"), WIT).unwrap();
    let project = root.path().join("echo");
    std::fs::create_dir_all(&project).unwrap();
    for (path, text) in arena_service::starter::generate(&package, "c").unwrap() {
        std::fs::write(project.join(path), text.replace("{{name}}", "echo")).unwrap();
    }
    // Every layout is checked when the header compiles; the generated player.c gives way to the echo.
    let header = std::fs::read_to_string(project.join("abi.h")).unwrap();
    assert!(header.contains("_Static_assert(sizeof(mix_t) =="), "{header}");
    std::fs::write(project.join("player.c"), ECHO).unwrap();
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates/c");
    std::fs::copy(templates.join("alloc.c"), project.join("alloc.c")).unwrap();
    let build = std::fs::read_to_string(templates.join("build.sh")).unwrap().replace("{{game}}", "abitest");
    std::fs::write(project.join("build.sh"), build).unwrap();
    std::fs::create_dir_all(project.join("wit")).unwrap();
    std::fs::write(project.join("wit/abitest.wit"), WIT).unwrap();
    let built = Command::new("sh").arg(project.join("build.sh")).env("PATH", tools_path()).output().unwrap();
    assert!(
        built.status.success(),
        "build.sh failed:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );

    let mut config = wasmtime::Config::new();
    config.wasm_component_model(true);
    let engine = wasmtime::Engine::new(&config).unwrap();
    let component = Component::from_file(&engine, project.join("player.wasm")).unwrap();
    let mut linker = Linker::<()>::new(&engine);
    linker.instance("arena:abitest/types@0.1.0").unwrap();
    let mut store = wasmtime::Store::new(&engine, ());
    let instance = linker.instantiate(&mut store, &component).unwrap();
    let mut call = |name: &str, args: Vec<Val>| -> Val {
        let f = instance.get_func(&mut store, name).unwrap_or_else(|| panic!("no export {name}"));
        let mut out = [Val::Bool(false)];
        f.call(&mut store, &args, &mut out).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        out[0].clone()
    };
    let shapes = [
        Val::Variant("circle".into(), Some(Box::new(Val::Float32(-1.5)))),
        Val::Variant("square".into(), Some(Box::new(Val::U64(u64::MAX - 7)))),
        Val::Variant("dot".into(), None),
        Val::Variant("label".into(), Some(Box::new(Val::String("héllo, world".into())))),
    ];
    // A variant flattens into slots its cases share (an f32, a u64 and a string's pointer in one i64).
    for s in &shapes {
        assert_eq!(&call("echo-shape", vec![s.clone()]), s);
    }
    for c in ["red", "green", "blue"] {
        assert_eq!(call("echo-colour", vec![Val::Enum(c.into())]), Val::Enum(c.into()));
    }
    let perms = Val::Flags(vec!["read".into(), "exec".into()]);
    assert_eq!(call("echo-perms", vec![perms.clone()]), perms);
    // Too many flat values: the arguments arrive in memory.
    let mut args: Vec<Val> = (1..=16).map(Val::U32).collect();
    args.push(Val::U64(1 << 40));
    assert_eq!(call("sum", args), Val::U64((1 << 40) + 136));
    for (a, b, c) in [
        (Some(2.25f64), Some(-9i64), Ok(0.5f32)),
        (None, None, Err(u64::MAX)),
        (Some(-0.0), None, Ok(f32::MIN_POSITIVE)),
    ] {
        let tuple = Val::Tuple(vec![
            Val::Option(a.map(|v| Box::new(Val::Float64(v)))),
            Val::Option(b.map(|v| Box::new(Val::S64(v)))),
            Val::Result(c.map(|v| Some(Box::new(Val::Float32(v)))).map_err(|e| Some(Box::new(Val::U64(e))))),
        ]);
        let Val::Tuple(args) = tuple.clone() else { unreachable!() };
        assert_eq!(call("echo-options", args), tuple);
    }
    // A record too big for flat values, with every kind of field, lists of variants among them.
    for (i, shape) in shapes.iter().enumerate() {
        let mix = Val::Record(vec![
            ("a".into(), Val::Option((i % 2 == 0).then(|| Box::new(Val::U8(200 + i as u8))))),
            (
                "b".into(),
                Val::Result(if i % 2 == 0 {
                    Ok(Some(Box::new(Val::U32(i as u32 * 1000))))
                } else {
                    Err(Some(Box::new(Val::String(format!("no {i}")))))
                }),
            ),
            ("c".into(), shape.clone()),
            ("d".into(), Val::Tuple(vec![Val::Bool(i == 1), Val::Float64(i as f64 / 3.0), Val::Char('ß')])),
            (
                "e".into(),
                Val::List(
                    shapes
                        .iter()
                        .take(i + 1)
                        .map(|s| Val::Option(Some(Box::new(s.clone()))))
                        .chain([Val::Option(None)])
                        .collect(),
                ),
            ),
            ("f".into(), Val::Enum(["red", "green", "blue"][i % 3].into())),
            ("g".into(), Val::Flags(vec!["write".into()])),
            ("h".into(), Val::S16(-(i as i16) * 1000)),
            ("i".into(), Val::String("ünïcode ✓".repeat(i + 1))),
        ]);
        assert_eq!(call("echo-mix", vec![mix.clone()]), mix);
    }
}

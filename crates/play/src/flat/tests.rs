//! The flat form's tests: every kind of value there and back, refilled in place, shelved, hostile bytes.

use super::*;
use wasmtime::component::Component;

/// The last of the types declared in `decls` (WAT, each one's name bound to the ones before), read
/// from a component's export `f` taking a list of it.
fn type_of(decls: &[&str]) -> Shape {
    Shape::of(&wit_type(decls)).expect("a flat form")
}

fn wit_type(decls: &[&str]) -> Type {
    let mut types = String::new();
    for (i, decl) in decls.iter().enumerate() {
        types += &format!("(type $t{i}' {decl}) (export $t{i} \"t{i}\" (type $t{i}'))\n");
    }
    let last = decls.len() - 1;
    let wat = format!(
        r#"(component
             (core module $m
               (memory (export "mem") 1)
               (func (export "f") (param i32 i32))
               (func (export "realloc") (param i32 i32 i32 i32) (result i32) i32.const 0))
             (core instance $i (instantiate $m))
             {types}
             (func (export "f") (param "v" (list $t{last}))
               (canon lift (core func $i "f") (memory (core memory $i "mem")) (realloc (core func $i "realloc")))))"#
    );
    let engine = wasmtime::Engine::default();
    let c = Component::new(&engine, wat).expect("the test component builds");
    let Some(wasmtime::component::types::ComponentItem::ComponentFunc(f)) =
        c.component_type().get_export(&engine, "f").map(|e| e.ty)
    else {
        panic!("no export f")
    };
    match f.params().next().expect("one parameter").1 {
        Type::List(l) => l.ty(),
        _ => panic!("not a list"),
    }
}

const EVERYTHING: &[&str] = &[
    r#"(variant (case "none") (case "one" u32) (case "two" (tuple string s64)))"#,
    r#"(enum "red" "green")"#,
    r#"(record
    (field "b" bool) (field "u" u8) (field "s" s8) (field "w" u16) (field "x" s16)
    (field "n" u32) (field "i" s32) (field "l" u64) (field "m" s64)
    (field "f" float32) (field "d" float64) (field "c" char) (field "t" string)
    (field "list" (list (tuple u32 (option string))))
    (field "v" $t0) (field "e" $t1)
    (field "r" (result u32 (error string))))"#,
];

/// A value of [`EVERYTHING`]'s record.
fn everything() -> Val {
    let rec = |fields: Vec<(&str, Val)>| Val::Record(fields.into_iter().map(|(k, v)| (k.into(), v)).collect());
    rec(vec![
        ("b", Val::Bool(true)),
        ("u", Val::U8(255)),
        ("s", Val::S8(-128)),
        ("w", Val::U16(65535)),
        ("x", Val::S16(-32768)),
        ("n", Val::U32(u32::MAX)),
        ("i", Val::S32(i32::MIN)),
        ("l", Val::U64(u64::MAX)),
        ("m", Val::S64(i64::MIN)),
        ("f", Val::Float32(1.5)),
        ("d", Val::Float64(-2.25)),
        ("c", Val::Char('é')),
        ("t", Val::String("héllo".into())),
        (
            "list",
            Val::List(vec![
                Val::Tuple(vec![Val::U32(1), Val::Option(None)]),
                Val::Tuple(vec![Val::U32(2), Val::Option(Some(Box::new(Val::String("x".into()))))]),
            ]),
        ),
        ("v", Val::Variant("two".into(), Some(Box::new(Val::Tuple(vec![Val::String("a".into()), Val::S64(-3)]))))),
        ("e", Val::Enum("green".into())),
        ("r", Val::Result(Err(Some(Box::new(Val::String("no".into())))))),
    ])
}

fn read(ty: &Shape, bytes: &[u8], slot: &mut Val) -> Result<(), Error> {
    let mut r = Reader::shelved(bytes, Vec::new());
    r.value_into(ty, slot)?;
    r.end()
}

/// A list of `n` (index, name) tuples in flat form, the names `prefix` and the index.
fn named(n: u32, prefix: &str) -> (Val, Vec<u8>) {
    let ty = type_of(&["(tuple u32 string)"]);
    let items: Vec<Val> = (0..n).map(|i| Val::Tuple(vec![Val::U32(i), Val::String(format!("{prefix}{i}"))])).collect();
    let mut bytes = Vec::new();
    varint(&mut bytes, u64::from(n));
    for v in &items {
        write(v, &ty, &mut bytes).unwrap();
    }
    (Val::List(items), bytes)
}

#[test]
fn a_list_that_shrinks_and_grows_again_reads_the_same_values_and_reuses_what_it_lost() {
    let ty = Shape::List(Box::new(type_of(&["(tuple u32 string)"])));
    let mut shelf = Vec::new();
    let mut slot = Val::Bool(false);
    let mut read_shelved = |bytes: &[u8], slot: &mut Val| {
        let mut r = Reader::shelved(bytes, std::mem::take(&mut shelf));
        r.value_into(&ty, slot).unwrap();
        r.end().unwrap();
        shelf = r.into_shelf();
        shelf.len()
    };
    let (long, bytes) = named(5, "a-rather-long-name-");
    read_shelved(&bytes, &mut slot);
    assert_eq!(slot, long);
    let Val::List(items) = &slot else { panic!() };
    let Val::Tuple(t) = &items[4] else { panic!() };
    let Val::String(name) = &t[1] else { panic!() };
    let last = name.as_ptr();
    // Shorter: the four it lost are shelved, not dropped.
    let (short, bytes) = named(1, "b");
    assert_eq!(read_shelved(&bytes, &mut slot), 4);
    assert_eq!(slot, short);
    // Longer again: the same values as a read from nothing, in the buffers it lost.
    let (other, bytes) = named(5, "c");
    assert_eq!(read_shelved(&bytes, &mut slot), 0);
    assert_eq!(slot, other);
    let Val::List(items) = &slot else { panic!() };
    let reused =
        items.iter().any(|v| matches!(v, Val::Tuple(t) if matches!(&t[1], Val::String(s) if s.as_ptr() == last)));
    assert!(reused, "the lost elements' buffers were not reused");
    // The shelf is bounded.
    let (many, bytes) = named(SHELF as u32 + 10, "");
    read_shelved(&bytes, &mut slot);
    assert_eq!(slot, many);
    let (_, bytes) = named(0, "");
    assert_eq!(read_shelved(&bytes, &mut slot), SHELF);
}

#[test]
fn every_kind_of_value_goes_there_and_back_and_is_refilled_in_place() {
    let ty = type_of(EVERYTHING);
    let v = everything();
    let mut bytes = Vec::new();
    write(&v, &ty, &mut bytes).unwrap();
    let mut slot = Val::Bool(false);
    read(&ty, &bytes, &mut slot).unwrap();
    assert_eq!(slot, v);
    // Read again into the value already there: the same value, the string's buffer kept.
    let Val::Record(f) = &slot else { panic!() };
    let Val::String(t) = &f[12].1 else { panic!() };
    let before = t.as_ptr();
    read(&ty, &bytes, &mut slot).unwrap();
    assert_eq!(slot, v);
    let Val::Record(f) = &slot else { panic!() };
    let Val::String(t) = &f[12].1 else { panic!() };
    assert_eq!(t.as_ptr(), before);
}

#[test]
fn the_bytes_are_postcards() {
    // What the referee kit writes with postcard for `(3u32, Some("ab"), -2i64)`.
    let ty = type_of(&[r#"(tuple u32 (option string) s64)"#]);
    let v = Val::Tuple(vec![Val::U32(300), Val::Option(Some(Box::new(Val::String("ab".into())))), Val::S64(-2)]);
    let mut bytes = Vec::new();
    write(&v, &ty, &mut bytes).unwrap();
    assert_eq!(bytes, [0xac, 0x02, 1, 2, b'a', b'b', 3]);
}

#[test]
fn hostile_bytes_are_refused_with_a_reason_and_never_read_past_their_end() {
    let ty = type_of(EVERYTHING);
    let mut good = Vec::new();
    write(&everything(), &ty, &mut good).unwrap();
    // Every cut of a good value is refused.
    for n in 0..good.len() {
        let mut slot = Val::Bool(false);
        assert!(read(&ty, &good[..n], &mut slot).is_err(), "a value cut at {n} bytes was read");
    }
    // A byte more is refused.
    let mut longer = good.clone();
    longer.push(0);
    assert!(read(&ty, &longer, &mut Val::Bool(false)).unwrap_err().contains("follow"));
    let list = type_of(&["(list string)"]);
    for (bytes, why) in [
        (vec![0xff, 0xff, 0xff, 0xff, 0x0f], "length"), // 4 billion strings claimed
        (vec![0xff; 11], "varint"),                     // a varint that never ends
        (vec![0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], "overflows"), // past 64 bits
        (vec![1, 2, 0xc3, 0x28], "UTF-8"),              // not UTF-8
    ] {
        let e = read(&list, &bytes, &mut Val::Bool(false)).unwrap_err();
        assert!(e.contains(why), "{bytes:?}: {e}");
    }
    let e = read(&type_of(&["(variant (case \"a\") (case \"b\" u8))"]), &[2], &mut Val::Bool(false)).unwrap_err();
    assert!(e.contains("case 2"), "{e}");
    let e = read(&type_of(&["(option u8)"]), &[2, 0], &mut Val::Bool(false)).unwrap_err();
    assert!(e.contains("tag of 2"), "{e}");
    let e = read(&type_of(&["(tuple u8 bool)"]), &[0, 7], &mut Val::Bool(false)).unwrap_err();
    assert!(e.contains("bool"), "{e}");
    let e = read(&type_of(&["(tuple u16 u8)"]), &[0x80, 0x80, 0x04, 0], &mut Val::Bool(false)).unwrap_err();
    assert!(e.contains("u16"), "{e}");
    let e = read(&type_of(&["(tuple char u8)"]), &[2, b'a', b'b', 0], &mut Val::Bool(false)).unwrap_err();
    assert!(e.contains("char"), "{e}");
}

#[test]
fn flags_have_no_flat_form() {
    assert!(Shape::of(&wit_type(&[r#"(flags "a" "b")"#, r#"(record (field "f" $t0))"#])).is_none());
    assert!(Shape::of(&wit_type(EVERYTHING)).is_some());
}

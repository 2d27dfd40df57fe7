//! The compile cache: a component is compiled once, later runs load it; a damaged entry is compiled
//! again, never trusted.

use super::*;

/// What `arena check --game yahtzee ARGS` prints with its compile cache in `dir`; it must succeed.
fn check(dir: &std::path::Path, args: &[&str]) -> String {
    let out = arena().env("ARENA_CACHE_DIR", dir).args(["check", "--game", "yahtzee"]).args(args).bounded();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    text
}

fn check_line(dir: &std::path::Path, file: &str) -> String {
    let text = check(dir, &[file]);
    text.lines().find(|l| l.contains("compile")).unwrap_or_else(|| panic!("no compile line in {text}")).to_string()
}

#[test]
fn a_second_run_loads_the_compiled_component_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = player("yahtzee-greedy");
    assert!(check_line(dir.path(), &greedy).contains("compiled in"));
    assert!(check_line(dir.path(), &greedy).contains("loaded from the compile cache"));
    // Another file is another entry (beside the game's referee, cached when the package first loads).
    assert!(check_line(dir.path(), &player("yahtzee-random")).contains("compiled in"));
    assert!(cached(dir.path(), &greedy) && cached(dir.path(), &player("yahtzee-random")));
    assert_eq!(compiled_files(dir.path()).len(), 3);
    assert!(dir.path().join("functions").is_dir(), "the compiled functions are kept beside them");
}

/// The compiled components in `dir`, by name.
fn compiled_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
    entries.filter(|p| p.extension().is_some_and(|e| e == "cwasm")).collect()
}

/// The files of compiled functions under `dir`.
pub(crate) fn function_files(dir: &std::path::Path) -> usize {
    fn walk(d: &std::path::Path) -> usize {
        let entries = std::fs::read_dir(d).into_iter().flatten().map(|e| e.unwrap().path());
        entries.map(|p| if p.is_dir() { walk(&p) } else { 1 }).sum()
    }
    walk(&dir.join("functions"))
}

/// Compiles share their compiled functions: a player compiled after another that has many of the same
/// functions (two Rust players: the same standard library) compiles fewer of its own, and what it
/// compiles to is byte for byte what a compile from nothing gives, so it plays the same game with the
/// same fuel.
#[test]
fn compiles_share_functions_and_compile_the_same_code() {
    let (alone, after, other) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (greedy, random) = (player("yahtzee-greedy"), player("yahtzee-random"));
    let full = |dir: &std::path::Path, file: &str| {
        let text = check(dir, &["--seed", "5", file]);
        text.lines().filter(|l| l.contains("fuel") || l.contains("played")).collect::<Vec<_>>().join("\n")
    };
    let cold = full(alone.path(), &greedy);
    full(after.path(), &random);
    let warm = full(after.path(), &greedy);
    full(other.path(), &random);
    assert!(cold.contains("fuel: ") && cold == warm, "the same game, the same fuel:\n{cold}\n{warm}");
    let (a, b, c) = (function_files(alone.path()), function_files(after.path()), function_files(other.path()));
    assert!(a > 0 && c > 0 && b < a + c, "the second compile shares functions with the first ({b} against {a} + {c})");
    let code = |dir: &std::path::Path| {
        let hash = arena_core::sha256_hex(&std::fs::read(&greedy).unwrap());
        let file =
            compiled_files(dir).into_iter().find(|p| p.file_name().unwrap().to_string_lossy().starts_with(&hash));
        std::fs::read(file.expect("greedy is compiled")).unwrap()
    };
    assert!(code(alone.path()) == code(after.path()), "the same compiled code, from shared functions or not");
}

#[test]
fn a_damaged_cache_entry_is_compiled_again() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = player("yahtzee-greedy");
    check_line(dir.path(), &greedy);
    // Compiled components and compiled functions alike.
    fn damage(d: &std::path::Path) {
        for p in std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()) {
            if p.is_dir() { damage(&p) } else { std::fs::write(p, b"not compiled code").unwrap() }
        }
    }
    assert!(function_files(dir.path()) > 0);
    damage(dir.path());
    assert!(check_line(dir.path(), &greedy).contains("compiled in"));
    assert!(check_line(dir.path(), &greedy).contains("loaded from the compile cache"));
}

#[test]
fn no_cache_compiles_and_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena()
        .env("ARENA_CACHE_DIR", dir.path())
        .args(["check", "--game", "yahtzee", "--no-cache", &player("yahtzee-greedy")])
        .bounded();
    assert!(String::from_utf8_lossy(&out.stdout).contains("compiled in"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Compiled code in memory is bounded: past the cap, the component used least recently is let go of
/// (and read back from the disk cache when next loaded); forgetting a component leaves nothing of it in
/// memory or on disk; a sweep removes from the disk what nothing references.
#[test]
fn compiled_code_is_a_bounded_cache_forgotten_and_swept() {
    use arena_core::Limits;
    use arena_sandbox::{Compilation, Sandbox};
    use std::collections::HashSet;
    let dir = tempfile::tempdir().unwrap();
    let files = ["nim-optimal", "nim-cheat", "pennies-heads"].map(player);
    let bytes: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let hashes: Vec<String> = bytes.iter().map(|b| arena_core::sha256_hex(b)).collect();
    let spec = arena_sandbox::WorldSpec::new("test", "arena:", "player");
    let load =
        |s: &Sandbox, i: usize| s.load_bytes(std::path::Path::new(&files[i]), &bytes[i], &spec).unwrap().compilation;
    // Room for about one of them: each new one lets the oldest go.
    let s = Sandbox::new(Limits::default()).unwrap().with_cache_dir(dir.path().to_path_buf()).with_cache_memory(1);
    for i in 0..3 {
        assert!(matches!(load(&s, i), Compilation::Compiled(_)));
        assert_eq!(s.cached_in_memory().0, 1, "one kept in memory at a time");
    }
    assert!(matches!(load(&s, 2), Compilation::InMemory));
    assert!(matches!(load(&s, 0), Compilation::FromDisk(_)), "let go of in memory, read back from disk");
    // A roomy cache keeps all three.
    let roomy = Sandbox::new(Limits::default()).unwrap().with_cache_dir(dir.path().to_path_buf());
    for i in 0..3 {
        load(&roomy, i);
    }
    assert_eq!(roomy.cached_in_memory().0, 3);
    // Forgotten: gone from memory and disk, compiled afresh when loaded again.
    roomy.forget(&hashes[1]);
    assert_eq!(roomy.cached_in_memory().0, 2);
    assert!(!cached(dir.path(), &files[1]));
    assert!(matches!(load(&roomy, 1), Compilation::Compiled(_)));
    // A sweep keeping the first only.
    let keep: HashSet<String> = [hashes[0].clone()].into();
    assert_eq!(roomy.sweep_cache(&keep), 2);
    assert!(cached(dir.path(), &files[0]) && !cached(dir.path(), &files[1]) && !cached(dir.path(), &files[2]));
}

/// However small the components, memory keeps no more of them than its count allows (each may hold a
/// descriptor that the size of its code does not count): a server that has seen a hundred distinct
/// uploads does not hold a hundred compiled components.
#[test]
fn compiled_code_in_memory_is_bounded_in_count_too() {
    use arena_core::Limits;
    use arena_sandbox::{CACHE_MEMORY_ENTRIES, Sandbox};
    let wat = std::fs::read_to_string(player("pennies-wat-panic")).unwrap();
    let spec = arena_sandbox::WorldSpec::new("test", "arena:", "player");
    let s = Sandbox::new(Limits::default()).unwrap();
    for i in 1..=(CACHE_MEMORY_ENTRIES as u32 + 8) {
        // A global of its own: another component, another hash.
        let text = wat.replacen(
            "(global $bump (mut i32) (i32.const 1024))",
            &format!("(global $bump (mut i32) (i32.const {}))", 1024 + 8 * i),
            1,
        );
        assert_ne!(text, wat, "the component changes");
        s.load_bytes(std::path::Path::new("p.wat"), text.as_bytes(), &spec).unwrap();
        assert!(s.cached_in_memory().0 <= CACHE_MEMORY_ENTRIES);
    }
    assert_eq!(s.cached_in_memory().0, CACHE_MEMORY_ENTRIES);
}

#[test]
fn a_server_warms_its_compile_cache_with_the_components_it_is_given() {
    use std::io::BufRead;
    let data = tempfile::tempdir().unwrap();
    let d = data.path().display().to_string();
    // A shipped game's sample player (referenced: kept compiled), and a player nothing references.
    let greedy = player("yahtzee-greedy");
    let looping = player("yahtzee-loop");
    let not_wasm = data.path().join("notes.txt");
    std::fs::write(&not_wasm, "not a component").unwrap();
    let notes = not_wasm.display().to_string();
    // A file that is not there is refused before the server starts, named.
    let out = run(&["serve", "--data", &d, "--listen", "127.0.0.1:0", "--warm", "/no/such/player.wasm"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--warm /no/such/player.wasm: no such file"), "{err}");
    let mut server = arena()
        .args(["serve", "--data", &d, "--listen", "127.0.0.1:0", "--warm", &looping, "--warm", &greedy])
        .args(["--warm", &notes])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = server.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    // Until it has said how each of the three went (whatever else it says).
    let mut said: Vec<String> = Vec::new();
    while said.iter().filter(|l| l.contains("warm")).count() < 3 {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => said.push(line),
            Err(_) => break,
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let said = said.join("\n");
    // It listens first, then says how each went: the component compiled, the other file refused.
    assert!(said.starts_with("Arena serves"), "{said}");
    for file in [&looping, &greedy] {
        assert!(said.contains(&format!("warmed the compile cache with {file} in ")), "{said}");
    }
    assert!(
        said.contains(&format!("--warm {notes}: not warmed: ")) && said.contains("not a WebAssembly file"),
        "{said}"
    );
    // Their functions are kept for the uploads to come; a component itself only when something here
    // references it.
    let compiled = data.path().join("compiled");
    assert!(function_files(&compiled) > 0, "no compiled functions were kept");
    assert!(!cached(&compiled, &looping), "a warming component nothing references was kept");
    assert!(cached(&compiled, &greedy), "a shipped sample player warmed was forgotten");
}

/// Warming the quick compiles compiles quick code into the functions cache even where the component's
/// optimised code is compiled already (a server's first upload validated as quick code is warmed after
/// its optimised compile): its quick functions are kept, and later quick compiles share them.
#[test]
fn warming_quick_compiles_keeps_quick_functions_also_where_the_optimised_code_is_kept() {
    use arena_core::Limits;
    use arena_sandbox::{CompileLimits, Compiler, Sandbox};
    let dir = tempfile::tempdir().unwrap();
    let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let s = Sandbox::new(Limits::default())
        .unwrap()
        .with_compiler(Compiler::Child(exe), CompileLimits::default())
        .with_cache_dir(dir.path().to_path_buf());
    let file = player("yahtzee-greedy");
    let bytes = std::fs::read(&file).unwrap();
    let spec = arena_sandbox::WorldSpec::new("test", "arena:", "player");
    s.load_bytes(std::path::Path::new(&file), &bytes, &spec).unwrap();
    let optimised = function_files(dir.path());
    assert!(optimised > 0 && !s.quick_functions_shared());
    s.warm_quick(std::path::Path::new(&file), &bytes).unwrap();
    assert!(function_files(dir.path()) > optimised, "its quick functions are kept beside its optimised ones");
    assert!(s.quick_functions_shared());
    let err = s.warm_quick(std::path::Path::new("notes.txt"), b"not wasm").unwrap_err().to_string();
    assert!(err.starts_with("notes.txt: "), "{err}");
}

//! `arena check-game`, the conformance run of a game package: every shipped package passes it; a
//! referee that panics on an answer no sample player gives, or loops on one, fails it, naming the game
//! and the flags that play it again (which fail the same way); a package whose WIT disagrees with its
//! referee, or that has no sample player, fails with the reason.

use super::packages::assemble;
use super::*;
use arena_core::Limits;
use arena_play::Package;
use arena_play::fuzz::{Rng, random};
use arena_sandbox::Sandbox;
use std::path::Path;
use std::sync::Arc;
use wasmtime::component::Val;

fn check_game(args: &[&str]) -> (bool, String) {
    let out = arena().arg("check-game").args(args).bounded();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn every_shipped_package_passes_the_check() {
    for game in shipped_games() {
        let game = game.as_str();
        let (ok, out) = check_game(&[game]);
        assert!(ok && out.contains(&format!("ok: {game} passes the check")), "{game}: {out}");
        // Every seat count the game allows, with sample players and with each seat fuzzed.
        let manifest = arena_play::Manifest::read(&players_dir().with_file_name("packages").join(game)).unwrap();
        let seats = manifest.seats();
        for n in seats {
            assert!(out.contains(&format!("{n} seats, sample players ")), "{game}: {out}");
            assert!(out.contains(&format!("{n} seats, one seat fuzzed ")), "{game}: {out}");
        }
        assert!(out.contains("referee fuel") && out.contains("referee ms"), "{game}: {out}");
    }
}

/// A referee and a player built with Debian's Rust toolchain (the fallback for a machine where rustup
/// cannot download the pinned one; `make test` builds Nim's two with it into target/fallback-players)
/// pass the conformance run, as the ones rustup's toolchain built do.
#[test]
fn a_package_built_with_the_debian_fallback_passes_the_check() {
    let built = players_dir().with_file_name("fallback-players");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("nim");
    copy_dir(&players_dir().with_file_name("packages").join("nim"), &root);
    for (file, to) in [("nim-referee", "referee.wasm"), ("nim-optimal", "players/nim-optimal.wasm")] {
        let from = built.join(format!("{file}.wasm"));
        let bytes = std::fs::read(&from)
            .unwrap_or_else(|e| panic!("{}: {e} (`make test` builds it with ARENA_GUEST_FALLBACK=1)", from.display()));
        assert_ne!(bytes, std::fs::read(player(file)).unwrap(), "{file}: the fallback built what rustup's target did");
        std::fs::write(root.join(to), bytes).unwrap();
    }
    let (ok, out) = check_game(&[root.to_str().unwrap()]);
    assert!(ok && out.contains("ok: nim passes the check"), "{out}");
}

/// Nim's package with the broken referee in `trusting` mode (see its source) as its referee.
fn trusting_package(dir: &Path) -> std::path::PathBuf {
    let root = assemble("nim", dir, &["nim-optimal"]);
    std::fs::copy(player("nim-broken-referee"), root.join("referee.wasm")).unwrap();
    let manifest = root.join("game.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n[options.trusting]\ndefault = 1\nmin = 0\nmax = 2\n")).unwrap();
    std::fs::create_dir_all(root.join("wit/deps/game")).unwrap();
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::copy(games.join("games/nim/wit/nim.wit"), root.join("wit/nim.wit")).unwrap();
    std::fs::copy(games.join("wit/game/game.wit"), root.join("wit/deps/game/game.wit")).unwrap();
    root
}

/// The flags the check printed to play its failing game again.
fn replay_flags(out: &str) -> Vec<String> {
    let line = out.lines().find_map(|l| l.trim().strip_prefix("play it again: arena check-game ")).expect(out);
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_referee_that_panics_on_an_answer_no_sample_player_gives_fails_naming_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let root = trusting_package(dir.path());
    let root = root.to_str().unwrap();
    let (ok, out) = check_game(&[root]);
    assert!(!ok, "{out}");
    // The sample players' own games pass: only a fuzzed answer finds the bug.
    let fail = out.lines().find(|l| l.starts_with("FAIL: seed ")).expect(&out);
    assert!(fail.contains("fuzzed") && fail.contains("crash in `step`"), "{out}");
    assert!(fail.contains("index out of bounds") && fail.contains("\"heap\":"), "the panic and the answer: {out}");
    // The flags it prints play that game alone, which fails the same way.
    let flags = replay_flags(&out);
    assert_eq!(flags[0], root);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let (ok, again) = check_game(&args);
    assert!(!ok && again.contains("one game: seed"), "{again}");
    let fail_again = again.lines().find(|l| l.starts_with("FAIL: seed ")).expect(&again);
    assert_eq!(fail_again, fail, "the same failure");
}

#[test]
fn a_referee_that_loops_on_an_answer_fails_on_its_fuel() {
    let dir = tempfile::tempdir().unwrap();
    let root = trusting_package(dir.path());
    let (ok, out) = check_game(&[root.to_str().unwrap(), "--option", "trusting=2", "--seeds", "10"]);
    assert!(!ok, "{out}");
    let fail = out.lines().find(|l| l.starts_with("FAIL: seed ")).expect(&out);
    assert!(fail.contains("fuel in `step`"), "{out}");
    assert!(out.contains("--option trusting=2 --seats 2 --seed "), "the replay keeps the option: {out}");
}

/// A referee whose `step` in flat form answers otherwise than its typed `step` (here it refuses what
/// the typed one takes) fails: the check plays each sample game through both and compares them.
#[test]
fn a_referee_whose_flat_and_typed_steps_disagree_fails() {
    let dir = tempfile::tempdir().unwrap();
    let root = trusting_package(dir.path());
    let manifest = root.join("game.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n[options.flat-bad]\ndefault = 0\nmin = 0\nmax = 5\n")).unwrap();
    let (ok, out) = check_game(&[root.to_str().unwrap(), "--option", "flat-bad=5", "--seeds", "2"]);
    assert!(!ok, "{out}");
    let fail = out.lines().find(|l| l.starts_with("FAIL: seed ")).expect(&out);
    assert!(fail.contains("through its flat `step` and its typed one, the games differ"), "{out}");
    // Without the disagreement the same package's sample games pass that comparison.
    let (_, out) = check_game(&[root.to_str().unwrap(), "--option", "flat-bad=0", "--seeds", "2"]);
    assert!(!out.contains("the games differ"), "{out}");
}

#[test]
fn a_package_whose_wit_or_samples_do_not_fit_fails_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let root = trusting_package(dir.path());
    // The WIT's player world no longer exports what the referee requests.
    let wit = root.join("wit/nim.wit");
    let text = std::fs::read_to_string(&wit).unwrap();
    std::fs::write(&wit, text.replace("export take-turn:", "export take-a-turn:")).unwrap();
    let (ok, out) = check_game(&[root.to_str().unwrap(), "--option", "trusting=0"]);
    assert!(!ok && out.contains("its WIT") && out.contains("no function `take-turn`"), "{out}");
    std::fs::write(&wit, "package arena:nim@0.1.0;\nworld player { export oops }\n").unwrap();
    let (ok, out) = check_game(&[root.to_str().unwrap()]);
    assert!(!ok && out.contains("its WIT") && out.contains("nim.wit"), "a parse error names the file: {out}");
    std::fs::write(&wit, text).unwrap();
    // No sample player: nothing can play the game.
    let manifest = root.join("game.toml");
    let m = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, m.replace("players = [\"players/nim-optimal.wasm\"]", "")).unwrap();
    let (ok, out) = check_game(&[root.to_str().unwrap()]);
    assert!(!ok && out.contains("lists no sample players"), "{out}");
}

/// The fuzzer's values of Yahtzee's `keep` answer (`list<u8>`): empty and maximal lists, the extreme
/// bytes, and never more than the answer limit.
#[test]
fn the_fuzzer_makes_edge_values_within_the_answer_limit() {
    let dir = tempfile::tempdir().unwrap();
    let root = assemble("yahtzee", dir.path(), &[]);
    let pkg = Package::load(Arc::new(Sandbox::new(Limits::default()).unwrap()), &root).unwrap();
    let ty = pkg.answer_type("keep").expect("keep carries a list");
    let limit = Limits::default().answer_bytes as usize;
    let (mut empty, mut longest, mut bytes) = (false, 0, std::collections::BTreeSet::new());
    let mut rng = Rng::new(7);
    for _ in 0..400 {
        let mut budget = limit;
        let v = random(&ty, &mut rng, &mut budget, 0);
        assert!(arena_play::values::size(&v) <= limit + 8, "within the limit");
        let Val::List(items) = v else { panic!("a list: {v:?}") };
        empty |= items.is_empty();
        longest = longest.max(items.len());
        bytes.extend(items.iter().filter_map(|i| if let Val::U8(b) = i { Some(*b) } else { None }));
    }
    assert!(empty, "an empty list");
    assert!(longest >= limit / 8 - 2, "a list as long as the limit allows: {longest}");
    assert!(bytes.contains(&0) && bytes.contains(&255) && bytes.contains(&254), "{bytes:?}");
}

/// A package's WIT is read only up to its size cap: at the cap it is checked, one byte past it is
/// refused before it is parsed, naming the directory.
#[test]
fn wit_past_its_size_cap_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let root = trusting_package(dir.path());
    let (nim, game) = (root.join("wit/nim.wit"), root.join("wit/deps/game/game.wit"));
    let text = std::fs::read_to_string(&nim).unwrap();
    let used = (text.len() + std::fs::read(&game).unwrap().len()) as u64;
    // A comment that fills the WIT up to the cap exactly ("// " and a newline around the padding).
    let pad = |extra: u64| {
        let fill = arena_play::MAX_WIT_BYTES - used - 4 + extra;
        std::fs::write(&nim, format!("{text}// {}\n", "x".repeat(fill as usize))).unwrap();
    };
    pad(0);
    let (_, out) = check_game(&[root.to_str().unwrap(), "--seats", "2", "--seed", "1"]);
    assert!(out.contains("its WIT defines the player and referee worlds"), "at the cap: {out}");
    pad(1);
    let (ok, out) = check_game(&[root.to_str().unwrap(), "--seats", "2", "--seed", "1"]);
    let cap = arena_play::MAX_WIT_BYTES;
    assert!(!ok && out.contains(&format!("{} bytes of WIT; a package may have at most {cap}", cap + 1)), "{out}");
    // A link in deps that loops back up is not followed past deps' folders.
    pad(0);
    std::os::unix::fs::symlink("..", root.join("wit/deps/game/up")).unwrap();
    let (_, out) = check_game(&[root.to_str().unwrap(), "--seats", "2", "--seed", "1"]);
    assert!(out.contains("its WIT defines the player and referee worlds"), "{out}");
}

//! Games from anyone: a package published to a running `arena serve` (`arena publish`, `POST
//! /api/games`) is judged by `arena check-game`, owned by its first publisher, live at once, versioned
//! without losing its players (or refused naming them), and fetched back exactly (`arena
//! fetch-game`); hostile archives and packages are refused with the reason and nothing kept.

use super::web::{Served, client, post_form, rt, serve, upload, user};
use super::{player, players_dir, run};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A JavaScript game package made by `arena new-game` in `root/NAME` and built (componentize-qjs is
/// the one `make players` installed); `edit` changes its sources first.
fn js_game(root: &Path, name: &str, edit: impl Fn(&Path)) -> PathBuf {
    let dir = root.join(name);
    let out = run(&["new-game", "--lang", "js", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    edit(&dir);
    let tools = players_dir().parent().unwrap().join("tools");
    let built = std::process::Command::new(dir.join("build.sh"))
        .env("COMPONENTIZE_QJS", tools.join("node/node_modules/.bin/componentize-qjs"))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    dir
}

/// Replaces `from` by `to` in the file `rel` of the package in `dir`.
fn replace(dir: &Path, rel: &str, from: &str, to: &str) {
    let path = dir.join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{}: no {from:?}", path.display());
    std::fs::write(&path, text.replace(from, to)).unwrap();
}

/// Publishes `bytes` (a .tar.gz) through the API; (status, JSON).
async fn publish(url: &str, token: Option<&str>, bytes: Vec<u8>) -> (u16, serde_json::Value) {
    let form = reqwest::multipart::Form::new()
        .part("package", reqwest::multipart::Part::bytes(bytes).file_name("package.tar.gz"));
    post_form(&format!("{url}/api/games"), token, form).await
}

fn pack(dir: &Path) -> Vec<u8> {
    arena_service::archive::pack(dir).unwrap()
}

/// What the data directory keeps of published packages (folders under packages/), and the versions.
fn kept(s: &Served) -> (usize, i64) {
    let dirs = std::fs::read_dir(s.data.path().join("packages")).map(|d| d.count()).unwrap_or(0);
    let db = rusqlite::Connection::open(s.data.path().join("arena.db")).unwrap();
    let versions = db.query_row("SELECT COUNT(*) FROM published_versions", [], |r| r.get(0)).unwrap();
    (dirs, versions)
}

fn message(v: &serde_json::Value) -> String {
    v["error"]["message"].as_str().unwrap_or_default().to_string()
}

/// A .tar.gz of `entries` written header by header, so that nothing stops what a stranger can send.
fn archive(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (path, kind, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(*kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        if matches!(kind, tar::EntryType::Symlink | tar::EntryType::Link) {
            h.set_link_name("../../../../etc/passwd").unwrap();
        }
        let name = &mut h.as_old_mut().name;
        name[..path.len()].copy_from_slice(path.as_bytes());
        h.set_cksum();
        tar.append(&h, *data).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

/// The files of the package in `dir`, with `swap` (path, bytes) put in place of (or beside) its own.
fn repacked(dir: &Path, swap: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let files = arena_service::archive::package_files(dir).unwrap();
    let mut entries: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read(dir.join(f)).unwrap()))
        .filter(|(p, _)| !swap.iter().any(|(s, _)| s == p))
        .collect();
    entries.extend(swap.iter().map(|(p, b)| (p.to_string(), b.clone())));
    let list: Vec<(&str, tar::EntryType, &[u8])> =
        entries.iter().map(|(p, b)| (p.as_str(), tar::EntryType::Regular, b.as_slice())).collect();
    archive(&list)
}

#[test]
fn a_published_game_is_checked_owned_live_versioned_and_fetched_exactly() {
    let root = tempfile::tempdir().unwrap();
    // With a starter template of its own, for `arena new`.
    let coins = js_game(root.path(), "coins", |d| {
        std::fs::create_dir_all(d.join("templates/python")).unwrap();
        std::fs::write(d.join("templates/python/player.py"), "# {{name}}: a coins player\n").unwrap();
    });
    let s = serve(&[]);
    let alice = user(s.data.path(), "alice", false);
    let bob = user(s.data.path(), "bob", false);
    let admin = user(s.data.path(), "root", true);
    let url = s.url.clone();
    rt().block_on(async {
        // Who is asking is checked before the body is read.
        // (A small body: a large one may meet the connection closed before it is all sent, which is the
        // point of checking first.)
        let (st, v) = publish(&url, None, b"a package".to_vec()).await;
        assert_eq!(st, 401, "{v}");
        let (st, v) = publish(&url, Some("arena_forged"), b"a package".to_vec()).await;
        assert_eq!(st, 401, "{v}");
        assert_eq!(kept(&s), (0, 0));
    });

    // The command line packs and publishes it; it is live at once, with no restart.
    let out = run(&["publish", "--server", &url, "--token", &alice, coins.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Published coins version 1"), "{text}");
    let out = run(&["games", "--server", &url]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains("coins") && listed.contains("published by alice") && listed.contains("nim"), "{listed}");
    let referee_v1 = arena_core::sha256_hex(&std::fs::read(coins.join("referee.wasm")).unwrap());
    // A player started from the server's package, and its templates downloaded.
    let mine = root.path().join("my-coins");
    let out = run(&["new", "--server", &url, "--game", "coins", "--lang", "python", mine.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(mine.join("player.py")).unwrap(), "# my-coins: a coins player\n");
    assert!(std::fs::read_to_string(mine.join("wit/coins.wit")).unwrap().contains("package arena:coins"));
    // Nothing it says points into the scratch folder the package was fetched to, gone by now; a
    // language the game has no template of its own for is generated from its WIT.
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!said.contains("the package") && !said.contains("arena play --game"), "{said}");
    assert!(!said.contains("generated"), "{said}");
    let other = root.path().join("my-coins-c");
    let out = run(&["new", "--server", &url, "--game", "coins", "--lang", "c", other.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("wrote a c player for coins, generated from the game's WIT"), "{said}");
    let glue = std::fs::read_to_string(other.join("abi.c")).unwrap();
    assert!(glue.contains("EXPORT(\"cm32p2||take-turn\")"), "{glue}");

    let scrimmage = rt().block_on(async {
        let games: serde_json::Value =
            client().get(format!("{url}/api/games")).send().await.unwrap().json().await.unwrap();
        let g = games.as_array().unwrap().iter().find(|g| g["name"] == "coins").expect("coins listed").clone();
        assert_eq!(g["owner"], "alice");
        assert_eq!(g["referee"], referee_v1.as_str());
        assert_eq!(g["versions"].as_array().unwrap().len(), 1);
        let page = client().get(format!("{url}/games/coins")).send().await.unwrap().text().await.unwrap();
        assert!(page.contains(&referee_v1) && page.contains("builtin:first") && page.contains("heaps"), "{page}");
        let wit = client().get(format!("{url}/games/coins/wit")).send().await.unwrap().text().await.unwrap();
        assert!(wit.contains("package arena:coins"), "{wit}");
        assert!(page.contains("/games/coins/templates/python.tar.gz"), "{page}");
        // Every language `arena new` writes, the author's own template or one generated from the WIT.
        for lang in ["c", "js", "rust"] {
            let link = format!("/games/coins/templates/{lang}.tar.gz");
            assert!(page.contains(&link), "{page}");
            let res = client().get(format!("{url}{link}")).send().await.unwrap();
            assert_eq!(res.status().as_u16(), 200, "{link}");
        }
        let res = client().get(format!("{url}/games/coins/templates/cobol.tar.gz")).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 404);
        let res = client().get(format!("{url}/games/coins/templates/python.tar.gz")).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200);
        let bytes = res.bytes().await.unwrap();
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
        let files: Vec<PathBuf> = tar.entries().unwrap().map(|e| e.unwrap().path().unwrap().into_owned()).collect();
        assert_eq!(files, [PathBuf::from("player.py")]);
        let res = client().get(format!("{url}/games/coins/templates/cobol.tar.gz")).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 404);

        // The name is alice's: bob cannot publish a version of it; nor can anyone take a shipped game's name.
        let before = kept(&s);
        let (st, v) = publish(&url, Some(&bob), pack(&coins)).await;
        assert_eq!(st, 403, "{v}");
        assert!(message(&v).contains("belongs to account alice"), "{v}");
        let nim = players_dir().parent().unwrap().join("packages/nim");
        let (st, v) = publish(&url, Some(&bob), pack(&nim)).await;
        assert_eq!(st, 403, "{v}");
        assert!(message(&v).contains("one of this arena's own games"), "{v}");
        // The same referee again is nothing new.
        let (st, v) = publish(&url, Some(&alice), pack(&coins)).await;
        assert_eq!(st, 409, "{v}");
        assert!(message(&v).contains("identical to coins version 1") && message(&v).contains("nothing"), "{v}");
        assert_eq!(kept(&s), before, "nothing kept");

        // A player for it, uploaded as for any game.
        let first = std::fs::read(coins.join("players/first.wasm")).unwrap();
        let (st, v) = upload(&url, Some(&bob), "coins", "bobcoin", "first.wasm", first).await;
        assert_eq!(st, 201, "{v}");

        // Its built-in opponent (its sample player) is offered for scrimmages, and plays one, unrated and
        // on no list of registered players.
        let session = super::web::sign_in(&url, &bob).await;
        let (body, csrf) = super::web::page(&format!("{url}/players/bobcoin"), &session).await;
        assert!(body.contains("<option value=\"builtin:first\">"), "{body}");
        let form = [("csrf", csrf.as_str()), ("game", "coins"), ("player", "bobcoin"), ("opponent", "builtin:first")];
        let res =
            client().post(format!("{url}/scrimmages")).header("cookie", &session).form(&form).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 303);
        let id: u64 = res.headers()["location"].to_str().unwrap().trim_start_matches("/tournaments/").parse().unwrap();
        let t = super::web::finished(&url, id).await;
        assert_eq!(t["tournament"]["rated"], false, "{t}");
        let games = super::web::get_json(&format!("{url}/api/tournaments/{id}/games")).await;
        let seated: Vec<&str> =
            games["games"][0]["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(seated, ["bobcoin", "builtin:first"], "{games}");
        assert!(games["games"][0]["faults"].as_array().unwrap().is_empty(), "{games}");
        // (A leaderboard may be up to a second stale.)
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let board = super::web::get_json(&format!("{url}/api/games/coins/leaderboard")).await;
        let names: Vec<&str> = board.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["bobcoin"], "only bobcoin is registered: {board}");
        let form = [("csrf", csrf.as_str()), ("game", "coins"), ("player", "bobcoin"), ("opponent", "builtin:nosuch")];
        let res =
            client().post(format!("{url}/scrimmages")).header("cookie", &session).form(&form).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 404);
        id
    });

    // A new version keeps its players when they still load; one that changes the player world is refused
    // naming them; one whose referee loops on an answer fails check-game, naming the seed.
    let v2 = js_game(root.path(), "v2/coins", |d| replace(d, "referee/referee.js", "takes", "removes"));
    let v3 = js_game(root.path(), "v3/coins", |d| {
        replace(d, "wit/coins.wit", "take-turn", "take-move");
        replace(d, "wit/referee.wit", "take-turn", "take-move");
        replace(d, "referee/referee.js", "take-turn", "take-move");
        replace(d, "players/first.js", "takeTurn", "takeMove");
    });
    let looping = js_game(root.path(), "loop/coins", |d| {
        replace(
            d,
            "referee/referee.js",
            "if (count === 0 || count > stones) return",
            "if (count === 0 || count > stones) for (;;) {}; if (false) return",
        )
    });
    rt().block_on(async {
        let (st, v) = publish(&url, Some(&alice), pack(&v2)).await;
        assert_eq!(st, 201, "{v}");
        assert_eq!((v["version"].as_u64(), v["players_kept"].as_u64()), (Some(2), Some(1)), "{v}");
        assert_eq!(v["url"], "/games/coins");
        let before = kept(&s);
        let (st, v) = publish(&url, Some(&alice), pack(&v3)).await;
        assert_eq!(st, 422, "{v}");
        assert!(message(&v).contains("bobcoin") && message(&v).contains("new name"), "{v}");
        let (st, v) = publish(&url, Some(&alice), pack(&looping)).await;
        assert_eq!(st, 422, "{v}");
        let m = message(&v);
        assert!(m.contains("fails `arena check-game`") && m.contains("seed") && m.contains("--fuzz-seat"), "{m}");
        assert_eq!(kept(&s), before, "nothing kept");
        let g: serde_json::Value =
            client().get(format!("{url}/api/games/coins")).send().await.unwrap().json().await.unwrap();
        assert_eq!(g["versions"].as_array().unwrap().len(), 2, "{g}");
    });

    // The exact package, locally: its referee is the server's, and it plays offline.
    let fetched = root.path().join("fetched");
    let out = run(&["fetch-game", "--server", &url, "coins", fetched.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let referee_v2 = arena_core::sha256_hex(&std::fs::read(fetched.join("referee.wasm")).unwrap());
    assert_eq!(referee_v2, arena_core::sha256_hex(&std::fs::read(v2.join("referee.wasm")).unwrap()));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&referee_v2));
    let out = run(&["play", "--game", fetched.to_str().unwrap(), "--seed", "3", "a=builtin:first", "b=builtin:first"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("removes"), "the fetched package is version 2");
    // Fetching into a directory that is not empty is refused; so is a game the arena does not have.
    let out = run(&["fetch-game", "--server", &url, "coins", fetched.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&["fetch-game", "--server", &url, "nosuch", root.path().join("x").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game `nosuch`"));

    // The operator hides it (off the lists, still played), removes it (no new players), lists it again.
    rt().block_on(async {
        let listing = |token: String, l: &'static str| {
            let url = url.clone();
            async move {
                let res = client()
                    .post(format!("{url}/api/games/coins/listing"))
                    .bearer_auth(token)
                    .json(&serde_json::json!({ "listing": l }))
                    .send()
                    .await
                    .unwrap();
                (res.status().as_u16(), res.text().await.unwrap())
            }
        };
        assert_eq!(listing(alice.clone(), "hidden").await.0, 403, "an admin's choice");
        let (st, body) = listing(admin.clone(), "hidden").await;
        assert_eq!(st, 200, "{body}");
        let games = client().get(format!("{url}/api/games")).send().await.unwrap().text().await.unwrap();
        assert!(!games.contains("\"coins\""), "{games}");
        let page = client().get(format!("{url}/games/coins")).send().await.unwrap();
        assert_eq!(page.status().as_u16(), 200);
        assert_eq!(listing(admin.clone(), "removed").await.0, 200);
        let first = std::fs::read(v2.join("players/first.wasm")).unwrap();
        let (st, v) = upload(&url, Some(&bob), "coins", "late", "f.wasm", first).await;
        assert_eq!(st, 403, "{v}");
        assert!(message(&v).contains("removed by the operator"), "{v}");
        // Its stored tournaments stay readable, their games replayed through the referee they were played with.
        for path in [format!("/api/tournaments/{scrimmage}"), format!("/tournaments/{scrimmage}/games/R1-M1-G1")] {
            let res = client().get(format!("{url}{path}")).send().await.unwrap();
            assert_eq!(res.status().as_u16(), 200, "{path}");
        }
        assert_eq!(listing(admin.clone(), "listed").await.0, 200);
        assert_eq!(listing(admin.clone(), "gone").await.0, 400);
    });

    // A version whose referee passes the check but fails in live games (it loops when both seats' names
    // start with `doom`) is suspended once more than 5 of its latest 20 games fail; nobody is rated on
    // them, it takes no new player, and a new version lifts the suspension.
    let doom = js_game(root.path(), "doom/coins", |d| {
        replace(
            d,
            "referee/referee.js",
            "export function start(setup) {",
            "export function start(setup) {\n  if (setup.names.every((n) => n.startsWith(\"doom\"))) for (;;) {}",
        );
    });
    rt().block_on(async {
        let (st, v) = publish(&url, Some(&alice), pack(&doom)).await;
        assert_eq!(st, 201, "{v}");
        let first = std::fs::read(doom.join("players/first.wasm")).unwrap();
        for name in ["doom1", "doom2"] {
            let (st, v) = upload(&url, Some(&bob), "coins", name, "f.wasm", first.clone()).await;
            assert_eq!(st, 201, "{v}");
        }
        let session = super::web::sign_in(&url, &admin).await;
        let (_, csrf) = super::web::page(&format!("{url}/tournaments"), &session).await;
        let form = [("csrf", csrf.as_str()), ("game", "coins"), ("format", "round-robin"), ("games_per_match", "7")];
        let res =
            client().post(format!("{url}/tournaments")).header("cookie", &session).form(&form).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 303);
        let id: u64 = res.headers()["location"].to_str().unwrap().trim_start_matches("/tournaments/").parse().unwrap();
        let t = super::web::finished(&url, id).await;
        assert_eq!(t["game_faults"].as_array().map(Vec::len), Some(7), "{t}");
        let mut g = serde_json::Value::Null;
        for _ in 0..100 {
            g = client().get(format!("{url}/api/games/coins")).send().await.unwrap().json().await.unwrap();
            if g["suspended"].is_string() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(
            g["suspended"].as_str().unwrap_or_default().contains("of its latest 20 games (more than 5 of 20"),
            "{g}"
        );
        let page = client().get(format!("{url}/games/coins")).send().await.unwrap().text().await.unwrap();
        assert!(page.contains("id=\"game-closed\"") && page.contains("suspended"), "{page}");
        let board: serde_json::Value =
            client().get(format!("{url}/api/games/coins/leaderboard")).send().await.unwrap().json().await.unwrap();
        let doom1 = board.as_array().unwrap().iter().find(|l| l["name"] == "doom1").unwrap();
        assert_eq!(doom1["games"]["won"].as_u64().unwrap() + doom1["games"]["lost"].as_u64().unwrap(), 7, "{doom1}");
        let (st, v) = upload(&url, Some(&bob), "coins", "doom3", "f.wasm", first.clone()).await;
        assert_eq!(st, 403, "{v}");
        assert!(message(&v).contains("suspended"), "{v}");
        let (st, v) = publish(&url, Some(&alice), pack(&v2)).await;
        assert_eq!(st, 201, "{v}");
        let g: serde_json::Value =
            client().get(format!("{url}/api/games/coins")).send().await.unwrap().json().await.unwrap();
        assert!(g["suspended"].is_null(), "{g}");
    });
}

#[test]
fn hostile_packages_are_refused_with_the_reason_and_nothing_kept() {
    let root = tempfile::tempdir().unwrap();
    let heaps = js_game(root.path(), "heaps", |_| {});
    let s = serve(&["--max-upload-mb", "4"]);
    let alice = user(s.data.path(), "alice", false);
    let referee = std::fs::read(heaps.join("referee.wasm")).unwrap();
    let bomb = {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let mut tar = tar::Builder::new(gz);
        // Each file under the per-file cap, together past the cap on what a package unpacks to.
        for i in 0..5 {
            let mut h = tar::Header::new_gnu();
            h.set_size(30 << 20);
            h.set_mode(0o644);
            tar.append_data(&mut h, format!("templates/zeros{i}"), std::io::repeat(0).take(30 << 20)).unwrap();
        }
        tar.into_inner().unwrap().finish().unwrap()
    };
    let many: Vec<String> = (0..401).map(|i| format!("templates/f{i}")).collect();
    let many: Vec<(&str, tar::EntryType, &[u8])> =
        many.iter().map(|p| (p.as_str(), tar::EntryType::Regular, &b"x"[..])).collect();
    use tar::EntryType::*;
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("not gzip", b"just some bytes".to_vec(), 422, "not a readable .tar.gz"),
        ("empty", archive(&[]), 422, "empty archive"),
        ("absolute path", archive(&[("/etc/cron.d/x", Regular, b"x")]), 422, "absolute path"),
        ("dot-dot", archive(&[("templates/../../../x", Regular, b"x")]), 422, "`..`"),
        ("symlink", archive(&[("templates/passwd", Symlink, b"")]), 422, "a link"),
        ("hard link", archive(&[("templates/passwd", Link, b"")]), 422, "a link"),
        ("device", archive(&[("templates/null", Char, b"")]), 422, "plain files only"),
        ("fifo", archive(&[("templates/pipe", Fifo, b"")]), 422, "plain files only"),
        ("outside the layout", archive(&[("src/main.rs", Regular, b"x")]), 422, "not a place in a game package"),
        ("hidden file", archive(&[("templates/.bashrc", Regular, b"x")]), 422, "not starting with `.`"),
        ("twice", archive(&[("game.toml", Regular, b"a"), ("game.toml", Regular, b"b")]), 422, "twice"),
        ("too many files", archive(&many), 422, "at most 400"),
        ("gzip bomb", bomb, 422, "unpacks to more than"),
        ("no manifest", archive(&[("referee.wasm", Regular, &referee)]), 422, "game.toml"),
        ("bad manifest", repacked(&heaps, &[("game.toml", b"name = 3".to_vec())]), 422, "not a valid manifest"),
        (
            "a manifest outside the package",
            repacked(&heaps, &[("game.toml", b"name = \"heaps\"\ndescription = \"x\"\nmin_seats = 2\nmax_seats = 2\nreferee = \"../../arena.db\"\n".to_vec())]),
            422,
            "inside the package",
        ),
        (
            "a player world that does not answer the referee's requests",
            repacked(&heaps, &[("wit/heaps.wit", std::fs::read_to_string(heaps.join("wit/heaps.wit")).unwrap().replace("export take-turn", "export take-other").into_bytes())]),
            422,
            "exports no function `take-turn`",
        ),
        ("WIT that does not parse", repacked(&heaps, &[("wit/heaps.wit", b"package arena:heaps; world {".to_vec())]), 422, "its WIT"),
        ("a player as the referee", repacked(&heaps, &[("referee.wasm", std::fs::read(player("pennies-heads")).unwrap())]), 422, "referee"),
        (
            "a referee importing the host",
            repacked(&heaps, &[("referee.wasm", wat::parse_file(super::fixture("forbidden-import.wat")).unwrap())]),
            422,
            "evil:host/files",
        ),
    ];
    rt().block_on(async {
        for (what, bytes, status, says) in cases {
            let (st, v) = publish(&s.url, Some(&alice), bytes).await;
            assert_eq!(st, status, "{what}: {v}");
            assert!(message(&v).contains(says), "{what}: {v}");
            assert!(message(&v).contains("nothing"), "{what}: {v}");
            assert!(!message(&v).contains(".publish-"), "{what}: the scratch folder shows: {v}");
            assert_eq!(kept(&s), (0, 0), "{what}: something was kept");
        }
        // Over the size cap: 413, or the connection closes before the whole body is sent; nothing kept.
        let form = reqwest::multipart::Form::new()
            .part("package", reqwest::multipart::Part::bytes(vec![0u8; 5 << 20]).file_name("package.tar.gz"));
        let res = client().post(format!("{}/api/games", s.url)).bearer_auth(&alice).multipart(form).send().await;
        if let Ok(res) = res {
            assert_eq!(res.status().as_u16(), 413);
            assert!(res.text().await.unwrap().contains("size cap"));
        }
        assert_eq!(kept(&s), (0, 0), "too large: something was kept");
        // Nothing written outside the data directory either.
        assert!(!root.path().join("x").exists());
        // The package itself still publishes, and the daily limit is per account.
        let (st, v) = publish(&s.url, Some(&alice), pack(&heaps)).await;
        assert_eq!(st, 201, "{v}");
    });
    // A publication cut short (the server killed while checking) leaves nothing behind once it starts again.
    let data = s.stop();
    let stale = data.path().join("packages/.publish-cut-short");
    std::fs::create_dir_all(stale.join("wit")).unwrap();
    std::fs::write(stale.join("game.toml"), "name = \"x\"").unwrap();
    let again = super::web::serve_in(data, &[]);
    assert!(!stale.exists(), "a stale scratch folder is kept");
    assert_eq!(kept(&again).1, 1, "the published version is kept");
    drop(again);
    let admins_only = serve(&["--publishers", "admins"]);
    let bob = user(admins_only.data.path(), "bob", false);
    rt().block_on(async {
        // (Refused before the body is read: a small one is sent, so the answer always arrives.)
        let (st, v) = publish(&admins_only.url, Some(&bob), b"a package".to_vec()).await;
        assert_eq!(st, 403, "{v}");
        assert!(message(&v).contains("only admins"), "{v}");
    });
    let limited = serve(&["--publishes-per-day", "0"]);
    let carol = user(limited.data.path(), "carol", false);
    rt().block_on(async {
        let (st, v) = publish(&limited.url, Some(&carol), pack(&heaps)).await;
        assert_eq!(st, 429, "{v}");
    });
}

//! `arena serve` over HTTP on loopback: the API's uploads (validated, owned, refused with reasons,
//! capped, rate-limited, nothing stored when refused), forms that need their CSRF token, escaping of
//! what strangers send, scrimmages that are never rated, the command line against a remote arena, and
//! `arena replay --html`. (The pages in a real browser: tests/browser.)

use super::{arena, cached, player, run};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

/// A running `arena serve` on a loopback port the system chose, stopped when dropped.
pub(super) struct Served {
    child: Child,
    pub(super) url: String,
    pub(super) data: tempfile::TempDir,
}

impl Served {
    /// Stops the server and keeps its data directory.
    pub(super) fn stop(mut self) -> tempfile::TempDir {
        std::mem::replace(&mut self.data, tempfile::tempdir().unwrap())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) fn serve(flags: &[&str]) -> Served {
    let data = tempfile::tempdir().unwrap();
    serve_in(data, flags)
}

pub(super) fn serve_in(data: tempfile::TempDir, flags: &[&str]) -> Served {
    let d = data.path().display().to_string();
    let mut child = arena()
        .args(["serve", "--data", &d, "--listen", "127.0.0.1:0"])
        .args(flags)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start arena serve");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("arena serve says where it listens").unwrap();
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).expect("an address").trim_end_matches('/');
    let url = url.to_string();
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Served { child, url, data }
}

pub(super) fn user(data: &Path, name: &str, admin: bool) -> String {
    let d = data.display().to_string();
    let mut args = vec!["user", "add", name, "--data", &d];
    if admin {
        args.push("--admin");
    }
    let out = run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let token = text.split_whitespace().last().unwrap().to_string();
    assert!(token.starts_with("arena_") && token.len() > 60, "{text}");
    // Only the hash is stored.
    let db = std::fs::read(data.join("arena.db")).unwrap();
    assert!(!db.windows(token.len()).any(|w| w == token.as_bytes()), "the token is stored in the clear");
    token
}

/// Submits each (name, sample player) for `game` into the store at `data`, from the command line.
pub(super) fn submit_all(data: &str, game: &str, players: &[(&str, &str)]) {
    for (name, p) in players {
        let out = run(&["submit", "--data", data, "--game", game, "--name", name, &player(p)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

/// A registered round robin of `game` in the store at `data`, from the command line, with `more` flags;
/// its JSON result.
pub(super) fn round_robin(data: &str, game: &str, more: &[&str]) -> serde_json::Value {
    let mut args =
        vec!["tournament", "--data", data, "--game", game, "--registered", "--format", "round-robin", "--json"];
    args.extend_from_slice(more);
    super::run_json(&args)
}

pub(super) fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

pub(super) fn client() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// Uploads `bytes` as `file_name` through the API; (status, JSON).
pub(super) async fn upload(
    url: &str,
    token: Option<&str>,
    game: &str,
    name: &str,
    file_name: &str,
    bytes: Vec<u8>,
) -> (u16, serde_json::Value) {
    let form = reqwest::multipart::Form::new()
        .text("game", game.to_string())
        .text("name", name.to_string())
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_string()));
    post_form(&format!("{url}/api/players"), token, form).await
}

/// Posts a multipart form to `to` (with a bearer token); (status, JSON, or the body as a string).
pub(super) async fn post_form(
    to: &str,
    token: Option<&str>,
    form: reqwest::multipart::Form,
) -> (u16, serde_json::Value) {
    let mut req = client().post(to).multipart(form);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let body = res.text().await.unwrap();
    (status, serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body)))
}

fn file(name: &str) -> Vec<u8> {
    std::fs::read(player(name)).unwrap()
}

pub(super) async fn get_json(url: &str) -> serde_json::Value {
    client().get(url).send().await.unwrap().json().await.unwrap()
}

fn components(data: &Path) -> usize {
    std::fs::read_dir(data.join("components")).map(|d| d.count()).unwrap_or(0)
}

#[test]
fn api_uploads_are_validated_owned_and_refused_with_reasons() {
    let s = serve(&[]);
    let alice = user(s.data.path(), "alice", false);
    let bob = user(s.data.path(), "bob", false);
    rt().block_on(async {
        let (st, v) = upload(&s.url, Some(&alice), "pennies", "heads1", "heads.wasm", file("pennies-heads")).await;
        assert_eq!(st, 201, "{v}");
        assert_eq!(
            (v["name"].as_str(), v["version"].as_u64(), v["new_player"].as_bool()),
            (Some("heads1"), Some(1), Some(true))
        );
        assert!(v["validation"]["opponent"].as_str().unwrap().starts_with("builtin:"), "{v}");
        assert!(v["validation"]["calls"].as_u64().unwrap() > 0, "{v}");

        // The name is alice's: bob cannot upload a version of it, nor take it in another game.
        let (st, v) = upload(&s.url, Some(&bob), "pennies", "heads1", "mine.wasm", file("pennies-alternate")).await;
        assert_eq!(st, 403, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("belongs to account alice"), "{v}");
        let (st, _) = upload(&s.url, Some(&bob), "nim", "heads1", "mine.wasm", file("nim-optimal")).await;
        assert_eq!(st, 403);
        // Alice can: a second version.
        let (st, v) = upload(&s.url, Some(&alice), "pennies", "heads1", "alt.wasm", file("pennies-alternate")).await;
        assert_eq!((st, v["version"].as_u64()), (201, Some(2)), "{v}");

        let (st, v) = upload(&s.url, None, "pennies", "anon", "heads.wasm", file("pennies-heads")).await;
        assert_eq!(st, 401, "{v}");
        let (st, _) = upload(&s.url, Some("arena_0000"), "pennies", "anon", "heads.wasm", file("pennies-heads")).await;
        assert_eq!(st, 401);

        // Not a component, a looping one, a game that is a path, a bad name: refused, saying why.
        let (st, v) = upload(&s.url, Some(&bob), "pennies", "junk", "junk.wasm", b"hello, arena".to_vec()).await;
        assert_eq!(st, 422, "{v}");
        let why = v["error"]["message"].as_str().unwrap();
        assert!(why.starts_with("junk.wasm: ") && why.contains("nothing was stored"), "{why}");
        assert!(!why.contains(&s.data.path().display().to_string()), "the server's paths leak: {why}");
        let (st, v) = upload(&s.url, Some(&bob), "yahtzee", "loopy", "loop.wat", file("yahtzee-wat-loop")).await;
        assert_eq!(st, 422, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("fuel in"), "{v}");
        let (st, _) = upload(&s.url, Some(&bob), "../../games/nim", "x", "x.wasm", file("nim-optimal")).await;
        assert_eq!(st, 400);
        let (st, v) = upload(&s.url, Some(&bob), "nim", "<b>x</b>", "x.wasm", file("nim-optimal")).await;
        assert_eq!(st, 400, "{v}");

        let board = get_json(&format!("{}/api/games/pennies/leaderboard", s.url)).await;
        let names: Vec<&str> = board.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["heads1"]);
        assert_eq!(get_json(&format!("{}/api/games/yahtzee/leaderboard", s.url)).await, serde_json::json!([]));
        // Two stored files (the two versions), nothing of the refused uploads, no upload left behind: an
        // upload is validated from its bytes, and the data directory holds the store's layout alone.
        assert_eq!(components(s.data.path()), 2);
        // Nothing compiled of the refused looping upload is kept on disk either.
        let compiled = s.data.path().join("compiled");
        assert!(cached(&compiled, &player("pennies-heads")), "an accepted upload stays compiled");
        assert!(!cached(&compiled, &player("yahtzee-wat-loop")), "a refused upload's compiled code is kept");
        let layout = ["arena.db", "arena.db-wal", "arena.db-shm", "components", "compiled", "locks", "packages"];
        for entry in std::fs::read_dir(s.data.path()).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(layout.contains(&name.as_str()), "{name} is left in the data directory");
        }
        let p = get_json(&format!("{}/api/players/heads1", s.url)).await;
        assert_eq!((p["name"].as_str(), p["owner"].as_str()), (Some("heads1"), Some("alice")), "{p}");
        let stats = &p["games"][0];
        assert_eq!((stats["game"].as_str(), stats["versions"].as_u64()), (Some("pennies"), Some(2)), "{p}");
    });
}

#[test]
fn uploads_over_the_cap_or_the_rate_are_refused_and_nothing_is_stored() {
    let s = serve(&["--max-upload-mb", "1", "--uploads-per-hour", "2"]);
    let alice = user(s.data.path(), "alice", false);
    rt().block_on(async {
        let big = vec![0u8; 3 << 20];
        let form = reqwest::multipart::Form::new()
            .text("game", "pennies")
            .text("name", "big")
            .part("file", reqwest::multipart::Part::bytes(big).file_name("big.wasm"));
        let res = client().post(format!("{}/api/players", s.url)).bearer_auth(&alice).multipart(form).send().await;
        // The server refuses the body: 413, or the connection closes before the whole body is sent.
        if let Ok(res) = res {
            let status = res.status().as_u16();
            assert_eq!(status, 413, "{}", res.text().await.unwrap_or_default());
        }
        assert_eq!(components(s.data.path()), 0);
        let (a, _) = upload(&s.url, Some(&alice), "pennies", "one", "a.wasm", file("pennies-heads")).await;
        let (b, _) = upload(&s.url, Some(&alice), "pennies", "two", "b.wasm", file("pennies-alternate")).await;
        let (c, v) = upload(&s.url, Some(&alice), "pennies", "three", "c.wasm", file("pennies-loud")).await;
        assert_eq!((a, b, c), (201, 201, 429), "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("2 uploads an hour"), "{v}");
        assert_eq!(components(s.data.path()), 2);

        // At the cap a file is read (and refused for what it is); one byte past it is not.
        let bob = user(s.data.path(), "bob", false);
        let (st, v) = upload(&s.url, Some(&bob), "pennies", "atcap", "cap.wasm", vec![7u8; 1 << 20]).await;
        assert_eq!(st, 422, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("not a WebAssembly file"), "{v}");
        let (st, v) = upload(&s.url, Some(&bob), "pennies", "past", "past.wasm", vec![7u8; (1 << 20) + 1]).await;
        assert_eq!(st, 413, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("over the size cap of 1 MiB"), "{v}");
        // A name or a token far past any bound is refused as such, quickly.
        let long = "n".repeat(100_000);
        let (st, v) = upload(&s.url, Some(&bob), "pennies", &long, "h.wasm", file("pennies-heads")).await;
        assert_eq!(st, 400, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("1 to 40 characters"), "{v}");
        let (st, _) = upload(&s.url, Some(&"a".repeat(10_000)), "pennies", "x", "h.wasm", file("pennies-heads")).await;
        assert_eq!(st, 401);
        assert_eq!(components(s.data.path()), 2);
    });
}

/// Signs in through the form; the session cookie.
pub(super) async fn sign_in(url: &str, token: &str) -> String {
    let res = client().get(format!("{url}/signin")).send().await.unwrap();
    let cookie = res.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let page = res.text().await.unwrap();
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let res = client()
        .post(format!("{url}/signin"))
        .header("cookie", cookie)
        .form(&[("csrf", csrf.as_str()), ("token", token)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303);
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"), "{set}");
    set.split(';').next().unwrap().to_string()
}

/// A page as the session sees it, and the CSRF token of its forms.
pub(super) async fn page(url: &str, session: &str) -> (String, String) {
    let res = client().get(url).header("cookie", session).send().await.unwrap();
    let csp = res.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
    let body = res.text().await.unwrap();
    let csrf = body.split("name=\"csrf\" value=\"").nth(1).map(|s| s.split('"').next().unwrap().to_string());
    (body, csrf.unwrap_or_default())
}

#[test]
fn forms_need_their_csrf_token_and_what_strangers_send_is_escaped() {
    let s = serve(&[]);
    let alice = user(s.data.path(), "alice", false);
    rt().block_on(async {
        // A wrong token is refused on the page, a good one signs in.
        let res = client().get(format!("{}/signin", s.url)).send().await.unwrap();
        let cookie = res.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
        let body = res.text().await.unwrap();
        let csrf = body.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
        let bad = client()
            .post(format!("{}/signin", s.url))
            .header("cookie", &cookie)
            .form(&[("csrf", csrf.as_str()), ("token", "arena_nope")])
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status().as_u16(), 401);
        let forged = client().post(format!("{}/signin", s.url)).form(&[("csrf", "x"), ("token", alice.as_str())]);
        assert_eq!(forged.send().await.unwrap().status().as_u16(), 403);

        let session = sign_in(&s.url, &alice).await;
        let (body, csrf) = page(&format!("{}/upload", s.url), &session).await;
        assert!(body.contains("id=\"whoami\">alice<"), "not signed in");
        let post = |csrf: &str, name: &str, file_name: &str, bytes: Vec<u8>| {
            let form = reqwest::multipart::Form::new()
                .text("csrf", csrf.to_string())
                .text("game", "pennies")
                .text("name", name.to_string())
                .part("file", reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_string()));
            client().post(format!("{}/upload", s.url)).header("cookie", session.clone()).multipart(form).send()
        };
        // Without the form's token (a cross-site post): refused, nothing stored.
        let res = post("", "heads", "h.wasm", file("pennies-heads")).await.unwrap();
        assert_eq!(res.status().as_u16(), 403);
        assert_eq!(components(s.data.path()), 0);
        // A file name with markup comes back as text.
        let evil = "<img src=x onerror=alert(1)>.wasm";
        let res = post(&csrf, "junk", evil, b"not wasm".to_vec()).await.unwrap();
        let body = res.text().await.unwrap();
        assert!(body.contains("data-outcome=\"refused\""), "{body}");
        assert!(body.contains("&#60;img src=x onerror=alert(1)&#62;.wasm"), "{body}");
        assert!(!body.contains("<img src=x"), "markup from an upload reached the page");
        let res = post(&csrf, "heads", "h.wasm", file("pennies-heads")).await.unwrap();
        let body = res.text().await.unwrap();
        assert!(body.contains("data-outcome=\"accepted\""), "{body}");
        assert!(body.contains("validation game against builtin:"), "{body}");

        // Signing out needs the token too; afterwards the session is gone.
        let res = client().post(format!("{}/signout", s.url)).header("cookie", &session).form(&[("csrf", "x")]);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 403);
        let res =
            client().post(format!("{}/signout", s.url)).header("cookie", &session).form(&[("csrf", csrf.as_str())]);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 303);
        let (body, _) = page(&format!("{}/upload", s.url), &session).await;
        assert!(body.contains("id=\"signin-link\""), "still signed in after signing out");
    });
}

/// Waits until tournament `id` is finished; its API document.
pub(super) async fn finished(url: &str, id: u64) -> serde_json::Value {
    for _ in 0..600 {
        let v = get_json(&format!("{url}/api/tournaments/{id}")).await;
        if v["tournament"]["status"] == "finished" {
            return v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("tournament {id} did not finish");
}

#[test]
fn admins_start_tournaments_and_scrimmages_are_played_but_never_rated() {
    let s = serve(&[]);
    let admin = user(s.data.path(), "root", true);
    let alice = user(s.data.path(), "alice", false);
    rt().block_on(async {
        for (name, p) in [("heads", "pennies-heads"), ("alt", "pennies-alternate")] {
            let (st, v) = upload(&s.url, Some(&alice), "pennies", name, &format!("{p}.wasm"), file(p)).await;
            assert_eq!(st, 201, "{v}");
        }
        let (st, _) = upload(&s.url, Some(&admin), "pennies", "loud", "loud.wasm", file("pennies-loud")).await;
        assert_eq!(st, 201);

        // Only an admin may start a tournament.
        let alice_session = sign_in(&s.url, &alice).await;
        let (_, csrf) = page(&format!("{}/tournaments", s.url), &alice_session).await;
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("format", "round-robin"), ("games_per_match", "2")];
        let res = client().post(format!("{}/tournaments", s.url)).header("cookie", &alice_session).form(&form);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 403);

        let session = sign_in(&s.url, &admin).await;
        let (body, csrf) = page(&format!("{}/tournaments", s.url), &session).await;
        assert!(body.contains("id=\"start-tournament\""));
        let form = [
            ("csrf", csrf.as_str()),
            ("game", "pennies"),
            ("format", "round-robin"),
            ("games_per_match", "2"),
            ("seed", "9"),
        ];
        let res = client()
            .post(format!("{}/tournaments", s.url))
            .header("cookie", &session)
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 303);
        assert_eq!(res.headers()["location"], "/tournaments/1");
        let t = finished(&s.url, 1).await;
        assert_eq!(t["tournament"]["rated"], true);
        assert_eq!(t["tournament"]["started_by"], "root");
        assert_eq!(t["tournament"]["seed"], "9", "64-bit values are strings: {t}");
        let games = get_json(&format!("{}{}", s.url, t["games"].as_str().unwrap())).await;
        assert_eq!(games["games"].as_array().unwrap().len(), 6, "{games}");
        assert_eq!(games["next"], serde_json::Value::Null, "one page: {games}");
        let before = get_json(&format!("{}/api/games/pennies/leaderboard", s.url)).await;

        // Alice's scrimmage: heads against loud (not hers, which is allowed), from heads' page.
        let (body, csrf) = page(&format!("{}/players/heads", s.url), &alice_session).await;
        assert!(body.contains("class=\"scrimmage\""), "no scrimmage form for the owner");
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("player", "heads"), ("opponent", "loud")];
        let res = client().post(format!("{}/scrimmages", s.url)).header("cookie", &alice_session).form(&form);
        let res = res.send().await.unwrap();
        assert_eq!((res.status().as_u16(), res.headers()["location"].to_str().unwrap()), (303, "/tournaments/2"));
        let t = finished(&s.url, 2).await;
        assert_eq!(
            (t["tournament"]["rated"].as_bool(), t["tournament"]["games"].as_u64()),
            (Some(false), Some(1)),
            "{t}"
        );
        let after = get_json(&format!("{}/api/games/pennies/leaderboard", s.url)).await;
        assert_eq!(before, after, "a scrimmage changed the ratings");
        // Nobody scrimmages with a player that is not theirs.
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("player", "loud"), ("opponent", "heads")];
        let res = client().post(format!("{}/scrimmages", s.url)).header("cookie", &alice_session).form(&form);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 403);

        // The replay page re-runs the game; a spectator's copy holds no private event, loud's owner
        // sees its own events and its log (escaped into JSON the browser reads as text).
        let games = get_json(&format!("{}{}", s.url, t["games"].as_str().unwrap())).await;
        let game = games["games"][0]["id"].as_str().unwrap().to_string();
        let spectator = client().get(format!("{}/tournaments/2/games/{game}", s.url)).send().await.unwrap();
        let spectator = spectator.text().await.unwrap();
        assert!(spectator.contains("id=\"replay-data\"") && !spectator.contains("both choices are in"));
        assert!(!spectator.contains("alert("), "a spectator was sent a player's log");
        let (mine, _) = page(&format!("{}/tournaments/2/games/{game}", s.url), &session).await;
        assert!(mine.contains("both choices are in"), "the owner does not see its private events");
        assert!(mine.contains("\\u003cscript\\u003ealert('log')"), "the log is missing or unescaped");
        assert!(!mine.contains("<script>alert"), "a log's script reached the page as markup");
        let jsonl = client().get(format!("{}/tournaments/2/games/{game}.jsonl", s.url)).send().await.unwrap();
        let jsonl = jsonl.text().await.unwrap();
        assert!(jsonl.lines().next().unwrap().contains("\"type\":\"header\""));
        assert!(
            !jsonl.contains("both choices are in") && !jsonl.contains("alert("),
            "the spectator's download holds private data"
        );
    });
}

#[test]
fn the_command_line_uploads_to_and_reads_from_a_remote_arena() {
    let s = serve(&[]);
    let alice = user(s.data.path(), "alice", false);
    let out = run(&[
        "submit",
        "--server",
        &s.url,
        "--token",
        &alice,
        "--game",
        "nim",
        "--name",
        "opt",
        &player("nim-optimal"),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Submitted opt version 1 for nim"), "{text}");
    // The validation game's figures, read from the API's strings: its fuel is not zero.
    let game = text.lines().find(|l| l.contains("its validation game against")).unwrap_or_else(|| panic!("{text}"));
    let fuel = game.split("; fuel ").nth(1).and_then(|f| f.split(' ').next()).unwrap_or_else(|| panic!("{game}"));
    assert!(fuel.parse::<u64>().is_ok_and(|f| f > 0), "{game}");
    assert!(
        ["compiled in ", "compiled already", "compiled as quick code in "].iter().any(|w| text.contains(w)),
        "{text}"
    );
    let out = run(&[
        "submit",
        "--server",
        &s.url,
        "--token",
        "arena_bad",
        "--game",
        "nim",
        "--name",
        "x",
        &player("nim-optimal"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("401"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&["leaderboard", "--server", &s.url, "--game", "nim", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["name"], "opt");
    // The same fields as the local command's.
    let d = s.data.path().display().to_string();
    let local = run(&["leaderboard", "--data", &d, "--game", "nim", "--json"]);
    assert_eq!(v, serde_json::from_slice::<serde_json::Value>(&local.stdout).unwrap());
    let out = run(&["leaderboard", "--server", &s.url, "--game", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    // A component the server has not compiled yet plays its validation game as quick code, and the
    // server compiles its code for games at once, in the background.
    let checker = player("pennies-loud");
    let compiled = s.data.path().join("compiled");
    assert!(!cached(&compiled, &checker));
    let out = run(&["submit", "--server", &s.url, "--token", &alice, "--game", "pennies", "--name", "loud", &checker]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("compiled as quick code in "), "{text}");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !cached(&compiled, &checker) {
        assert!(std::time::Instant::now() < until, "its code for games is compiled and kept");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn replay_html_is_one_file_that_plays_offline_and_keeps_secrets() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().display().to_string();
    submit_all(&d, "pennies", &[("loud", "pennies-loud"), ("heads", "pennies-heads")]);
    round_robin(&d, "pennies", &["--games-per-match", "1", "--seed", "3"]);
    let html = tmp.path().join("replay.html");
    let out = run(&["replay", "--data", &d, "1/R1-M1-G1", "--html", &html.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("id=\"replay-data\"") && page.contains("\"players\":[\"loud\",\"heads\"]"));
    assert!(page.contains("getElementById") && !page.contains("src=\"/assets"), "the viewer is not inlined");
    assert!(
        !page.contains("both choices are in") && !page.contains("alert("),
        "private events or logs in a public file"
    );
    assert!(page.contains("rounds; seat 0 takes a round"), "public events are missing");
}

/// A knockout's page ranks its players by the round they reached (those out in one round share a
/// place), as its result does, and draws the bracket with a column a round.
#[test]
fn a_knockouts_page_ranks_by_round_reached_and_draws_the_bracket() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().display().to_string();
    let five = [
        ("g1", "yahtzee-greedy"),
        ("r1", "yahtzee-random"),
        ("g2", "yahtzee-greedy"),
        ("r2", "yahtzee-random"),
        ("r3", "yahtzee-random"),
    ];
    submit_all(&d, "yahtzee", &five);
    let args = [
        "tournament",
        "--data",
        &d,
        "--game",
        "yahtzee",
        "--registered",
        "--format",
        "knockout",
        "--seed",
        "5",
        "--json",
    ];
    let r = super::run_json(&args);
    let ranking: Vec<Vec<String>> = serde_json::from_value(r["ranking"].clone()).unwrap();
    let s = serve_in(tmp, &[]);
    rt().block_on(async {
        let page = client().get(format!("{}/tournaments/1", s.url)).send().await.unwrap().text().await.unwrap();
        let bracket = page.find("id=\"bracket\"").unwrap_or_else(|| panic!("no bracket: {page:.3000}"));
        let columns = page[bracket..].matches("class=\"bracket-round\"").count();
        assert_eq!(columns, 3, "8 slots: three rounds");
        assert!(page[bracket..].contains("<h4>Final</h4>"), "{page:.3000}");
        // The standings, in page order: (place, name).
        let table = &page[page.find("id=\"standings-table\"").unwrap()..];
        let rows: Vec<(usize, String)> = table
            .split("<tr data-player=\"")
            .skip(1)
            .map(|row| {
                let name = row[..row.find('"').unwrap()].to_string();
                let place = row.split("<td class=\"num\">").nth(1).unwrap();
                (place[..place.find('<').unwrap()].parse().unwrap(), name)
            })
            .collect();
        let mut want = vec![];
        let mut place = 1;
        for p in &ranking {
            let mut names = p.clone();
            names.sort();
            want.extend(names.into_iter().map(|n| (place, n)));
            place += p.len();
        }
        let mut got = rows.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "the page's places are the result's ranking: {ranking:?}");
        assert_eq!(rows[0].1, ranking[0][0], "the champion first");
    });
}

/// A round robin between two identical players ties: the page ranks neither first, and their series
/// says it was a tie.
#[test]
fn a_tied_round_robin_shares_first_place_and_says_tie() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().display().to_string();
    submit_all(&d, "yahtzee", &[("a", "yahtzee-greedy"), ("b", "yahtzee-greedy")]);
    let r = round_robin(&d, "yahtzee", &["--games-per-match", "2", "--seed", "9"]);
    assert_eq!(r["ranking"], serde_json::json!([["a", "b"]]), "identical players tie: {}", r["ranking"]);
    let s = serve_in(tmp, &[]);
    rt().block_on(async {
        let page = client().get(format!("{}/tournaments/1", s.url)).send().await.unwrap().text().await.unwrap();
        let table = &page[page.find("id=\"standings-table\"").unwrap()..];
        let places: Vec<&str> = table
            .split("<tr data-player=\"")
            .skip(1)
            .map(|row| {
                let cell = row.split("<td class=\"num\">").nth(1).unwrap();
                &cell[..cell.find('<').unwrap()]
            })
            .collect();
        assert_eq!(places, ["1", "1"], "{table:.1500}");
        // Their ratings by these games overlap: each could be first or second, on the page and in the API.
        assert_eq!(table.matches("<td class=\"num rank-range\"").count(), 2, "{table:.1500}");
        assert_eq!(table.matches(">1–2</td>").count(), 2, "{table:.1500}");
        let v = get_json(&format!("{}/api/tournaments/1", s.url)).await;
        let standings = v["standings"].as_array().unwrap_or_else(|| panic!("{v}"));
        for st in standings {
            assert_eq!(st["rank_range"], serde_json::json!([1, 2]), "{st}");
            let i = st["interval"].as_array().unwrap();
            assert!(i[0].as_f64() < i[1].as_f64(), "{st}");
        }
        let matches = &page[page.find("class=\"matches\"").unwrap()..];
        assert!(matches.contains("<td>tie</td>"), "{matches:.1500}");
    });
}

#[test]
fn tournaments_started_on_the_web_are_played_by_workers_with_nats() {
    use super::cluster::{nats, worker};
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url) = nats(&tmp.path().join("nats"));
    let _worker = worker(&url, &tmp.path().join("w0"), "30");
    let s = serve(&["--nats", &url]);
    let admin = user(s.data.path(), "root", true);
    rt().block_on(async {
        for (name, p) in [("heads", "pennies-heads"), ("alt", "pennies-alternate"), ("loud", "pennies-loud")] {
            let (st, v) = upload(&s.url, Some(&admin), "pennies", name, &format!("{p}.wasm"), file(p)).await;
            assert_eq!(st, 201, "{v}");
        }
        let session = sign_in(&s.url, &admin).await;
        let (_, csrf) = page(&format!("{}/tournaments", s.url), &session).await;
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("format", "round-robin"), ("seed", "9")];
        let res = client().post(format!("{}/tournaments", s.url)).header("cookie", &session).form(&form);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 303);
        let v = finished(&s.url, 1).await;
        assert_eq!(v["tournament"]["games"], 3, "{v}");
        // Watching it: the worker heard from, no job left waiting, and the admin's page names the worker
        // and its last job.
        let text = client().get(format!("{}/metrics", s.url)).send().await.unwrap().text().await.unwrap();
        assert_eq!(metric(&text, "arena_workers_seen"), Some(1.0), "{text}");
        assert_eq!(metric(&text, "arena_jobs_queued"), Some(0.0), "{text}");
        // A ladder started from the web is played by the workers too.
        let (_, csrf) = page(&format!("{}/tournaments", s.url), &session).await;
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("action", "start"), ("parallel", "4")];
        let res =
            client().post(format!("{}/ladders", s.url)).header("cookie", &session).form(&form).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 303);
        let ladder: u64 =
            res.headers()["location"].to_str().unwrap().trim_start_matches("/tournaments/").parse().unwrap();
        for _ in 0..300 {
            if get_json(&format!("{}/api/tournaments/{ladder}", s.url)).await["tournament"]["games"].as_u64() >= Some(5)
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(
            get_json(&format!("{}/api/tournaments/{ladder}", s.url)).await["tournament"]["games"].as_u64() >= Some(5)
        );
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("action", "pause")];
        let res =
            client().post(format!("{}/ladders", s.url)).header("cookie", &session).form(&form).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 303);
        let (account, _) = page(&format!("{}/account", s.url), &session).await;
        let workers = account.split("id=\"workers\"").nth(1).expect("a workers table");
        assert!(workers.contains("data-worker=") && workers.contains("-G1</code>"), "{workers}");
    });
    // The worker fetched the players to play them.
    let fetched = std::fs::read_dir(tmp.path().join("w0").join("components")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(fetched, 3);
    // A server that is not there: a clear error at start.
    let d = tempfile::tempdir().unwrap();
    let (_reserved, port) = super::cluster::closed_port();
    let dead = format!("nats://127.0.0.1:{port}");
    let out = run(&["serve", "--data", &d.path().display().to_string(), "--listen", "127.0.0.1:0", "--nats", &dead]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NATS is unreachable"));
}

#[test]
fn a_ladders_page_shows_its_latest_games_and_standings_counted_by_the_store() {
    let data = tempfile::tempdir().unwrap();
    let d = data.path().display().to_string();
    for (name, p) in [("heads", "pennies-heads"), ("alt", "pennies-alternate"), ("loud", "pennies-loud")] {
        let out = run(&["submit", "--data", &d, "--game", "pennies", "--name", name, &player(p)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = run(&["ladder", "--data", &d, "--game", "pennies", "--games", "250", "--seed", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = serve_in(data, &[]);
    rt().block_on(async {
        let v = get_json(&format!("{}/api/tournaments/1", s.url)).await;
        assert_eq!(v["tournament"]["format"], "ladder");
        // Every game is reachable, page by page (in the order recorded), each once.
        let first = get_json(&format!("{}/api/tournaments/1/games?limit=200", s.url)).await;
        let rest = get_json(&format!("{}{}", s.url, first["next"].as_str().unwrap())).await;
        assert_eq!(rest["next"], serde_json::Value::Null);
        let mut ids: Vec<String> = [&first, &rest]
            .iter()
            .flat_map(|p| p["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()))
            .collect();
        assert_eq!(ids.len(), 250);
        ids.sort();
        ids.dedup();
        let mut expected: Vec<String> = (1..=250).map(|m| format!("R1-M{m}-G1")).collect();
        expected.sort();
        assert_eq!(ids, expected);
        let standings = v["standings"].as_array().unwrap();
        assert_eq!(standings.len(), 3, "{standings:?}");
        let played: u64 = standings.iter().map(|s| s["played"].as_u64().unwrap()).sum();
        assert_eq!(played, 500, "every game's two seats, counted by the store");
        let (page, _) = page(&format!("{}/tournaments/1", s.url), "").await;
        assert!(page.contains("ladder"), "{page}");
    });
}

#[test]
fn games_whose_referee_failed_are_shown_on_the_pages_and_in_the_api_blamed_on_the_package() {
    // Nim players registered with its referee, then a tournament played with a referee that fails.
    let data = tempfile::tempdir().unwrap();
    let pkg = data.path().join("nim-package");
    std::fs::create_dir_all(pkg.join("players")).unwrap();
    let src = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games/nim");
    std::fs::copy(src.join("game.toml"), pkg.join("game.toml")).unwrap();
    std::fs::copy(player("nim-referee"), pkg.join("referee.wasm")).unwrap();
    std::fs::copy(player("nim-optimal"), pkg.join("players/nim-optimal.wasm")).unwrap();
    let (d, game) = (data.path().display().to_string(), pkg.display().to_string());
    submit_all(&d, &game, &[("a", "nim-optimal"), ("b", "nim-optimal")]);
    std::fs::copy(player("nim-broken-referee"), pkg.join("referee.wasm")).unwrap();
    round_robin(&d, &game, &["--games-per-match", "1"]);
    let s = serve_in(data, &[]);
    rt().block_on(async {
        let page = client().get(format!("{}/tournaments/1", s.url)).send().await.unwrap().text().await.unwrap();
        assert!(page.contains("id=\"game-faults\""), "{page}");
        assert!(page.contains("1 game(s) ended in a game fault"), "{page}");
        assert!(page.contains("class=\"package\">package nim</span>"), "the package is named as the culprit: {page}");
        assert!(page.contains("the broken referee gives up"), "{page}");
        assert!(!page.contains("backtrace"), "{page}");
        let board = client().get(format!("{}/games/nim", s.url)).send().await.unwrap().text().await.unwrap();
        assert!(board.contains("1 game(s) ended in a game fault"), "{board}");
        let api = get_json(&format!("{}/api/tournaments/1", s.url)).await;
        assert_eq!(api["game_faults"][0]["call"], "step", "{api}");
        assert_eq!(api["game_faults"].as_array().map(Vec::len), Some(1), "{api}");
        let listed = get_json(&format!("{}/api/games/nim/game-faults", s.url)).await;
        assert_eq!(listed["count"], 1, "{listed}");
        assert_eq!(
            (listed["latest"][0]["tournament"].as_i64(), listed["latest"][0]["call"].as_str()),
            (Some(1), Some("step"))
        );
        // Nobody is rated on it.
        let leaders = get_json(&format!("{}/api/games/nim/leaderboard", s.url)).await;
        for l in leaders.as_array().unwrap() {
            assert_eq!(l["games"]["lost"], 0, "{leaders}");
        }
    });
}

#[test]
fn an_anonymous_post_to_any_form_is_refused_before_its_body_is_read() {
    // Headers that announce a 32 MB form, then one kilobyte and silence: the server answers 401 at
    // once, without waiting for (or buffering) the rest, on every route only an account may post to;
    // a form anyone may post (signing in) is refused as too large by what it announces, at once too.
    use std::io::{Read, Write};
    let s = serve(&[]);
    let addr = s.url.trim_start_matches("http://").to_string();
    let form = "application/x-www-form-urlencoded";
    let multipart = "multipart/form-data; boundary=x";
    let signed_in = [
        "/scrimmages",
        "/competitions",
        "/tournaments",
        "/ladders",
        "/signout",
        "/account/token",
        "/account/signout-everywhere",
        "/account/invites",
        "/account/users",
    ];
    let mut cases: Vec<(&str, &str, usize, &str)> =
        vec![("/upload", multipart, 32 << 20, "401"), ("/publish", multipart, 32 << 20, "401")];
    // Under the form cap, for want of a session; over it, for its size, whoever sends it.
    cases.extend(signed_in.iter().map(|r| (*r, form, 60_000, "401")));
    cases.extend(signed_in.iter().chain(&["/signin", "/signup"]).map(|r| (*r, form, 32 << 20, "413")));
    for (route, kind, length, want) in cases {
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        c.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        let head = format!(
            "POST {route} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\n\r\n"
        );
        c.write_all(head.as_bytes()).unwrap();
        c.write_all(&[b'a'; 1024]).unwrap();
        let mut answer = [0u8; 64];
        let n = c.read(&mut answer).unwrap_or_else(|e| panic!("{route}: no answer before the body is sent: {e}"));
        let first = String::from_utf8_lossy(&answer[..n]).to_string();
        assert!(first.starts_with(&format!("HTTP/1.1 {want}")), "{route} ({length} bytes): {first}");
    }
}

/// What a request sends comes back in an error message cut to a few hundred characters, never whole:
/// a long path, a player's name, a cursor.
#[test]
fn errors_quote_what_a_request_sent_cut_short() {
    let s = serve(&[]);
    let long = "x".repeat(8_000);
    rt().block_on(async {
        for path in [format!("/api/{long}"), format!("/api/players/{long}"), format!("/api/tournaments?after={long}")] {
            let res = client().get(format!("{}{path}", s.url)).send().await.unwrap();
            assert!(res.status().is_client_error(), "{path:.40}: {}", res.status());
            let v: serde_json::Value = res.json().await.unwrap();
            let message = v["error"]["message"].as_str().unwrap_or_else(|| panic!("{v:.300}"));
            assert!(message.len() < 400 && message.contains("more bytes"), "{path:.40}: {} characters", message.len());
        }
        let res = client().get(format!("{}/players/{long}", s.url)).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 404);
        let page = res.text().await.unwrap();
        assert!(!page.contains(&"x".repeat(1_000)), "the page quotes the name whole");
    });
}

/// A request the HTTP layer cannot parse (headers too large or too many, a target too long, no HTTP at
/// all) is answered in the API's error shape too, before any route is known; answers of the
/// application on the same connections pass unchanged.
#[test]
fn the_http_layers_own_refusals_are_in_the_apis_error_shape() {
    use std::io::{Read, Write};
    let s = serve(&[]);
    let addr = s.url.trim_start_matches("http://").to_string();
    let big = format!("GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(200_000));
    let many = format!("GET /api/games HTTP/1.1\r\nHost: x\r\n{}\r\n", "X-A: b\r\n".repeat(200));
    let long = format!("GET /api/{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(100_000));
    let cases = [
        (big.as_str(), 431, "headers_too_large"),
        (many.as_str(), 431, "headers_too_large"),
        (long.as_str(), 414, "uri_too_long"),
        ("GARBAGE\r\n\r\n", 400, "bad_request"),
        ("GET /api/games HTTP/1.1\r\nHost x\r\n\r\n", 400, "bad_request"),
    ];
    for (request, status, code) in cases {
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        c.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        let _ = c.write_all(request.as_bytes());
        let mut answer = vec![];
        let _ = c.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).to_string();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{request:.40}: {answer:.300}"));
        assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{request:.40}: {head}");
        assert!(head.contains("content-type: application/json"), "{request:.40}: {head}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{request:.40}: {e}: {body}"));
        assert_eq!(v["error"]["code"], code, "{request:.40}: {v}");
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }
    // Two requests on one kept-alive connection, the second with a body of its own: both whole.
    let mut c = std::net::TcpStream::connect(&addr).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    c.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\nGET /api/nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = vec![];
    let _ = c.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).to_string();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer:.300}");
    let second = answer.find("HTTP/1.1 404").unwrap_or_else(|| panic!("{answer:.2000}"));
    assert!(answer[second..].contains("\"not_found\""), "{}", &answer[second..]);
}

#[test]
fn a_half_sent_request_is_closed_within_fifteen_seconds() {
    use std::io::{Read, Write};
    let s = serve(&[]);
    let addr = s.url.trim_start_matches("http://").to_string();
    let mut c = std::net::TcpStream::connect(&addr).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(20))).unwrap();
    let t = std::time::Instant::now();
    c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let mut rest = vec![];
    // The server closes it (after an error answer or none): the read ends, well before our 20 s.
    let _ = c.read_to_end(&mut rest);
    assert!(t.elapsed() < std::time::Duration::from_secs(15), "held for {:?}", t.elapsed());
}

#[test]
fn thousands_of_idle_connections_from_one_address_do_not_stop_another() {
    // The server under a descriptor limit of 1024; this test may hold more.
    let mut l = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: a valid rlimit to read and write; raising the soft limit to the hard one.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut l);
        l.rlim_cur = l.rlim_max.min(8192);
        libc::setrlimit(libc::RLIMIT_NOFILE, &l);
    }
    let data = tempfile::tempdir().unwrap();
    let d = data.path().display().to_string();
    let exe = env!("CARGO_BIN_EXE_arena");
    let mut child = std::process::Command::new("sh")
        .args(["-c", &format!("ulimit -n 1024 && exec {exe} serve --data {d} --listen 127.0.0.1:0")])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    std::thread::spawn(move || for _ in lines {});
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_string();
    let s = Served { child, url, data };
    let addr: std::net::SocketAddr = s.url.trim_start_matches("http://").parse().unwrap();
    rt().block_on(async {
        // All 3,000 at once, each given 2 s: past the address's cap and rate the server closes them,
        // and once it keeps coming it is shunned (its handshakes dropped in the kernel).
        let tries = (0..3000).map(|_| async move {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
            tokio::time::timeout(std::time::Duration::from_secs(2), socket.connect(addr)).await.ok()?.ok()
        });
        let idle: Vec<_> = futures_util::future::join_all(tries).await.into_iter().flatten().collect();
        // Under 1024 descriptors one address may hold 112: it got at least those.
        assert!(idle.len() >= 112, "the connections were made ({})", idle.len());
        // Another address is answered at once.
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.3:0".parse().unwrap()).unwrap();
        let mut c = socket.connect(addr).await.unwrap();
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut head = [0u8; 12];
        tokio::time::timeout(std::time::Duration::from_secs(5), c.read_exact(&mut head))
            .await
            .expect("answered within 5 s")
            .unwrap();
        assert_eq!(&head, b"HTTP/1.1 200", "{}", String::from_utf8_lossy(&head));
        drop(idle);
    });
}

#[test]
fn an_address_flooding_connections_is_shunned_in_the_kernel_and_others_are_answered() {
    // 127.0.0.2 opens connections and drops them as fast as it can: past its rate they are closed as
    // accepted, and past its refusals its handshakes are no longer answered at all (a connect waits
    // on its own SYN retransmission). 127.0.0.3 is answered throughout, and 127.0.0.2 again later.
    let s = serve(&[]);
    let addr: std::net::SocketAddr = s.url.trim_start_matches("http://").parse().unwrap();
    rt().block_on(async {
        async fn connect(from: &str, addr: std::net::SocketAddr, wait: u64) -> Option<tokio::net::TcpStream> {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
            tokio::time::timeout(std::time::Duration::from_millis(wait), socket.connect(addr)).await.ok()?.ok()
        }
        let mut made = 0;
        let mut unanswered = 0;
        for _ in 0..2000 {
            match connect("127.0.0.2", addr, 200).await {
                // Closed from this end, and read until the server has closed it too: the flood keeps
                // pace with the server's accepts, so no handshake is dropped for a full accept queue
                // (only for the shun).
                Some(mut c) => {
                    use tokio::io::{AsyncReadExt, AsyncWriteExt};
                    made += 1;
                    let _ = c.shutdown().await;
                    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), c.read_to_end(&mut vec![])).await;
                }
                None => {
                    unanswered += 1;
                    if unanswered == 3 {
                        break;
                    }
                }
            }
        }
        assert_eq!(unanswered, 3, "the flood was never shunned ({made} connections made)");
        assert!(made >= 400, "shunned only past its burst and its refusals ({made} made)");
        let home = client().get(format!("{}/", s.url)).send().await.unwrap();
        assert_eq!(home.status(), 200, "another address is answered");
        // The first shun lasts a second: a connect waiting through it (its SYN sent again after a
        // second, then two more) is made.
        let c = connect("127.0.0.2", addr, 10_000).await;
        assert!(c.is_some(), "the shun is lifted");
    });
}

/// The peak resident memory of process `pid`, in MiB (Linux's VmHWM).
fn peak_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

#[test]
fn thirty_anonymous_32_mb_form_posts_leave_the_server_under_300_mb() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = serve(&[]);
    let addr = s.url.trim_start_matches("http://").to_string();
    let before = peak_mib(s.child.id());
    let answers = rt().block_on(async {
        let posts = (0..30).map(|_| {
            let addr = addr.clone();
            tokio::spawn(async move {
                let mut c = tokio::net::TcpStream::connect(&addr).await.unwrap();
                let head = format!(
                    "POST /upload HTTP/1.1\r\nHost: {addr}\r\nContent-Type: multipart/form-data; boundary=x\r\n\
                     Content-Length: {}\r\n\r\n",
                    32 << 20
                );
                c.write_all(head.as_bytes()).await.unwrap();
                // The whole body, as fast as the server takes it (it stops taking it once it answered).
                let chunk = vec![b'a'; 64 * 1024];
                let (mut r, mut w) = c.into_split();
                let send = tokio::spawn(async move {
                    for _ in 0..(32 << 20) / chunk.len() {
                        if w.write_all(&chunk).await.is_err() {
                            break;
                        }
                    }
                });
                let mut head = [0u8; 12];
                let answered = tokio::time::timeout(std::time::Duration::from_secs(60), r.read_exact(&mut head)).await;
                send.abort();
                answered.map(|_| String::from_utf8_lossy(&head).to_string()).unwrap_or_default()
            })
        });
        futures_util::future::join_all(posts).await
    });
    for a in answers {
        assert_eq!(a.unwrap(), "HTTP/1.1 401", "each post is refused for want of a session");
    }
    let peak = peak_mib(s.child.id());
    assert!(peak < 300, "the server peaked at {peak} MiB (at {before} MiB before the posts)");
}

#[test]
fn a_body_that_trickles_is_cut() {
    // A signed-in upload that announces 1 MB and sends a byte every two seconds: never silent for
    // the 10 s a stall may last, but far below the minimum rate. It is cut once its grace is over.
    use std::io::{Read, Write};
    let s = serve(&[]);
    let token = user(s.data.path(), "alice", false);
    let addr = s.url.trim_start_matches("http://").to_string();
    let mut c = std::net::TcpStream::connect(&addr).unwrap();
    let head = format!(
        "POST /api/players HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {}\r\n\r\n--x\r\n",
        1 << 20
    );
    c.write_all(head.as_bytes()).unwrap();
    let t = std::time::Instant::now();
    let reader = {
        let mut c = c.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut got = vec![];
            let _ = c.read_to_end(&mut got);
            String::from_utf8_lossy(&got).to_string()
        })
    };
    while !reader.is_finished() && t.elapsed() < std::time::Duration::from_secs(60) {
        if c.write_all(b"a").is_err() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
    let _ = c.shutdown(std::net::Shutdown::Both);
    let answer = reader.join().unwrap();
    assert!(t.elapsed() < std::time::Duration::from_secs(40), "held for {:?}: {answer}", t.elapsed());
    assert!(!answer.starts_with("HTTP/1.1 2"), "{answer}");
    assert_eq!(components(s.data.path()), 0, "nothing stored");
}

/// A tournament the store shows as running: two Yahtzee players' long round robin, killed after its
/// first games, and its lock taken by this test (as the process playing it would hold it).
fn running_tournament(data: &Path) -> std::fs::File {
    let d = data.display().to_string();
    submit_all(&d, "yahtzee", &[("greedy", "yahtzee-greedy"), ("random", "yahtzee-random")]);
    let mut child = arena()
        .args(["tournament", "--data", &d, "--game", "yahtzee", "--registered", "--format", "round-robin"])
        .args(["--games-per-match", "99", "--seed", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    let lock = data.join("locks").join("tournament-1.lock");
    while !lock.exists() && t.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    let f = std::fs::File::options().write(true).open(&lock).unwrap();
    f.try_lock().expect("the killed run's lock is free");
    f
}

#[test]
fn three_hundred_live_streams_from_one_address_do_not_stop_anothers() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = serve(&[]);
    let _lock = running_tournament(s.data.path());
    let addr: std::net::SocketAddr = s.url.trim_start_matches("http://").parse().unwrap();
    async fn stream(from: &str, addr: std::net::SocketAddr) -> Option<(tokio::net::TcpStream, String)> {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
        let mut c = tokio::time::timeout(std::time::Duration::from_secs(5), socket.connect(addr)).await.ok()?.ok()?;
        c.write_all(b"GET /tournaments/1/live HTTP/1.1\r\nHost: x\r\n\r\n").await.ok()?;
        let mut head = vec![0u8; 512];
        let n = tokio::time::timeout(std::time::Duration::from_secs(10), c.read(&mut head)).await.ok()?.ok()?;
        let head = String::from_utf8_lossy(&head[..n]).to_string();
        Some((c, head))
    }
    rt().block_on(async {
        let mut held = vec![];
        let (mut live, mut refused) = (0, 0);
        for _ in 0..300 {
            match stream("127.0.0.2", addr).await {
                Some((c, head)) if head.starts_with("HTTP/1.1 200") => {
                    live += 1;
                    held.push(c);
                }
                Some((c, head)) if head.starts_with("HTTP/1.1 503") => {
                    refused += 1;
                    held.push(c);
                }
                // Closed at once: past the address's connection rate or cap.
                _ => {}
            }
        }
        assert!((1..=8).contains(&live), "one address holds at most 8 live streams ({live})");
        assert!(refused > 100, "the others are told to retry, or closed ({refused} refused)");
        let (_c, head) = stream("127.0.0.3", addr).await.expect("another address is answered");
        assert!(head.starts_with("HTTP/1.1 200") && head.contains("text/event-stream"), "{head}");
        assert!(head.contains("data:"), "the first update comes at once: {head}");
        drop(held);
    });
}

#[test]
fn a_finished_tournaments_stream_sends_the_winner_and_ends() {
    let s = serve(&[]);
    let d = s.data.path().display().to_string();
    submit_all(&d, "pennies", &[("heads", "pennies-heads"), ("alternate", "pennies-alternate")]);
    let r = round_robin(&d, "pennies", &["--seed", "3"]);
    let winner = r["winner"].as_str().expect("a winner").to_string();
    rt().block_on(async {
        let body = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            client().get(format!("{}/tournaments/1/live", s.url)).send().await.unwrap().text(),
        )
        .await
        .expect("the stream ends")
        .unwrap();
        let last = body.lines().filter_map(|l| l.strip_prefix("data:")).next_back().expect("an update");
        let v: serde_json::Value = serde_json::from_str(last.trim()).unwrap();
        assert_eq!(v["done"], true, "{v}");
        assert_eq!(v["html"]["status"], "finished", "{v}");
        let line = v["html"]["winner-line"].as_str().unwrap();
        assert!(line.contains(&format!(">{winner}<")), "{line}");
        assert!(v["html"]["standings"].as_str().unwrap().contains(&winner), "{v}");
    });
}

#[test]
fn a_players_output_reaches_its_owner_only() {
    // Two players that print a marker (one then traps, one panics with it), each only as seat 1; a
    // quiet one of another account. Nothing anyone else is sent, page, API, replay file or live
    // stream, carries a marker; the owner sees both, beside the call that printed them.
    const MARKERS: [&str; 2] = ["MARKER-TRAP-7f3a", "MARKER-PANIC-c41d"];
    let s = serve(&[]);
    let (alice, bob, carol) =
        (user(s.data.path(), "alice", false), user(s.data.path(), "bob", false), user(s.data.path(), "carol", false));
    let d = s.data.path().display().to_string();
    rt().block_on(async {
        for (token, name, p) in [
            (&alice, "trapper", "pennies-marker-trap"),
            (&alice, "panicker", "pennies-marker-panic"),
            (&bob, "heads", "pennies-heads"),
        ] {
            let (st, v) = upload(&s.url, Some(token), "pennies", name, "p.wasm", file(p)).await;
            assert_eq!(st, 201, "{name} passes validation (its marker shows only as seat 1): {v}");
        }
    });
    let r = round_robin(&d, "pennies", &["--games-per-match", "2", "--seed", "1"]);
    let banned: Vec<&str> = r["banned"].as_array().unwrap().iter().map(|b| b["player"].as_str().unwrap()).collect();
    assert!(banned.contains(&"trapper") && banned.contains(&"panicker"), "both crash as seat 1: {r}");
    let games: Vec<String> =
        r["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect();
    rt().block_on(async {
        let (alice_s, bob_s) = (sign_in(&s.url, &alice).await, sign_in(&s.url, &bob).await);
        let mut paths = vec![
            "/".to_string(),
            "/players/trapper".into(),
            "/players/panicker".into(),
            "/tournaments/1".into(),
            "/tournaments/1/live".into(),
            "/api/tournaments/1".into(),
            "/api/players/trapper".into(),
            "/api/players/panicker".into(),
            "/api/games/pennies/leaderboard".into(),
            "/games/pennies".into(),
        ];
        for g in &games {
            paths.push(format!("/tournaments/1/games/{g}"));
            paths.push(format!("/tournaments/1/games/{g}.jsonl"));
        }
        let get = |path: String, cookie: Option<String>, token: Option<String>| {
            let mut req = client().get(format!("{}{path}", s.url));
            if let Some(c) = cookie {
                req = req.header("cookie", c);
            }
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            async move {
                let res = req.send().await.unwrap();
                (res.status().as_u16(), res.text().await.unwrap())
            }
        };
        let mut seen_by_alice = String::new();
        for path in &paths {
            for (who, cookie, token) in [
                ("anonymous", None, None),
                ("bob", Some(bob_s.clone()), Some(bob.clone())),
                ("carol's token", None, Some(carol.clone())),
            ] {
                let (_, body) = get(path.clone(), cookie, token).await;
                for m in MARKERS {
                    assert!(!body.contains(m), "{who} is sent {m} at {path}");
                }
            }
            let (st, body) = get(path.clone(), Some(alice_s.clone()), None).await;
            assert_eq!(st, 200, "{path}");
            seen_by_alice.push_str(&body);
        }
        for m in MARKERS {
            assert!(seen_by_alice.contains(m), "the owner is shown {m}");
        }
        // Her player's page shows its last words beside each failure.
        let (_, page) = get("/players/panicker".into(), Some(alice_s.clone()), None).await;
        let words = page.find("class=\"last-words\"").unwrap_or_else(|| panic!("no last words: {page:.4000}"));
        assert!(page[words..].contains(MARKERS[1]), "{}", &page[words..words + 500]);
        // Each failure links to the step it came in, in the game's replay.
        let table = &page[page.find("id=\"failures-pennies\"").unwrap()..words];
        assert!(table.contains("#step=") && table.contains(", step "), "{table}");
        // The logs API: the owner's seats only; 401 without a token, 403 for a game with no seat of its own.
        let mut alice_logs = String::new();
        for g in &games {
            let path = format!("/api/tournaments/1/games/{g}/logs");
            let (st, _) = get(path.clone(), None, None).await;
            assert_eq!(st, 401, "{path}");
            let (st, body) = get(path.clone(), None, Some(carol.clone())).await;
            assert_eq!(st, 403, "{path}: {body}");
            let (st, body) = get(path.clone(), None, Some(bob.clone())).await;
            assert!(st == 200 || st == 403, "{path}: {body}");
            for m in MARKERS {
                assert!(!body.contains(m), "bob is sent {m} at {path}");
            }
            let (st, body) = get(path.clone(), None, Some(alice.clone())).await;
            assert_eq!(st, 200, "{path}: {body}");
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            for seat in v["seats"].as_array().unwrap() {
                let p = seat["player"].as_str().unwrap();
                assert!(p == "trapper" || p == "panicker", "alice is shown {p}'s seat: {v}");
                for c in seat["calls"].as_array().unwrap() {
                    assert!(c["output"].as_str().unwrap().contains("MARKER-"), "a call's output is its own: {c}");
                    assert_eq!(c["call"], "choose", "{c}");
                }
            }
            alice_logs.push_str(&body);
        }
        for m in MARKERS {
            assert!(alice_logs.contains(m), "the logs API gives the owner {m}");
        }
        let (st, body) = get("/api/tournaments/1/games/R9-M9-G9/logs".into(), None, Some(alice.clone())).await;
        assert_eq!(st, 404, "{body}");
    });
}

/// A form upload through `/upload` as `session` signs it; its status.
async fn form_upload(url: &str, session: &str, name: &str, bytes: Vec<u8>) -> u16 {
    let (_, csrf) = page(&format!("{url}/upload"), session).await;
    let form = reqwest::multipart::Form::new()
        .text("csrf", csrf)
        .text("game", "pennies")
        .text("name", name.to_string())
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name("p.wasm"));
    let res = client().post(format!("{url}/upload")).header("cookie", session).multipart(form).send().await.unwrap();
    res.status().as_u16()
}

#[test]
fn the_api_has_one_error_shape_string_seeds_structured_players_and_pages_every_game() {
    let s = serve(&["--uploads-per-hour", "3", "--max-upload-mb", "1"]);
    let alice = user(s.data.path(), "alice", false);
    let bob = user(s.data.path(), "bob", false);
    let d = s.data.path().display().to_string();
    rt().block_on(async {
        assert_eq!(upload(&s.url, Some(&alice), "pennies", "heads", "h.wasm", file("pennies-heads")).await.0, 201);
        assert_eq!(upload(&s.url, Some(&bob), "pennies", "alt", "a.wasm", file("pennies-alternate")).await.0, 201);
    });
    round_robin(&d, "pennies", &["--games-per-match", "5", "--seed", "18446744073709551557"]);
    rt().block_on(async {
        let url = &s.url;
        // The OpenAPI document lists every route clients use, and each of its routes answers.
        let doc = get_json(&format!("{url}/api/openapi.json")).await;
        super::docs::check_http_api_page(&doc);
        let paths = doc["paths"].as_object().expect("paths");
        for p in [
            "/api/games",
            "/api/games/{game}/leaderboard",
            "/api/games/{game}/game-faults",
            "/api/games/{game}",
            "/api/games/{game}/package",
            "/api/games/{game}/listing",
            "/api/players",
            "/api/players/{name}",
            "/api/players/{name}/games",
            "/api/tournaments",
            "/api/tournaments/{id}",
            "/api/tournaments/{id}/games",
            "/api/tournaments/{id}/games/{key}/logs",
        ] {
            assert!(paths.contains_key(p), "{p} is not in the OpenAPI document");
        }
        for (p, item) in paths {
            let path = p
                .replace("{game}", "pennies")
                .replace("{name}", "heads")
                .replace("{id}", "1")
                .replace("{key}", "R1-M1-G1");
            let method = if item.get("get").is_some() { reqwest::Method::GET } else { reqwest::Method::POST };
            let res = client().request(method, format!("{url}{path}")).bearer_auth(&alice).send().await.unwrap();
            let status = res.status().as_u16();
            if p == "/api/games/{game}/package" {
                // The one answer that is not JSON: the package itself.
                assert_eq!((status, res.headers()["content-type"].to_str().unwrap()), (200, "application/gzip"));
                continue;
            }
            let v: serde_json::Value = res.json().await.unwrap_or_else(|e| panic!("{p}: not JSON: {e}"));
            assert!(!v.to_string().contains("no API route"), "{p} is documented but not routed: {v}");
            assert!(status < 500, "{p}: {status} {v}");
        }
        // One error shape for every refusal, the router's own included.
        for (method, path, status, code) in [
            ("GET", "/api/nothing/here", 404, "not_found"),
            ("GET", "/api/tournaments/abc", 400, "bad_request"),
            ("GET", "/api/tournaments?limit=0", 400, "bad_request"),
            ("GET", "/api/tournaments/1/games?limit=501", 400, "bad_request"),
            ("GET", "/api/players/heads/games?limit=99999999999999999999", 400, "bad_request"),
            ("GET", "/api/tournaments/1/games?after=xyz", 400, "bad_request"),
            ("GET", "/api/tournaments/99", 404, "not_found"),
            ("GET", "/api/players/nobody", 404, "not_found"),
            ("DELETE", "/api/games", 405, "method_not_allowed"),
            ("POST", "/api/players", 401, "unauthorized"),
        ] {
            let res = client().request(method.parse().unwrap(), format!("{url}{path}")).send().await.unwrap();
            assert_eq!(res.status().as_u16(), status, "{method} {path}");
            let v: serde_json::Value = res.json().await.unwrap_or_else(|e| panic!("{method} {path}: not JSON: {e}"));
            assert_eq!(v["error"]["code"], code, "{method} {path}: {v}");
            assert!(!v["error"]["message"].as_str().unwrap().is_empty(), "{v}");
        }
        // 64-bit values are strings; players are structured; scores are numbers.
        let t = get_json(&format!("{url}/api/tournaments/1")).await;
        assert_eq!(t["tournament"]["seed"], "18446744073709551557", "{t}");
        assert_eq!(t["tournament"]["games"], 5, "{t}");
        let one = get_json(&format!("{url}/api/tournaments/1/games?limit=1")).await;
        let g = &one["games"][0];
        assert!(g["seed"].is_string() && g["fuel"][0].is_string(), "{g}");
        assert!(g["scores"][0].is_i64(), "{g}");
        let owners: Vec<(&str, u64, &str)> = g["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["name"].as_str().unwrap(), p["version"].as_u64().unwrap(), p["owner"].as_str().unwrap()))
            .collect();
        assert!(owners.contains(&("heads", 1, "alice")) && owners.contains(&("alt", 1, "bob")), "{g}");
        // Pages by cursor reach every game once, in the order played.
        let mut seen = vec![];
        let mut next = Some("/api/tournaments/1/games?limit=2".to_string());
        while let Some(n) = next {
            let page = get_json(&format!("{url}{n}")).await;
            seen.extend(page["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()));
            next = page["next"].as_str().map(str::to_string);
        }
        assert_eq!(seen, (1..=5).map(|k| format!("R1-M1-G{k}")).collect::<Vec<_>>());
        // A player's games, newest first, in the API and on its page.
        let mine = get_json(&format!("{url}/api/players/heads/games?limit=3")).await;
        let ids: Vec<&str> = mine["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["R1-M1-G5", "R1-M1-G4", "R1-M1-G3"], "{mine}");
        let rest = get_json(&format!("{url}{}", mine["next"].as_str().unwrap())).await;
        assert_eq!(rest["games"].as_array().unwrap().len(), 2, "{rest}");
        let html =
            client().get(format!("{url}/players/heads/games?limit=3")).send().await.unwrap().text().await.unwrap();
        assert!(html.contains("/tournaments/1/games/R1-M1-G5") && html.contains("id=\"next-page\""), "{html}");
        let html = client().get(format!("{url}/players/heads")).send().await.unwrap().text().await.unwrap();
        assert!(html.contains("href=\"/players/heads/games\""), "the player page links its games");
        // The web form answers with the API's status codes.
        let session = sign_in(url, &alice).await;
        assert_eq!(form_upload(url, &session, "big", vec![0u8; 2 << 20]).await, 413);
        assert_eq!(form_upload(url, &session, "heads2", file("pennies-heads")).await, 201);
        assert_eq!(form_upload(url, &session, "junk", b"not wasm".to_vec()).await, 422);
        assert_eq!(form_upload(url, &session, "heads3", file("pennies-heads")).await, 429);
        // A sign-out without its token is refused as a page, not plain text.
        let res = client()
            .post(format!("{url}/signout"))
            .header("cookie", &session)
            .form(&[("x", "y")])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 403);
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    });
}

#[test]
fn an_idle_connection_is_closed_before_or_after_its_first_request() {
    use std::io::{Read, Write};
    let s = serve(&[]);
    let addr = s.url.trim_start_matches("http://").to_string();
    // One that never sends anything, one that goes idle after an answer: both closed by the server.
    let silent = std::net::TcpStream::connect(&addr).unwrap();
    let mut kept = std::net::TcpStream::connect(&addr).unwrap();
    kept.write_all(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let t = std::time::Instant::now();
    for mut c in [silent, kept] {
        c.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
        let mut all = vec![];
        let closed = c.read_to_end(&mut all).is_ok();
        assert!(closed, "still open after {:?}", t.elapsed());
    }
    assert!(t.elapsed() < std::time::Duration::from_secs(20), "held for {:?}", t.elapsed());
}

#[test]
fn behind_a_trusted_proxy_live_streams_are_capped_per_forwarded_address() {
    let s = serve(&["--trust-proxy"]);
    let _lock = running_tournament(s.data.path());
    rt().block_on(async {
        let open = |from: &'static str| {
            let url = format!("{}/tournaments/1/live", s.url);
            async move { client().get(url).header("x-forwarded-for", format!("203.0.113.7, {from}")).send().await.unwrap() }
        };
        let mut held = vec![];
        for _ in 0..8 {
            let res = open("198.51.100.1").await;
            assert_eq!(res.status().as_u16(), 200);
            held.push(res);
        }
        let res = open("198.51.100.1").await;
        assert_eq!(res.status().as_u16(), 503, "a ninth stream from one forwarded address");
        let res = open("198.51.100.2").await;
        assert_eq!(res.status().as_u16(), 200, "another forwarded address, over the same connection source");
        drop(held);
    });
}

/// The value of the metric line that starts with `series` (name and labels), if the server shows it.
fn metric(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
}

#[test]
fn healthz_answers_and_metrics_count_games_faults_bans_and_uploads_once_each() {
    let s = serve(&[]);
    let alice = user(s.data.path(), "alice", false);
    let d = s.data.path().display().to_string();
    rt().block_on(async {
        let res = client().get(format!("{}/healthz", s.url)).send().await.unwrap();
        assert_eq!((res.status().as_u16(), res.text().await.unwrap()), (200, "ok\n".to_string()));
        let (st, _) = upload(&s.url, Some(&alice), "pennies", "heads", "heads.wasm", file("pennies-heads")).await;
        assert_eq!(st, 201);
        let (st, _) = upload(&s.url, Some(&alice), "pennies", "spin", "loop.wat", file("pennies-wat-loop")).await;
        assert_eq!(st, 422);
    });
    // A tournament recorded by the command line in the same store: its games and its ban count too.
    submit_all(&d, "pennies", &[("alternate", "pennies-alternate"), ("trap", "pennies-marker-trap")]);
    let first = round_robin(&d, "pennies", &["--games-per-match", "3", "--seed", "4"]);
    let games = first["games"].as_array().unwrap().len() as f64;
    let banned = first["banned"].as_array().unwrap().len() as f64;
    assert!(banned >= 1.0, "{first}");
    let scrape = || async { client().get(format!("{}/metrics", s.url)).send().await.unwrap().text().await.unwrap() };
    rt().block_on(async {
        let text = scrape().await;
        assert_eq!(metric(&text, "arena_games_total{game=\"pennies\"}"), Some(games), "{text}");
        assert_eq!(metric(&text, "arena_bans_total{kind=\"crash\"}"), Some(banned), "{text}");
        assert_eq!(metric(&text, "arena_uploads_total{outcome=\"accepted\",what=\"player\"}"), Some(1.0), "{text}");
        assert_eq!(metric(&text, "arena_uploads_total{outcome=\"refused\",what=\"player\"}"), Some(1.0), "{text}");
        let answered = "arena_request_seconds_count{method=\"POST\",route=\"/api/players\",status=\"201\"}";
        assert_eq!(metric(&text, answered), Some(1.0), "{text}");
        // Scraped again, nothing is counted twice; a path a client made up is no series of its own.
        let _ = client()
            .request(reqwest::Method::from_bytes(b"BREW").unwrap(), format!("{}/api/games", s.url))
            .send()
            .await;
        let _ = client().get(format!("{}/players/made-up-{}", s.url, "x".repeat(50))).send().await;
        let again = scrape().await;
        assert_eq!(metric(&again, "arena_games_total{game=\"pennies\"}"), Some(games));
        assert!(!again.contains("made-up") && !again.contains("BREW"), "{again}");
    });
    let second = round_robin(&d, "pennies", &["--games-per-match", "1", "--seed", "5"]);
    let more = second["games"].as_array().unwrap().len() as f64;
    rt().block_on(async {
        let text = scrape().await;
        assert_eq!(metric(&text, "arena_games_total{game=\"pennies\"}"), Some(games + more), "{text}");
    });
}

/// The games a stored tournament has recorded, and its status, through the API.
async fn progress(url: &str, id: u64) -> (u64, String) {
    let t = get_json(&format!("{url}/api/tournaments/{id}")).await;
    (t["tournament"]["games"].as_u64().unwrap(), t["tournament"]["status"].as_str().unwrap().to_string())
}

#[test]
fn admins_start_pause_and_resume_a_ladder_from_the_web() {
    let s = serve(&[]);
    let admin = user(s.data.path(), "root", true);
    let alice = user(s.data.path(), "alice", false);
    let d = s.data.path().display().to_string();
    submit_all(
        &d,
        "pennies",
        &[("heads", "pennies-heads"), ("alternate", "pennies-alternate"), ("heads2", "pennies-heads")],
    );
    rt().block_on(async {
        let url = &s.url;
        let post = |session: String, csrf: String, action: &'static str| async move {
            client()
                .post(format!("{url}/ladders"))
                .header("cookie", session)
                .form(&[("csrf", csrf.as_str()), ("game", "pennies"), ("action", action)])
                .send()
                .await
                .unwrap()
        };
        let alice_session = sign_in(url, &alice).await;
        let (_, csrf) = page(&format!("{url}/tournaments"), &alice_session).await;
        assert_eq!(post(alice_session.clone(), csrf, "start").await.status().as_u16(), 403);

        let session = sign_in(url, &admin).await;
        let (body, csrf) = page(&format!("{url}/tournaments"), &session).await;
        assert!(body.contains("id=\"start-ladder\""), "{body}");
        let res = post(session.clone(), csrf.clone(), "start").await;
        assert_eq!(res.status().as_u16(), 303);
        let id: u64 = res.headers()["location"].to_str().unwrap().trim_start_matches("/tournaments/").parse().unwrap();
        let wait_for = |n: u64| async move {
            for _ in 0..300 {
                if progress(url, id).await.0 >= n {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            panic!("the ladder did not reach {n} games");
        };
        wait_for(10).await;
        assert_eq!(progress(url, id).await.1, "running");
        let (page_body, _) = page(&format!("{url}/tournaments/{id}"), &session).await;
        assert!(page_body.contains("Pause the ladder"), "{page_body}");
        // Started twice: refused, the first goes on.
        assert_eq!(post(session.clone(), csrf.clone(), "start").await.status().as_u16(), 409);
        // Settings out of their ranges, and actions that are none, are refused.
        for (k, v) in [
            ("parallel", "0"),
            ("parallel", "65"),
            ("explore", "1.5"),
            ("max_faults", "0"),
            ("max_faults", "x"),
            ("settle", "-1"),
            ("action", "halt"),
        ] {
            let mut form = vec![("csrf", csrf.as_str()), ("game", "pennies"), ("action", "start")];
            form.retain(|(f, _)| *f != k);
            form.push((k, v));
            let res =
                client().post(format!("{url}/ladders")).header("cookie", &session).form(&form).send().await.unwrap();
            assert_eq!(res.status().as_u16(), 400, "{k}={v}");
        }

        // Paused: no more games, and it shows as stopped.
        assert_eq!(post(session.clone(), csrf.clone(), "pause").await.status().as_u16(), 303);
        let mut stopped = (0, String::new());
        for _ in 0..100 {
            stopped = progress(url, id).await;
            if stopped.1 == "stopped" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(stopped.1, "stopped");
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        assert_eq!(progress(url, id).await.0, stopped.0, "a paused ladder plays on");
        let (page_body, _) = page(&format!("{url}/tournaments/{id}"), &session).await;
        assert!(page_body.contains("Resume the ladder here"), "{page_body}");
        assert_eq!(post(session.clone(), csrf.clone(), "pause").await.status().as_u16(), 400, "nothing to pause");

        // Resumed: the same ladder goes on, its games numbered on (a new player brings new pairs, should
        // every pair of the three have played the games that settle it by now).
        submit_all(&d, "pennies", &[("alternate2", "pennies-alternate")]);
        let res = post(session.clone(), csrf.clone(), "start").await;
        assert_eq!(res.headers()["location"], format!("/tournaments/{id}"));
        wait_for(stopped.0 + 10).await;
        assert_eq!(post(session.clone(), csrf.clone(), "pause").await.status().as_u16(), 303);
        let listed = get_json(&format!("{url}/api/tournaments")).await;
        assert_eq!(listed["tournaments"].as_array().unwrap().len(), 1, "one ladder: {listed}");
    });
}

#[test]
fn visitors_not_signed_in_share_a_page_and_a_signed_in_page_is_never_shared() {
    let s = serve(&[]);
    let alice = user(s.data.path(), "alice", false);
    let d = s.data.path().display().to_string();
    rt().block_on(async {
        let board = format!("{}/games/pennies", s.url);
        let anonymous = || async { client().get(&board).send().await.unwrap().text().await.unwrap() };
        let first = anonymous().await;
        assert!(first.contains("id=\"signin-link\"") && !first.contains("whoami"), "{first}");
        let home = client().get(format!("{}/", s.url)).send().await.unwrap().text().await.unwrap();
        assert!(home.contains("<tr data-game=\"pennies\">"), "{home}");
        assert_eq!(anonymous().await, first, "the same bytes for every visitor not signed in");
        // A signed-in viewer gets a page of its own, which nobody else is served.
        let session = sign_in(&s.url, &alice).await;
        let (mine, csrf) = page(&board, &session).await;
        assert!(mine.contains("id=\"whoami\">alice<") && !csrf.is_empty(), "{mine}");
        let after = anonymous().await;
        assert!(!after.contains("alice") && !after.contains(&csrf), "a signed-in page reached a stranger: {after}");
        // What changes in the store reaches visitors not signed in within moments.
        submit_all(&d, "pennies", &[("heads", "pennies-heads"), ("alternate", "pennies-alternate")]);
        round_robin(&d, "pennies", &["--games-per-match", "1"]);
        let mut shown = false;
        for _ in 0..50 {
            if anonymous().await.contains("data-player=\"heads\"") {
                shown = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(shown, "the leaderboard a stranger sees never showed the new players");
        // The home page counts them.
        let home = client().get(format!("{}/", s.url)).send().await.unwrap().text().await.unwrap();
        let row = home.split("<tr data-game=\"pennies\">").nth(1).and_then(|r| r.split("</tr>").next());
        assert!(row.is_some_and(|r| r.contains("<td class=\"num\">2</td>")), "{home}");
        let t = format!("{}/tournaments/1", s.url);
        let page_of = |c: Option<&str>| {
            let mut req = client().get(&t);
            if let Some(c) = c {
                req = req.header("cookie", c.to_string());
            }
            async move { req.send().await.unwrap().text().await.unwrap() }
        };
        let (theirs, mine) = (page_of(None).await, page_of(Some(&session)).await);
        assert!(theirs.contains("heads") && !theirs.contains("alice"), "{theirs}");
        assert!(mine.contains("id=\"whoami\">alice<"), "{mine}");
    });
}

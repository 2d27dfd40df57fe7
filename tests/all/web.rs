//! `arena serve` over HTTP on loopback: the API's uploads (validated, owned, refused with reasons,
//! capped, rate-limited, nothing stored when refused), forms that need their CSRF token, escaping of
//! what strangers send, scrimmages that are never rated, the command line against a remote arena, and
//! `arena replay --html`. (The pages in a real browser: tests/browser.)

use super::{arena, player, run};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

/// A running `arena serve` on a loopback port the system chose, stopped when dropped.
struct Served {
    child: Child,
    url: String,
    data: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(flags: &[&str]) -> Served {
    let data = tempfile::tempdir().unwrap();
    serve_in(data, flags)
}

fn serve_in(data: tempfile::TempDir, flags: &[&str]) -> Served {
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

fn user(data: &Path, name: &str, admin: bool) -> String {
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

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// Uploads `bytes` as `file_name` through the API; (status, JSON).
async fn upload(
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
    let mut req = client().post(format!("{url}/api/players")).multipart(form);
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

async fn get_json(url: &str) -> serde_json::Value {
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
        assert!(v["error"].as_str().unwrap().contains("belongs to account alice"), "{v}");
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
        let why = v["error"].as_str().unwrap();
        assert!(why.starts_with("junk.wasm: ") && why.contains("nothing was stored"), "{why}");
        assert!(!why.contains(&s.data.path().display().to_string()), "the server's paths leak: {why}");
        let (st, v) = upload(&s.url, Some(&bob), "yahtzee", "loopy", "loop.wat", file("yahtzee-wat-loop")).await;
        assert_eq!(st, 422, "{v}");
        assert!(v["error"].as_str().unwrap().contains("fuel in"), "{v}");
        let (st, _) = upload(&s.url, Some(&bob), "../../games/nim", "x", "x.wasm", file("nim-optimal")).await;
        assert_eq!(st, 400);
        let (st, v) = upload(&s.url, Some(&bob), "nim", "<b>x</b>", "x.wasm", file("nim-optimal")).await;
        assert_eq!(st, 400, "{v}");

        let board = get_json(&format!("{}/api/games/pennies/leaderboard", s.url)).await;
        let names: Vec<&str> = board.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["heads1"]);
        assert_eq!(get_json(&format!("{}/api/games/yahtzee/leaderboard", s.url)).await, serde_json::json!([]));
        // Two stored files (the two versions), nothing of the refused uploads, no upload left behind.
        assert_eq!(components(s.data.path()), 2);
        assert_eq!(std::fs::read_dir(s.data.path().join("uploads")).unwrap().count(), 0);
        let stats = get_json(&format!("{}/api/players/heads1", s.url)).await;
        assert_eq!((stats["name"].as_str(), stats["versions"].as_u64()), (Some("heads1"), Some(2)), "{stats}");
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
        assert!(v["error"].as_str().unwrap().contains("2 uploads an hour"), "{v}");
        assert_eq!(components(s.data.path()), 2);

        // At the cap a file is read (and refused for what it is); one byte past it is not.
        let bob = user(s.data.path(), "bob", false);
        let (st, v) = upload(&s.url, Some(&bob), "pennies", "atcap", "cap.wasm", vec![7u8; 1 << 20]).await;
        assert_eq!(st, 422, "{v}");
        assert!(v["error"].as_str().unwrap().contains("not a WebAssembly file"), "{v}");
        let (st, v) = upload(&s.url, Some(&bob), "pennies", "past", "past.wasm", vec![7u8; (1 << 20) + 1]).await;
        assert_eq!(st, 413, "{v}");
        assert!(v["error"].as_str().unwrap().contains("over the size cap of 1 MiB"), "{v}");
        // A name or a token far past any bound is refused as such, quickly.
        let long = "n".repeat(100_000);
        let (st, v) = upload(&s.url, Some(&bob), "pennies", &long, "h.wasm", file("pennies-heads")).await;
        assert_eq!(st, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("1 to 40 characters"), "{v}");
        let (st, _) = upload(&s.url, Some(&"a".repeat(10_000)), "pennies", "x", "h.wasm", file("pennies-heads")).await;
        assert_eq!(st, 401);
        assert_eq!(components(s.data.path()), 2);
    });
}

/// Signs in through the form; the session cookie.
async fn sign_in(url: &str, token: &str) -> String {
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
async fn page(url: &str, session: &str) -> (String, String) {
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
async fn finished(url: &str, id: u64) -> serde_json::Value {
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
        assert_eq!(t["games"].as_array().unwrap().len(), 6, "{t}");
        assert_eq!(t["result"]["seed"], 9);
        let before = get_json(&format!("{}/api/games/pennies/leaderboard", s.url)).await;

        // Alice's scrimmage: heads against loud (not hers, which is allowed), from heads' page.
        let (body, csrf) = page(&format!("{}/players/heads", s.url), &alice_session).await;
        assert!(body.contains("class=\"scrimmage\""), "no scrimmage form for the owner");
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("player", "heads"), ("opponent", "loud")];
        let res = client().post(format!("{}/scrimmages", s.url)).header("cookie", &alice_session).form(&form);
        let res = res.send().await.unwrap();
        assert_eq!((res.status().as_u16(), res.headers()["location"].to_str().unwrap()), (303, "/tournaments/2"));
        let t = finished(&s.url, 2).await;
        assert_eq!((t["tournament"]["rated"].as_bool(), t["games"].as_array().unwrap().len()), (Some(false), 1), "{t}");
        let after = get_json(&format!("{}/api/games/pennies/leaderboard", s.url)).await;
        assert_eq!(before, after, "a scrimmage changed the ratings");
        // Nobody scrimmages with a player that is not theirs.
        let form = [("csrf", csrf.as_str()), ("game", "pennies"), ("player", "loud"), ("opponent", "heads")];
        let res = client().post(format!("{}/scrimmages", s.url)).header("cookie", &alice_session).form(&form);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 403);

        // The replay page re-runs the game; a spectator's copy holds no private event, loud's owner
        // sees its own events and its log (escaped into JSON the browser reads as text).
        let game = t["games"][0]["id"].as_str().unwrap().to_string();
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
    assert!(String::from_utf8_lossy(&out.stdout).contains("Submitted opt version 1 for nim"));
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
}

#[test]
fn replay_html_is_one_file_that_plays_offline_and_keeps_secrets() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().display().to_string();
    for (name, p) in [("loud", "pennies-loud"), ("heads", "pennies-heads")] {
        let out = run(&["submit", "--data", &d, "--game", "pennies", "--name", name, &player(p)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = run(&[
        "tournament",
        "--data",
        &d,
        "--game",
        "pennies",
        "--registered",
        "--format",
        "round-robin",
        "--games-per-match",
        "1",
        "--seed",
        "3",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
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

#[test]
fn tournaments_started_on_the_web_are_played_by_workers_with_nats() {
    use super::cluster::{free_port, nats, worker};
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
        assert_eq!(v["games"].as_array().map(Vec::len), Some(3), "{v}");
    });
    // The worker fetched the players to play them.
    let fetched = std::fs::read_dir(tmp.path().join("w0").join("components")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(fetched, 3);
    // A server that is not there: a clear error at start.
    let d = tempfile::tempdir().unwrap();
    let dead = format!("nats://127.0.0.1:{}", free_port());
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
        let games = v["games"].as_array().unwrap();
        assert_eq!(games.len(), 200, "the latest 200 of 250");
        assert_eq!(games.last().unwrap()["id"], "R1-M250-G1");
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
    let src = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/nim");
    std::fs::copy(src.join("game.toml"), pkg.join("game.toml")).unwrap();
    std::fs::copy(player("nim-referee"), pkg.join("referee.wasm")).unwrap();
    std::fs::copy(player("nim-optimal"), pkg.join("players/nim-optimal.wasm")).unwrap();
    let (d, game) = (data.path().display().to_string(), pkg.display().to_string());
    for name in ["a", "b"] {
        let out = run(&["submit", "--data", &d, "--game", &game, "--name", name, &player("nim-optimal")]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    std::fs::copy(player("nim-broken-referee"), pkg.join("referee.wasm")).unwrap();
    let args = [
        "tournament",
        "--data",
        &d,
        "--game",
        &game,
        "--registered",
        "--format",
        "round-robin",
        "--games-per-match",
        "1",
    ];
    let out = run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
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
        assert_eq!(api["game_faults"][0]["call"], "apply", "{api}");
        assert_eq!(api["result"]["game_faults"].as_array().map(Vec::len), Some(1), "{api}");
        let listed = get_json(&format!("{}/api/games/nim/game-faults", s.url)).await;
        assert_eq!(listed["count"], 1, "{listed}");
        assert_eq!(
            (listed["latest"][0]["tournament"].as_i64(), listed["latest"][0]["call"].as_str()),
            (Some(1), Some("apply"))
        );
        // Nobody is rated on it.
        let leaders = get_json(&format!("{}/api/games/nim/leaderboard", s.url)).await;
        for l in leaders.as_array().unwrap() {
            assert_eq!(l["games"]["lost"], 0, "{leaders}");
        }
    });
}

#[test]
fn an_anonymous_upload_is_refused_before_its_body_is_read() {
    // Headers that announce a 32 MB form, then one kilobyte and silence: the server answers 401 at
    // once, without waiting for (or buffering) the rest.
    use std::io::{Read, Write};
    let s = serve(&[]);
    let addr = s.url.trim_start_matches("http://").to_string();
    let mut c = std::net::TcpStream::connect(&addr).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    let head = format!(
        "POST /upload HTTP/1.1\r\nHost: {addr}\r\nContent-Type: multipart/form-data; boundary=x\r\n\
         Content-Length: {}\r\n\r\n",
        32 << 20
    );
    c.write_all(head.as_bytes()).unwrap();
    c.write_all(&[b'a'; 1024]).unwrap();
    let mut answer = [0u8; 64];
    let n = c.read(&mut answer).expect("an answer before the body is sent");
    let first = String::from_utf8_lossy(&answer[..n]).to_string();
    assert!(first.starts_with("HTTP/1.1 401"), "{first}");
}

//! Candidate uploads on a server: judged against the version in use in mirrored pairs of games, each
//! game counted against the owner's uploads for the hour, promoted or rejected on the evidence, resumed
//! where they stopped when the server starts again, and refused clearly when they cannot be.

use super::web::{client, get_json, page, rt, serve, serve_in, sign_in, upload, user};
use super::{player, run};
use serde_json::Value;

/// Uploads a candidate through the API; (status, JSON).
async fn candidate(url: &str, token: &str, name: &str, sample: &str) -> (u16, Value) {
    let bytes = std::fs::read(player(sample)).unwrap();
    let form = reqwest::multipart::Form::new()
        .text("game", "goofspiel")
        .text("name", name.to_string())
        .text("candidate", "true")
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name("c.wasm"));
    super::web::post_form(&format!("{url}/api/players"), Some(token), form).await
}

async fn candidates(url: &str, name: &str) -> Value {
    get_json(&format!("{url}/api/games/goofspiel/players/{name}/candidates")).await
}

/// Candidate `name`'s newest candidate once `done` holds of it (polled for up to two minutes).
async fn until(url: &str, name: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..1200 {
        let c = candidates(url, name).await[0].clone();
        if done(&c) {
            return c;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{name}'s candidate never got there: {}", candidates(url, name).await);
}

/// `name`'s latest version in the store at `data`: its number and sha256.
fn latest(data: &std::path::Path, name: &str) -> (u64, String) {
    let db = rusqlite::Connection::open(data.join("arena.db")).unwrap();
    db.query_row(
        "SELECT v.version, v.hash FROM versions v JOIN players p ON p.id = v.player_id
         WHERE p.game = 'goofspiel' AND p.name = ?1 ORDER BY v.version DESC LIMIT 1",
        [name],
        |r| Ok((r.get::<_, i64>(0)? as u64, r.get(1)?)),
    )
    .unwrap()
}

#[test]
fn a_candidate_is_promoted_or_rejected_on_evidence_counted_against_the_hour_and_resumed_after_a_restart() {
    // Six uploads an hour: two refused candidates, a version, a candidate and its first pair of games
    // use them all up (a refused upload costs the server its work too).
    let s = serve(&["--uploads-per-hour", "6"]);
    let (alice, bob) = (user(s.data.path(), "alice", false), user(s.data.path(), "bob", false));
    let (smart, random) = (player("goofspiel-smart"), player("goofspiel-random"));
    let seed = rt().block_on(async {
        let (st, v) = candidate(&s.url, &alice, "mine", "goofspiel-smart").await;
        assert_eq!(st, 400, "a player with no version has nothing to be judged against: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("no version of goofspiel"), "{v}");
        let (st, v) =
            upload(&s.url, Some(&alice), "goofspiel", "mine", "r.wasm", std::fs::read(&random).unwrap()).await;
        assert_eq!(st, 201, "{v}");
        let (st, v) = candidate(&s.url, &bob, "mine", "goofspiel-smart").await;
        assert_eq!(st, 403, "another's player: {v}");
        let (st, v) = candidate(&s.url, &alice, "mine", "goofspiel-random").await;
        assert_eq!(st, 400, "the version in use itself: {v}");
        let (st, v) = candidate(&s.url, &alice, "mine", "goofspiel-smart").await;
        assert_eq!(st, 202, "{v}");
        assert_eq!((v["status"].as_str(), v["against"].as_u64()), (Some("testing"), Some(1)), "{v}");
        assert_eq!(v["validation"]["opponent"], "builtin:smart", "{v}");
        let seed = v["seed"].as_str().unwrap().to_string();
        // Its first pair takes the hour's last two uploads; the test then waits for the hour.
        let c = until(&s.url, "mine", |c| c["games"] == 2).await;
        assert_eq!(c["status"], "testing", "{c}");
        let (st, v) = candidate(&s.url, &alice, "mine", "goofspiel-smart").await;
        assert_eq!(st, 429, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("candidates' games count too"), "{v}");
        // Never rated, never a tournament; still version 1.
        assert_eq!(get_json(&format!("{}/api/tournaments", s.url)).await["tournaments"], serde_json::json!([]));
        assert_eq!(latest(s.data.path(), "mine"), (1, arena_core::sha256_hex(&std::fs::read(&random).unwrap())));

        // Bob's candidate waits the same way, and the organiser stores a new version of his player
        // meanwhile: it is superseded, stored as nothing.
        let (st, v) = upload(&s.url, Some(&bob), "goofspiel", "his", "r.wasm", std::fs::read(&random).unwrap()).await;
        assert_eq!(st, 201, "{v}");
        let (st, v) = candidate(&s.url, &bob, "his", "goofspiel-smart").await;
        assert_eq!(st, 202, "{v}");
        until(&s.url, "his", |c| c["games"] == 2).await;
        // One candidate of a player at a time: the hour's last upload is refused as a conflict.
        let (st, v) = candidate(&s.url, &bob, "his", "goofspiel-zig").await;
        assert_eq!(st, 409, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("is being tested"), "{v}");
        seed
    });
    let d = s.data.path().display().to_string();
    let out = run(&["submit", "--data", &d, "--game", "goofspiel", "--name", "his", &player("goofspiel-zig")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // A server started again on the same data goes on with both from where they stopped.
    let s = serve_in(s.stop(), &["--uploads-per-hour", "200", "--candidate-games", "40"]);
    rt().block_on(async {
        let c = until(&s.url, "mine", |c| c["status"] != "testing").await;
        assert_eq!((c["status"].as_str(), c["version"].as_u64()), (Some("accepted"), Some(2)), "{c}");
        assert!(c["llr"].as_f64() >= c["upper"].as_f64() && c["wins"].as_u64() > c["losses"].as_u64(), "{c}");
        let hash = arena_core::sha256_hex(&std::fs::read(&smart).unwrap());
        assert_eq!(latest(s.data.path(), "mine"), (2, hash.clone()), "the candidate became version 2");

        // The same games as `arena candidate` with the two files and its seed: each pair counted once,
        // across the restart.
        let args = ["candidate", "--game", "goofspiel", "--max-games", "40", "--json", "--seed", &seed];
        let local = run(&[&args[..], &["--current", &random, "--candidate", &smart]].concat());
        let local: Value = serde_json::from_slice(&local.stdout).unwrap();
        for k in ["wins", "draws", "losses"] {
            assert_eq!(c[k], local["result"][k], "{k}: server {c}, local {local}");
        }

        let his = until(&s.url, "his", |c| c["status"] != "testing").await;
        assert_eq!((his["status"].as_str(), his["version"].as_u64()), (Some("superseded"), None), "{his}");
        let zig = arena_core::sha256_hex(&std::fs::read(player("goofspiel-zig")).unwrap());
        assert_eq!(latest(s.data.path(), "his"), (2, zig), "the organiser's version, not the candidate");

        // A weaker candidate is rejected, and the version in use stays.
        let (st, v) = candidate(&s.url, &alice, "mine", "goofspiel-random").await;
        assert_eq!(st, 202, "{v}");
        let c = until(&s.url, "mine", |c| c["status"] != "testing").await;
        assert_eq!(
            (c["status"].as_str(), c["against"].as_u64(), c["version"].as_u64()),
            (Some("rejected"), Some(2), None),
            "{c}"
        );
        assert!(c["llr"].as_f64() <= c["lower"].as_f64(), "{c}");
        assert_eq!(latest(s.data.path(), "mine"), (2, hash), "the version in use stays");
        assert_eq!(get_json(&format!("{}/api/tournaments", s.url)).await["tournaments"], serde_json::json!([]));

        // The player page shows the evidence; its owner's upload page has the checkbox.
        let session = sign_in(&s.url, &alice).await;
        let (body, _) = page(&format!("{}/players/mine", s.url), &session).await;
        assert!(body.contains("id=\"candidates-goofspiel\"") && body.contains("accepted: now v2"), "{body}");
        assert!(body.contains("<td>rejected</td>"), "{body}");
        let (upload_page, _) = page(&format!("{}/upload", s.url), &session).await;
        assert!(upload_page.contains("name=\"candidate\""));
        let res =
            client().get(format!("{}/api/games/goofspiel/players/nobody/candidates", s.url)).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 404);
    });
}

//! Competitions run from the browser's forms on a running `arena serve`: the game's ladder runs until
//! the deadline, submissions close then (the refusal names the deadline), and the final of every
//! player's last version before it is played once, even by a server restarted across the deadline;
//! its standings as a page and a CSV.

use super::web::{client, get_json, page, rt, serve, serve_in, sign_in, submit_all, upload, user};
use super::{player, run};

/// Creates a competition through the admin's form; its id.
async fn create(url: &str, session: &str, title: &str, closes_in: &str) -> u64 {
    let (_, csrf) = page(&format!("{url}/competitions"), session).await;
    let form = [
        ("csrf", csrf.as_str()),
        ("game", "pennies"),
        ("title", title),
        ("description", "two weeks of <em>pennies</em>"),
        ("closes_in", closes_in),
        ("format", "round-robin"),
        ("games_per_match", "2"),
        ("seed", "3"),
    ];
    let res = post(url, session, &form).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    res.headers()["location"].to_str().unwrap().trim_start_matches("/competitions/").parse().unwrap()
}

/// Waits for competition `id`'s final to finish; its tournament id.
async fn final_of(url: &str, id: u64) -> u64 {
    for _ in 0..600 {
        let body = client().get(format!("{url}/competitions/{id}")).send().await.unwrap().text().await.unwrap();
        if let Some(f) = body.split("id=\"final-link\">Tournament ").nth(1) {
            let f: u64 = f.split('<').next().unwrap().parse().unwrap();
            if get_json(&format!("{url}/api/tournaments/{f}")).await["tournament"]["status"] == "finished" {
                return f;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no final for competition {id}");
}

#[test]
fn a_competition_runs_its_ladder_closes_at_its_deadline_and_plays_its_final() {
    let s = serve(&[]);
    let admin = user(s.data.path(), "root", true);
    let alice = user(s.data.path(), "alice", false);
    let d = s.data.path().display().to_string();
    submit_all(&d, "pennies", &[("heads", "pennies-heads"), ("alternate", "pennies-alternate")]);
    let url = s.url.clone();
    rt().block_on(async {
        let session = sign_in(&url, &admin).await;
        let alice_session = sign_in(&url, &alice).await;
        let (_, csrf) = page(&format!("{url}/competitions"), &alice_session).await;
        let res = client()
            .post(format!("{url}/competitions"))
            .header("cookie", &alice_session)
            .form(&[
                ("csrf", csrf.as_str()),
                ("game", "pennies"),
                ("title", "x"),
                ("closes_in", "1h"),
                ("format", "knockout"),
                ("games_per_match", "1"),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 403, "only an admin");
        let (long_title, long_text) = ("t".repeat(121), "d".repeat(4001));
        let bad = [
            ("soon", "t", ""),
            ("0s", "t", ""),
            ("400d", "t", ""),
            ("1h", "", ""),
            ("1h", &long_title, ""),
            ("1h", "t", &long_text),
        ];
        for (closes_in, title, description) in bad {
            let (_, csrf) = page(&format!("{url}/competitions"), &session).await;
            let form = [
                ("csrf", csrf.as_str()),
                ("game", "pennies"),
                ("title", title),
                ("description", description),
                ("closes_in", closes_in),
                ("format", "knockout"),
                ("games_per_match", "1"),
            ];
            let res = post(&url, &session, &form).await;
            assert_eq!(
                res.status().as_u16(),
                400,
                "closes in {closes_in:?}, title {title:?}, {} chars",
                description.len()
            );
        }

        // A final's length and seed are refused in the command line's very words (a format is refused
        // naming the same three: clap lists a flag's possible values itself).
        let typed = [("games_per_match", "100"), ("seed", "x"), ("format", "ladder")];
        for (field, value) in typed {
            let (_, csrf) = page(&format!("{url}/competitions"), &session).await;
            let mut form = vec![
                ("csrf", csrf.as_str()),
                ("game", "pennies"),
                ("title", "t"),
                ("closes_in", "1h"),
                ("format", "knockout"),
                ("games_per_match", "1"),
                ("seed", "7"),
            ];
            form.retain(|(k, _)| *k != field);
            form.push((field, value));
            let res = post(&url, &session, &form).await;
            assert_eq!(res.status().as_u16(), 400, "{field} {value}");
            let page = res.text().await.unwrap();
            let flag = format!("--{}", field.replace('_', "-"));
            let cli = run(&["tournament", "--game", "pennies", &flag, value, "heads", "alternate"]);
            let said = String::from_utf8_lossy(&cli.stderr).to_string();
            let words = match said.lines().next().and_then(|l| l.split_once("': ")) {
                Some((_, w)) => w.to_string(),
                None => "knockout, round-robin, rounds".to_string(),
            };
            assert!(said.contains(&words), "{said}");
            assert!(
                !cli.status.success() && page.contains(&escaped(&words)),
                "{field}: the CLI says {said}, the page {page}"
            );
        }

        let id = create(&url, &session, "Autumn <cup>", "6s").await;
        let body = client().get(format!("{url}/competitions/{id}")).send().await.unwrap().text().await.unwrap();
        assert!(
            body.contains("The ladder, live") && body.contains("Autumn &#60;cup&#62;") && !body.contains("<cup>"),
            "{body}"
        );
        // Before the deadline: the ladder plays, and uploads are taken (alice's second version too).
        let (st, v) =
            upload(&url, Some(&alice), "pennies", "alice-p", "a.wasm", std::fs::read(player("pennies-heads")).unwrap())
                .await;
        assert_eq!(st, 201, "{v}");
        let (st, v) = upload(
            &url,
            Some(&alice),
            "pennies",
            "alice-p",
            "a.wasm",
            std::fs::read(player("pennies-alternate")).unwrap(),
        )
        .await;
        assert_eq!(st, 201, "{v}");
        let ladder = get_json(&format!("{url}/api/tournaments")).await["tournaments"][0].clone();
        assert_eq!(
            (ladder["format"].as_str(), ladder["status"].as_str()),
            (Some("ladder"), Some("running")),
            "{ladder}"
        );

        // After it: closed, saying when; the final of each player's last version before the deadline.
        let f = final_of(&url, id).await;
        let (st, v) = upload(
            &url,
            Some(&alice),
            "pennies",
            "alice-late",
            "l.wasm",
            std::fs::read(player("pennies-heads")).unwrap(),
        )
        .await;
        assert_eq!(st, 403, "{v}");
        let m = v["error"]["message"].as_str().unwrap();
        assert!(m.contains("closed at 20") && m.contains("Autumn <cup>"), "{m}");
        let t = get_json(&format!("{url}/api/tournaments/{f}")).await;
        assert_eq!(
            (t["tournament"]["format"].as_str(), t["tournament"]["games_per_match"].as_u64()),
            (Some("round-robin"), Some(2))
        );
        let versions: Vec<(String, u64)> =
            t["standings"].as_array().unwrap().iter().map(|s| (s["name"].as_str().unwrap().to_string(), 0)).collect();
        assert_eq!(versions.len(), 3, "heads, alternate and alice-p: {t}");
        let ladder = get_json(&format!("{url}/api/tournaments/{}", ladder["id"])).await;
        assert_eq!(ladder["tournament"]["status"], "stopped", "the ladder stops at the deadline");
        let body = client().get(format!("{url}/competitions/{id}")).send().await.unwrap().text().await.unwrap();
        assert!(body.contains("id=\"final-standings\"") && body.contains("alice-p"), "{body}");
        let csv =
            client().get(format!("{url}/competitions/{id}/final.csv")).send().await.unwrap().text().await.unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "place,player,played,won,lost,tied,points,score,faults,banned");
        assert_eq!(lines.len(), 4, "{csv}");
        assert!(lines[1..].iter().all(|l| l.split(',').nth(2) == Some("4")), "each plays 2 games against 2: {csv}");
    });
}

#[test]
fn a_server_restarted_across_the_deadline_starts_the_final_once() {
    let s = serve(&[]);
    let admin = user(s.data.path(), "root", true);
    let d = s.data.path().display().to_string();
    submit_all(&d, "pennies", &[("heads", "pennies-heads"), ("alternate", "pennies-alternate")]);
    let url = s.url.clone();
    let id = rt().block_on(async {
        let session = sign_in(&url, &admin).await;
        create(&url, &session, "Restarted", "3s").await
    });
    // Down before the deadline, up after it.
    let data = s.stop();
    std::thread::sleep(std::time::Duration::from_secs(4));
    let finals = |data: &std::path::Path| -> i64 {
        let db = rusqlite::Connection::open(data.join("arena.db")).unwrap();
        db.query_row("SELECT COUNT(*) FROM tournaments WHERE format = 'round-robin'", [], |r| r.get(0)).unwrap()
    };
    assert_eq!(finals(data.path()), 0);
    let s = serve_in(data, &[]);
    let url = s.url.clone();
    let f = rt().block_on(final_of(&url, id));
    let data = s.stop();
    assert_eq!(finals(data.path()), 1);
    // And again: still one.
    let s = serve_in(data, &[]);
    std::thread::sleep(std::time::Duration::from_secs(2));
    let data = s.stop();
    assert_eq!(finals(data.path()), 1, "the final {f} was recorded once");
}

/// `text` as a page shows it (HTML-escaped).
fn escaped(text: &str) -> String {
    text.replace('&', "&#38;").replace('<', "&#60;").replace('>', "&#62;").replace('"', "&#34;").replace('\'', "&#39;")
}

/// Posts `form` to the competitions page as the signed-in `session`.
async fn post(url: &str, session: &str, form: &[(&str, &str)]) -> reqwest::Response {
    client().post(format!("{url}/competitions")).header("cookie", session).form(form).send().await.unwrap()
}

/// Competition `id`'s page once `done` holds of it (polled for up to three minutes).
async fn page_once(url: &str, id: u64, done: impl Fn(&str) -> bool) -> String {
    for _ in 0..1800 {
        let body = client().get(format!("{url}/competitions/{id}")).send().await.unwrap().text().await.unwrap();
        if done(&body) {
            return body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("competition {id} never got there");
}

/// The text of the element with id `id` in `page`, tags dropped.
fn text_of(page: &str, id: &str) -> String {
    let start = page.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}"));
    let body = &page[start..];
    let body = &body[body.find('>').unwrap() + 1..];
    let (mut out, mut tag) = (String::new(), false);
    for ch in body[..body.find("</p>").or(body.find("</table>")).unwrap()].chars() {
        match ch {
            '<' => tag = true,
            '>' => tag = false,
            c if !tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn a_final_is_played_again_until_its_top_places_are_decided_or_its_game_cap_and_says_which_are() {
    let s = serve(&[]);
    let admin = user(s.data.path(), "root", true);
    let d = s.data.path().display().to_string();
    submit_all(&d, "goofspiel", &[("smart", "goofspiel-smart"), ("random", "goofspiel-random")]);
    let url = s.url.clone();
    rt().block_on(async {
        let session = sign_in(&url, &admin).await;
        // Places or a cap past their range, or not numbers, are refused, saying the range; nothing is stored.
        let long = "9".repeat(5000);
        for (decide, cap) in [("65", "10"), ("1", "100001"), ("x", "10"), ("1", "-3"), (long.as_str(), "10")] {
            let (_, csrf) = page(&format!("{url}/competitions"), &session).await;
            let form = [
                ("csrf", csrf.as_str()),
                ("game", "goofspiel"),
                ("title", "refused"),
                ("closes_in", "1s"),
                ("format", "round-robin"),
                ("games_per_match", "6"),
                ("decide", decide),
                ("final_games", cap),
            ];
            let res = post(&url, &session, &form).await;
            assert_eq!(res.status().as_u16(), 400, "decide {:.10}, cap {cap}", decide);
            let body = res.text().await.unwrap();
            assert!(body.contains("a whole number from 0 to"), "{body:.2000}");
            assert!(!body.contains(&long), "the input is not echoed whole");
        }
        let listed = client().get(format!("{url}/competitions")).send().await.unwrap().text().await.unwrap();
        assert!(!listed.contains("refused"), "a refused competition was stored");
        let mut ids = vec![];
        // The same final twice: until first place is decided (room for many legs of six games), and
        // capped at twelve games (two legs).
        for (title, cap) in [("decided", "400"), ("capped", "12")] {
            let (_, csrf) = page(&format!("{url}/competitions"), &session).await;
            let form = [
                ("csrf", csrf.as_str()),
                ("game", "goofspiel"),
                ("title", title),
                ("closes_in", "1s"),
                ("format", "round-robin"),
                ("games_per_match", "6"),
                ("seed", "3"),
                ("decide", "1"),
                ("final_games", cap),
            ];
            let res = post(&url, &session, &form).await;
            assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
            ids.push(res.headers()["location"].to_str().unwrap().trim_start_matches("/competitions/").parse().unwrap());
        }
        let settled = |b: &str| b.contains("id=\"decided-summary\"") && !b.contains("Playing on");
        let decided = page_once(&url, ids[0], settled).await;
        let summary = text_of(&decided, "decided-summary");
        assert!(summary.contains("Places 1 to 1 are decided"), "{summary}");
        let legs = decided.matches(">leg ").count();
        assert!(legs >= 2, "one leg of six games does not tell them apart: {summary}");
        let games: u32 = summary.split(" games in ").next().unwrap().trim().parse().unwrap();
        assert_eq!(games, 6 * legs as u32, "{summary}");
        let table = text_of(&decided, "decided-table");
        assert!(table.contains("1smart") && table.contains("2random"), "{table}");

        let capped = page_once(&url, ids[1], settled).await;
        let summary = text_of(&capped, "decided-summary");
        assert!(summary.starts_with("12 games in 2 leg(s) of at most 12"), "{summary}");
        assert!(summary.contains("The cap is reached: no place is decided"), "{summary}");
        let table = text_of(&capped, "decided-table");
        assert!(table.contains("1–2smart") && table.contains("1–2random"), "{table}");

        // The API says the same.
        let a = get_json(&format!("{url}/api/competitions/{}", ids[0])).await;
        let d = &a["decision"];
        assert_eq!(
            (a["decide"].as_u64(), d["settled"].as_bool(), d["over"].as_bool()),
            (Some(1), Some(true), Some(true)),
            "{a}"
        );
        assert_eq!((d["decided"][0].as_u64(), d["placed"][0]["name"].as_str()), (Some(1), Some("smart")), "{a}");
        assert_eq!(d["legs"].as_array().map(Vec::len), Some(legs), "{a}");
        assert_eq!(d["placed"][0]["rank_range"], serde_json::json!([1, 1]), "{a}");
        let b = get_json(&format!("{url}/api/competitions/{}", ids[1])).await;
        let d = &b["decision"];
        assert_eq!(
            (d["games"].as_u64(), d["cap"].as_u64(), d["settled"].as_bool(), d["over"].as_bool()),
            (Some(12), Some(12), Some(false), Some(true)),
            "{b}"
        );
        assert_eq!(d["decided"], serde_json::json!([]), "{b}");
        let res = client().get(format!("{url}/api/competitions/999")).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 404);
    });
}

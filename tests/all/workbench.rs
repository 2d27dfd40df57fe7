//! The bot author's workbench: `arena fork` plays a recorded game again from a step (the record's
//! answers before it, bit-exact; the players given from it) and says where the fork differs.

use super::{player, run, run_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A game recorded by a tournament's `--replay-dir`: the replay file (in `dir`).
fn record(dir: &Path, game: &str, format: &str, seats: &[String]) -> PathBuf {
    let replays = dir.join("original");
    let replays_arg = replays.display().to_string();
    let mut args = vec!["tournament", "--game", game, "--format", format, "--seed", "3", "--json"];
    args.extend(["--games-per-match", "1", "--replay-dir", &replays_arg]);
    args.extend(seats.iter().map(String::as_str));
    let doc = run_json(&args);
    let id = doc["games"][0]["id"].as_str().unwrap();
    replays.join(format!("{id}.jsonl"))
}

/// A replay file's lines, as text and as JSON.
fn lines(path: &Path) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| (l.to_string(), serde_json::from_str(l).unwrap())).collect()
}

/// The call lines of a replay file.
fn calls(path: &Path) -> Vec<(String, Value)> {
    lines(path).into_iter().filter(|(_, v)| v["type"] == "call").collect()
}

/// The number of steps a replay file's game took.
fn steps(path: &Path) -> u64 {
    calls(path).iter().map(|(_, v)| v["turn"].as_u64().unwrap()).max().unwrap()
}

/// `arena fork --json` of `file` at `step`, `seat` changed, `players` in seat order, writing the fork's
/// replay into `out`: the document and the fork's replay file.
fn fork(file: &Path, (step, seat): (u64, usize), players: &[String], out: &Path) -> (Value, PathBuf) {
    let (step_arg, seat_arg, out_arg) = (step.to_string(), seat.to_string(), out.display().to_string());
    let file_arg = file.display().to_string();
    let mut args =
        vec!["fork", &file_arg, "--step", &step_arg, "--seat", &seat_arg, "--json", "--replay-dir", &out_arg];
    args.extend(players.iter().map(String::as_str));
    let doc = run_json(&args);
    let id = doc["result"]["id"].as_str().unwrap();
    let written = out.join(format!("{id}-fork-{step}.jsonl"));
    (doc, written)
}

/// A call line as the game's course: who, what, when and the answer or fault (not fuel, time, output).
fn course(v: &Value) -> (Value, Value, Value, Value, Value) {
    (v["seat"].clone(), v["call"].clone(), v["turn"].clone(), v["answer"].clone(), v["fault"]["kind"].clone())
}

/// The first step whose calls differ between two replay files, by the test's own reading of them.
fn first_difference(a: &Path, b: &Path) -> Option<u64> {
    let (a, b) = (calls(a), calls(b));
    for i in 0..a.len().max(b.len()) {
        match (a.get(i), b.get(i)) {
            (Some((_, x)), Some((_, y))) if course(x) == course(y) => {}
            (Some((_, x)), Some((_, y))) => {
                return Some(x["turn"].as_u64().unwrap().min(y["turn"].as_u64().unwrap()));
            }
            (Some((_, x)), None) | (None, Some((_, x))) => return Some(x["turn"].as_u64().unwrap()),
            (None, None) => unreachable!(),
        }
    }
    None
}

/// The fork's lines before `step` are the original's, byte for byte (answers, fuel, time, output).
fn same_before(original: &Path, forked: &Path, step: u64) {
    let before = |p: &Path| -> Vec<String> {
        calls(p).into_iter().filter(|(_, v)| v["turn"].as_u64().unwrap() < step).map(|(l, _)| l).collect()
    };
    assert_eq!(before(original), before(forked), "the fork replays the original's steps before {step}");
}

fn seat(name: &str, sample: &str) -> String {
    format!("{name}={}", player(sample))
}

#[test]
fn a_fork_with_the_versions_that_played_is_the_original_game_call_for_call() {
    // goofspiel-random draws from WASI random, whose state is the seat's own: a fork that did not call
    // it on the replayed steps would see it bid other cards from there.
    let dir = tempfile::tempdir().unwrap();
    let six: Vec<String> = std::iter::once(seat("culprit", "goofspiel-panic"))
        .chain((0..5).map(|i| seat(&format!("good{i}"), ["goofspiel-smart", "goofspiel-random"][i % 2])))
        .collect();
    let cases = [
        ("goofspiel", "round-robin", vec![seat("smart", "goofspiel-smart"), seat("random", "goofspiel-random")]),
        ("santorini", "round-robin", vec![seat("minimax", "santorini-minimax"), seat("random", "santorini-random")]),
        // Six seats, the first banned in the game: a step whose answers were dropped, replayed as played.
        ("goofspiel", "rounds", six),
    ];
    for (n, (game, format, seats)) in cases.iter().enumerate() {
        let dir = dir.path().join(n.to_string());
        let original = record(&dir, game, format, seats);
        let last = steps(&original);
        let paths: Vec<String> = seats.iter().map(|s| s.split_once('=').unwrap().1.to_string()).collect();
        for step in [1, last / 2, last] {
            let changed = seats.len() - 1;
            let (doc, forked) = fork(&original, (step, changed), &paths, &dir.join(format!("fork-{step}")));
            let what = format!("{game} of {} seats forked at step {step}", seats.len());
            assert_eq!(doc["diverged_at"], Value::Null, "{what}: the same versions play the same game");
            assert_eq!(doc["live_from"], step, "{what}");
            assert_eq!(first_difference(&original, &forked), None, "{what}");
            same_before(&original, &forked, step);
            let footer = |p: &Path| lines(p).pop().unwrap().1;
            let (a, b) = (footer(&original), footer(&forked));
            assert_eq!(
                (&a["scores"], &a["winners"], &a["faults"]),
                (&b["scores"], &b["winners"], &b["faults"]),
                "{what}"
            );
            assert_eq!(doc["result"]["players"], lines(&original)[0].1["players"], "{what}: the original's names play");
        }
    }
}

#[test]
fn a_fork_with_another_version_first_differs_where_that_seat_answers_otherwise_in_either_seat() {
    let dir = tempfile::tempdir().unwrap();
    let seats = [seat("smart", "goofspiel-smart"), seat("random", "goofspiel-random")];
    let original = record(dir.path(), "goofspiel", "round-robin", &seats);
    for changed in [0, 1] {
        let mut players = vec![player("goofspiel-smart"), player("goofspiel-random")];
        // The other sample in the changed seat: it bids otherwise somewhere from the step on.
        players[changed] = player(["goofspiel-random", "goofspiel-smart"][changed]);
        let step = 4;
        let (doc, forked) = fork(&original, (step, changed), &players, &dir.path().join(format!("seat{changed}")));
        let at = first_difference(&original, &forked).expect("another version plays another game");
        assert_eq!(doc["diverged_at"], at, "seat {changed}: the step the files first differ at");
        assert!(at >= step, "seat {changed}: nothing differs before the fork's step {step} (at {at})");
        same_before(&original, &forked, step);
        // The first different call is the changed seat's: the other plays as it did.
        let first = calls(&forked).into_iter().zip(calls(&original)).find(|((_, f), (_, o))| course(f) != course(o));
        let ((_, f), _) = first.expect("a different call");
        assert_eq!(f["seat"], changed, "seat {changed}: {f}");
        assert!(doc["result"]["faults"].as_array().unwrap().is_empty(), "{}", doc["result"]["faults"]);
    }
}

#[test]
fn a_reproduction_with_the_component_that_played_is_identical_and_another_names_the_step_it_parts_at() {
    let dir = tempfile::tempdir().unwrap();
    let seats = [seat("smart", "goofspiel-smart"), seat("random", "goofspiel-random")];
    let original = record(dir.path(), "goofspiel", "round-robin", &seats);
    let file = original.display().to_string();
    for (s, (name, sample, other)) in
        [("smart", "goofspiel-smart", "goofspiel-random"), ("random", "goofspiel-random", "goofspiel-smart")]
            .into_iter()
            .enumerate()
    {
        let same = format!("{name}={}", player(sample));
        let out = run(&["replay", &file, "--player", &same]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("identical"),
            "{name}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Another component in the seat: the step named is where a fork from step 1 with it first
        // differs (the same history up to there), and the record's answer is the file's.
        let changed = format!("{name}={}", player(other));
        let out = run(&["replay", &file, "--player", &changed, "--json"]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let d = &v["diverged"];
        let mut players = vec![player("goofspiel-smart"), player("goofspiel-random")];
        players[s] = player(other);
        let (forked, _) = fork(&original, (1, s), &players, &dir.path().join(format!("fork{s}")));
        assert_eq!(d["step"], forked["diverged_at"], "{name}: {d}");
        assert_eq!(d["seat"], s);
        let line =
            calls(&original).into_iter().map(|(_, v)| v).find(|c| c["seat"] == s && c["turn"] == d["step"]).unwrap();
        assert_eq!(d["recorded"], line["answer"], "{name}: {d}");
        assert_ne!(d["answered"], d["recorded"]);
        assert!(d["request"]["hand"].is_array(), "what the seat was asked: {d}");
    }
    // A seat that did not play, or a file that is not a replay: refused with the reason, exit 2.
    let out = run(&["replay", &file, "--player", &format!("nobody={}", player("goofspiel-smart"))]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && err.contains("`nobody` did not play this game"), "{err}");
}

#[test]
fn a_new_version_that_faults_before_the_step_is_banned_on_its_own_call_in_either_seat() {
    // goofspiel-loop loops from its second bid: followed through the replayed steps, it loops at step
    // 2, and the fork is live from there (the other seat is never banned for it).
    let dir = tempfile::tempdir().unwrap();
    let seats = [seat("smart", "goofspiel-smart"), seat("random", "goofspiel-random")];
    let original = record(dir.path(), "goofspiel", "round-robin", &seats);
    for changed in [0, 1] {
        let mut players = vec![player("goofspiel-smart"), player("goofspiel-random")];
        players[changed] = player("goofspiel-loop");
        let (doc, forked) = fork(&original, (6, changed), &players, &dir.path().join(format!("seat{changed}")));
        let faults = doc["result"]["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(faults[0]["player"], ["smart", "random"][changed]);
        assert_eq!(faults[0]["kind"], "fuel");
        let live = doc["live_from"].as_u64().unwrap();
        assert_eq!(doc["from"], 6);
        assert!(live < 6, "seat {changed}: live from {live}");
        assert_eq!(doc["diverged_at"], live);
        same_before(&original, &forked, live);
        let ban = calls(&forked).into_iter().find(|(_, v)| !v["fault"].is_null()).unwrap().1;
        assert_eq!((ban["seat"].as_u64(), ban["turn"].as_u64()), (Some(changed as u64), Some(live)), "{ban}");
    }
}

#[test]
fn a_fork_that_cannot_be_is_refused_naming_the_file_and_the_problem_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let six: Vec<String> = std::iter::once(seat("culprit", "goofspiel-panic"))
        .chain((0..5).map(|i| seat(&format!("good{i}"), "goofspiel-smart")))
        .collect();
    let original = record(dir.path(), "goofspiel", "rounds", &six);
    let file = original.display().to_string();
    let last = steps(&original);
    let banned_at = calls(&original).iter().find(|(_, v)| !v["fault"].is_null()).unwrap().1["turn"].as_u64().unwrap();
    let out_dir = dir.path().join("forks");
    let out_arg = out_dir.display().to_string();
    let smart = player("goofspiel-smart");
    let six_players: Vec<&str> = vec![smart.as_str(); 6];
    let past = (last + 1).to_string();
    let after_ban = (banned_at + 1).to_string();
    let cases: Vec<(Vec<&str>, Vec<&str>, String)> = vec![
        (vec!["--step", &past, "--seat", "0"], six_players.clone(), format!("the game has steps 1 to {last}")),
        (vec!["--step", "0", "--seat", "0"], six_players.clone(), format!("the game has steps 1 to {last}")),
        (vec!["--step", "1", "--seat", "6"], six_players.clone(), "has seats 0 to 5".into()),
        (
            vec!["--step", &after_ban, "--seat", "0"],
            six_players.clone(),
            format!("seat 0 was banned at step {banned_at}"),
        ),
        (vec!["--step", "1", "--seat", "0"], six_players[..2].to_vec(), "2 components for a game of 6 seats".into()),
    ];
    for (flags, players, expect) in cases {
        let mut args = vec!["fork", &file, "--replay-dir", &out_arg];
        args.extend(flags);
        args.extend(players);
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(&file) && err.contains(&expect), "{args:?}: {err}");
        assert!(!out_dir.exists(), "{args:?}: nothing written");
    }
    // A record whose referee is not the package's: a fork would not be that game.
    let tampered = dir.path().join("tampered.jsonl");
    let text = std::fs::read_to_string(&original).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let mut h: Value = serde_json::from_str(header).unwrap();
    h["referee"] = "0".repeat(64).into();
    std::fs::write(&tampered, format!("{h}\n{rest}")).unwrap();
    let t = tampered.display().to_string();
    let mut args = vec!["fork", &t, "--step", "1", "--seat", "0", "--replay-dir", &out_arg];
    args.extend(six_players.iter().copied());
    let out = run(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains(&t) && err.contains("referee sha256"), "{err}");
    // Not a replay file at all.
    let out = run(&["fork", &smart, "--step", "1", "--seat", "0", &smart, &smart]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains(&smart), "{err}");
    assert!(!out_dir.exists());
}

/// The calls of a game's replay file (as downloaded) before `step`, as the game's course.
fn course_before(jsonl: &str, step: u64) -> Vec<(Value, Value, Value, Value, Value)> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "call" && v["turn"].as_u64().unwrap() < step)
        .map(|v| course(&v))
        .collect()
}

#[test]
fn a_seats_owner_forks_a_stored_game_on_the_web_never_rated_and_refused_clearly() {
    use super::web::{client, finished, get_json, page, rt, serve, sign_in, upload, user};
    let s = serve(&[]);
    let (admin, alice) = (user(s.data.path(), "root", true), user(s.data.path(), "alice", false));
    let file = |p: &str| std::fs::read(player(p)).unwrap();
    rt().block_on(async {
        let up = |token: String, name: &'static str, p: &'static str| {
            let url = s.url.clone();
            async move {
                let (st, v) = upload(&url, Some(&token), "goofspiel", name, "p.wasm", file(p)).await;
                assert_eq!(st, 201, "{v}");
            }
        };
        up(alice.clone(), "mine", "goofspiel-random").await;
        up(admin.clone(), "house", "goofspiel-smart").await;
        // Alice's scrimmage: version 1 of mine against house.
        let session = sign_in(&s.url, &alice).await;
        let (_, csrf) = page(&format!("{}/players/mine", s.url), &session).await;
        let form = [("csrf", csrf.as_str()), ("game", "goofspiel"), ("player", "mine"), ("opponent", "house")];
        let res = client().post(format!("{}/scrimmages", s.url)).header("cookie", &session).form(&form);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 303);
        finished(&s.url, 1).await;
        up(alice.clone(), "mine", "goofspiel-smart").await;
        let games = get_json(&format!("{}/api/tournaments/1/games", s.url)).await;
        let game = &games["games"][0];
        let key = game["id"].as_str().unwrap().to_string();
        let seat = game["players"].as_array().unwrap().iter().position(|p| p["name"] == "mine").unwrap();
        let before = get_json(&format!("{}/api/games/goofspiel/leaderboard", s.url)).await;

        // The owner's viewer has the fork form; a spectator's has none.
        let viewer = format!("{}/tournaments/1/games/{key}", s.url);
        let (mine, _) = page(&viewer, &session).await;
        assert!(mine.contains("id=\"fork-form\""), "no fork form for the seat's owner");
        let spectator = client().get(&viewer).send().await.unwrap().text().await.unwrap();
        assert!(!spectator.contains("id=\"fork-form\""));

        let forks = format!("{}/api/tournaments/1/games/{key}/forks", s.url);
        let post = |token: Option<String>, body: Value| {
            let mut req = client().post(&forks).json(&body);
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            async move {
                let res = req.send().await.unwrap();
                (res.status().as_u16(), res.json::<Value>().await.unwrap_or(Value::Null))
            }
        };
        // From step 4, version 2 (the latest) in mine's seat; then version 1, the one that played.
        let (st, v) = post(Some(alice.clone()), serde_json::json!({"seat": seat, "step": 4})).await;
        assert_eq!(st, 201, "{v}");
        let (st, same) = post(Some(alice.clone()), serde_json::json!({"seat": seat, "step": 4, "version": 1})).await;
        assert_eq!(st, 201, "{same}");
        let original_jsonl = client().get(format!("{viewer}.jsonl")).send().await.unwrap().text().await.unwrap();
        for (doc, changed) in [(&v, true), (&same, false)] {
            let id = doc["tournament"].as_u64().unwrap();
            let t = finished(&s.url, id).await;
            let f = &t["tournament"]["fork"];
            assert_eq!(
                (f["tournament"].as_u64(), f["game"].as_str(), f["step"].as_u64()),
                (Some(1), Some(key.as_str()), Some(4))
            );
            assert_eq!(t["tournament"]["rated"], false);
            assert_eq!(f["played"], true, "{t}");
            assert_eq!(f["original"], format!("/tournaments/1/games/{key}#step=4"));
            let forked = get_json(&format!("{}/api/tournaments/{id}/games", s.url)).await;
            let fkey = forked["games"][0]["id"].as_str().unwrap();
            let jsonl = client().get(format!("{}/tournaments/{id}/games/{fkey}.jsonl", s.url)).send().await.unwrap();
            let jsonl = jsonl.text().await.unwrap();
            assert_eq!(course_before(&jsonl, 4), course_before(&original_jsonl, 4), "the steps before 4 as played");
            if changed {
                let at = f["diverged_at"].as_u64().expect("the smart version bids otherwise");
                assert!(at >= 4, "{f}");
            } else {
                assert_eq!(f["diverged_at"], Value::Null, "the version that played plays the same game: {f}");
                assert_eq!(course_before(&jsonl, 99), course_before(&original_jsonl, 99));
            }
        }
        let after = get_json(&format!("{}/api/games/goofspiel/leaderboard", s.url)).await;
        assert_eq!(before, after, "a fork changed the ratings");
        // The fork's page links to the original at its step, and says where they part.
        let id = v["tournament"].as_u64().unwrap();
        let (body, _) = page(&format!("{}/tournaments/{id}", s.url), &session).await;
        assert!(body.contains(&format!("href=\"/tournaments/1/games/{key}#step=4\"")), "{body}");
        assert!(body.contains("it differs from the original from"), "{body}");
        // A fork is not a tournament to resume: it is forked again.
        let data = s.data.path().display().to_string();
        let out = run(&["resume", &id.to_string(), "--data", &data]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(&format!("is a fork of game {key} of tournament 1")), "{err}");

        // The viewer's form forks too: version 2 from step 1.
        let (_, csrf) = page(&viewer, &session).await;
        let form = [("csrf", csrf.as_str()), ("seat", &seat.to_string()), ("step", "1"), ("version", "v2")];
        let res = client().post(format!("{viewer}/forks")).header("cookie", &session).form(&form);
        let res = res.send().await.unwrap();
        assert_eq!((res.status().as_u16(), res.headers()["location"].to_str().unwrap()), (303, "/tournaments/4"));
        let t = finished(&s.url, 4).await;
        let v_diverged = t["tournament"]["fork"]["diverged_at"].clone();
        assert!(v_diverged.is_u64(), "{t}");

        // The owner reproduces the server's game on their own machine: the replay file and the package
        // of its referee are downloaded; the version that played is identical, the other parts.
        let game_id = format!("1/{key}");
        let mine_v1 = format!("mine={}", player("goofspiel-random"));
        let out = run(&["replay", "--server", &s.url, &game_id, "--player", &mine_v1]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("identical to the server's game"),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mine_v2 = format!("mine={}", player("goofspiel-smart"));
        let out = run(&["replay", "--server", &s.url, &game_id, "--player", &mine_v2, "--json"]);
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        let d: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(d["diverged"]["step"], v_diverged, "the step the server's fork from step 1 parts at");
        let out = run(&["replay", "--server", &s.url, "1/R9-M9-G9", "--player", &mine_v1]);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("404"));

        let kept = |h: &str| {
            let to = format!("{}/api/packages/{h}", s.url);
            async move { client().get(to).send().await.unwrap().status().as_u16() }
        };
        assert_eq!(kept("not-a-hash").await, 400);
        assert_eq!(kept(&"0".repeat(64)).await, 404);

        // What cannot be forked is refused with the reason, and nothing is recorded.
        let count =
            || async { get_json(&format!("{}/api/tournaments", s.url)).await["tournaments"].as_array().unwrap().len() };
        let n = count().await;
        let other = 1 - seat;
        let cases = [
            (Some(alice.clone()), serde_json::json!({"seat": seat, "step": 99}), 400, "the game has steps 1 to"),
            (Some(alice.clone()), serde_json::json!({"seat": other, "step": 2}), 403, "not yours"),
            (Some(alice.clone()), serde_json::json!({"seat": seat, "step": 2, "version": 9}), 404, "no version 9"),
            (Some(alice.clone()), serde_json::json!({"seat": seat, "step": 2, "player": "house"}), 400, "is not seat"),
            (None, serde_json::json!({"seat": seat, "step": 2}), 401, ""),
        ];
        for (token, body, status, says) in cases {
            let (st, v) = post(token, body.clone()).await;
            assert_eq!(st, status, "{body}: {v}");
            assert!(v["error"]["message"].as_str().unwrap_or_default().contains(says), "{body}: {v}");
        }
        let res = client().post(format!("{}/api/tournaments/99/games/{key}/forks", s.url)).bearer_auth(&alice);
        assert_eq!(res.json(&serde_json::json!({"seat": 0, "step": 1})).send().await.unwrap().status().as_u16(), 404);
        // A record whose referee the server no longer keeps cannot be played again.
        let packages = s.data.path().join("packages");
        for e in std::fs::read_dir(&packages).unwrap() {
            std::fs::remove_dir_all(e.unwrap().path()).unwrap();
        }
        let (st, v) = post(Some(alice.clone()), serde_json::json!({"seat": seat, "step": 2})).await;
        assert_eq!(st, 410, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("no longer kept"), "{v}");
        assert_eq!(count().await, n, "a refused fork recorded a tournament");
    });
}

/// A folded-stacks profile: (stack, fuel) lines.
fn folded(path: &Path) -> Vec<(String, u64)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| {
            let (stack, fuel) = l.rsplit_once(' ').unwrap();
            (stack.to_string(), fuel.parse().unwrap())
        })
        .collect()
}

#[test]
fn a_profile_attributes_a_known_hot_loop_to_its_function_in_either_seat() {
    // pennies-hot's `choose` calls `hot` (2,000,000 rounds of `spin`) and `cold` (1,000): nearly all its
    // fuel is under hot;spin, and stderr names spin first.
    let dir = tempfile::tempdir().unwrap();
    let hot = super::fixture("pennies-hot.wat").display().to_string();
    let heads = player("pennies-heads");
    for seat in [0, 1] {
        let out_file = dir.path().join(format!("seat{seat}.folded"));
        let arg = format!("{seat}={}", out_file.display());
        let mut players = [heads.as_str(), heads.as_str()];
        players[seat] = &hot;
        let out = run(&["play", "--game", "pennies", "--seed", "1", "--profile", &arg, players[0], players[1]]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        // The samples' share (a call no tick caught, on a loaded machine, is counted apart).
        let stacks: Vec<(String, u64)> = folded(&out_file).into_iter().filter(|(s, _)| !s.starts_with('[')).collect();
        let total: u64 = stacks.iter().map(|(_, f)| f).sum();
        let in_hot: u64 = stacks.iter().filter(|(s, _)| s.ends_with("choose;hot;spin")).map(|(_, f)| f).sum();
        assert!(total > 20_000_000, "calls of ~26M fuel each, sampled: {total}");
        assert!(in_hot * 10 >= total * 9, "seat {seat}: {in_hot} of {total} under hot;spin: {stacks:?}");
        assert!(!stacks.iter().any(|(s, f)| s.contains("cold") && f * 10 > total), "{stacks:?}");
        let table = err.split("function").nth(1).unwrap_or_default();
        assert!(table.lines().nth(1).is_some_and(|l| l.trim_end().ends_with("spin")), "{err}");
    }
    // `arena check --profile` profiles the checked player in its game against the strongest sample.
    let out_file = dir.path().join("check.folded");
    let out = run(&["check", "--game", "pennies", "--seed", "1", "--profile", &out_file.display().to_string(), &hot]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(folded(&out_file).iter().any(|(s, f)| s.ends_with("choose;hot;spin") && *f > 0));
    // A seat the game does not have: refused, nothing written.
    let out = run(&["play", "--game", "pennies", "--profile", "2=x.folded", &hot, &heads]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("seats 0 to 1"), "{err}");
}

#[test]
fn a_leaderboard_gives_players_whose_intervals_overlap_a_shared_place() {
    // Three matching-pennies players after one round robin: too few games for any rating's interval to
    // clear another's, so all share places 1–3 (in the table, the JSON, and the API: `web.rs` compares
    // them).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    for (name, sample) in [("heads", "pennies-heads"), ("alt", "pennies-alternate"), ("loud", "pennies-loud")] {
        let out = run(&["submit", "--data", &d, "--game", "pennies", "--name", name, &player(sample)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = run(&[
        "tournament",
        "--data",
        &d,
        "--game",
        "pennies",
        "--format",
        "round-robin",
        "--registered",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = run_json(&["leaderboard", "--data", &d, "--game", "pennies", "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["rank_range"], serde_json::json!([1, 3]), "{r}");
    }
    let out = run(&["leaderboard", "--data", &d, "--game", "pennies"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("1–3").count(), 3, "{text}");
}

#[test]
fn a_tournaments_standings_share_a_place_range_until_its_games_tell_the_players_apart() {
    // Smart against random at Goofspiel: one game cannot tell them apart, eighty can. The standings of
    // the command line say so; those of the API, from the same games, are checked in `web.rs`.
    let by_the_games = |games: &str| {
        let (smart, random) = (player("goofspiel-smart"), player("goofspiel-random"));
        let args = ["tournament", "--game", "goofspiel", "--format", "round-robin", "--seed", "1"];
        let out = run(&[&args[..], &["--games-per-match", games, &smart, &random]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let section = text.split("By the games").nth(1).expect("a section by the games").to_string();
        let row = |name: &str| {
            let line = section.lines().find(|l| l.trim_start().starts_with(name)).unwrap_or_default();
            line.split_whitespace().nth(1).unwrap_or_default().to_string()
        };
        (row("goofspiel-smart"), row("goofspiel-random"))
    };
    assert_eq!(by_the_games("1"), ("1–2".to_string(), "1–2".to_string()));
    assert_eq!(by_the_games("80"), ("1".to_string(), "2".to_string()));
}

#[test]
fn a_version_is_downloadable_as_a_sparring_partner_only_once_its_owner_offers_it() {
    use super::web::{client, page, rt, serve, sign_in, upload, user};
    let s = serve(&[]);
    let (alice, bob) = (user(s.data.path(), "alice", false), user(s.data.path(), "bob", false));
    let smart = std::fs::read(player("goofspiel-smart")).unwrap();
    rt().block_on(async {
        let (st, v) = upload(&s.url, Some(&alice), "goofspiel", "mine", "mine.wasm", smart.clone()).await;
        assert_eq!(st, 201, "{v}");
        let base = format!("{}/api/games/goofspiel/players/mine", s.url);
        let listed =
            || async { client().get(format!("{base}/sparring")).send().await.unwrap().json::<Value>().await.unwrap() };
        assert_eq!(listed().await["versions"], serde_json::json!([]), "off by default");
        let component = format!("{base}/versions/1/component");
        let res = client().get(&component).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 403, "an unoffered version is not downloadable");
        // Only the owner offers; a version it lacks is 404.
        let put = |token: Option<&str>, version: u32, offered: bool| {
            let mut req = client()
                .put(format!("{base}/versions/{version}/sparring"))
                .json(&serde_json::json!({"offered": offered}));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            async move { req.send().await.unwrap().status().as_u16() }
        };
        assert_eq!(put(Some(&bob), 1, true).await, 403);
        assert_eq!(put(None, 1, true).await, 401);
        assert_eq!(put(Some(&alice), 9, true).await, 404);
        assert_eq!(listed().await["versions"], serde_json::json!([]), "a refused offer changed nothing");
        assert_eq!(put(Some(&alice), 1, true).await, 200);
        let l = listed().await;
        assert_eq!(l["versions"][0]["version"], 1, "{l}");
        let res = client().get(&component).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200);
        assert_eq!(res.bytes().await.unwrap().as_ref(), smart.as_slice(), "the very component submitted");

        // Anyone fetches it from the command line, and plays against it locally.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("partner.wasm").display().to_string();
        let out = run(&["fetch-player", "--server", &s.url, "--game", "goofspiel", "mine", "-o", &file]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read(&file).unwrap(), smart);
        let out = run(&["play", "--game", "goofspiel", "--seed", "1", &file, "builtin:random"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

        // The player page says what is offered; the owner withdraws it with the page's form.
        let session = sign_in(&s.url, &alice).await;
        let (body, csrf) = page(&format!("{}/players/mine", s.url), &session).await;
        assert!(body.contains("Offered as sparring partners") && body.contains("sparring-form-goofspiel"), "{body}");
        let form = [("csrf", csrf.as_str()), ("game", "goofspiel"), ("version", "1")];
        let res = client().post(format!("{}/players/mine/sparring", s.url)).header("cookie", &session).form(&form);
        assert_eq!(res.send().await.unwrap().status().as_u16(), 303);
        assert_eq!(listed().await["versions"], serde_json::json!([]));
        let out = run(&["fetch-player", "--server", &s.url, "--game", "goofspiel", "mine", "-o", &file]);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("offers no version"));
    });
}

#[test]
fn a_candidate_is_accepted_when_clearly_stronger_rejected_when_weaker_and_undecided_when_even() {
    // Fixed seeds, mirrored pairs: the SPRT between 0 and 50 Elo decides well within a cap of 40
    // games for a clearly stronger or weaker candidate, and not for the same player.
    let (smart, random) = (player("goofspiel-smart"), player("goofspiel-random"));
    let judge = |current: &str, candidate: &str| {
        let args = ["candidate", "--game", "goofspiel", "--seed", "3", "--max-games", "40", "--json"];
        let out = run(&[&args[..], &["--current", current, "--candidate", candidate]].concat());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code(), v["result"].clone())
    };
    let (code, r) = judge(&random, &smart);
    assert_eq!((code, r["verdict"].as_str()), (Some(0), Some("accepted")), "{r}");
    assert!(r["wins"].as_u64() > r["losses"].as_u64() && r["llr"].as_f64() >= r["upper"].as_f64(), "{r}");
    let (code, r) = judge(&smart, &random);
    assert_eq!((code, r["verdict"].as_str()), (Some(1), Some("rejected")), "{r}");
    assert!(r["llr"].as_f64() <= r["lower"].as_f64(), "{r}");
    let (code, r) = judge(&random, &random);
    assert_eq!((code, r["verdict"].as_str()), (Some(3), Some("undecided")), "{r}");
    let games = r["wins"].as_u64().unwrap() + r["draws"].as_u64().unwrap() + r["losses"].as_u64().unwrap();
    assert_eq!(games, 40, "played to the cap: {r}");
    // Bounds that make no test are refused.
    let out = run(&[
        "candidate",
        "--game",
        "goofspiel",
        "--elo0",
        "10",
        "--elo1",
        "5",
        "--current",
        &random,
        "--candidate",
        &smart,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && err.contains("must be below"), "{err}");
}

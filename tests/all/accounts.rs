//! Accounts without a shell on a running `arena serve`: invitations (made by `arena user invite` or
//! an admin's page; expired, used-up and forged codes refused), signing up with the token shown once,
//! replacing a token (the old one and its sessions stop at once), signing out everywhere, disabling an
//! account (it signs in and uploads no more; its players stay), and `Secure` cookies behind TLS.

use super::web::{client, page, rt, serve, sign_in, upload, user};
use super::{player, run};

/// `arena user invite` on the served store: the link's code.
fn invite(data: &std::path::Path, more: &[&str]) -> String {
    let d = data.display().to_string();
    let mut args = vec!["user", "invite", "--data", &d];
    args.extend_from_slice(more);
    let out = run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.split("code=").nth(1).expect("a link").trim().to_string()
}

/// Posts a form to `path` as the session `cookie`.
async fn post_as(url: &str, path: &str, cookie: &str, form: &[(&str, &str)]) -> reqwest::Response {
    client().post(format!("{url}{path}")).header("cookie", cookie).form(form).send().await.unwrap()
}

/// Signs up `name` with `code` through the form: (status, page, session cookie if one was set).
async fn sign_up(url: &str, code: &str, name: &str) -> (u16, String, Option<String>) {
    let res = client().get(format!("{url}/signup?code={code}")).send().await.unwrap();
    let cookie = res.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let status = res.status().as_u16();
    let form_page = res.text().await.unwrap();
    // A refused invitation shows no form: its page is the answer.
    let Some(csrf) = form_page.split("name=\"csrf\" value=\"").nth(1).map(|s| s.split('"').next().unwrap().to_string())
    else {
        return (status, form_page, None);
    };
    let res = post_as(url, "/signup", &cookie, &[("csrf", csrf.as_str()), ("code", code), ("name", name)]).await;
    let status = res.status().as_u16();
    let session = res.headers().get("set-cookie").map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string());
    (status, res.text().await.unwrap(), session)
}

fn token_in(page: &str, id: &str) -> String {
    page.split(&format!("id=\"{id}\">")).nth(1).unwrap().split('<').next().unwrap().to_string()
}

#[test]
fn invitations_sign_people_up_tokens_are_replaced_and_accounts_disabled() {
    let s = serve(&[]);
    let admin = user(s.data.path(), "root", true);
    let once = invite(s.data.path(), &["--uses", "1"]);
    let short = invite(s.data.path(), &["--expires", "1s"]);
    let url = s.url.clone();
    rt().block_on(async {
        // A good invitation: the form, then the account, signed in, its token shown once.
        let (st, body, session) = sign_up(&url, &once, "dana").await;
        assert_eq!(st, 201, "{body}");
        let token = token_in(&body, "new-token");
        assert!(token.starts_with("arena_"), "{body}");
        let session = session.expect("signed in");
        let (account, _) = page(&format!("{url}/account"), &session).await;
        assert!(account.contains("Replace my token") && !account.contains("invite-form"), "{account}");
        let (st, v) = upload(
            &url,
            Some(&token),
            "pennies",
            "dana-heads",
            "h.wasm",
            std::fs::read(player("pennies-heads")).unwrap(),
        )
        .await;
        assert_eq!(st, 201, "{v}");

        // Used up, expired, forged, and a taken name: refused, no account made.
        let (st, body, session) = sign_up(&url, &once, "eve").await;
        assert_eq!(st, 410, "{body}");
        assert!(body.contains("used as often as it may") && session.is_none(), "{body}");
        tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
        let (st, body, _) = sign_up(&url, &short, "eve").await;
        assert_eq!(st, 410, "{body}");
        assert!(body.contains("expired"), "{body}");
        let (st, body, _) = sign_up(&url, "inv_forged", "eve").await;
        assert_eq!(st, 404, "{body}");
        let (st, body, _) = sign_up(&url, &"x".repeat(10_000), "eve").await;
        assert_eq!(st, 404, "{body}");
        let many = invite(s.data.path(), &["--uses", "5"]);
        let (st, body, _) = sign_up(&url, &many, "dana").await;
        assert_eq!(st, 422, "{body}");
        assert!(body.contains("already"), "{body}");
        let (st, body, _) = sign_up(&url, &many, "<script>").await;
        assert_eq!(st, 422, "{body}");
        assert!(!body.contains("<script>"), "escaped: {body}");
        let (st, body, _) = sign_up(&url, &many, &"n".repeat(500)).await;
        assert_eq!(st, 422, "{body}");
        let listed = String::from_utf8_lossy(&run(&["user", "list", "--data", s.data.path().to_str().unwrap()]).stdout)
            .to_string();
        assert_eq!(listed.lines().count(), 2, "root and dana only: {listed}");

        // A replaced token: the old one and the old session stop at once; the new one works.
        let dana_session = sign_in(&url, &token).await;
        let (_, csrf) = page(&format!("{url}/account"), &dana_session).await;
        let res = post_as(&url, "/account/token", &dana_session, &[("csrf", csrf.as_str())]).await;
        assert_eq!(res.status().as_u16(), 200);
        let fresh = res.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
        let body = res.text().await.unwrap();
        let new_token = token_in(&body, "shown-secret");
        assert_ne!(new_token, token);
        // (Refused before the body is read: a small one is sent, so the answer always arrives.)
        let (st, _) = upload(&url, Some(&token), "pennies", "dana-heads", "h.wasm", b"a player".to_vec()).await;
        assert_eq!(st, 401, "the old token still works");
        let res = client().get(format!("{url}/account")).header("cookie", &dana_session).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 401, "the old session still works");
        let res = client().get(format!("{url}/account")).header("cookie", &fresh).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "this browser stays signed in");
        let (st, v) = upload(
            &url,
            Some(&new_token),
            "pennies",
            "dana-alt",
            "a.wasm",
            std::fs::read(player("pennies-alternate")).unwrap(),
        )
        .await;
        assert_eq!(st, 201, "{v}");

        // Sign out everywhere.
        let other = sign_in(&url, &new_token).await;
        let (_, csrf) = page(&format!("{url}/account"), &fresh).await;
        let res = post_as(&url, "/account/signout-everywhere", &fresh, &[("csrf", csrf.as_str())]).await;
        assert_eq!(res.status().as_u16(), 303);
        for c in [&fresh, &other] {
            let res = client().get(format!("{url}/account")).header("cookie", c).send().await.unwrap();
            assert_eq!(res.status().as_u16(), 401);
        }

        // An admin's page: invitations, and disabling an account (its players stay).
        let root = sign_in(&url, &admin).await;
        let (account, csrf) = page(&format!("{url}/account"), &root).await;
        assert!(account.contains("invite-form") && account.contains("data-account=\"dana\""), "{account}");
        let res =
            post_as(&url, "/account/invites", &root, &[("csrf", csrf.as_str()), ("uses", "2"), ("hours", "1")]).await;
        let body = res.text().await.unwrap();
        let link = token_in(&body, "shown-secret");
        let code = link.split("code=").nth(1).unwrap().to_string();
        assert_eq!(sign_up(&url, &code, "finn").await.0, 201);
        for (uses, hours) in [("0", "1"), ("1001", "1"), ("1", "0"), ("1", "9000"), ("x", "1")] {
            let res =
                post_as(&url, "/account/invites", &root, &[("csrf", csrf.as_str()), ("uses", uses), ("hours", hours)])
                    .await;
            assert_eq!(res.status().as_u16(), 400, "uses {uses}, hours {hours}");
        }
        let dana = sign_in(&url, &new_token).await;
        let res =
            post_as(&url, "/account/users", &root, &[("csrf", csrf.as_str()), ("name", "dana"), ("action", "disable")])
                .await;
        assert_eq!(res.status().as_u16(), 303);
        let (st, _) = upload(&url, Some(&new_token), "pennies", "dana-more", "h.wasm", b"a player".to_vec()).await;
        assert_eq!(st, 401, "a disabled account uploads");
        let res = client().get(format!("{url}/account")).header("cookie", &dana).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 401, "a disabled account's session lives on");
        let res = client().get(format!("{url}/players/dana-heads")).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "its players stay");
        // Only an admin disables, and not with another's form token.
        let finn = sign_in(&url, &admin).await;
        let res =
            post_as(&url, "/account/users", &finn, &[("csrf", "stale"), ("name", "root"), ("action", "disable")]).await;
        assert_eq!(res.status().as_u16(), 403);
        let res =
            post_as(&url, "/account/users", &root, &[("csrf", csrf.as_str()), ("name", "dana"), ("action", "enable")])
                .await;
        assert_eq!(res.status().as_u16(), 303);
        let (st, v) = upload(
            &url,
            Some(&new_token),
            "pennies",
            "dana-more",
            "h.wasm",
            std::fs::read(player("pennies-heads")).unwrap(),
        )
        .await;
        assert_eq!(st, 201, "enabled again: {v}");
    });
}

#[test]
fn cookies_are_secure_behind_tls() {
    for (flags, secure) in
        [(&["--public-url", "https://arena.example"][..], true), (&[][..], false), (&["--secure-cookies"][..], true)]
    {
        let s = serve(flags);
        let token = user(s.data.path(), "alice", false);
        rt().block_on(async {
            let res = client().get(format!("{}/signin", s.url)).send().await.unwrap();
            let cookie = res.headers()["set-cookie"].to_str().unwrap().to_string();
            assert_eq!(cookie.contains("; Secure"), secure, "{flags:?}: {cookie}");
            let session = sign_in(&s.url, &token).await;
            assert!(session.starts_with("arena_session="));
        });
    }
}

//! Accounts without a shell: signing up with an invitation (`/signup?code=…`, the token shown once),
//! an account's own page (`/account`: replace the token, sign out everywhere) and an admin's (make
//! invitations, disable and enable accounts). Every form carries its CSRF token; the sign-up form,
//! made before any session, a token of its own cookie's.

use super::App;
use super::auth::{self, SignedIn, Viewer};
use super::error::WebError;
use super::layout::{Nav, html};
use arena_service::store::{Invite, MAX_INVITE_SECS, MAX_USES, User};
use askama::Template;
use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use std::sync::Arc;

const SIGNUP_COOKIE: &str = "arena_signup";

#[derive(Template)]
#[template(path = "signup.html")]
struct SignUp<'a> {
    nav: Nav,
    live: String,
    csrf: &'a str,
    code: &'a str,
    /// Why the invitation or the name was refused.
    message: Option<&'a str>,
    /// The invitation is good: the form is shown.
    open: bool,
    /// Signed up: the account's name and its token, shown this once.
    made: Option<(String, String)>,
}

#[derive(serde::Deserialize)]
pub struct CodeQuery {
    #[serde(default)]
    code: String,
}

fn signup_page(app: &App, status: StatusCode, page: SignUp<'_>) -> Result<Response, WebError> {
    let body = page.render()?;
    let cookie = format!(
        "{SIGNUP_COOKIE}={}; HttpOnly; SameSite=Strict; Path=/signup; Max-Age=3600{}",
        page.csrf,
        app.cookie_flags()
    );
    Ok((status, [(header::SET_COOKIE, cookie)], Html(body)).into_response())
}

/// The status a refused invitation answers with.
fn refused_status(i: &Invite) -> StatusCode {
    match i {
        Invite::Unknown => StatusCode::NOT_FOUND,
        _ => StatusCode::GONE,
    }
}

/// `GET /signup?code=…`: the sign-up form, if the invitation is good.
pub async fn signup_form(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Query(q): Query<CodeQuery>,
) -> Result<Response, WebError> {
    let code: String = q.code.chars().take(200).collect();
    let c = code.clone();
    let invite = app.read(move |s| s.invite(&c)).await?;
    let csrf = arena_service::store::secret("")?;
    let page = SignUp {
        nav: Nav::of(&viewer),
        live: String::new(),
        csrf: &csrf,
        code: &code,
        message: invite.refusal(),
        open: invite.refusal().is_none(),
        made: None,
    };
    let status = if page.open { StatusCode::OK } else { refused_status(&invite) };
    signup_page(&app, status, page)
}

#[derive(serde::Deserialize)]
pub struct SignUpForm {
    csrf: String,
    code: String,
    name: String,
}

/// `POST /signup`: the account, signed in, with its token shown once.
pub async fn signup(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    viewer: Viewer,
    Form(f): Form<SignUpForm>,
) -> Result<Response, WebError> {
    auth::pre_session_checked(&headers, SIGNUP_COOKIE, &f.csrf, "sign-up")?;
    let (code, name) =
        (f.code.chars().take(200).collect::<String>(), f.name.trim().chars().take(41).collect::<String>());
    let (c, n) = (code.clone(), name.clone());
    let made = app.write(move |s| Ok(s.sign_up(&c, &n))).await?;
    let csrf = arena_service::store::secret("")?;
    let (user, token) = match made {
        Ok(m) => m,
        Err(e) => {
            let c = code.clone();
            let invite = app.read(move |s| s.invite(&c)).await?;
            let message = e.to_string();
            let page = SignUp {
                nav: Nav::of(&viewer),
                live: String::new(),
                csrf: &csrf,
                code: &code,
                message: Some(&message),
                open: invite.refusal().is_none(),
                made: None,
            };
            let status = if page.open { StatusCode::UNPROCESSABLE_ENTITY } else { refused_status(&invite) };
            return signup_page(&app, status, page);
        }
    };
    let (session, page) = {
        let u = user.clone();
        let (id, session_csrf) = app.write(move |s| s.open_session(&u, auth::SESSION_SECS)).await?;
        let page = SignUp {
            nav: Nav { user: Some(user.name.clone()), admin: user.admin, csrf: session_csrf },
            live: String::new(),
            csrf: &csrf,
            code: "",
            message: None,
            open: false,
            made: Some((user.name.clone(), token)),
        };
        (id, page.render()?)
    };
    Ok((StatusCode::CREATED, [(header::SET_COOKIE, app.session_cookie(&session))], Html(page)).into_response())
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    nav: Nav,
    live: String,
    csrf: String,
    name: String,
    admin: bool,
    /// A new token or an invitation link, shown this once.
    shown: Option<(String, String)>,
    accounts: Vec<(String, bool, bool)>,
    /// With `--nats`: the workers heard from in the last minute (name, last job, seconds ago).
    workers: Option<Vec<(String, String, u64)>>,
}

async fn account_page(app: &App, viewer: &Viewer, shown: Option<(String, String)>) -> Result<Response, WebError> {
    let session = viewer.require()?;
    let accounts = if session.user.admin {
        app.read(|s| s.accounts()).await?.into_iter().map(|(u, disabled)| (u.name, u.admin, disabled)).collect()
    } else {
        vec![]
    };
    html(&AccountPage {
        nav: Nav::of(viewer),
        live: String::new(),
        csrf: session.csrf.clone(),
        name: session.user.name.clone(),
        admin: session.user.admin,
        shown,
        workers: app
            .workers
            .get()
            .filter(|_| session.user.admin)
            .map(|w| w.recent().into_iter().map(|s| (s.name, s.job, s.ago.as_secs())).collect()),
        accounts,
    })
}

/// `GET /account`.
pub async fn account(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    account_page(&app, &viewer, None).await
}

#[derive(serde::Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /account/token`: a new token, shown once; the old one and every session with it stop now
/// (this browser gets a new session).
pub async fn replace_token(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Form(f): Form<CsrfForm>,
) -> Result<Response, WebError> {
    let user = viewer.checked(&f.csrf)?.user.clone();
    let u = user.clone();
    let (token, (id, csrf)) = app
        .write(move |s| {
            let token = s.replace_token(&u)?;
            Ok((token, s.open_session(&u, auth::SESSION_SECS)?))
        })
        .await?;
    let session = arena_service::store::Session { user: user.clone(), csrf };
    let viewer = Viewer(Some(session));
    let page = account_page(&app, &viewer, Some(("Your new token (shown once)".into(), token))).await?;
    let (mut parts, body) = page.into_parts();
    parts
        .headers
        .insert(header::SET_COOKIE, app.session_cookie(&id).parse().map_err(|_| WebError::internal("a cookie"))?);
    Ok(Response::from_parts(parts, body))
}

/// `POST /account/signout-everywhere`: every session of the account ends, this one too.
pub async fn sign_out_everywhere(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Form(f): Form<CsrfForm>,
) -> Result<Response, WebError> {
    let user = viewer.checked(&f.csrf)?.user.clone();
    app.write(move |s| s.sign_out_everywhere(&user)).await?;
    Ok(([(header::SET_COOKIE, app.session_cookie(""))], Redirect::to("/")).into_response())
}

#[derive(serde::Deserialize)]
pub struct InviteForm {
    csrf: String,
    #[serde(default)]
    admin: Option<String>,
    uses: String,
    /// Hours it lasts.
    hours: String,
}

fn admin_of<'a>(viewer: &'a Viewer, csrf: &str) -> Result<&'a User, WebError> {
    let user = &viewer.checked(csrf)?.user;
    if !user.admin {
        return Err(WebError::forbidden("only an admin does this"));
    }
    Ok(user)
}

/// `POST /account/invites` (admins): an invitation link, shown once.
pub async fn invite(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Form(f): Form<InviteForm>,
) -> Result<Response, WebError> {
    let by = admin_of(&viewer, &f.csrf)?.clone();
    let uses: u32 = f
        .uses
        .trim()
        .parse()
        .ok()
        .filter(|u| (1..=MAX_USES).contains(u))
        .ok_or_else(|| WebError::bad(format!("uses: a whole number from 1 to {MAX_USES}")))?;
    let hours: i64 = f
        .hours
        .trim()
        .parse()
        .ok()
        .filter(|h| (1..=MAX_INVITE_SECS / 3600).contains(h))
        .ok_or_else(|| WebError::bad(format!("hours: a whole number from 1 to {}", MAX_INVITE_SECS / 3600)))?;
    let admin = f.admin.is_some();
    let code = app.write(move |s| s.create_invite(admin, uses, hours * 3600, Some(&by))).await?;
    let link = format!("{}/signup?code={code}", app.cfg.public_url.as_deref().unwrap_or("").trim_end_matches('/'));
    let what =
        format!("An invitation for {uses} {}account(s), for {hours} h (shown once)", if admin { "admin " } else { "" });
    account_page(&app, &viewer, Some((what, link))).await
}

#[derive(serde::Deserialize)]
pub struct AccountForm {
    csrf: String,
    name: String,
    action: String,
}

/// `POST /account/users` (admins): disable or enable an account.
pub async fn set_account(
    State(app): State<Arc<App>>,
    SignedIn(viewer): SignedIn,
    Form(f): Form<AccountForm>,
) -> Result<Response, WebError> {
    let me = admin_of(&viewer, &f.csrf)?.clone();
    let disabled = match f.action.as_str() {
        "disable" => true,
        "enable" => false,
        other => {
            return Err(WebError::bad(format!("`{}`: disable or enable", other.chars().take(40).collect::<String>())));
        }
    };
    if disabled && f.name == me.name {
        return Err(WebError::bad("an admin cannot disable their own account"));
    }
    let name: String = f.name.chars().take(41).collect();
    app.write(move |s| match s.set_disabled(&name, disabled) {
        Err(arena_service::store::StoreError::Invalid(m)) => Ok(Err(WebError::not_found(m))),
        other => other.map(|_| Ok(())),
    })
    .await??;
    Ok(Redirect::to("/account").into_response())
}

// Signing in with a token.

#[derive(askama::Template)]
#[template(path = "signin.html")]
struct SignIn<'a> {
    nav: Nav,
    live: String,
    csrf: &'a str,
    message: Option<&'a str>,
}

fn signin_page(app: &App, viewer: &Viewer, message: Option<&str>) -> Result<Response, WebError> {
    let csrf = arena_service::store::secret("")?;
    let body = askama::Template::render(&SignIn { nav: Nav::of(viewer), live: String::new(), csrf: &csrf, message })?;
    let cookie = format!(
        "{}={csrf}; HttpOnly; SameSite=Strict; Path=/signin; Max-Age=3600{}",
        auth::SIGNIN_COOKIE,
        app.cookie_flags()
    );
    let status = if message.is_some() { axum::http::StatusCode::UNAUTHORIZED } else { axum::http::StatusCode::OK };
    Ok((status, [(header::SET_COOKIE, cookie)], axum::response::Html(body)).into_response())
}

pub async fn signin_form(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, WebError> {
    signin_page(&app, &viewer, None)
}

#[derive(serde::Deserialize)]
pub struct SignInForm {
    token: String,
    csrf: String,
}

pub async fn signin(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    viewer: Viewer,
    Form(f): Form<SignInForm>,
) -> Result<Response, WebError> {
    auth::pre_session_checked(&headers, auth::SIGNIN_COOKIE, &f.csrf, "sign-in")?;
    let token = f.token.trim().to_string();
    let Some(user) = app.read(move |s| s.user_by_token(&token)).await? else {
        return signin_page(&app, &viewer, Some("That token is not valid. Tokens come from `arena user add`."));
    };
    let (id, _) = app.write(move |s| s.open_session(&user, auth::SESSION_SECS)).await?;
    Ok(([(header::SET_COOKIE, app.session_cookie(&id))], Redirect::to("/upload")).into_response())
}

/// This resource's pages and forms.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use super::forms::form_post;
    use axum::routing::get;
    axum::Router::new()
        .route("/signin", get(signin_form).merge(form_post(signin)))
        .route("/signup", get(signup_form).merge(form_post(signup)))
        .route("/account", get(account))
        .route("/account/token", form_post(replace_token))
        .route("/account/signout-everywhere", form_post(sign_out_everywhere))
        .route("/account/invites", form_post(invite))
        .route("/account/users", form_post(set_account))
}

//! The command line against a remote web arena (`arena serve`): `submit --server URL --token T`
//! uploads through its API (validated there), `leaderboard --server URL` reads its leaderboard.

use anyhow::{Context, bail};
use arena_store::Leader;
use std::path::Path;
use std::process::ExitCode;

/// What `submit --server` sends.
pub struct Upload<'a> {
    pub game: &'a str,
    pub name: &'a str,
    pub file: &'a Path,
    pub token: &'a str,
    pub max_size_mb: u64,
}

fn url(base: &str, path: &str) -> anyhow::Result<reqwest::Url> {
    let base = reqwest::Url::parse(base).with_context(|| format!("--server {base}: not a URL"))?;
    if !matches!(base.scheme(), "http" | "https") {
        bail!("--server {base}: only http and https arenas");
    }
    base.join(path).with_context(|| format!("--server {base}: cannot make an address of it"))
}

fn client() -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder().timeout(std::time::Duration::from_secs(600)).build().context("starting an HTTP client")
}

/// The API's error message, or the body.
async fn refusal(res: reqwest::Response) -> String {
    let status = res.status();
    let body = res.text().await.unwrap_or_default();
    let message = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("error")?.get("message")?.as_str().map(str::to_string))
        .unwrap_or_else(|| body.chars().take(500).collect());
    format!("{status}: {message}")
}

pub async fn submit(server: &str, u: Upload<'_>) -> anyhow::Result<ExitCode> {
    let file = u.file;
    let meta = std::fs::metadata(file).with_context(|| format!("{}: cannot read", file.display()))?;
    if meta.len() > u.max_size_mb.saturating_mul(1 << 20) {
        bail!("{}: {} bytes is over the size cap of {} MiB (--max-size-mb)", file.display(), meta.len(), u.max_size_mb);
    }
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let file_name = file.file_name().and_then(|n| n.to_str()).unwrap_or("player.wasm").to_string();
    let form = reqwest::multipart::Form::new()
        .text("game", u.game.to_string())
        .text("name", u.name.to_string())
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name(file_name));
    let to = url(server, "api/players")?;
    let res = client()?
        .post(to.clone())
        .bearer_auth(u.token)
        .multipart(form)
        .send()
        .await
        .with_context(|| format!("{to}: cannot reach the arena"))?;
    if !res.status().is_success() {
        bail!("{}: refused by {server}: {}", file.display(), refusal(res).await);
    }
    let v: serde_json::Value = res.json().await.with_context(|| format!("{to}: unreadable answer"))?;
    let s = |k: &str| v.get(k).map(|x| x.to_string().trim_matches('"').to_string()).unwrap_or_default();
    if v.get("unchanged").and_then(|x| x.as_bool()) == Some(true) {
        println!(
            "{}: identical to {} version {} on {server}; nothing new was stored",
            file.display(),
            s("name"),
            s("version")
        );
    } else {
        println!(
            "Submitted {} version {} for {} to {server} (sha256 {})",
            s("name"),
            s("version"),
            s("game"),
            &s("hash")[..12.min(s("hash").len())]
        );
        if let Some(val) = v.get("validation") {
            println!("  validation game: {val}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn leaderboard(server: &str, game: &str, json: bool) -> anyhow::Result<ExitCode> {
    let to = url(server, &format!("api/games/{game}/leaderboard"))?;
    let res = client()?.get(to.clone()).send().await.with_context(|| format!("{to}: cannot reach the arena"))?;
    if !res.status().is_success() {
        bail!("{to}: {}", refusal(res).await);
    }
    let rows: Vec<Leader> = res.json().await.with_context(|| format!("{to}: unreadable answer"))?;
    super::leaderboard::print_leaderboard(game, &rows, json, server)
}

//! The command line against a remote web arena (`arena serve`): `submit --server URL --token T`
//! uploads through its API (validated there), `leaderboard --server URL` reads its leaderboard.

use anyhow::{Context, bail};
use arena_service::store::Leader;
use std::path::{Path, PathBuf};
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

/// GETs `path` of the arena at `server`: the answer, or its refusal as an error.
async fn get(server: &str, path: &str) -> anyhow::Result<reqwest::Response> {
    let to = url(server, path)?;
    let res = client()?.get(to.clone()).send().await.with_context(|| format!("{to}: cannot reach the arena"))?;
    if !res.status().is_success() {
        bail!("{to}: {}", refusal(res).await);
    }
    Ok(res)
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
            // The API writes fuel and seeds as strings (they may pass what JSON numbers hold exactly).
            let n = |k: &str| match val.get(k) {
                Some(serde_json::Value::String(s)) => s.parse().unwrap_or(0),
                Some(v) => v.as_u64().unwrap_or(0),
                None => 0,
            };
            let scores: Vec<String> = val
                .get("scores")
                .and_then(serde_json::Value::as_array)
                .map(|a| a.iter().map(|x| x.to_string()).collect())
                .unwrap_or_default();
            println!(
                "  its validation game against {} (seed {}): {}; fuel {} over {} calls, at most {} in one",
                val.get("opponent").and_then(serde_json::Value::as_str).unwrap_or("?"),
                n("seed"),
                scores.join(" to "),
                n("fuel"),
                n("calls"),
                n("max_call_fuel")
            );
            let quick = val.get("quick").and_then(serde_json::Value::as_bool) == Some(true);
            match n("compile_ms") {
                0 => println!("  compiled already; its validation game took {} ms", n("game_ms")),
                ms if quick => println!(
                    "  compiled as quick code in {ms} ms (the same fuel; its code for games is being compiled now); \
                     its validation game took {} ms",
                    n("game_ms")
                ),
                ms => println!("  compiled in {ms} ms; its validation game took {} ms", n("game_ms")),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn leaderboard(server: &str, game: &str, json: bool) -> anyhow::Result<ExitCode> {
    let path = format!("api/games/{game}/leaderboard");
    let rows: Vec<Leader> =
        get(server, &path).await?.json().await.with_context(|| format!("{path}: unreadable answer"))?;
    super::leaderboard::print_leaderboard(game, &rows, json, server)
}

/// `arena publish --server`: packs the package in `dir` and publishes it (judged there by `arena
/// check-game`).
pub async fn publish(server: &str, token: &str, dir: &Path) -> anyhow::Result<ExitCode> {
    let d = dir.to_path_buf();
    let bytes =
        tokio::task::spawn_blocking(move || arena_service::archive::pack(&d)).await?.map_err(anyhow::Error::msg)?;
    let form = reqwest::multipart::Form::new()
        .part("package", reqwest::multipart::Part::bytes(bytes.clone()).file_name("package.tar.gz"));
    let to = url(server, "api/games")?;
    println!(
        "{}: {} bytes packed; {server} checks it (`arena check-game`), which takes a while",
        dir.display(),
        bytes.len()
    );
    let res = client()?
        .post(to.clone())
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .with_context(|| format!("{to}: cannot reach the arena"))?;
    if !res.status().is_success() {
        bail!("{}: refused by {server}: {}", dir.display(), refusal(res).await);
    }
    let v: serde_json::Value = res.json().await.with_context(|| format!("{to}: unreadable answer"))?;
    let s = |k: &str| v.get(k).map(|x| x.to_string().trim_matches('"').to_string()).unwrap_or_default();
    println!(
        "Published {} version {} to {server} (referee sha256 {}): {} games of `arena check-game` conform; registered \
         players kept: {}",
        s("game"),
        s("version"),
        s("referee"),
        s("games_checked"),
        s("players_kept")
    );
    println!("  its page: {}", url(server, s("url").trim_start_matches('/'))?);
    Ok(ExitCode::SUCCESS)
}

/// A game as the server describes it (`GET /api/games/{name}`).
async fn game_info(server: &str, name: &str) -> anyhow::Result<serde_json::Value> {
    let path = format!("api/games/{name}");
    get(server, &path).await?.json().await.with_context(|| format!("{path}: unreadable answer"))
}

/// `arena fetch-game`: downloads a game's current package into `into` (which must not exist or be
/// empty) and checks its referee's sha256 against what the server reports; a mismatch keeps nothing.
/// Reads `res`'s body, refusing past `cap` bytes (a server cannot make the client hold more).
async fn bounded_body(mut res: reqwest::Response, to: &reqwest::Url, cap: usize) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    while let Some(chunk) = res.chunk().await.with_context(|| format!("{to}: the download broke off"))? {
        if bytes.len() + chunk.len() > cap {
            bail!("{to}: over {cap} bytes; nothing was kept");
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The replay file of game `key` of tournament `t` at `server`, as a spectator may see it, into `into`.
pub async fn fetch_replay(server: &str, (t, key): (i64, &str), into: &Path) -> anyhow::Result<()> {
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        bail!("`{key}`: not a game's key (as `R1-M2-G1`)");
    }
    let path = format!("tournaments/{t}/games/{key}.jsonl");
    let to = url(server, &path)?;
    // A game's record is bounded by its limits (16 MiB by default); its replay file a few times that.
    let bytes = bounded_body(get(server, &path).await?, &to, 256 << 20).await?;
    std::fs::write(into, bytes).with_context(|| format!("{}: cannot write", into.display()))
}

/// The package `server` keeps for the referee of sha256 `referee`, unpacked into `into` (which must not
/// exist) and checked: its referee has that sha256.
pub async fn fetch_kept_package(server: &str, referee: &str, into: &Path) -> anyhow::Result<()> {
    if referee.len() != 64 || !referee.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("`{referee}`: not a referee's sha256");
    }
    let path = format!("api/packages/{referee}");
    let to = url(server, &path)?;
    let bytes = bounded_body(get(server, &path).await?, &to, arena_service::archive::CAPS.total_bytes as usize).await?;
    unpack_checked(&bytes, into, referee, &to)
}

/// Unpacks a downloaded package (from `to`) into `into` and checks that its referee's sha256 is
/// `expected`; what was unpacked is removed when it is not, or when the package does not unpack.
fn unpack_checked(bytes: &[u8], into: &Path, expected: &str, to: &reqwest::Url) -> anyhow::Result<()> {
    let check = || -> anyhow::Result<()> {
        std::fs::create_dir_all(into).with_context(|| format!("{}: cannot create", into.display()))?;
        arena_service::archive::unpack(bytes, into, arena_service::archive::CAPS)
            .map_err(|e| anyhow::anyhow!("{to}: {e}"))?;
        let m = arena_service::packages::Manifest::read(into)?;
        let file = into.join(&m.referee);
        let hash = arena_core::sha256_hex(&std::fs::read(&file).with_context(|| format!("{}", file.display()))?);
        if hash != expected {
            bail!("{to}: the package's referee has sha256 {hash}, but the server names {expected}: nothing was kept");
        }
        Ok(())
    };
    check().inspect_err(|_| {
        let _ = std::fs::remove_dir_all(into);
    })
}

/// `arena fetch-player`: version `version` (the newest offered when `None`) of `name` of `game`, which
/// its owner offers as a sparring partner at `server`, written to `out` (default `NAME-vN.wasm`).
pub async fn fetch_player(
    server: &str,
    (game, name, version): (&str, &str, Option<u32>),
    out: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let list = format!("api/games/{game}/players/{name}/sparring");
    let offered: serde_json::Value =
        get(server, &list).await?.json().await.with_context(|| format!("{list}: unreadable answer"))?;
    let versions = offered["versions"].as_array().cloned().unwrap_or_default();
    let pick = match version {
        None => versions.first(),
        Some(n) => versions.iter().find(|v| v["version"] == n),
    };
    let Some(v) = pick else {
        match version {
            None => bail!("{server}: `{name}` offers no version of {game} for sparring"),
            Some(n) => bail!("{server}: `{name}` v{n} of {game} is not offered for sparring"),
        }
    };
    let (n, hash) = (v["version"].as_u64().unwrap_or(0), v["hash"].as_str().unwrap_or_default().to_string());
    let path = format!("api/games/{game}/players/{name}/versions/{n}/component");
    let to = url(server, &path)?;
    let bytes = bounded_body(get(server, &path).await?, &to, 256 << 20).await?;
    let got = arena_core::sha256_hex(&bytes);
    if got != hash {
        bail!("{to}: the download has sha256 {got}, but {server} lists {hash}: nothing was kept");
    }
    let file = out.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from(format!("{name}-v{n}.wasm")));
    std::fs::write(&file, &bytes).with_context(|| format!("{}: cannot write", file.display()))?;
    println!("{}: {name} v{n} of {game} from {server} ({} bytes, sha256 {hash})", file.display(), bytes.len());
    println!("  arena play --game {game} {} YOUR-PLAYER.wasm", file.display());
    Ok(ExitCode::SUCCESS)
}

pub async fn fetch_game(server: &str, name: &str, into: &Path, say: bool) -> anyhow::Result<ExitCode> {
    if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') || name.is_empty() {
        bail!("`{name}`: not a game's name (lower-case letters, digits and `-`)");
    }
    if into.exists() && std::fs::read_dir(into).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{}: exists and is not empty; name a new directory", into.display());
    }
    let info = game_info(server, name).await?;
    let expected = info.get("referee").and_then(|r| r.as_str()).unwrap_or_default().to_string();
    let path = format!("api/games/{name}/package");
    let to = url(server, &path)?;
    // Read with the same bound a package is unpacked under: a server cannot make it hold more.
    let bytes = bounded_body(get(server, &path).await?, &to, arena_service::archive::CAPS.total_bytes as usize).await?;
    unpack_checked(&bytes, into, &expected, &to)?;
    if say {
        println!(
            "{name}: the package {server} plays is in {} (referee sha256 {expected}, as the server reports)",
            into.display()
        );
        println!(
            "  arena play --game {} builtin:…, arena check --game {0} FILE.wasm, arena new --game {0} …",
            into.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `arena games --server`: the games a remote arena offers.
pub async fn games(server: &str, json: bool) -> anyhow::Result<ExitCode> {
    let list: Vec<serde_json::Value> =
        get(server, "api/games").await?.json().await.with_context(|| format!("{server}: unreadable answer"))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    for g in &list {
        let s = |k: &str| g.get(k).map(|x| x.to_string().trim_matches('"').to_string()).unwrap_or_default();
        let by = g.get("owner").and_then(|o| o.as_str()).map(|o| format!(" (published by {o})")).unwrap_or_default();
        let seat = |k: &str| g.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0) as usize;
        let players = arena_core::seats_text(&(seat("min_seats")..=seat("max_seats")));
        println!("{:<12} {players}  {}{by}", s("name"), s("description"));
        let referee = s("referee");
        println!("{:<12}   referee sha256 {}", "", &referee[..16.min(referee.len())]);
    }
    Ok(ExitCode::SUCCESS)
}

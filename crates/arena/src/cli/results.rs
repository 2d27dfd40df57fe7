//! The commands that only read the store (no engine): `players`, `tournaments`, `stats`,
//! `leaderboard` and `replay`. Text for people, `--json` for programs.

use super::args::Command;
use anyhow::{Context, bail};
use arena_match::seats_of;
use arena_service::packages;
use arena_store::{Leader, Store};
use arena_tournament::ratings::{Rating, System};
use arena_tournament::report;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Players { game, json, data } => players(&data.dir, game, json),
        Command::Tournaments { json, data } => tournaments(&data.dir, json),
        Command::Stats { name, game, json, data } => stats(&data.dir, &name, game, json),
        Command::Leaderboard { game, json, data, .. } => leaderboard(&data.dir, game, json),
        _ => bail!("not a results command"),
    }
}

fn system(game: &str) -> System {
    System::for_seats(seats_of(game).unwrap_or(2..=2))
}

fn show(r: &Rating) -> String {
    format!("{:.1} ± {:.1}", r.rating, r.deviation)
}

fn table(s: &mut String, rows: &[Leader], ranked: bool) {
    let w = rows.iter().map(|l| l.name.len()).max().unwrap_or(4).max(6);
    let _ = writeln!(
        s,
        "  {:>4}  {:<w$}  {:>7}  {:>15}  {:>5} {:>5} {:>5}  {:>6}  submitted",
        if ranked { "#" } else { "" },
        "player",
        "version",
        "rating",
        "won",
        "lost",
        "tied",
        "faults"
    );
    for (i, l) in rows.iter().enumerate() {
        let rank = if ranked { (i + 1).to_string() } else { String::new() };
        let _ = writeln!(
            s,
            "  {rank:>4}  {:<w$}  {:>7}  {:>15}  {:>5} {:>5} {:>5}  {:>6}  {}",
            l.name,
            format!("v{}", l.version),
            show(&l.rating),
            l.games.won,
            l.games.lost,
            l.games.tied,
            l.faults,
            l.submitted_at
        );
    }
}

fn players(dir: &Path, game: Option<String>, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let games: Vec<String> = match &game {
        Some(g) => vec![g.clone()],
        None => store.registered_games()?,
    };
    let mut all = serde_json::Map::new();
    let mut s = String::new();
    for g in games.iter().map(String::as_str) {
        let rows = store.leaderboard(g, system(g), false)?;
        if rows.is_empty() && game.is_none() {
            continue;
        }
        let _ = writeln!(s, "{g} ({} players, {} ratings)", rows.len(), system(g).name());
        table(&mut s, &rows, false);
        all.insert(g.to_string(), serde_json::to_value(&rows)?);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else if s.is_empty() {
        println!("No players are registered in {} (add one with `arena submit`).", dir.display());
    } else {
        print!("{s}");
    }
    Ok(ExitCode::SUCCESS)
}

fn tournaments(dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let rows = store.tournaments()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("No tournaments in {}.", dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "  {:>4}  {:<10} {:<12} {:>7} {:>6}  {:<11}  {:<20}  winner",
        "id", "game", "format", "players", "games", "status", "started"
    );
    for t in rows {
        println!(
            "  {:>4}  {:<10} {:<12} {:>7} {:>6}  {:<11}  {:<20}  {}",
            t.id,
            t.game,
            t.format.as_str(),
            t.players,
            t.games,
            t.status.as_str(),
            t.started_at,
            t.winner.as_deref().unwrap_or("-")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn leaderboard(dir: &Path, game: String, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let g = game.as_str();
    let rows = store.leaderboard(g, system(g), true)?;
    print_leaderboard(g, &rows, json, &dir.display().to_string())
}

/// A leaderboard, from a local store or a web arena (`from` names it).
pub fn print_leaderboard(g: &str, rows: &[Leader], json: bool, from: &str) -> anyhow::Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else if rows.is_empty() {
        println!("No {g} players are registered in {from}.");
    } else {
        let mut s = String::new();
        let _ = writeln!(s, "{g} leaderboard ({} ratings, rating ± deviation)", system(g).name());
        table(&mut s, rows, true);
        print!("{s}");
    }
    Ok(ExitCode::SUCCESS)
}

fn stats(dir: &Path, name: &str, game: Option<String>, json: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open_to_read(dir)?;
    let games: Vec<String> = match &game {
        Some(g) => vec![g.clone()],
        None => store.games_of(name)?,
    };
    let mut found = vec![];
    for g in &games {
        if let Some(st) = store.stats(g, name, system(g))? {
            found.push(st);
        }
    }
    if found.is_empty() {
        let which = game.map(|g| format!(" for {g}")).unwrap_or_default();
        bail!("{}: no player `{name}` is registered{which}", dir.display());
    }
    if json {
        let v = if found.len() == 1 { serde_json::to_value(&found[0])? } else { serde_json::to_value(&found)? };
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    for st in found {
        println!("{} ({}), {} version(s), registered {}", st.name, st.game, st.versions, st.registered_at);
        println!("  tournaments  played {}, won {}", st.tournaments.played, st.tournaments.won);
        let rec = |r: &arena_store::Record| format!("won {}, lost {}, tied {}", r.won, r.lost, r.tied);
        println!("  matches      {}", rec(&st.matches));
        println!("  games        {}", rec(&st.games));
        let faults: Vec<String> = st.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!("  faults       {}", if faults.is_empty() { "none".to_string() } else { faults.join(", ") });
        println!(
            "  fuel         {} per decision ({} over {} decisions)",
            report::thousands(st.fuel.per_decision),
            report::thousands(st.fuel.total),
            st.fuel.decisions
        );
        println!("  rating       {} ({}, after {} games)", show(&st.rating), st.rating_system, st.rating_history.len());
        if !st.rating_history.is_empty() {
            let points: Vec<String> = st.rating_history.iter().map(|p| format!("{:.0}", p.rating.rating)).collect();
            let shown = if points.len() > 20 { &points[points.len() - 20..] } else { &points[..] };
            println!("  history      {}{}", if points.len() > 20 { "… " } else { "" }, shown.join(" → "));
        }
        if !st.head_to_head.is_empty() {
            println!("  head to head");
            for h in &st.head_to_head {
                println!("    vs {:<24} {}", h.opponent, rec(&h.games));
            }
        }
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

/// `arena user add|list`.
pub fn user(cmd: super::args::UserCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        super::args::UserCommand::Add { name, admin, data } => {
            let mut store = Store::open(&data.dir)?;
            let (user, token) = store.add_user(&name, admin)?;
            println!("Added {}user {} to {}", if admin { "admin " } else { "" }, user.name, data.dir.display());
            println!("Their token (shown once, keep it secret): {token}");
        }
        super::args::UserCommand::List { data } => {
            let store = Store::open_to_read(&data.dir)?;
            for u in store.users()? {
                println!("{}{}", u.name, if u.admin { " (admin)" } else { "" });
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How `arena replay` shows a game.
pub struct ReplayOut<'a> {
    pub json: bool,
    pub svg_dir: Option<&'a Path>,
    pub html: Option<&'a Path>,
}

/// `arena replay`: a stored game or a replay file, re-run through the game's referee on its record.
pub async fn replay(dir: &Path, which: &str, out: ReplayOut<'_>) -> anyhow::Result<ExitCode> {
    let ReplayOut { json, svg_dir, html } = out;
    let path = Path::new(which);
    let (game, options, record, referee) = if path.is_file() {
        let (game, options, record) = report::read_replay(path).map_err(anyhow::Error::msg)?;
        (game, options, record, None)
    } else {
        let Some((t, key)) = which.split_once('/') else {
            bail!("{which}: neither a replay file nor TOURNAMENT/GAME (e.g. `3/R1-M2-G1`)");
        };
        let t: i64 = t.parse().with_context(|| format!("{which}: `{t}` is not a tournament id"))?;
        let store = Store::open_to_read(dir)?;
        let row = store.tournament(t)?.with_context(|| format!("{}: there is no tournament {t}", dir.display()))?;
        let record = store
            .game(t, key)?
            .with_context(|| format!("{}: tournament {t} has no recorded game `{key}`", dir.display()))?;
        (row.game, row.settings.options, record, row.settings.referee)
    };
    if json {
        let doc = serde_json::json!({"game": game, "options": options, "record": record, "calls": record.replay,
            "board": record.board, "logs": record.logs, "events": record.events, "referee": referee});
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    let package = packages::by_referee(dir, &game, referee.as_deref(), packages::Find::KeptOrByName)
        .map_err(|e| anyhow::anyhow!("{which}: {e}"))?;
    // The referee is compiled as every component is: in a child under the compile limits, cached.
    let cache = super::args::CacheArgs { cache_dir: None, no_cache: false }.dir();
    let limits = arena_core::Limits::default();
    let sandbox = std::sync::Arc::new(super::sandbox(limits, arena_sandbox::CompileLimits::default(), cache)?);
    let options = arena_match::stored_options(&options)?;
    let o = arena_service::tournaments::replay(sandbox, (&game, &package), referee.as_deref(), &options, &record)
        .await
        .map_err(|e| anyhow::anyhow!("{which}: {e:#}"))?;
    eprintln!("(re-run through the referee sha256 {} in {})", &o.referee[..16], package.display());
    if let Some(out) = svg_dir {
        if !o.draws_svg {
            bail!("--svg-dir {}: {game} does not draw its positions (its referee exports no `svg`)", out.display());
        }
        std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
        for f in &o.frames {
            let name = if f.step == 0 { "start.svg".to_string() } else { format!("step-{:04}.svg", f.step) };
            if let Some(svg) = &f.svg {
                let path = out.join(name);
                std::fs::write(&path, svg).with_context(|| format!("{}: cannot write", path.display()))?;
            }
        }
    }
    if let Some(path) = html {
        let tournament =
            which.split_once('/').and_then(|(t, _)| t.parse().ok()).filter(|_| !Path::new(which).is_file());
        let data = arena_web::ReplayData::new(&game, tournament, &record, o.frames, vec![]);
        let data = arena_web::ReplayData { download: None, ..data };
        std::fs::write(path, arena_web::standalone_html(&data))
            .with_context(|| format!("{}: cannot write", path.display()))?;
        eprintln!("wrote {} (plays offline in a browser)", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", replay_text(&game, &record, &o.frames));
    Ok(ExitCode::SUCCESS)
}

/// A game step by step, as its referee re-ran it on the record: each call with its answer and fuel
/// (or the fault instead), the public events it caused and the position after it, then the result.
pub fn replay_text(game: &str, g: &arena_tournament::GameRecord, frames: &[arena_match::Frame]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{game} game {} (seed {}): {}", g.id, g.seed, g.players.join(" vs "));
    let mut last_view = String::new();
    for f in frames {
        if f.step == 0 {
            let _ = writeln!(s, "\nstart");
        } else {
            let _ = writeln!(s, "\nstep {}", f.step);
        }
        for c in &f.lines {
            let who = g.players.get(c.seat).map_or("?", String::as_str);
            match &c.fault {
                Some(fault) => {
                    let _ = writeln!(s, "  {who:<20} FAULT {} in `{}`: {}", fault.kind, fault.call, fault.reason);
                }
                None => {
                    let answer = if c.answer.is_null() { String::new() } else { c.answer.to_string() };
                    let _ = writeln!(s, "  {who:<20} {:<16} {answer:<28} fuel {}", c.call, report::thousands(c.fuel));
                }
            }
        }
        for e in f.events.iter().filter(|e| e.seen_by(None)) {
            let _ = writeln!(s, "  | {}", e.text);
        }
        if f.view != last_view {
            let _ = writeln!(s, "{}", f.view.trim_end());
            last_view = f.view.clone();
        }
    }
    let _ = writeln!(s, "\nResult:");
    for (i, p) in g.players.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {p:<20} score {:>4}  fuel {:>14} over {} calls",
            g.scores.get(i).copied().unwrap_or(0),
            report::thousands(g.fuel.get(i).copied().unwrap_or(0)),
            g.calls.get(i).copied().unwrap_or(0)
        );
    }
    let _ = match g.winners.as_slice() {
        [] => writeln!(s, "No winner"),
        [w] => writeln!(s, "Winner: {w}"),
        ws => writeln!(s, "Tie: {}", ws.join(", ")),
    };
    s
}

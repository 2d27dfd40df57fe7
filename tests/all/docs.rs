//! The README and the book (docs/) cannot drift from the binary: every ```console block in them is run
//! as written, the command-line reference is the binary's own help, and every link between pages
//! leads somewhere.
//!
//! A console block's `$ ` lines are commands (a line ending in `\` goes on on the next); the lines
//! after a command are text its output must contain, each somewhere in stdout or stderr (`...` stands
//! for anything left out). A command exits 0 unless it ends with `# exits N`. A command ending in `&`
//! is a server started in the background: the next command waits until its `--listen` address
//! answers, and it is stopped when its page is done. The commands of one page run in order, in one
//! folder of their own that looks like the repository after `make demo` (`target/` and `games/` are
//! links to the real ones), with `arena` and the players' toolchains on PATH; what `export` sets
//! holds for the page's later commands. A server's port 8080 is replaced by a free one, so that
//! pages and other tests never meet.

use super::*;
use std::collections::BTreeMap;
use std::path::Path;

/// One command of a console block, with what its output must contain and its exit code.
#[derive(Debug)]
struct Step {
    command: String,
    expected: Vec<String>,
    exit: i32,
    background: bool,
    line: usize,
}

/// The commands of every ```console block of a Markdown text, in order.
fn console_steps(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let (mut inside, mut console, mut continued) = (false, false, false);
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if inside {
                inside = false;
            } else {
                inside = true;
                console = trimmed.trim_start_matches('`').trim() == "console";
            }
            continue;
        }
        if !inside || !console {
            continue;
        }
        if continued {
            let step = steps.last_mut().expect("a command goes on");
            step.command.push('\n');
            step.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                command: command.to_string(),
                expected: vec![],
                exit: 0,
                background: false,
                line: n + 1,
            });
            continued = line.ends_with('\\');
        } else if let Some(step) = steps.last_mut() {
            let want = line.trim();
            if !want.is_empty() && want != "..." {
                step.expected.push(want.to_string());
            }
        }
    }
    for step in &mut steps {
        let command = step.command.trim_end().to_string();
        if let Some((before, code)) = command.rsplit_once("# exits ") {
            step.exit = code.trim().parse().unwrap_or_else(|_| panic!("line {}: `# exits N`", step.line));
            step.command = before.trim_end().to_string();
        } else if let Some(before) = command.strip_suffix('&') {
            step.background = true;
            step.command = before.trim_end().to_string();
        } else {
            step.command = command;
        }
    }
    steps
}

/// The Markdown files of the README and the book, README first.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut found = vec![];
    let mut stack = vec![root.join("docs/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found.insert(0, root.join("README.md"));
    found
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

/// A loopback port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Runs one page's console steps in a folder of its own; panics naming the page, line and command
/// that did not do what the page says.
fn run_page(page: &Path, steps: &[Step]) {
    let target = players_dir().parent().expect("target dir").to_path_buf();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join("target")).unwrap();
    std::os::unix::fs::symlink(repo().join("games"), dir.path().join("games")).unwrap();
    std::os::unix::fs::symlink(repo().join("tests"), dir.path().join("tests")).unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let tools = target.join("tools");
    let path = format!(
        "{}:{}:{}:{}:{}",
        bin.parent().unwrap().display(),
        tools.join("venv/bin").display(),
        tools.join("py-venv/bin").display(),
        tools.join("node/node_modules/.bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let exports = dir.path().join(".exports");
    std::fs::write(&exports, "").unwrap();
    let port = free_port().to_string();
    let mut servers = Servers(vec![]);
    let name = page.strip_prefix(repo()).unwrap_or(page).display().to_string();
    for step in steps {
        let command = step.command.replace("8080", &port);
        let script = format!(
            "set -o pipefail\n. {exports}\n{command}\nstatus=$?\nexport -p > {exports}\nexit $status",
            exports = exports.display()
        );
        let mut c = Command::new("bash");
        c.arg("-c")
            .arg(&script)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("ARENA_TOOLS", tools.join("arena-tools"))
            .env("CARGO_TARGET_DIR", target.join("template-build"))
            .env("ARENA_CACHE_DIR", players_dir().with_file_name("test-compile-cache"))
            .env("ARENA_COMPILE_CPU_S", "300")
            .env_remove("ARENA_GAMES")
            .env_remove("ARENA_TOKEN");
        if step.background {
            let listen = command
                .split_whitespace()
                .skip_while(|w| *w != "--listen")
                .nth(1)
                .unwrap_or_else(|| panic!("{name}:{}: a background command needs --listen ADDR", step.line))
                .to_string();
            c.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
            std::os::unix::process::CommandExt::process_group(&mut c, 0);
            servers.0.push(c.spawn().unwrap());
            let start = Instant::now();
            while std::net::TcpStream::connect(&listen).is_err() {
                assert!(start.elapsed() < Duration::from_secs(60), "{name}:{}: nothing answers on {listen}", step.line);
                std::thread::sleep(Duration::from_millis(50));
            }
            continue;
        }
        let out = c.bounded();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let failed = |why: String| {
            panic!("{name}:{}: `{}` {why}; it printed:\n{text}", step.line, step.command);
        };
        if out.status.code() != Some(step.exit) {
            failed(format!("exited {:?}, the page says {}", out.status.code(), step.exit));
        }
        for want in &step.expected {
            if !text.contains(want.as_str()) {
                failed(format!("did not print `{want}`"));
            }
        }
    }
}

/// A journey's background commands, each bash in a process group of its own with what it started:
/// all of them stopped when the journey ends, passed or failed (killing bash alone would leave the
/// server it runs behind).
struct Servers(Vec<std::process::Child>);

impl Drop for Servers {
    fn drop(&mut self) {
        for server in &mut self.0 {
            if let Ok(group) = i32::try_from(server.id()) {
                // SAFETY: a signal to the process group this journey made; no memory is involved.
                unsafe { libc::kill(-group, libc::SIGKILL) };
            }
            let _ = server.wait();
        }
    }
}

#[test]
fn the_readmes_journeys_and_the_books_examples_run_as_written() {
    let mut ran = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let steps = console_steps(&text);
        if !steps.is_empty() {
            run_page(&page, &steps);
            ran += steps.len();
        }
    }
    assert!(ran >= 20, "only {ran} commands in console blocks: the journeys are gone");
}

#[test]
fn console_blocks_are_read_as_commands_output_exit_codes_and_servers() {
    let page = "text\n```console\n$ arena check x.wasm  # exits 1\nFAULT: fuel\n...\n$ arena serve \\\n  --listen 127.0.0.1:8080 &\n```\n```text\n$ not run\n```\n";
    let steps = console_steps(page);
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert_eq!(
        (steps[0].command.as_str(), steps[0].exit, &steps[0].expected[..]),
        ("arena check x.wasm", 1, &["FAULT: fuel".to_string()][..])
    );
    assert!(steps[1].background && steps[1].command.contains("--listen 127.0.0.1:8080"), "{steps:?}");
    assert_eq!(steps[1].line, 6);
}

/// Every link from one page of the book (or the README) to another file leads to a file that is there.
#[test]
fn every_link_between_pages_leads_somewhere() {
    let mut broken = vec![];
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap_or_default();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if !page.parent().unwrap().join(target).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing:\n{}", broken.join("\n"));
}

/// The command-line reference (docs/src/reference/cli.md) is the binary's own help, every command's;
/// `ARENA_BLESS=1` writes it again after a change of the flags.
#[test]
fn the_command_line_reference_is_the_binarys_own_help() {
    // The help as a user's shell gives it: no variable of the tests' own shows as a flag's value.
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(args)
            .env_remove("ARENA_COMPILE_CPU_S")
            .env_remove("ARENA_TOKEN")
            .env_remove("ARENA_CACHE_DIR")
            .bounded();
        assert!(out.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let top = help(&["--help"]);
    let mut commands: BTreeMap<usize, (String, String)> = BTreeMap::new();
    let mut listing = false;
    for line in top.lines() {
        if line.starts_with("Commands:") {
            listing = true;
            continue;
        }
        if listing {
            let Some(rest) = line.strip_prefix("  ") else { break };
            let (name, about) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
            if name != "help" {
                commands.insert(commands.len(), (name.to_string(), about.trim().to_string()));
            }
        }
    }
    assert!(commands.len() >= 20, "{top}");
    let mut doc = String::from(
        "# Command line\n\n<!-- Written by the test `docs::the_command_line_reference_is_the_binarys_own_help` from \
         `arena --help`:\n     ARENA_BLESS=1 cargo test -p arena --test all -- docs::the_command_line writes it again. -->\n\n",
    );
    doc.push_str("Every command of `arena`, with its flags, as `arena COMMAND --help` prints them.\n\n");
    for (name, about) in commands.values() {
        doc.push_str(&format!("- [`arena {name}`](#arena-{name}): {about}\n"));
    }
    doc.push_str("\n```text\n");
    doc.push_str(top.trim_end());
    doc.push_str("\n```\n");
    for (name, _) in commands.values() {
        let mut args = vec![];
        args.extend(name.split(' '));
        args.push("--help");
        let text = help(&args);
        doc.push_str(&format!("\n## arena {name}\n\n```text\n{}\n```\n", text.trim_end()));
        // A command with commands of its own (`arena user`): each of those too.
        if let Some((_, list)) = text.split_once("Commands:\n") {
            for line in list.lines() {
                let Some(rest) = line.strip_prefix("  ") else { break };
                let sub = rest.trim().split(' ').next().unwrap_or_default();
                if sub.is_empty() || sub == "help" {
                    continue;
                }
                let text = help(&[name.as_str(), sub, "--help"]);
                doc.push_str(&format!("\n### arena {name} {sub}\n\n```text\n{}\n```\n", text.trim_end()));
            }
        }
    }
    page_is("docs/src/reference/cli.md", &doc, "the binary's help", "docs::the_command_line");
}

/// Checks that the page at `path` (in the repository) is `generated`, what `source` makes it; with
/// `ARENA_BLESS=1` writes it first. `test` is the filter that runs the check again.
fn page_is(path: &str, generated: &str, source: &str, test: &str) {
    let file = repo().join(path);
    if std::env::var_os("ARENA_BLESS").is_some() {
        std::fs::write(&file, generated).unwrap();
    }
    let kept = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        kept == generated,
        "{} is not {source}: run ARENA_BLESS=1 cargo test -p arena --test all -- {test}",
        file.display()
    );
}

/// The type of a schema, as a reader of the API reference reads it: `string`, `[GameOut]`, `PlayerRef`…
fn schema_type(s: &serde_json::Value) -> String {
    if let Some(r) = s["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap_or(r);
        return format!("[`{name}`](#{})", name.to_lowercase());
    }
    if let Some(any) = s["oneOf"].as_array().or(s["anyOf"].as_array()).or(s["allOf"].as_array()) {
        let parts: Vec<String> = any.iter().filter(|x| x["type"] != "null").map(schema_type).collect::<Vec<_>>();
        let nullable = any.iter().any(|x| x["type"] == "null");
        return format!("{}{}", parts.join(" or "), if nullable { " or null" } else { "" });
    }
    match &s["type"] {
        serde_json::Value::Array(types) => {
            let named: Vec<&str> = types.iter().filter_map(|t| t.as_str()).collect();
            let items =
                if named.contains(&"array") { format!("list of {}", schema_type(&s["items"])) } else { String::new() };
            named
                .iter()
                .map(|t| if *t == "array" { items.clone() } else { t.to_string() })
                .collect::<Vec<_>>()
                .join(" or ")
        }
        serde_json::Value::String(t) if t == "array" => format!("list of {}", schema_type(&s["items"])),
        serde_json::Value::String(t)
            if t == "object" && s.get("additionalProperties").is_some_and(|a| a.is_object()) =>
        {
            format!("map of {}", schema_type(&s["additionalProperties"]))
        }
        serde_json::Value::String(t) => {
            let mut t = t.clone();
            if let Some(values) = s["enum"].as_array() {
                let values: Vec<String> =
                    values.iter().map(|v| format!("`{}`", v.as_str().unwrap_or_default())).collect();
                t = format!("one of {}", values.join(", "));
            }
            t
        }
        _ => "any".to_string(),
    }
}

/// One line of Markdown from a text that may span several.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

/// The HTTP API's reference page, written from the server's OpenAPI document.
fn http_api_page(doc: &serde_json::Value) -> String {
    let mut md = String::from(
        "# HTTP API\n\n<!-- Written from `GET /api/openapi.json` by the test `web::the_api_has_one_error_shape…`;\n     \
         ARENA_BLESS=1 cargo test -p arena --test all -- web::the_api_has writes it again. -->\n\n",
    );
    md.push_str(&format!("{}\n\n", doc["info"]["description"].as_str().unwrap_or_default()));
    md.push_str(
        "A running arena serves this document at `GET /api/openapi.json`. A call marked *token* takes \
         `Authorization: Bearer TOKEN` (an account's token, from `arena user add` or a sign-up link).\n\n",
    );
    md.push_str("| call | what it answers | token |\n| --- | --- | --- |\n");
    let paths = doc["paths"].as_object().expect("paths");
    let mut calls = vec![];
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            calls.push((path.clone(), method.to_uppercase(), op.clone()));
        }
    }
    for (path, method, op) in &calls {
        let anchor: String = format!("{method} {path}")
            .to_lowercase()
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    Some(c)
                } else if c == ' ' {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let token = if op.get("security").is_some() { "yes" } else { "" };
        md.push_str(&format!(
            "| [`{method} {path}`](#{anchor}) | {} | {token} |\n",
            one_line(op["summary"].as_str().unwrap_or_default())
        ));
    }
    for (path, method, op) in &calls {
        md.push_str(&format!("\n## {method} {path}\n\n{}\n", op["summary"].as_str().unwrap_or_default()));
        if let Some(d) = op["description"].as_str() {
            md.push_str(&format!("\n{d}\n"));
        }
        if let Some(params) = op["parameters"].as_array().filter(|p| !p.is_empty()) {
            md.push_str("\n| parameter | in | type | required | meaning |\n| --- | --- | --- | --- | --- |\n");
            for p in params {
                md.push_str(&format!(
                    "| `{}` | {} | {} | {} | {} |\n",
                    p["name"].as_str().unwrap_or_default(),
                    p["in"].as_str().unwrap_or_default(),
                    schema_type(&p["schema"]),
                    if p["required"] == true { "yes" } else { "no" },
                    one_line(p["description"].as_str().unwrap_or_default())
                ));
            }
        }
        if let Some(content) = op["requestBody"]["content"].as_object() {
            for (kind, body) in content {
                md.push_str(&format!("\nBody: `{kind}`, {}.\n", schema_type(&body["schema"])));
            }
        }
        md.push_str("\n| status | meaning | answer |\n| --- | --- | --- |\n");
        for (status, res) in op["responses"].as_object().unwrap() {
            let answer = res["content"]
                .as_object()
                .and_then(|c| c.values().next())
                .map(|c| schema_type(&c["schema"]))
                .unwrap_or_default();
            let said = one_line(res["description"].as_str().unwrap_or_default());
            let meaning = if said.is_empty() {
                match status.as_str() {
                    "200" => "ok",
                    "201" => "created",
                    "400" => "a bad request (the message says what)",
                    "401" => "no valid token",
                    "403" => "not this account's to do",
                    "404" => "not found",
                    "409" => "a conflict",
                    "413" => "too large",
                    "422" => "refused (the message says why)",
                    "429" => "over the account's limit",
                    _ => "",
                }
                .to_string()
            } else {
                said
            };
            md.push_str(&format!("| {status} | {meaning} | {answer} |\n"));
        }
    }
    md.push_str("\n# Schemas\n");
    for (name, s) in doc["components"]["schemas"].as_object().expect("schemas") {
        md.push_str(&format!("\n## {name}\n\n"));
        if let Some(d) = s["description"].as_str() {
            md.push_str(&format!("{}\n\n", d.trim()));
        }
        if let Some(props) = s["properties"].as_object() {
            let required: Vec<&str> =
                s["required"].as_array().map(|r| r.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
            md.push_str("| field | type | always there | meaning |\n| --- | --- | --- | --- |\n");
            for (field, p) in props {
                md.push_str(&format!(
                    "| `{field}` | {} | {} | {} |\n",
                    schema_type(p),
                    if required.contains(&field.as_str()) { "yes" } else { "no" },
                    one_line(p["description"].as_str().unwrap_or_default())
                ));
            }
        } else {
            md.push_str(&format!("{}\n", schema_type(s)));
        }
    }
    md
}

/// Checks docs/src/reference/http-api.md against the server's OpenAPI document (`ARENA_BLESS=1`
/// writes it again).
pub fn check_http_api_page(doc: &serde_json::Value) {
    page_is("docs/src/reference/http-api.md", &http_api_page(doc), "the server's OpenAPI document", "web::the_api_has");
}

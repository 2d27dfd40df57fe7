//! The `arena` binary: parse flags, run, and print any error with its chain of causes (or, as a child
//! of itself, compile one component under limits).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A child process that compiles one component under limits (see `sandbox/compile.rs`).
    // Like other Unix tools, end quietly when whoever reads the output stops (`arena … | head`)
    // instead of panicking in println!. Threads that write to pipes of their own block SIGPIPE.
    // Every command today is one-shot; a long-running one that writes to sockets (a web server, a
    // worker) must keep SIGPIPE ignored, or a client that hangs up would end the process.
    // SAFETY: setting a signal's disposition to its default before any other thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(arena_service::engine::WORKER_ARG) {
        return arena_service::engine::compile_worker_main(&args[2..]);
    }
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("ARENA_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let cli = arena::cli::Cli::parse();
    match arena::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

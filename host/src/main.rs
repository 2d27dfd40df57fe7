//! The `arena` binary: parse flags, run, and print any error with its chain of causes.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("ARENA_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let cli = arena::cli::args::Cli::parse();
    match arena::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

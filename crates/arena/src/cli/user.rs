//! `arena user add|list`: the web arena's accounts.

use super::flags::DataArgs;
use arena_store::Store;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: UserCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum UserCommand {
    /// Add an account and print its token, once (only its hash is stored): sign in with it on the
    /// web arena, or send it as `Authorization: Bearer TOKEN` to the API.
    Add {
        /// The account's name: 1 to 40 ASCII letters, digits, `-`, `_` or `.`.
        name: String,
        /// May start tournaments from the web arena.
        #[arg(long)]
        admin: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The accounts.
    List {
        #[command(flatten)]
        data: DataArgs,
    },
}

pub fn execute(a: Args) -> anyhow::Result<ExitCode> {
    user(a.command)
}

/// `arena user add|list`.
pub fn user(cmd: UserCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        UserCommand::Add { name, admin, data } => {
            let mut store = Store::open(&data.dir)?;
            let (user, token) = store.add_user(&name, admin)?;
            println!("Added {}user {} to {}", if admin { "admin " } else { "" }, user.name, data.dir.display());
            println!("Their token (shown once, keep it secret): {token}");
        }
        UserCommand::List { data } => {
            let store = Store::open_to_read(&data.dir)?;
            for u in store.users()? {
                println!("{}{}", u.name, if u.admin { " (admin)" } else { "" });
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

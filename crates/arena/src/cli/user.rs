//! `arena user add|list|invite|disable|enable`: the web arena's accounts.

use super::flags::DataArgs;
use arena_service::store::Store;
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
    /// Make an invitation: a link (`/signup?code=…`) with which people choose a name and get their
    /// token, shown once. Only the code's hash is stored.
    Invite {
        /// Its accounts are admins.
        #[arg(long)]
        admin: bool,
        /// How many accounts it may make.
        #[arg(long, default_value_t = 1)]
        uses: u32,
        /// How long it lasts: a number and a unit (`90s`, `30m`, `12h`, `7d`).
        #[arg(long, default_value = "7d", value_parser = parse_duration)]
        expires: i64,
        /// The arena's address as its visitors reach it, to print the whole link.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Disable an account: it signs in and uploads no more (its sessions end now); its players stay.
    Disable {
        name: String,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Enable a disabled account again.
    Enable {
        name: String,
        #[command(flatten)]
        data: DataArgs,
    },
}

/// `90s`, `30m`, `12h`, `7d` as seconds.
fn parse_duration(s: &str) -> Result<i64, String> {
    arena_core::duration_secs(s).ok_or_else(|| format!("`{s}`: a number and a unit (90s, 30m, 12h, 7d)"))
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
        UserCommand::Invite { admin, uses, expires, public_url, data } => {
            let mut store = Store::open(&data.dir)?;
            let code = store.create_invite(admin, uses, expires, None)?;
            let base = public_url.as_deref().unwrap_or("").trim_end_matches('/');
            println!(
                "An invitation for {uses} {}account(s), for {} (only its hash is stored):",
                if admin { "admin " } else { "" },
                arena_core::duration_text(expires)
            );
            println!("{base}/signup?code={code}");
        }
        UserCommand::Disable { name, data } => {
            let user = Store::open(&data.dir)?.set_disabled(&name, true)?;
            println!("{} is disabled: it signs in and uploads no more; its players stay", user.name);
        }
        UserCommand::Enable { name, data } => {
            let user = Store::open(&data.dir)?.set_disabled(&name, false)?;
            println!("{} is enabled again", user.name);
        }
        UserCommand::List { data } => {
            let store = Store::open_to_read(&data.dir)?;
            for (u, disabled) in store.accounts()? {
                println!(
                    "{}{}{}",
                    u.name,
                    if u.admin { " (admin)" } else { "" },
                    if disabled { " (disabled)" } else { "" }
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

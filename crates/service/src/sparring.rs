//! Sparring partners: a version its owner offers (off by default) may be downloaded by anyone, to
//! practise against locally (`arena fetch-player`); the offer is the owner's to make and withdraw.

pub use crate::refusal::Refusal;
use crate::store::{Owner, Store, User, Version};
use std::path::PathBuf;

/// Offers version `number` of `user`'s player `name` of `game` as a sparring partner, or withdraws
/// it: the versions offered now, newest first.
pub fn offer(
    store: &mut Store,
    user: &User,
    (game, name, number): (&str, &str, u32),
    offered: bool,
) -> Result<Vec<Version>, Refusal> {
    if store.owner_of(name)? != Owner::Account(user.clone()) {
        return Err(Refusal::Forbidden(format!("`{name}` is not yours: only its owner offers its versions")));
    }
    if !store.set_sparring(game, name, number, offered)? {
        return Err(Refusal::NotFound(format!("`{name}` has no version {number} of {game}")));
    }
    Ok(store.sparring_versions(game, name)?)
}

/// The component of version `number` of `name` of `game` (the newest offered when `None`), if its
/// owner offers it: the version and its stored file.
pub fn component(
    store: &Store,
    (game, name, number): (&str, &str, Option<u32>),
) -> Result<(Version, PathBuf), Refusal> {
    let offered = store.sparring_versions(game, name)?;
    let v = match number {
        None => offered
            .into_iter()
            .next()
            .ok_or_else(|| Refusal::NotFound(format!("`{name}` offers no version of {game} for sparring")))?,
        Some(n) => match offered.into_iter().find(|v| v.version == n) {
            Some(v) => v,
            None if store.numbered_version(game, name, n)?.is_some() => {
                return Err(Refusal::Forbidden(format!(
                    "`{name}` v{n} is not offered for sparring: its owner has not made it downloadable"
                )));
            }
            None => return Err(Refusal::NotFound(format!("`{name}` has no version {n} of {game}"))),
        },
    };
    let path = store.component_path(&v.hash);
    Ok((v, path))
}

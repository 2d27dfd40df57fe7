//! A package's calls outside games: a tournament's start and end told to each player through the
//! referee's `tournament` export, and whether the referee starts a game with the options set.

use super::referee::text;
use super::seat::Seat;
use super::{Package, PackagePlayer};
use arena_core::Fault;
use arena_core::MatchSoFar;
use wasmtime::component::Val;

/// A tournament's lifecycle, as a player hears it.
pub enum Announcement<'a> {
    Start { you: &'a str, players: &'a [String], games_per_match: u32 },
    End { won: bool },
}

impl Package {
    /// Tells `player` that a tournament starts or ends, with the call the referee names for it (none
    /// when the referee does not export `tournament`, or names no call).
    pub async fn lifecycle(&self, player: &PackagePlayer, event: Announcement<'_>, seed: u64) -> Option<Fault> {
        if !self.lifecycle {
            return None;
        }
        let event = match event {
            Announcement::Start { you, players, games_per_match } => Val::Variant(
                "start".into(),
                Some(Box::new(Val::Record(vec![
                    ("you".into(), Val::String(you.to_string())),
                    ("players".into(), Val::List(players.iter().map(|p| Val::String(p.clone())).collect())),
                    ("games-per-match".into(), Val::U32(games_per_match)),
                ]))),
            ),
            Announcement::End { won } => Val::Variant("end".into(), Some(Box::new(Val::Bool(won)))),
        };
        // The referee's failure here is the game's, not the player's: the call is skipped.
        let mut referee = self.referee(seed, *self.manifest.seats().end()).await.ok()?;
        let Ok(Val::Option(Some(request))) = referee.call("tournament", &[event]).await else { return None };
        let Val::Variant(case, arg) = *request else { return None };
        let c = self.cases.iter().find(|c| c.name == case)?;
        let mut seat = Seat::new(self.sandbox.clone(), player.pre.clone(), seed).quick(player.quick);
        let fault = seat.call(&c.name, arg.as_deref(), c.spread(), c.result.is_some()).await.err()?;
        // The game's rule checker failed during the call: the package's failure, not the player's.
        if let Some(why) = seat.host_failed.take() {
            tracing::warn!("{}: the rule checker failed during a tournament call: {why}", self.manifest.name);
            return None;
        }
        Some(fault)
    }

    /// Whether the referee starts a game with the options set, for the fewest seats the game takes: a
    /// combination the manifest's ranges let through but the game refuses (a Fish board too small
    /// for its holes) is an error before anything is played, with the referee's reason.
    pub async fn check_options(&self) -> Result<(), String> {
        let n = *self.manifest.seats().start();
        let names: Vec<String> = (0..n).map(|i| format!("seat {i}")).collect();
        let mut referee = self.referee(0, n).await.map_err(|f| f.to_string())?;
        let setup = self.setup(&names, 0, &MatchSoFar::default());
        match referee.call("start", &[setup]).await.map_err(|f| f.to_string())? {
            Val::Result(Err(why)) => Err(text(&why)),
            _ => Ok(()),
        }
    }
}

//! Forking a recorded game: its answers replayed through the same referee up to a step, bit-exact, and
//! from that step every seat played live, one of them by another version of its player. The command
//! line (`arena fork`) and the web arena (a fork of a stored game) both fork here.

pub mod stored;

use arena_core::{CallLine, Entry, Finals, GameSetup};
use arena_play::{PackageGame, PackagePlayer};
use arena_tournament::GameRecord;
use serde::Serialize;
use std::sync::Arc;

/// A fork asked of a record that cannot be: each names what is wrong.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ForkError {
    #[error("the record holds no calls (it was kept for its result only): there is nothing to fork")]
    NoCalls,
    #[error("step {step}: the game has steps 1 to {steps}")]
    NoStep { step: u32, steps: u32 },
    #[error("seat {seat}: a game of {players} players has seats 0 to {}", players - 1)]
    NoSeat { seat: usize, players: usize },
    #[error("seat {seat} was banned at step {banned} ({kind}): fork it at step {banned} or earlier")]
    Banned { seat: usize, banned: u32, kind: String },
    #[error("{given} components for a game of {players} seats: give one per seat, in seat order")]
    Seats { given: usize, players: usize },
    #[error("the record does not replay through this referee: {0}")]
    Unfollowed(String),
}

/// A forked game: its record (the original's names, seed and match), the step it went live at (the
/// step asked for, or an earlier one where a seat faulted on a request its record answered), and the
/// first step whose answers differ from the original's (`None`: the fork is the original game).
#[derive(Debug, Clone, Serialize)]
pub struct Forked {
    #[serde(skip)]
    pub record: GameRecord,
    pub from: u32,
    pub live_from: u32,
    pub seat: usize,
    pub diverged_at: Option<u32>,
}

/// How many steps a record's game took (its last call's step).
pub fn steps(record: &GameRecord) -> u32 {
    record.replay.iter().map(|c| c.turn).max().unwrap_or(0)
}

/// Checks that `record` can be forked at step `from` with seat `seat` changed.
pub fn check(record: &GameRecord, from: u32, seat: usize) -> Result<(), ForkError> {
    let steps = steps(record);
    if steps == 0 {
        return Err(ForkError::NoCalls);
    }
    if from == 0 || from > steps {
        return Err(ForkError::NoStep { step: from, steps });
    }
    let players = record.players.len();
    if seat >= players {
        return Err(ForkError::NoSeat { seat, players });
    }
    // A seat banned before the step takes no part from there: the fork would not play it.
    if let Some(c) = record.replay.iter().find(|c| c.seat == seat && c.fault.is_some() && c.turn < from) {
        let kind = c.fault.as_ref().map(|f| f.kind.to_string()).unwrap_or_default();
        return Err(ForkError::Banned { seat, banned: c.turn, kind });
    }
    Ok(())
}

/// Plays `record`'s game again from step `from`, `players` in its seats (one a seat, in seat order;
/// seat `seat` is the one changed, the others are the versions that played), and says where it
/// differs from the original. Nothing is stored.
pub async fn fork(
    game: &PackageGame,
    record: &GameRecord,
    (from, seat): (u32, usize),
    players: Vec<Arc<Entry<Arc<PackagePlayer>>>>,
) -> Result<Forked, ForkError> {
    check(record, from, seat)?;
    if players.len() != record.players.len() {
        return Err(ForkError::Seats { given: players.len(), players: record.players.len() });
    }
    let outcome = play(game, record, from, &players, (record.id.clone(), Finals::All)).await;
    let live_from = first_live(&outcome.log, &record.replay, from);
    // A record the referee does not follow is refused before the fork goes live: no game is shown.
    if let Some(f) = &outcome.game_fault
        && f.call == "replay"
    {
        return Err(ForkError::Unfollowed(f.reason.clone()));
    }
    let forked = GameRecord::new(
        record.id.clone(),
        (record.round, record.match_no, record.number),
        record.players.clone(),
        record.seed,
        outcome,
    );
    let diverged_at = diverged_at(&record.replay, &forked.replay);
    Ok(Forked { record: forked, from, live_from, seat, diverged_at })
}

/// Why a game cannot be reproduced with a component.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReproduceError {
    #[error("`{name}` did not play this game; its players: {players}")]
    NoPlayer { name: String, players: String },
    #[error("the record holds no calls (it was kept for its result only): there is nothing to reproduce")]
    NoCalls,
    #[error("the record does not replay through this referee: {0}")]
    Unfollowed(String),
}

/// Plays `player` in the seat of `name` in `record`'s game against the record (every other seat's
/// answers are the record's): `None` when it answers as recorded throughout, else where it first does
/// not. Nothing is stored.
pub async fn reproduce(
    game: &PackageGame,
    record: &GameRecord,
    name: &str,
    player: &Arc<PackagePlayer>,
) -> Result<Option<arena_play::Divergence>, ReproduceError> {
    let Some(seat) = record.players.iter().position(|p| p == name) else {
        return Err(ReproduceError::NoPlayer { name: name.into(), players: record.players.join(", ") });
    };
    if record.replay.is_empty() {
        return Err(ReproduceError::NoCalls);
    }
    let how = (record.players.as_slice(), record.seed, &record.so_far);
    game.package()
        .reproduce(player, seat, how, &record.replay)
        .await
        .map_err(|f| ReproduceError::Unfollowed(f.to_string()))
}

/// The fork's game itself: `record`'s seed and match, its names heard by the referee (the replayed steps
/// are its own again, byte for byte), `players` in its seats; recorded as `id`, keeping `finals`.
async fn play(
    game: &PackageGame,
    record: &GameRecord,
    from: u32,
    players: &[Arc<Entry<Arc<PackagePlayer>>>],
    (id, finals): (String, Finals),
) -> arena_core::GameOutcome {
    let entries = players
        .iter()
        .zip(&record.players)
        .map(|(e, name)| {
            Arc::new(Entry {
                name: name.clone(),
                source: e.source.clone(),
                hash: e.hash.clone(),
                player: e.player.clone(),
            })
        })
        .collect();
    let setup = GameSetup { id, seed: record.seed, players: entries, so_far: record.so_far.clone(), finals };
    game.fork(setup, &record.replay, from).await
}

/// The first step whose answers (or faults) differ between two records of a game, `None` when they
/// are the same call for call. An answer's fuel, time and output are not the game's course.
pub fn diverged_at(original: &[CallLine], forked: &[CallLine]) -> Option<u32> {
    let same = |a: &CallLine, b: &CallLine| {
        (a.seat, &a.call, a.turn, &a.answer) == (b.seat, &b.call, b.turn, &b.answer)
            && a.fault.as_ref().map(|f| (f.kind, &f.call)) == b.fault.as_ref().map(|f| (f.kind, &f.call))
    };
    let mut a = original.iter();
    let mut b = forked.iter();
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if same(x, y) => {}
            (Some(x), Some(y)) => return Some(x.turn.min(y.turn)),
            (Some(x), None) | (None, Some(x)) => return Some(x.turn),
        }
    }
}

/// The first step the fork played live: `from`, or an earlier step where a seat's own call faulted
/// where its record answered (the fork's line there is a fault the original's is not).
fn first_live(forked: &[CallLine], original: &[CallLine], from: u32) -> u32 {
    forked
        .iter()
        .zip(original)
        .take_while(|(f, _)| f.turn < from)
        .find(|(f, o)| f.fault.is_some() && f != o)
        .map_or(from, |(f, _)| f.turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::{Fault, FaultKind};

    fn line(seat: usize, turn: u32, answer: i64) -> CallLine {
        CallLine::measured(seat, "move", turn, answer.into(), 10).0
    }

    #[test]
    fn two_records_diverge_at_the_first_step_whose_answers_differ_and_not_at_a_change_of_fuel() {
        let a = vec![line(0, 1, 3), line(1, 2, 4), line(0, 3, 5)];
        assert_eq!(diverged_at(&a, &a), None);
        let mut fuel = a.clone();
        fuel[2].fuel = 99;
        fuel[2].micros = 7;
        assert_eq!(diverged_at(&a, &fuel), None, "fuel and time are not the game's course");
        let mut b = a.clone();
        b[2].answer = 6.into();
        assert_eq!(diverged_at(&a, &b), Some(3));
        assert_eq!(diverged_at(&a, &a[..2]), Some(3), "a game that ended earlier differs where it ended");
        let mut banned = a.clone();
        banned[1] = CallLine::failed(1, 2, Fault::new(FaultKind::Fuel, "move", "out of fuel"));
        assert_eq!(diverged_at(&a, &banned), Some(2));
    }

    #[test]
    fn a_fork_is_refused_past_the_games_end_in_a_seat_it_lacks_or_after_the_seats_ban() {
        let mut r = GameRecord::new(
            "g".into(),
            (1, 1, 1),
            vec!["a".into(), "b".into()],
            1,
            arena_core::GameOutcome { scores: vec![0, 0], fuel: vec![0, 0], ..Default::default() },
        );
        assert_eq!(check(&r, 1, 0), Err(ForkError::NoCalls));
        r.replay = vec![line(0, 1, 3), CallLine::failed(1, 2, Fault::new(FaultKind::Fuel, "move", "x")), line(0, 3, 5)];
        assert_eq!(check(&r, 4, 0), Err(ForkError::NoStep { step: 4, steps: 3 }));
        assert_eq!(check(&r, 0, 0), Err(ForkError::NoStep { step: 0, steps: 3 }));
        assert_eq!(check(&r, 1, 2), Err(ForkError::NoSeat { seat: 2, players: 2 }));
        assert_eq!(check(&r, 3, 1), Err(ForkError::Banned { seat: 1, banned: 2, kind: "fuel".into() }));
        assert_eq!(check(&r, 2, 1), Ok(()), "the step of its ban is played again");
        assert_eq!(check(&r, 3, 0), Ok(()));
        assert_eq!(ForkError::NoStep { step: 4, steps: 3 }.to_string(), "step 4: the game has steps 1 to 3");
    }
}

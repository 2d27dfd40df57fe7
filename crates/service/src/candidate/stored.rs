//! A server's candidates: an owner's upload judged against the player's version in use before it is a
//! version at all. Validated as every submission is, stored as a candidate, then played pair by pair
//! (each pair's evidence stored, so a restarted server goes on where it stopped) until the test
//! decides: accepted, it becomes the player's next version; rejected or undecided at the cap, it never
//! plays anywhere else. Its games are never rated and never recorded as tournament games; `arena
//! candidate` with the two files and the candidate's seed plays the very same games.

use super::{Bounds, Evidence, Verdict, play_pair};
use crate::players::{Source, load};
use crate::submit::{Refused, Submission, Validation, validate};
use arena_play::LoadPlayers;
use arena_store::{Candidate, NewCandidate, Store, User, Version, check_name};
use std::future::Future;
use std::path::Path;
use std::sync::Arc;

/// How a server judges candidates: the test's bounds and the most games one may play.
#[derive(Debug, Clone, Copy)]
pub struct Judging {
    pub bounds: Bounds,
    pub cap: u32,
}

impl Default for Judging {
    fn default() -> Self {
        Judging { bounds: Bounds::default(), cap: 200 }
    }
}

/// The bounds candidate `c` is judged under.
pub fn bounds_of(c: &Candidate) -> Bounds {
    let [elo0, elo1, alpha, beta] = c.bounds;
    Bounds { elo0, elo1, alpha, beta }
}

/// Candidate `c`'s evidence so far (its log-likelihood ratio and where it decides).
pub fn evidence_of(c: &Candidate) -> Evidence {
    Evidence::of(c.wins, c.draws, c.losses, &bounds_of(c))
}

/// Validates `s` as a submission is validated and stores it as a candidate of `by`'s player, judged
/// against its latest version from seed `seed` under `judging`. Refused, nothing stored, when the name
/// is not `by`'s, when the player has no version yet, when another candidate of it is under test, or
/// when the file fails its validation game.
pub async fn submit<G: LoadPlayers>(
    game: Arc<G>,
    data: &Path,
    s: Submission<'_>,
    by: &User,
    (seed, judging): (u64, Judging),
) -> Result<(Candidate, Validation), Refused> {
    check_name(s.name).map_err(Refused::Name)?;
    judging.bounds.check().map_err(Refused::Game)?;
    let mut store = Store::open(data)?;
    store.owner_of(s.name)?.admits(s.name, by)?;
    // What would refuse it after its validation game is refused before it: no game is played for nothing.
    let hash = arena_core::sha256_hex(&s.bytes);
    store.candidate_admissible(game.name(), s.name, &hash)?;
    let kept = store.has_component(&hash).unwrap_or(true);
    let v = validate(&game, kept, &s).await?;
    let new = NewCandidate {
        game: game.name(),
        name: s.name,
        bytes: &s.bytes,
        hash: &v.hash,
        seed,
        bounds: [judging.bounds.elo0, judging.bounds.elo1, judging.bounds.alpha, judging.bounds.beta],
        cap: judging.cap,
    };
    let c = store.add_candidate(&new, by).inspect_err(|_| v.forget(&*game, &store))?;
    Ok((c, v.validation))
}

/// Plays candidate `id`'s remaining pairs with `game` (its player's game), each pair after `turn` has
/// given it its turn (what `turn` returns is held while the pair plays: a permit of a pool, say), each
/// pair's evidence stored as it ends, until the test decides (accepted: the candidate becomes the
/// player's next version), its cap is reached (undecided), or the player has had a newer version than
/// the one it is judged against (superseded). The candidate as it ended.
pub async fn run<G, F, Fut, T>(game: Arc<G>, data: &Path, id: i64, mut turn: F) -> anyhow::Result<Candidate>
where
    G: LoadPlayers,
    F: FnMut(&Candidate) -> Fut,
    Fut: Future<Output = T>,
{
    use anyhow::Context as _;
    let mut store = Store::open(data)?;
    let mut c = store.candidate(id)?.with_context(|| format!("there is no candidate {id}"))?;
    if c.status != "testing" {
        return Ok(c);
    }
    let current = store.version(c.against_id)?;
    let dir = store.components_dir();
    let as_candidate = Version { version: 0, hash: c.hash.clone(), size: c.size, ..current.clone() };
    let players = vec![
        ("current".to_string(), Source::Version(current.clone(), dir.join(format!("{}.wasm", current.hash)))),
        ("candidate".to_string(), Source::Version(as_candidate, dir.join(format!("{}.wasm", c.hash)))),
    ];
    let mut entries = load(&game, players).await?;
    let versions = (entries.remove(0), entries.remove(0));
    loop {
        let latest = store.latest_version(&c.game, &c.name)?.map(|v| v.id);
        let verdict = match evidence_of(&c).verdict() {
            _ if latest != Some(c.against_id) => Some("superseded"),
            Verdict::Accepted => Some("accepted"),
            Verdict::Rejected => Some("rejected"),
            Verdict::Undecided if c.pairs * 2 >= c.cap => Some("undecided"),
            Verdict::Undecided => None,
        };
        if let Some(status) = verdict {
            return Ok(store.decide_candidate(id, status)?);
        }
        let held = turn(&c).await;
        let got = play_pair(&*game, versions.clone(), c.seed, u64::from(c.pairs)).await;
        drop(held);
        store.record_pair(id, c.pairs, got)?;
        c = store.candidate(id)?.with_context(|| format!("candidate {id} vanished"))?;
        if c.status != "testing" {
            return Ok(c);
        }
    }
}

//! What travels on the queue: a game to play (everything named by content hash, so any worker plays
//! exactly the same game) and its outcome; several of either may travel as one message (a batch), so
//! that short games do not pay the server's round trips one by one. A message of any size worth it
//! travels LZ4-compressed ([`pack`]).

use arena_core::Limits;
use arena_core::{Finals, GameOutcome, MatchSoFar};
use serde::{Deserialize, Serialize};

/// One game to play.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    /// Where the outcome goes (a subject of the result stream).
    pub reply: String,
    /// The game's id in its tournament.
    pub game: String,
    /// The package: its referee's sha256, and its files (paths inside it), each stored as
    /// `packages/<sha256>/<path>`.
    pub package: String,
    pub files: Vec<String>,
    /// The game's options, `NAME=VALUE`.
    pub options: Vec<String>,
    /// In seat order.
    pub players: Vec<JobPlayer>,
    pub seed: u64,
    pub limits: Limits,
    pub so_far: MatchSoFar,
    /// What the outcome keeps besides the result: a tournament nobody replays asks for the result
    /// only, and its outcomes travel without the game's course.
    #[serde(default)]
    pub finals: Finals,
}

impl Job {
    /// What makes the game exactly this one (its id, seed and the components in each seat): an outcome
    /// is taken only for the game it was played for, never for another that reuses its id (a ladder
    /// numbering on after a stop, a player's new version).
    pub fn key(&self) -> String {
        let seats: Vec<&str> =
            self.players.iter().map(|p| p.component.as_deref().or(p.builtin.as_deref()).unwrap_or("")).collect();
        format!("{}|{}|{}", self.game, self.seed, seats.join(","))
    }
}

/// A seat: a component stored as `components/<sha256>`, or one of the package's sample players.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobPlayer {
    pub name: String,
    pub component: Option<String>,
    pub builtin: Option<String>,
}

/// A played job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Done {
    pub game: String,
    /// The job's [`Job::key`].
    #[serde(default)]
    pub key: String,
    /// The outcome, or why the job could not be played (a component missing from the store, one that
    /// does not compile): said of the component, not of the worker.
    pub outcome: Result<GameOutcome, String>,
    /// Which worker played it (for the log).
    pub worker: String,
}

/// The most games a coordinator packs into one job message (the jobs waiting to be published, up to
/// this many). Enough to spread the server's per-message work over many games (no-op games through
/// JetStream, one run each: about 13,000 a second in batches of 8, 19,000–20,000 in batches of 16,
/// 22,000–24,000 in batches of 32), few enough that slow games still spread over the workers (Yahtzee
/// on 2 workers: 67% of in-process in batches of 16, 55–61% in batches of 32) and that a remote
/// tournament's games in flight (`RemoteGame::games_in_flight`: 256) go to every worker.
pub const BATCH_GAMES: usize = 16;

/// The most jobs a worker takes from one message (a batch from elsewhere is bounded too).
pub const MAX_BATCH: usize = 64;

/// The most bytes of JSON a message of jobs or outcomes may carry, packed or not: a packed message that
/// says it unpacks to more is nobody's, and a worker sends an outcome larger than this as that game's
/// failure.
pub const MAX_JSON: usize = 64 << 20;

/// Marks a packed message (no JSON text starts with a NUL byte); its JSON's length in bytes (u32,
/// little-endian) and the LZ4 block follow.
const PACKED: &[u8] = b"\0lz4";

/// Messages shorter than this travel as plain JSON (a lone job, a short outcome).
const PACK_FROM: usize = 1024;

/// What a message of `json` carries: the JSON itself when short, else LZ4-compressed behind [`PACKED`]
/// and the JSON's length. A batch's JSON repeats itself (each job's package, files and limits, each
/// call's field names) and shrinks 7–9× (a batch of 16 Nim jobs: 13 KB to 1.4 KB, their outcomes 46 KB
/// to 6 KB, in 3.5 and 19 µs); the server's work, and every reader's, grows with the bytes it moves.
/// An error when the JSON is longer than [`MAX_JSON`].
pub fn pack(json: Vec<u8>) -> Result<Vec<u8>, String> {
    if json.len() > MAX_JSON {
        return Err(format!("{} bytes of JSON are more than a message may carry ({MAX_JSON})", json.len()));
    }
    if json.len() < PACK_FROM {
        return Ok(json);
    }
    let block = lz4_flex::block::compress_prepend_size(&json);
    Ok([PACKED, &block].concat())
}

/// The JSON a message carries: a packed one's unpacked (at most [`MAX_JSON`] bytes, whatever it says),
/// any other as it is.
fn unpack(payload: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, String> {
    let Some(rest) = payload.strip_prefix(PACKED) else { return Ok(payload.into()) };
    let (len, block) = rest.split_first_chunk::<4>().ok_or("a packed message too short to say its length")?;
    let len = u32::from_le_bytes(*len) as usize;
    if len > MAX_JSON {
        return Err(format!("a packed message of {len} bytes, more than a message may carry ({MAX_JSON})"));
    }
    let json =
        lz4_flex::block::decompress(block, len).map_err(|e| format!("a packed message that does not unpack: {e}"))?;
    if json.len() != len {
        return Err(format!("a packed message of {} bytes where it says {len}", json.len()));
    }
    Ok(json.into())
}

/// The message of `jobs` (a lone job: the job itself, else the list), packed.
pub fn jobs_message(jobs: &[&Job]) -> Result<Vec<u8>, String> {
    let json = match jobs {
        [job] => serde_json::to_vec(job),
        _ => serde_json::to_vec(jobs),
    };
    pack(json.map_err(|e| e.to_string())?)
}

/// The message of a batch's outcomes (a lone one: itself, else the list), packed.
pub fn dones_message(dones: &[Done]) -> Result<Vec<u8>, String> {
    let json = match dones {
        [done] => serde_json::to_vec(done),
        _ => serde_json::to_vec(dones),
    };
    pack(json.map_err(|e| e.to_string())?)
}

/// The jobs in a message of the job stream: one job (an object), or a batch (a list of 1 to
/// [`MAX_BATCH`] jobs, played one after the other, each with its own outcome), packed or not. `None`:
/// not jobs.
pub fn jobs_in(payload: &[u8]) -> Option<Vec<Job>> {
    let payload = unpack(payload).ok()?;
    if is_list(&payload) {
        let jobs: Vec<Job> = serde_json::from_slice(&payload).ok()?;
        (1..=MAX_BATCH).contains(&jobs.len()).then_some(jobs)
    } else {
        serde_json::from_slice(&payload).ok().map(|j| vec![j])
    }
}

/// The outcomes in a message of the result stream: one (an object), or a batch's (a list), packed or
/// not.
pub fn dones_in(payload: &[u8]) -> Result<Vec<Done>, String> {
    let payload = unpack(payload)?;
    let dones = if is_list(&payload) {
        serde_json::from_slice(&payload)
    } else {
        serde_json::from_slice(&payload).map(|d| vec![d])
    };
    dones.map_err(|e| e.to_string())
}

/// A JSON list, by its first character.
fn is_list(payload: &[u8]) -> bool {
    payload.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

pub fn component_key(hash: &str) -> String {
    format!("components/{hash}")
}

pub fn package_key(hash: &str, path: &str) -> String {
    format!("packages/{hash}/{path}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(seed: u64, component: &str) -> Job {
        Job {
            reply: "arena.results.x".into(),
            game: "R1-M7-G1".into(),
            package: "p".into(),
            files: vec![],
            options: vec![],
            players: vec![
                JobPlayer { name: "a".into(), component: Some(component.into()), builtin: None },
                JobPlayer { name: "b".into(), component: None, builtin: Some("nim-optimal".into()) },
            ],
            seed,
            limits: Limits::default(),
            so_far: MatchSoFar::default(),
            finals: Finals::Board,
        }
    }

    #[test]
    fn a_message_holds_one_job_or_a_bounded_batch_of_them() {
        let one = serde_json::to_vec(&job(1, "c1")).unwrap();
        assert_eq!(jobs_in(&one).unwrap().len(), 1);
        let three = serde_json::to_vec(&[job(1, "c1"), job(2, "c1"), job(3, "c2")]).unwrap();
        let jobs = jobs_in(&three).unwrap();
        assert_eq!(jobs.iter().map(|j| j.seed).collect::<Vec<_>>(), [1, 2, 3]);
        // Not jobs: nothing, a list of nothing, too many, something else, a list with one bad job.
        assert!(jobs_in(b"[]").is_none() && jobs_in(b"not json").is_none() && jobs_in(b"{}").is_none());
        let many = serde_json::to_vec(&vec![job(1, "c1"); MAX_BATCH + 1]).unwrap();
        assert!(jobs_in(&many).is_none());
        let mut bad = serde_json::to_value([job(1, "c1"), job(2, "c1")]).unwrap();
        bad[1]["seed"] = "two".into();
        assert!(jobs_in(&serde_json::to_vec(&bad).unwrap()).is_none());
        // Outcomes likewise.
        let done = |g: &str| Done { game: g.into(), key: g.into(), outcome: Err("x".into()), worker: "w".into() };
        let dones = dones_in(&serde_json::to_vec(&[done("a"), done("b")]).unwrap()).unwrap();
        assert_eq!(dones.iter().map(|d| d.game.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(dones_in(b" {\"game\":\"a\",\"outcome\":{\"Err\":\"x\"},\"worker\":\"w\"}").unwrap().len(), 1);
        assert!(dones_in(b"[1]").is_err());
    }

    #[test]
    fn a_long_message_travels_packed_and_reads_as_the_same_jobs_and_outcomes() {
        let batch: Vec<Job> = (1..=16).map(|i| job(i, "c1")).collect();
        let json = serde_json::to_vec(&batch).unwrap();
        let packed = jobs_message(&batch.iter().collect::<Vec<_>>()).unwrap();
        assert!(packed.starts_with(PACKED) && packed.len() * 4 < json.len(), "{} of {}", packed.len(), json.len());
        let seeds = |jobs: Vec<Job>| jobs.iter().map(|j| j.seed).collect::<Vec<_>>();
        assert_eq!(seeds(jobs_in(&packed).unwrap()), seeds(jobs_in(&json).unwrap()));
        // A lone short job stays plain JSON, readable by anyone.
        let one = jobs_message(&[&batch[0]]).unwrap();
        assert_eq!(one, serde_json::to_vec(&batch[0]).unwrap());
        let dones: Vec<Done> = (0..16)
            .map(|i| Done {
                game: format!("g{i}"),
                key: format!("k{i}"),
                outcome: Err("x".repeat(100)),
                worker: "w".into(),
            })
            .collect();
        let read = dones_in(&dones_message(&dones).unwrap()).unwrap();
        assert_eq!(
            read.iter().map(|d| d.key.as_str()).collect::<Vec<_>>(),
            dones.iter().map(|d| d.key.as_str()).collect::<Vec<_>>()
        );
        // Past the bound: no message at all.
        assert!(pack(vec![b' '; MAX_JSON + 1]).unwrap_err().contains("more than a message may carry"));
    }

    #[test]
    fn a_packed_message_that_lies_about_itself_is_refused_without_unpacking_it() {
        let good =
            jobs_message(&(1..=16).map(|i| job(i, "c1")).collect::<Vec<_>>().iter().collect::<Vec<_>>()).unwrap();
        let with_len = |n: u32| [PACKED, &n.to_le_bytes(), &good[8..]].concat();
        let mut truncated = good.clone();
        truncated.truncate(good.len() / 2);
        let mut flipped = good.clone();
        for b in &mut flipped[8..] {
            *b ^= 0x5a;
        }
        // No length; a length past the bound (nothing is allocated for it); lengths that do not match
        // the block; a cut block; a scrambled one; packed bytes that are no JSON.
        let lies: Vec<Vec<u8>> = vec![
            PACKED.to_vec(),
            [PACKED, &[1, 0]].concat(),
            with_len(u32::MAX),
            with_len(MAX_JSON as u32 + 1),
            with_len(10),
            with_len(u32::from_le_bytes(good[4..8].try_into().unwrap()) + 1),
            truncated,
            flipped,
            pack(vec![b'x'; 5000]).unwrap(),
        ];
        for lie in &lies {
            assert!(jobs_in(lie).is_none(), "{:?}", &lie[..lie.len().min(16)]);
            assert!(dones_in(lie).is_err(), "{:?}", &lie[..lie.len().min(16)]);
        }
        assert!(dones_in(&with_len(u32::MAX)).unwrap_err().contains("more than a message may carry"));
    }

    #[test]
    fn an_outcome_belongs_to_one_game_only() {
        assert_eq!(job(1, "c1").key(), job(1, "c1").key());
        // The same id with another seed, or another component in a seat, is another game.
        assert_ne!(job(1, "c1").key(), job(2, "c1").key());
        assert_ne!(job(1, "c1").key(), job(1, "c2").key());
    }
}

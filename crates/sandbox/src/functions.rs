//! Compiled functions shared between compiles: Cranelift's incremental cache, kept on disk beside the
//! compiled components, so that a component compiles only the functions no earlier compile had (every
//! Python player carries the same CPython, every JavaScript player the same engine). Keyed by the hash
//! of a function's code and the compiler's settings, written only by this executable's compilers, and
//! bounded: past [`FUNCTIONS_BYTES`] the entries used least recently are removed.

use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// The most bytes of compiled functions kept on disk (a Python player's are 37 MB, a JavaScript
/// player's 16 MB). Checked after every compile; until then each compile running may add at most
/// [`COMPILE_BYTES`].
pub(crate) const FUNCTIONS_BYTES: u64 = 256 << 20;

/// The most bytes of compiled functions one compile writes: past it, it compiles the rest without
/// keeping them.
const COMPILE_BYTES: u64 = FUNCTIONS_BYTES / 2;

/// The largest entry read or written: one function's compiled code and its relocations (CPython's
/// interpreter loop, the largest function of any sample player, is far below it).
const ENTRY_BYTES: u64 = 32 << 20;

/// An entry used again is marked used when its mark is older than this (one write per entry and hour,
/// not per read).
const TOUCH_AFTER: Duration = Duration::from_secs(3600);

/// The incremental cache in a directory: one file an entry, under a subdirectory named by the first
/// two hex digits of its name.
#[derive(Debug)]
pub(crate) struct Functions {
    dir: PathBuf,
    /// Bytes this compile has written.
    written: AtomicU64,
}

impl Functions {
    pub(crate) fn new(dir: PathBuf) -> Functions {
        Functions { dir, written: AtomicU64::new(0) }
    }

    fn file(&self, key: &[u8]) -> PathBuf {
        let name = arena_core::sha256_hex(key);
        self.dir.join(&name[..2]).join(&name[2..])
    }
}

impl wasmtime::CacheStore for Functions {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let mut f = std::fs::File::open(self.file(key)).ok()?;
        let meta = f.metadata().ok()?;
        if meta.len() > ENTRY_BYTES {
            return None;
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        f.read_to_end(&mut bytes).ok()?;
        let stale = meta.modified().ok().and_then(|m| m.elapsed().ok()).is_some_and(|age| age > TOUCH_AFTER);
        if stale {
            let _ = f.set_modified(SystemTime::now());
        }
        Some(Cow::Owned(bytes))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        if value.len() as u64 > ENTRY_BYTES {
            return false;
        }
        let file = self.file(key);
        if file.is_file() {
            return true;
        }
        let len = value.len() as u64;
        if self.written.fetch_add(len, Ordering::Relaxed) + len > COMPILE_BYTES {
            return false;
        }
        write_new(&file, &value).is_ok()
    }
}

/// Writes `bytes` to a file of its own beside `path` (threads of one compile may write one entry at
/// once) and renames it into place: a reader sees the whole entry or none.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// [`trim`] of `dir` to [`FUNCTIONS_BYTES`] on a thread of its own, unless a trim is under way: it walks
/// every entry (some 60 ms for the 15,000 of two Python players), which a compile's caller need not
/// wait for (a compile adds at most [`COMPILE_BYTES`] before the next trim).
pub(crate) fn trim_in_background(dir: PathBuf) {
    static TRIMMING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if TRIMMING.swap(true, Ordering::AcqRel) {
        return;
    }
    let spawned = std::thread::Builder::new().name("arena-trim".into()).spawn(move || {
        trim(&dir, FUNCTIONS_BYTES);
        TRIMMING.store(false, Ordering::Release);
    });
    if spawned.is_err() {
        TRIMMING.store(false, Ordering::Release);
    }
}

/// Removes the entries of `dir` used least recently (and any file a killed compile left half written)
/// until at most three quarters of `cap` bytes are left, if more than `cap` are there; the bytes kept.
pub(crate) fn trim(dir: &Path, cap: u64) -> u64 {
    let mut files = Vec::new();
    let mut total = 0u64;
    for sub in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for e in std::fs::read_dir(sub.path()).into_iter().flatten().flatten() {
            let Ok(meta) = e.metadata() else { continue };
            total += meta.len();
            files.push((meta.modified().unwrap_or(SystemTime::UNIX_EPOCH), meta.len(), e.path()));
        }
    }
    if total <= cap {
        return total;
    }
    files.sort_unstable_by_key(|(used, _, _)| *used);
    for (_, len, path) in files {
        if total <= cap / 4 * 3 {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::CacheStore;

    #[test]
    fn an_entry_is_read_back_and_the_least_recently_used_are_trimmed() {
        let dir = tempfile::tempdir().unwrap();
        let f = Functions::new(dir.path().to_path_buf());
        assert!(f.get(b"a").is_none());
        assert!(f.insert(b"a", vec![1; 1000]));
        assert_eq!(f.get(b"a").unwrap().as_ref(), &[1; 1000][..]);
        assert!(!f.insert(b"huge", vec![0; ENTRY_BYTES as usize + 1]), "an entry over the limit is not kept");
        // An entry at the limit is read; one past it is not, whoever put it there.
        write_new(&f.file(b"at"), &vec![3; ENTRY_BYTES as usize]).unwrap();
        assert_eq!(f.get(b"at").map(|v| v.len()), Some(ENTRY_BYTES as usize));
        write_new(&f.file(b"past"), &vec![3; ENTRY_BYTES as usize + 1]).unwrap();
        assert!(f.get(b"past").is_none(), "an entry over the limit is not read");
        std::fs::remove_file(f.file(b"at")).unwrap();
        std::fs::remove_file(f.file(b"past")).unwrap();
        let full = Functions::new(dir.path().to_path_buf());
        full.written.store(COMPILE_BYTES - 10, Ordering::Relaxed);
        assert!(!full.insert(b"over", vec![0; 11]), "a compile writes no more than its share");
        for (i, key) in [b"b", b"c", b"d"].iter().enumerate() {
            assert!(f.insert(*key, vec![2; 1000]));
            let old = SystemTime::now() - Duration::from_secs(100 - i as u64);
            std::fs::File::options().write(true).open(f.file(*key)).unwrap().set_modified(old).unwrap();
        }
        assert_eq!(trim(dir.path(), 4000), 4000, "nothing goes under the cap");
        assert_eq!(trim(dir.path(), 3000), 2000, "down to three quarters of the cap");
        assert!(f.get(b"b").is_none() && f.get(b"c").is_none(), "the two used longest ago went");
        assert!(f.get(b"a").is_some() && f.get(b"d").is_some());
    }
}

//! What the web arena keeps computed from the store: pages and leaderboards with the store's state they
//! were computed at (served again while fresh, computed by one request at a time), and each game's
//! kept ratings board.

use arena_service::store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A value computed from the store, with the store's state it was computed at. While the store keeps
/// changing (a tournament recording games), a value at most [`FRESH`] old is served as it is and one
/// request at a time computes the next: a busy page costs one computation a second, not one a request.
pub(crate) struct Cached<K, V> {
    at: K,
    when: Instant,
    value: Arc<V>,
    computing: bool,
}

/// The store's state a leaderboard is computed at (see `Store::generation`).
pub(crate) type Generation = (i64, i64, i64, i64);

/// Leaderboards by game.
pub(crate) type Boards = Mutex<HashMap<String, Cached<Generation, Vec<arena_service::store::Leader>>>>;

/// How stale a page of a changing store may be.
pub(crate) const FRESH: Duration = Duration::from_secs(1);

/// How long the bytes of a page rendered for visitors not signed in are served again as they are.
pub(crate) const PAGE_FRESH: Duration = Duration::from_millis(100);

/// The most pages kept for visitors not signed in (each is kept for [`PAGE_FRESH`]).
pub(crate) const MAX_PAGES: usize = 256;

/// The cached value to serve for state `key`, or `None`: compute it (and say so with
/// [`Cached::put`]). Marks the entry as being computed.
pub(crate) fn cached<Q: std::hash::Hash + Eq, K: PartialEq, V>(
    map: &Mutex<HashMap<Q, Cached<K, V>>>,
    q: &Q,
    key: &K,
) -> Option<Arc<V>> {
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    let c = map.get_mut(q)?;
    // (A computation that failed leaves `computing` set: after ten times FRESH, another may try.)
    if c.at == *key || (c.computing && c.when.elapsed() < FRESH * 10) || c.is_fresh() {
        return Some(c.value.clone());
    }
    c.computing = true;
    None
}

/// The cached value of `q` if it is at most [`FRESH`] old, whatever the store's state now.
pub(crate) fn fresh<Q: std::hash::Hash + Eq, K, V>(map: &Mutex<HashMap<Q, Cached<K, V>>>, q: &Q) -> Option<Arc<V>> {
    map.lock().unwrap_or_else(|e| e.into_inner()).get(q).filter(|c| c.is_fresh()).map(|c| c.value.clone())
}

impl<K, V> Cached<K, V> {
    fn is_fresh(&self) -> bool {
        self.when.elapsed() < FRESH
    }
}

pub(crate) fn put<Q: std::hash::Hash + Eq + Clone, K, V>(
    map: &Mutex<HashMap<Q, Cached<K, V>>>,
    q: Q,
    at: K,
    value: Arc<V>,
) {
    let c = Cached { at, when: Instant::now(), value, computing: false };
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    map.insert(q.clone(), c);
    // Past the bound, the entry computed longest ago goes (it is computed again when asked for).
    if map.len() > MAX_CACHED
        && let Some(oldest) = map.iter().filter(|(k, _)| **k != q).min_by_key(|(_, c)| c.when).map(|(k, _)| k.clone())
    {
        map.remove(&oldest);
    }
}

/// Each game's kept board (see [`arena_service::store::Board`]), each behind a lock of its own: one game's
/// leaderboard or player page never waits on another game's.
pub(crate) type Ratings = Mutex<HashMap<String, Arc<Mutex<arena_service::store::Board>>>>;

/// The lock over the board of `game` in `ratings` (made if missing).
pub(crate) fn board_of(
    ratings: &Ratings,
    game: &str,
    system: arena_service::tournaments::ratings::System,
) -> Arc<Mutex<arena_service::store::Board>> {
    let mut boards = ratings.lock().unwrap_or_else(|e| e.into_inner());
    boards
        .entry(game.to_string())
        .or_insert_with(|| Arc::new(Mutex::new(arena_service::store::Board::new(system))))
        .clone()
}

/// The board held by `lock`, started again if it was kept under another rating system.
pub(crate) fn lock_board(
    lock: &Mutex<arena_service::store::Board>,
    system: arena_service::tournaments::ratings::System,
) -> std::sync::MutexGuard<'_, arena_service::store::Board> {
    let mut board = lock.lock().unwrap_or_else(|e| e.into_inner());
    if board.system() != system {
        *board = arena_service::store::Board::new(system);
    }
    board
}

/// `f` on the board of `game` in `ratings` (made if missing): the leaderboard brings it up to date
/// and reads from it, not from every stored game.
pub(crate) fn with_board<T>(
    ratings: &Ratings,
    game: &str,
    system: arena_service::tournaments::ratings::System,
    f: impl FnOnce(&mut arena_service::store::Board) -> T,
) -> T {
    let lock = board_of(ratings, game, system);
    f(&mut lock_board(&lock, system))
}

/// The statistics of player `name` of `game`, from the game's kept board: it is locked only while it
/// is brought up to date and read, not while the player's own games are.
pub(crate) fn player_stats(
    s: &Store,
    ratings: &Ratings,
    game: &str,
    name: &str,
    system: arena_service::tournaments::ratings::System,
) -> arena_service::store::Result<Option<arena_service::store::PlayerStats>> {
    let lock = board_of(ratings, game, system);
    s.player_stats_from(game, name, || lock_board(&lock, system))
}

/// The most entries a map of computed values keyed by tournament or game keeps ([`put`] lets go of the
/// oldest past it): a server that has served every tournament page once holds no more than this.
pub(crate) const MAX_CACHED: usize = 256;

/// A map that keeps at most `cap` entries and `max_weight` of their weight (as `weigh` counts it),
/// letting go of the least recently used first: what a long-running server keeps per package version
/// (every publication is a new one) stays bounded whatever is published or asked for. One entry
/// heavier than `max_weight` is kept alone.
pub(crate) struct Lru<K, V> {
    by: HashMap<K, (u64, V)>,
    tick: u64,
    cap: usize,
    weight: u64,
    max_weight: u64,
    weigh: fn(&V) -> u64,
}

impl<K: std::hash::Hash + Eq + Clone, V: Clone> Lru<K, V> {
    /// At most `cap` entries, of any weight.
    pub(crate) fn new(cap: usize) -> Lru<K, V> {
        Lru::weighed(cap, u64::MAX, |_| 0)
    }

    /// At most `cap` entries and `max_weight` of weight.
    pub(crate) fn weighed(cap: usize, max_weight: u64, weigh: fn(&V) -> u64) -> Lru<K, V> {
        Lru { by: HashMap::new(), tick: 0, cap: cap.max(1), weight: 0, max_weight, weigh }
    }

    /// The value of `k`, now the most recently used.
    pub(crate) fn get<Q: std::hash::Hash + Eq + ?Sized>(&mut self, k: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.tick += 1;
        let tick = self.tick;
        self.by.get_mut(k).map(|(used, v)| {
            *used = tick;
            v.clone()
        })
    }

    /// Keeps `v` as the value of `k` (the value already kept wins a race), letting go of the least
    /// recently used past the bounds; the value kept.
    pub(crate) fn insert(&mut self, k: K, v: V) -> V {
        self.tick += 1;
        let tick = self.tick;
        if let Some((used, kept)) = self.by.get_mut(&k) {
            *used = tick;
            return kept.clone();
        }
        self.weight += (self.weigh)(&v);
        self.by.insert(k.clone(), (tick, v.clone()));
        while (self.by.len() > self.cap || self.weight > self.max_weight) && self.by.len() > 1 {
            let Some(oldest) =
                self.by.iter().filter(|(q, _)| **q != k).min_by_key(|(_, (u, _))| *u).map(|(q, _)| q.clone())
            else {
                break;
            };
            if let Some((_, gone)) = self.by.remove(&oldest) {
                self.weight -= (self.weigh)(&gone);
            }
        }
        v
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.by.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_lru_keeps_its_bounds_and_lets_go_of_the_least_recently_used() {
        let mut m: Lru<u32, Vec<u8>> = Lru::weighed(3, 10, |v| v.len() as u64);
        for k in 0..3 {
            m.insert(k, vec![0; 2]);
        }
        assert!(m.get(&0).is_some(), "0 is now the most recently used");
        m.insert(3, vec![0; 2]);
        assert_eq!(m.len(), 3);
        assert!(m.get(&1).is_none() && m.get(&0).is_some(), "1 was the least recently used");
        // Weight: 6 kept, 9 more is past 10, so the older ones go until it fits.
        m.insert(4, vec![0; 9]);
        assert_eq!((m.len(), m.get(&4).map(|v| v.len())), (1, Some(9)));
        // One entry heavier than the bound is kept alone.
        m.insert(5, vec![0; 20]);
        assert_eq!((m.len(), m.get(&5).map(|v| v.len())), (1, Some(20)));
        // The value already kept wins.
        assert_eq!(m.insert(5, vec![1]), vec![0; 20]);
        let mut many: Lru<u32, u32> = Lru::new(MAX_CACHED);
        for k in 0..10_000 {
            many.insert(k, k);
        }
        assert_eq!(many.len(), MAX_CACHED);
    }
}

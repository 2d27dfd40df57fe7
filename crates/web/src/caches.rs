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

pub(crate) fn put<Q: std::hash::Hash + Eq, K, V>(map: &Mutex<HashMap<Q, Cached<K, V>>>, q: Q, at: K, value: Arc<V>) {
    let c = Cached { at, when: Instant::now(), value, computing: false };
    map.lock().unwrap_or_else(|e| e.into_inner()).insert(q, c);
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

//! Fair shares of the store: each client (as the caps count it, [`super::limits::client_key`]) has at
//! most half the machine's cores running its store reads and writes at once (one on two cores); its
//! other store calls wait their turn. A client that has kept the store busy for longer than its share
//! (half a second at once, a quarter of a second each second on average) has its reads run in the slow
//! lane, threads at a low scheduling priority (nice 10) that yield to every other request's work. A
//! visitor asking for the costliest page from every connection it may hold so gets what the others
//! leave, and their pages still find a core. Store calls made outside a request (the server's own:
//! warming the boards, tournaments it runs) take no turn.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::limits::{Bucket, Rate};

/// Store time a client may take at normal priority at once, in seconds, and a second on average.
pub const BUSY_BURST: f64 = 0.5;
pub const BUSY_PER_SECOND: f64 = 0.25;
const SHARE: Rate = Rate { per_second: BUSY_PER_SECOND, burst: BUSY_BURST };
/// The slow lane's scheduling priority (a nice value: higher yields more).
pub const SLOW_NICE: libc::c_int = 10;

tokio::task_local! {
    /// The client of the request this task is serving.
    static CLIENT: IpAddr;
}

/// The turns at the store, a queue per client.
pub struct Turns {
    per_client: usize,
    by: Mutex<HashMap<IpAddr, Arc<Queue>>>,
}

/// One client's queue, and the store time it has left at normal priority.
struct Queue {
    turns: Arc<Semaphore>,
    /// Seconds of store time left at normal priority.
    left: Mutex<Bucket>,
}

impl Queue {
    /// Seconds left now, less `spent`.
    fn spend(&self, spent: Duration) -> f64 {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        left.spend(spent.as_secs_f64(), SHARE, Instant::now())
    }
}

/// A client's turn at the store: its store time is counted until this is dropped.
pub struct Turn {
    _permit: OwnedSemaphorePermit,
    queue: Arc<Queue>,
    since: Instant,
    /// Whether the client has spent its share: its reads go to the slow lane.
    pub slow: bool,
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.queue.spend(self.since.elapsed());
    }
}

impl Turns {
    /// `per_client` store calls of one client at once.
    pub fn new(per_client: usize) -> Turns {
        Turns { per_client: per_client.max(1), by: Mutex::default() }
    }

    /// Half the machine's cores, at least one.
    pub fn for_this_machine() -> Turns {
        Turns::new(std::thread::available_parallelism().map_or(1, |n| n.get() / 2))
    }

    /// Waits for the asking client's turn, held until the turn is dropped (none outside a request).
    pub async fn wait(&self) -> Option<Turn> {
        let client = CLIENT.try_with(|c| *c).ok()?;
        let queue = {
            let mut by = self.by.lock().unwrap_or_else(|e| e.into_inner());
            if by.len() > 10_000 {
                // A queue nobody holds or waits on (only the map has it) is forgotten.
                by.retain(|_, q| Arc::strong_count(q) > 1);
            }
            by.entry(client)
                .or_insert_with(|| {
                    Arc::new(Queue {
                        turns: Arc::new(Semaphore::new(self.per_client)),
                        left: Mutex::new(Bucket::full(SHARE, Instant::now())),
                    })
                })
                .clone()
        };
        let permit = queue.turns.clone().acquire_owned().await.ok()?;
        let slow = queue.spend(Duration::ZERO) <= 0.0;
        Some(Turn { _permit: permit, queue, since: Instant::now(), slow })
    }
}

/// Threads at a low scheduling priority ([`SLOW_NICE`]) running the store reads of clients past
/// their share. They end when this is dropped.
pub struct SlowLane {
    jobs: Mutex<std::sync::mpsc::Sender<Job>>,
}

type Job = Box<dyn FnOnce() + Send>;

impl SlowLane {
    /// A lane of `threads` threads.
    pub fn new(threads: usize) -> SlowLane {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new().name(format!("store-slow-{i}")).spawn(move || {
                // SAFETY: setpriority on the calling thread (Linux keeps a nice value per thread);
                // raising it needs no privilege.
                unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, SLOW_NICE) };
                loop {
                    let job = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    match job {
                        // A job that panics drops its answer's sender: its caller sees an error.
                        Ok(job) => drop(std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))),
                        Err(_) => return,
                    }
                }
            });
            if let Err(e) = spawned {
                tracing::warn!("starting the store's slow lane: {e}");
            }
        }
        SlowLane { jobs: Mutex::new(jobs) }
    }

    /// Runs `f` in the lane; its result, or an error if it panicked (or the lane has no thread).
    pub async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = answer.send(f());
        });
        let sent = self.jobs.lock().unwrap_or_else(|e| e.into_inner()).send(job);
        sent.map_err(|_| "the store's slow lane is gone".to_string())?;
        answered.await.map_err(|_| "a store read failed in the slow lane".to_string())
    }
}

/// Serves a request with its client known to the store calls it makes.
pub async fn scope(
    super::conn::Client(client): super::conn::Client,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    CLIENT.scope(client, next.run(req)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Runs `calls` store-like calls for `client` at once; the most that ran together.
    async fn busiest(turns: Arc<Turns>, client: &str, calls: usize) -> usize {
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let ip: IpAddr = client.parse().unwrap();
        let tasks: Vec<_> = (0..calls)
            .map(|_| {
                let (turns, now, most) = (turns.clone(), now.clone(), most.clone());
                tokio::spawn(CLIENT.scope(ip, async move {
                    let _turn = turns.wait().await;
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    now.fetch_sub(1, Ordering::SeqCst);
                }))
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        most.load(Ordering::SeqCst)
    }

    #[tokio::test]
    async fn a_clients_calls_take_turns_and_another_client_does_not_wait_on_them() {
        let turns = Arc::new(Turns::new(1));
        assert_eq!(busiest(turns.clone(), "127.0.0.2", 20).await, 1, "one at a time");
        let wide = Arc::new(Turns::new(3));
        assert_eq!(busiest(wide, "127.0.0.2", 20).await, 3, "three at a time");
        // While 127.0.0.2 holds its turn, 127.0.0.3 gets one at once.
        let ip2: IpAddr = "127.0.0.2".parse().unwrap();
        let held = CLIENT.scope(ip2, turns.wait()).await;
        assert!(held.is_some());
        let other = CLIENT.scope("127.0.0.3".parse().unwrap(), turns.wait());
        assert!(tokio::time::timeout(Duration::from_secs(1), other).await.is_ok(), "another client is not held up");
        let same = CLIENT.scope(ip2, turns.wait());
        assert!(tokio::time::timeout(Duration::from_millis(100), same).await.is_err(), "the same client waits");
        drop(held);
        assert!(turns.wait().await.is_none(), "outside a request there is no turn to take");
    }

    #[tokio::test]
    async fn a_client_past_its_share_of_store_time_goes_slow_and_recovers() {
        let turns = Turns::new(1);
        let (busy, other): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap());
        let turn = CLIENT.scope(busy, turns.wait()).await.unwrap();
        assert!(!turn.slow, "a fresh client is not slow");
        // It keeps the store busy past its burst.
        turn.queue.spend(Duration::from_secs_f64(BUSY_BURST + 0.1));
        drop(turn);
        assert!(CLIENT.scope(busy, turns.wait()).await.unwrap().slow, "past its share: slow");
        assert!(!CLIENT.scope(other, turns.wait()).await.unwrap().slow, "another client is not");
        // Its share comes back at BUSY_PER_SECOND: 0.1 s owed plus the time counted since.
        tokio::time::sleep(Duration::from_secs_f64(0.2 / BUSY_PER_SECOND + 0.1)).await;
        assert!(!CLIENT.scope(busy, turns.wait()).await.unwrap().slow, "recovered");
    }

    #[tokio::test]
    async fn the_slow_lane_runs_at_low_priority_and_survives_a_panic() {
        let lane = SlowLane::new(1);
        // SAFETY: getpriority of the calling thread.
        let nice = lane.run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }).await.unwrap();
        assert_eq!(nice, SLOW_NICE);
        assert!(lane.run(|| -> u8 { panic!("a failing read") }).await.is_err());
        assert_eq!(lane.run(|| 7).await, Ok(7), "the thread is still there");
    }
}

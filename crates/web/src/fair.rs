//! Fair shares of the store: each client (as the caps count it, [`crate::conn::client_key`]) has at
//! most half the machine's cores running its store reads and writes at once (one on two cores); its
//! other store calls wait their turn. A visitor asking for the costliest page from every connection it
//! may hold so takes that share and no more, and everyone else's pages still find a core. Store calls
//! made outside a request (the server's own: warming the boards, tournaments it runs) take no turn.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    /// The client of the request this task is serving.
    static CLIENT: IpAddr;
}

/// The turns at the store, a queue per client.
pub struct Turns {
    per_client: usize,
    by: Mutex<HashMap<IpAddr, Arc<Semaphore>>>,
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

    /// Waits for the asking client's turn, held until the permit is dropped (none outside a request).
    pub async fn wait(&self) -> Option<OwnedSemaphorePermit> {
        let client = CLIENT.try_with(|c| *c).ok()?;
        let queue = {
            let mut by = self.by.lock().unwrap_or_else(|e| e.into_inner());
            if by.len() > 10_000 {
                // A queue nobody holds or waits on (only the map has it) is forgotten.
                by.retain(|_, q| Arc::strong_count(q) > 1);
            }
            by.entry(client).or_insert_with(|| Arc::new(Semaphore::new(self.per_client))).clone()
        };
        queue.acquire_owned().await.ok()
    }
}

/// Serves a request with its client known to the store calls it makes.
pub async fn scope(
    crate::conn::Client(client): crate::conn::Client,
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
}

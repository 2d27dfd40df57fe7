//! Watching a long event: `/healthz` (the server answers and its store reads) and `/metrics`, in
//! Prometheus' text format (the `prometheus` crate): games recorded and games that ended in a game
//! fault by game, bans by kind (counted from the store, whoever recorded them: this server, its
//! workers or the command line; each row once), uploads and publications accepted and refused, and a
//! latency histogram of every route.

use super::App;
use super::error::WebError;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, IntGauge, Opts, Registry, TextEncoder};
use std::sync::Arc;

pub struct Metrics {
    registry: Registry,
    games: IntCounterVec,
    game_faults: IntCounterVec,
    bans: IntCounterVec,
    uploads: IntCounterVec,
    requests: HistogramVec,
    /// With `--nats`: jobs in the job stream, and workers heard from in the last minute.
    jobs_queued: IntGauge,
    workers_seen: IntGauge,
    /// The last game and fault ids counted; one scrape counts at a time.
    counted: tokio::sync::Mutex<(i64, i64)>,
}

impl Metrics {
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let counter = |name: &str, help: &str, labels: &[&str]| {
            let c = IntCounterVec::new(Opts::new(name, help), labels).expect("a valid metric");
            registry.register(Box::new(c.clone())).expect("registered once");
            c
        };
        let games = counter("arena_games_total", "Games recorded in the store, by game.", &["game"]);
        let game_faults =
            counter("arena_game_faults_total", "Games that ended in a game fault (the referee failed).", &["game"]);
        let bans = counter("arena_bans_total", "Players banned, by the kind of fault.", &["kind"]);
        let uploads = counter(
            "arena_uploads_total",
            "Uploads judged here: players and game packages, accepted or refused.",
            &["what", "outcome"],
        );
        let buckets = prometheus::exponential_buckets(0.0005, 2.0, 16).expect("valid buckets");
        let opts = HistogramOpts::new("arena_request_seconds", "Time to answer a request, by route.").buckets(buckets);
        let requests = HistogramVec::new(opts, &["route", "method", "status"]).expect("a valid metric");
        registry.register(Box::new(requests.clone())).expect("registered once");
        let gauge = |name: &str, help: &str| {
            let g = IntGauge::new(name, help).expect("a valid metric");
            registry.register(Box::new(g.clone())).expect("registered once");
            g
        };
        let jobs_queued = gauge("arena_jobs_queued", "Game jobs in the job stream (with --nats).");
        let workers_seen = gauge("arena_workers_seen", "Workers heard from in the last minute (with --nats).");
        Metrics {
            registry,
            games,
            game_faults,
            bans,
            uploads,
            requests,
            jobs_queued,
            workers_seen,
            counted: tokio::sync::Mutex::new((0, 0)),
        }
    }

    /// Counts an upload (`what`: player or game) judged here.
    pub fn upload(&self, what: &str, accepted: bool) {
        self.uploads.with_label_values(&[what, if accepted { "accepted" } else { "refused" }]).inc();
    }
}

/// `GET /metrics`.
pub async fn metrics(State(app): State<Arc<App>>) -> Result<Response, WebError> {
    let m = &app.metrics;
    let mut counted = m.counted.lock().await;
    let since = *counted;
    let tally = app.read(move |s| s.tally_since(since)).await?;
    for (game, played, faulted) in &tally.games {
        m.games.with_label_values(&[game.as_str()]).inc_by(*played);
        if *faulted > 0 {
            m.game_faults.with_label_values(&[game.as_str()]).inc_by(*faulted);
        }
    }
    for (kind, n) in &tally.bans {
        m.bans.with_label_values(&[kind.as_str()]).inc_by(*n);
    }
    *counted = tally.upto;
    drop(counted);
    if let arena_service::venue::Venue::Workers(nats) = &app.venue {
        match nats.jobs_queued().await {
            Ok(n) => m.jobs_queued.set(n as i64),
            Err(e) => tracing::warn!("metrics: {e}"),
        }
    }
    if let Some(w) = app.workers.get() {
        m.workers_seen.set(w.recent().len() as i64);
    }
    let text =
        TextEncoder::new().encode_to_string(&m.registry.gather()).map_err(|e| WebError::internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response())
}

/// `GET /healthz`: 200 when the server answers and its store reads, else 503 saying why.
pub async fn healthz(State(app): State<Arc<App>>) -> Response {
    match app.read(|s| s.generation()).await {
        Ok(_) => (StatusCode::OK, "ok\n").into_response(),
        Err(e) => {
            (StatusCode::SERVICE_UNAVAILABLE, format!("the store does not read: {}\n", e.message)).into_response()
        }
    }
}

/// Times every routed request, labelled by its route's pattern (never by the path a client chose).
pub async fn observe(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string()).unwrap_or_default();
    // A client may send any method: the label takes a few values only, so no client can grow the series.
    let method: &'static str = match req.method().as_str() {
        "GET" => "GET",
        "POST" => "POST",
        "HEAD" => "HEAD",
        _ => "other",
    };
    let start = std::time::Instant::now();
    let res = next.run(req).await;
    let status = res.status().as_u16().to_string();
    app.metrics
        .requests
        .with_label_values(&[route.as_str(), method, status.as_str()])
        .observe(start.elapsed().as_secs_f64());
    res
}

/// This resource's pages.
pub(crate) fn pages() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new().route("/healthz", get(healthz)).route("/metrics", get(metrics))
}

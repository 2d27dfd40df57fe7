//! The sandbox: one wasmtime engine (pooling allocator, fuel, epoch interruption), loading and
//! validating components, fresh capability-free stores, and guarded calls that turn every way a call
//! can fail into a `Fault`. It knows nothing of any game.

mod background;
mod cache;
mod call;
mod compile;
mod cpu;
mod functions;
mod load;
mod meter;
mod profile;
mod state;

pub use cache::{Compilation, MEMORY_BYTES as CACHE_MEMORY_BYTES, MEMORY_ENTRIES as CACHE_MEMORY_ENTRIES};
pub use call::{Guard, HostRefusal, refuse};
pub use compile::{
    CompileError, CompileLimits, Compiler, QUICK_DEADLINES, Tier, WORKER_ARG, compile_worker_main, in_background,
};
pub use load::{LoadError, Loaded, WorldSpec};
pub use meter::{BYTE_FUEL, CHECK_CALL_FUEL, HOST_CALL_FUEL};
pub use profile::{FunctionFuel, Profile, ProfileSink};
pub use state::{LOG_CAPACITY, MAX_RESOURCES, PlayerState, last_lines};

use arena_core::Limits;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use wasmtime::component::Linker;
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store};

/// How often the epoch advances: the resolution of wall-clock deadlines.
pub const EPOCH_TICK: Duration = Duration::from_millis(2);

/// Instances the pooling allocator keeps room for: enough for every game in flight on this machine.
const POOL_INSTANCES: u32 = 512;
/// Bytes of a freed linear memory kept resident for the next instance in its slot (see
/// `engine_config`). None: under wasmtime 50 resetting a kept megabyte in place costs more than
/// giving the memory back with `madvise` (a round robin of 6,534 Nim games, 12 players: 2.9 s against
/// 3.9–4.8 s; 16 KiB and 256 KiB kept: 2.9–3.4 s), where under wasmtime 48 keeping it saved 44% of an
/// instantiation.
const KEEP_RESIDENT: usize = 0;
/// Freed memories, tables and stacks waiting to be given back to the kernel together (in one
/// `process_madvise` where the kernel has it) instead of one `madvise` each as each store is dropped:
/// Nim 9,056-9,302 games a second against 7,935-8,218 on this machine's two cores. wasmtime keeps a
/// queue for each core (at most 16) and flushes one at its batch size, so the batch is this over the
/// queues: however many cores, at most about this many freed memories (each at most its cap) wait,
/// and an allocation that finds the pool full flushes them first.
const DECOMMIT_PENDING: usize = 32;

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("could not set up the wasm engine: {0:#}")]
    Engine(wasmtime::Error),
    #[error("could not set up WASI for players: {0:#}")]
    Linker(wasmtime::Error),
}

/// The engine and the limits every player runs under. Cheap to share behind an `Arc`.
pub struct Sandbox {
    engine: Engine,
    limits: Limits,
    ticker_stop: Arc<AtomicBool>,
    /// The epoch's tick, in nanoseconds ([`EPOCH_TICK`], or shorter to profile: see
    /// [`Sandbox::profiling`]).
    tick: Arc<std::sync::atomic::AtomicU64>,
    /// Compiled components, in memory and (optionally) on disk.
    cache: cache::Cache,
    compile_limits: CompileLimits,
    compiler: Compiler,
    compile_slots: compile::Slots,
    /// Quick compiles share compiled functions too (see [`Sandbox::share_quick_functions`]).
    quick_shares: AtomicBool,
}

/// The engine's configuration: the component model, fuel, epochs, and (for a sandbox that runs
/// players, not for a compile worker) the pooling allocator. Both compile the same code for a tier;
/// what either compiles at any tier loads in the other (the optimisation level, the register
/// allocator, the address map and native unwind information are not part of a compiled component's
/// compatibility). Quick code has neither of the last two: wasm backtraces (the profiles') name their
/// frames without them, and nothing here unwinds through wasm natively.
pub(crate) fn engine_config(pooling: bool, tier: Tier) -> Config {
    let mut config = Config::new();
    config.wasm_component_model(true).consume_fuel(true).epoch_interruption(true);
    if tier == Tier::Quick {
        config
            .cranelift_opt_level(wasmtime::OptLevel::None)
            .cranelift_regalloc_algorithm(wasmtime::RegallocAlgorithm::SinglePass)
            .generate_address_map(false)
            .native_unwind_info(false);
    }
    // `ARENA_PERFMAP=1` names the guests' compiled functions for `perf` (in /tmp/perf-PID.map).
    if std::env::var_os("ARENA_PERFMAP").is_some() {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    if pooling {
        let mut pool = PoolingAllocationConfig::new();
        pool.total_component_instances(POOL_INSTANCES)
            .total_core_instances(POOL_INSTANCES * 4)
            .total_memories(POOL_INSTANCES * 2)
            .total_tables(POOL_INSTANCES * 2)
            .total_stacks(POOL_INSTANCES)
            .max_memories_per_component(16)
            .max_tables_per_component(16)
            .max_component_instance_size(4 << 20)
            .max_core_instance_size(4 << 20)
            // A freed memory is given back (see `KEEP_RESIDENT`); a freed table is reset in place, only
            // its dirty pages (found with PAGEMAP_SCAN where the kernel has it), up to a table's worth.
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(64 << 10)
            .pagemap_scan(wasmtime::Enabled::Auto)
            .decommit_batch_size(decommit_batch());
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    config
}

/// The pooling allocator's decommit batch (see [`DECOMMIT_PENDING`]).
fn decommit_batch() -> usize {
    let queues = std::thread::available_parallelism().map_or(1, |n| n.get()).min(16);
    (DECOMMIT_PENDING / queues).max(1)
}

impl Sandbox {
    /// A sandbox that compiles in-process (see [`Sandbox::with_compiler`]).
    pub fn new(limits: Limits) -> Result<Sandbox, SandboxError> {
        let engine = Engine::new(&engine_config(true, Tier::Optimized)).map_err(SandboxError::Engine)?;
        let ticker_stop = Arc::new(AtomicBool::new(false));
        let tick = Arc::new(std::sync::atomic::AtomicU64::new(EPOCH_TICK.as_nanos() as u64));
        let (e, stop, t) = (engine.clone(), ticker_stop.clone(), tick.clone());
        std::thread::Builder::new()
            .name("arena-epoch".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_nanos(t.load(Ordering::Relaxed)));
                    e.increment_epoch();
                }
            })
            .map_err(|e| SandboxError::Engine(e.into()))?;
        let cache = cache::Cache::new(&engine, None, cache::MEMORY_BYTES);
        Ok(Sandbox {
            engine,
            limits,
            ticker_stop,
            tick,
            cache,
            compile_limits: CompileLimits::default(),
            compiler: Compiler::InProcess,
            compile_slots: compile::Slots::new(),
            quick_shares: AtomicBool::new(false),
        })
    }

    /// Compiles with `compiler` within `limits`: `Compiler::Child` for anything submitted by others.
    pub fn with_compiler(mut self, compiler: Compiler, limits: CompileLimits) -> Sandbox {
        self.compiler = compiler;
        self.compile_limits = limits;
        self
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Keeps compiled components in `dir` too, so later runs load them instead of compiling.
    pub fn with_cache_dir(mut self, dir: PathBuf) -> Sandbox {
        self.cache = cache::Cache::new(&self.engine, Some(dir), self.cache.memory_cap());
        self
    }

    /// Keeps at most `bytes` of compiled code in memory (default [`CACHE_MEMORY_BYTES`]): past it, the
    /// components used least recently are let go of (a game holding one keeps it until it ends).
    pub fn with_cache_memory(mut self, bytes: u64) -> Sandbox {
        self.cache = cache::Cache::new(&self.engine, self.cache.dir().map(Path::to_path_buf), bytes);
        self
    }

    /// From now on quick compiles share compiled functions as optimised ones do: finding and keeping
    /// every function's key makes a first compile slower (the Python player: 6.9 s against 4.4 s) and
    /// a later one of the same language faster (3.2 s). For a server warmed with a player of the
    /// language its uploads are in (`arena serve --warm`).
    pub fn share_quick_functions(&self) {
        self.quick_shares.store(true, Ordering::Relaxed);
    }

    /// Whether quick compiles share compiled functions (see [`Sandbox::share_quick_functions`]).
    pub fn quick_functions_shared(&self) -> bool {
        self.quick_shares.load(Ordering::Relaxed)
    }

    /// How many compiled components the memory holds, and the bytes of their code.
    pub fn cached_in_memory(&self) -> (usize, u64) {
        self.cache.in_memory()
    }

    /// Lets go of the compiled component whose sha256 is `hash`, in memory and on disk: what an upload
    /// or a publication that was refused compiled is not kept.
    pub fn forget(&self, hash: &str) {
        self.cache.forget(hash);
    }

    /// Removes from the disk cache every compiled component not in `keep` (sha256s; what the store
    /// references), and every one compiled for another engine; how many were removed.
    pub fn sweep_cache(&self, keep: &std::collections::HashSet<String>) -> usize {
        self.cache.sweep(keep)
    }

    /// Where compiled components are kept across runs, if anywhere.
    pub fn cache_dir(&self) -> Option<&std::path::Path> {
        self.cache.dir()
    }

    /// A linker with capability-free WASI p2; a game adds its own host interfaces to it.
    pub fn linker(&self) -> Result<Linker<PlayerState>, SandboxError> {
        let mut linker = Linker::new(&self.engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(SandboxError::Linker)?;
        Ok(linker)
    }

    /// A fresh store for one player for one game (or one lifecycle call), armed with the limits: its
    /// memory caps, the size of what it sends the host, host calls that cost fuel, and deadlines in
    /// CPU time.
    pub fn store(&self, seed: u64) -> Store<PlayerState> {
        self.store_with(seed, &self.limits)
    }

    /// [`Sandbox::store`] under other limits than the sandbox's (a referee's, for one).
    pub fn store_with(&self, seed: u64, limits: &Limits) -> Store<PlayerState> {
        let mut store = Store::new(&self.engine, PlayerState::new(limits, seed));
        store.limiter(|s| &mut s.limiter);
        // wasmtime stops lifting an answer, or a host call's arguments, once it would allocate more
        // than this on the player's behalf: a hostile list is refused before it is copied.
        store.set_hostcall_fuel(usize::try_from(limits.answer_bytes).unwrap_or(usize::MAX));
        store.call_hook(meter::on_call);
        store.epoch_deadline_callback(|mut ctx| {
            // Inside wasmtime's epoch libcall: the meter must not bill it (see `meter::on_call`).
            ctx.data_mut().meter.epoch = true;
            // A profiled player is sampled on every tick.
            let mut ticks = cpu::SAMPLE_TICKS;
            if let Some(mut p) = ctx.data_mut().profile.take() {
                p.sample(profile::stack(&ctx));
                ctx.data_mut().profile = Some(p);
                ticks = 1;
            }
            Ok(if ctx.data_mut().cpu.within_budget() {
                wasmtime::UpdateDeadline::Continue(ticks)
            } else {
                wasmtime::UpdateDeadline::Interrupt
            })
        });
        store
    }
}

impl Sandbox {
    /// Ticks the epoch every `tick` (shorter than [`EPOCH_TICK`]) so that profiled players are
    /// sampled that often: for `--profile` runs, whose every call then reads its CPU clock more often.
    pub fn profiling(self, tick: Duration) -> Sandbox {
        self.tick.store(tick.as_nanos().clamp(10_000, EPOCH_TICK.as_nanos()) as u64, Ordering::Relaxed);
        self
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}

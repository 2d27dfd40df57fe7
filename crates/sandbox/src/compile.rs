//! Bounded compiles: compiling a submitted component can neither run without end nor exhaust the host.
//! Two lines of defence. Before compiling, every function body is measured (Cranelift's time grows
//! faster than linearly with a function's size, so one huge function is the cheapest compile bomb) and
//! one over the limit is refused at once. Then the compile itself runs in a child process of the same
//! binary (`arena __compile-worker`) under `setrlimit` limits on CPU time and address space, killed if
//! it outlives a wall-clock deadline; the parent loads the artifact the child wrote. Library users that
//! trust their components (benchmarks, unit tests) may compile in-process, with the same pre-check.

use arena_core::{bytes_text, quote};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use wasmtime::Engine;
use wasmtime::component::Component;

/// The first argument that makes the `arena` binary a compile worker.
pub const WORKER_ARG: &str = "__compile-worker";

/// The environment variable that tells a compile worker its niceness (see [`in_background`]).
const NICE_ENV: &str = "ARENA_COMPILE_NICE";

/// The environment variable that tells a compile worker the process that started it, to die with.
const PARENT_ENV: &str = "ARENA_COMPILE_PARENT";

/// Exit code of a worker whose input is not a valid component.
const INVALID: i32 = 3;

/// The most threads one compile uses.
const COMPILE_THREADS: usize = 4;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What one compile may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompileLimits {
    /// CPU time of the compiling process, all its threads together.
    pub cpu: Duration,
    /// Address space of the compiling process, in bytes.
    pub memory_bytes: u64,
    /// The largest function body accepted, in bytes of code.
    pub function_bytes: u64,
}

impl Default for CompileLimits {
    /// 40 s of CPU time and 2 GiB of address space (the 18 MB Python players compile in 13 s of CPU
    /// time with a peak of 0.5 GiB); functions of 1 MiB of code (the largest in the Python players,
    /// CPython's interpreter loop, has 417 KiB; one function of 3 MB takes Cranelift 42 s and 2 GB).
    fn default() -> Self {
        CompileLimits { cpu: Duration::from_secs(40), memory_bytes: 2 << 30, function_bytes: 1 << 20 }
    }
}

/// How much work the compiler puts into a component's code. Fuel is counted as the wasm is translated,
/// before any optimisation, so a component spends exactly the same fuel, call for call, whichever
/// tier compiled it (a test plays the same games both ways): only its time differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tier {
    /// Optimised: the code games are played with.
    #[default]
    Optimized,
    /// Unoptimised, its registers allocated in a single pass: compiles in about half the time and
    /// CPU (the 18 MB Python players: 5 s and 9 s of CPU against 11 s and 20 s), runs up to about three
    /// times slower. For a validation game, whose verdict somebody is waiting for (and then kept
    /// nowhere), and for a component too costly to optimise within the compile limits (kept then).
    Quick,
}

/// A seat of quick code has its deadlines multiplied by this: the same player, compiled optimised,
/// within its deadlines is then within them as quick code too (quick code runs at most about three
/// times slower; a loop burns its fuel in a tenth of its deadline either way).
pub const QUICK_DEADLINES: u32 = 4;

impl Tier {
    fn arg(self) -> &'static str {
        match self {
            Tier::Optimized => "optimized",
            Tier::Quick => "quick",
        }
    }
}

pub use super::background::in_background;

/// Where components are compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compiler {
    /// In this process: only the function-size check bounds the cost. For trusted components.
    InProcess,
    /// In a child process running this executable as a compile worker, under the limits.
    Child(PathBuf),
}

#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    #[error("too costly to compile ({0})")]
    TooCostly(String),
    #[error("{0}")]
    Invalid(String),
    #[error("the compile worker failed: {0}")]
    Worker(String),
}

/// A compiled component, with its serialized artifact when the compile produced one.
pub(crate) type Compiled = (Component, Option<Vec<u8>>);

/// At most this many compile workers run at once, whatever loads in parallel: each may use the whole
/// memory limit.
pub(crate) struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    pub(crate) fn new() -> Slots {
        Slots::with(cores().clamp(1, COMPILE_THREADS))
    }

    fn with(n: usize) -> Slots {
        Slots { free: Mutex::new(n), freed: Condvar::new() }
    }

    fn take(&self) -> Slot<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Slot(self)
    }
}

/// A running compile worker's place; given back when dropped.
struct Slot<'a>(&'a Slots);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

/// Compiles `bytes` within `limits`.
pub(crate) fn compile(
    engine: &Engine,
    bytes: &[u8],
    limits: &CompileLimits,
    compiler: &Compiler,
    slots: &Slots,
    functions: Option<&Path>,
    tier: Tier,
) -> Result<Compiled, CompileError> {
    precheck(bytes, limits)?;
    let invalid = |e: wasmtime::Error| CompileError::Invalid(format!("{e:#}"));
    match compiler {
        Compiler::InProcess if tier == Tier::Optimized => {
            Component::new(engine, bytes).map(|c| (c, None)).map_err(invalid)
        }
        // Compiled by an engine of its own, and loaded into this one.
        Compiler::InProcess => {
            let quick =
                Engine::new(&super::engine_config(false, tier)).map_err(|e| CompileError::Worker(format!("{e:#}")))?;
            let artifact = quick.precompile_component(bytes).map_err(invalid)?;
            // SAFETY: compiled just now by this process for an engine of the same configuration but its
            // tier, which is not part of a compiled component's compatibility.
            let c = unsafe { Component::deserialize(engine, &artifact) }
                .map_err(|e| CompileError::Worker(format!("quick code does not load: {e:#}")))?;
            Ok((c, Some(artifact)))
        }
        Compiler::Child(exe) => {
            let slot = slots.take();
            let artifact = in_child(exe, bytes, limits, functions, tier);
            drop(slot);
            if let Some(dir) = functions {
                super::functions::trim_in_background(dir.to_path_buf());
            }
            let artifact = artifact?;
            // SAFETY: the artifact was written by this very executable's compiler (the worker) for an
            // engine of the same configuration; `deserialize` checks its header and that configuration,
            // and fails cleanly on anything else.
            let c = unsafe { Component::deserialize(engine, &artifact) }
                .map_err(|e| CompileError::Worker(format!("its artifact does not load: {e:#}")))?;
            Ok((c, Some(artifact)))
        }
    }
}

/// Refuses a component any of whose functions is over the size limit, before compiling anything.
/// Malformed input is left to the compiler's validation, which names the problem precisely.
fn precheck(bytes: &[u8], limits: &CompileLimits) -> Result<(), CompileError> {
    use wasmtime::wasmparser::{Parser, Payload};
    let mut functions = 0u64;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::CodeSectionEntry(body)) => {
                functions += 1;
                let range = body.range();
                let size = range.end - range.start;
                if size > limits.function_bytes {
                    return Err(CompileError::TooCostly(format!(
                        "function {functions} has {size} bytes of code; the limit is {} a function",
                        bytes_text(limits.function_bytes)
                    )));
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(())
}

/// Runs the worker on `bytes` and returns its artifact, or why it failed.
fn in_child(
    exe: &Path,
    bytes: &[u8],
    limits: &CompileLimits,
    functions: Option<&Path>,
    tier: Tier,
) -> Result<Vec<u8>, CompileError> {
    let worker = |e: std::io::Error| CompileError::Worker(format!("{}: {e}", exe.display()));
    let mut child = Command::new(exe)
        .arg(WORKER_ARG)
        .arg(limits.cpu.as_secs().max(1).to_string())
        .arg(limits.memory_bytes.to_string())
        .arg(tier.arg())
        .args(functions)
        // Address space, not memory in use, is what the limit counts: keep the allocator from reserving
        // it ahead (glibc's malloc an arena of 64 MiB per compiling thread; mimalloc, which the `arena`
        // binary allocates with, a gigabyte at a time, after which the worker's threads could not
        // start), and keep the threads few on a machine with many cores.
        .env("MALLOC_ARENA_MAX", "2")
        .env("MIMALLOC_ARENA_RESERVE", "0")
        .env("RAYON_NUM_THREADS", COMPILE_THREADS.min(cores()).to_string())
        .env(NICE_ENV, if super::background::is_background() { "19" } else { "0" })
        .env(PARENT_ENV, std::process::id().to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(worker)?;
    let (Some(mut stdin), Some(mut stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        return Err(CompileError::Worker("no pipes to the worker".into()));
    };
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || {
        // A worker that dies before reading everything must not take this process with it.
        block_sigpipe();
        let _ = stdin.write_all(&input);
    });
    // Compiled code is a few times the size of its input (2.2 times for the Python players): more is
    // read no further, and refused.
    let artifact_limit = (bytes.len() as u64).saturating_mul(16).saturating_add(16 << 20).min(limits.memory_bytes);
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = (&mut stdout).take(artifact_limit + 1).read_to_end(&mut v);
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = (&mut stderr).take(16 << 10).read_to_end(&mut v);
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        v
    });
    // CPU time bounds the worker; the wall clock only catches one that waits (a starved machine gets
    // twice the CPU limit and more).
    let wall = limits.cpu * 2 + Duration::from_secs(10);
    // A compile in the background is stopped while one somebody waits for runs: its deadline counts
    // only the time it ran.
    let mut turn = super::background::Turn::start(child.id());
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(worker(e)),
        }
        if !killed && turn.poll() > wall {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    let artifact = reader.join().unwrap_or_default();
    let err = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).trim().to_string();
    if killed {
        return Err(CompileError::TooCostly(format!("still compiling after {} s", wall.as_secs())));
    }
    if status.success() {
        if artifact.len() as u64 > artifact_limit {
            return Err(CompileError::TooCostly(format!("its compiled code is over {}", bytes_text(artifact_limit))));
        }
        return Ok(artifact);
    }
    use std::os::unix::process::ExitStatusExt;
    let out_of_memory = ["memory allocation", "out of memory", "Cannot allocate memory", "failed to spawn thread"]
        .iter()
        .any(|m| err.contains(m));
    match (status.signal(), status.code()) {
        (Some(libc::SIGXCPU | libc::SIGKILL), _) => {
            let over = format!("more than {} s of CPU time", limits.cpu.as_secs().max(1));
            // The functions it compiled went to the shared cache as each was done, and stay there: the
            // next compile of it (a busy machine's legitimate player, submitted again) compiles the rest.
            Err(CompileError::TooCostly(match functions {
                Some(_) => {
                    format!("{over}; the functions compiled so far are kept, so a second try carries on from there")
                }
                None => over,
            }))
        }
        _ if out_of_memory => {
            Err(CompileError::TooCostly(format!("more than {} of memory", bytes_text(limits.memory_bytes))))
        }
        (_, Some(INVALID)) => Err(CompileError::Invalid(quote(&err))),
        _ => Err(CompileError::Worker(format!("{status}: {}", quote(&err)))),
    }
}

/// Blocks SIGPIPE on the calling thread: a write to a closed pipe then fails with EPIPE.
fn block_sigpipe() {
    // SAFETY: an empty set with SIGPIPE added, applied to this thread's own signal mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// The compile worker: `arena __compile-worker CPU_SECONDS MEMORY_BYTES optimized|quick [FUNCTIONS_DIR]`,
/// the component on stdin, the artifact on stdout; the functions another compile already had are read
/// from `FUNCTIONS_DIR`, and those it compiles written there. It limits itself before reading anything.
pub fn compile_worker_main(args: &[String]) -> ExitCode {
    let tier = match args.get(2).map(String::as_str) {
        Some("optimized") => Some(Tier::Optimized),
        Some("quick") => Some(Tier::Quick),
        _ => None,
    };
    let (Some(cpu), Some(memory), Some(tier)) =
        (args.first().and_then(|a| a.parse::<u64>().ok()), args.get(1).and_then(|a| a.parse::<u64>().ok()), tier)
    else {
        eprintln!(
            "usage: arena {WORKER_ARG} CPU_SECONDS MEMORY_BYTES optimized|quick [FUNCTIONS_DIR] < component.wasm > artifact"
        );
        return ExitCode::from(2);
    };
    let limit = |resource, soft: u64, hard: u64| {
        let l = libc::rlimit { rlim_cur: soft, rlim_max: hard };
        // SAFETY: setrlimit reads a valid rlimit struct; it only lowers this process's own limits.
        unsafe { libc::setrlimit(resource, &l) == 0 }
    };
    // It dies with the process that started it (a server stopped mid-compile leaves no compile running):
    // killed when its parent ends, and gone at once if that happened before it could ask.
    // SAFETY: prctl(PR_SET_PDEATHSIG) and getppid only read and set this process's own attributes.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    let parent = std::env::var(PARENT_ENV).ok().and_then(|p| p.parse::<i32>().ok());
    // SAFETY: as above.
    if parent.is_some_and(|p| p != unsafe { libc::getppid() }) {
        eprintln!("the process that started this compile has ended");
        return ExitCode::from(2);
    }
    // A compile in the background lowers its own priority (see `in_background`).
    if let Some(n) = std::env::var(NICE_ENV).ok().and_then(|n| n.parse::<i32>().ok()).filter(|n| *n > 0) {
        // SAFETY: setpriority only changes this process's own scheduling priority.
        unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, n) };
    }
    // SIGXCPU at the soft limit, SIGKILL a second later if it is ignored.
    if !limit(libc::RLIMIT_CPU, cpu, cpu + 1) || !limit(libc::RLIMIT_AS, memory, memory) {
        eprintln!("cannot set the compile limits: {}", std::io::Error::last_os_error());
        return ExitCode::from(2);
    }
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("cannot read the component: {e}");
        return ExitCode::from(2);
    }
    let mut config = super::engine_config(false, tier);
    if let Some(dir) = args.get(3) {
        let functions = std::sync::Arc::new(super::functions::Functions::new(PathBuf::from(dir)));
        if let Err(e) = config.enable_incremental_compilation(functions) {
            eprintln!("cannot share compiled functions: {e:#}");
            return ExitCode::from(2);
        }
    }
    let engine = match Engine::new(&config) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cannot set up the engine: {e:#}");
            return ExitCode::from(2);
        }
    };
    match engine.precompile_component(&bytes) {
        Ok(artifact) => match std::io::stdout().lock().write_all(&artifact) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cannot write the artifact: {e}");
                ExitCode::from(2)
            }
        },
        Err(e) => {
            eprintln!("{e:#}");
            ExitCode::from(INVALID as u8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn no_more_workers_than_slots_run_at_once() {
        let slots = Arc::new(Slots::with(2));
        let (a, b) = (slots.take(), slots.take());
        let third_ran = Arc::new(AtomicBool::new(false));
        let (s, ran) = (slots.clone(), third_ran.clone());
        let third = std::thread::spawn(move || {
            let _slot = s.take();
            ran.store(true, Ordering::SeqCst);
        });
        std::thread::sleep(Duration::from_millis(50));
        assert!(!third_ran.load(Ordering::SeqCst), "a third worker waits while two run");
        drop(a);
        third.join().unwrap();
        assert!(third_ran.load(Ordering::SeqCst));
        drop(b);
    }

    #[test]
    fn one_huge_function_is_refused_before_compiling() {
        let limits = CompileLimits { function_bytes: 1000, ..CompileLimits::default() };
        let body = "i32.const 1 drop ".repeat(400);
        let wasm = wat::parse_str(format!("(module (func {body}) (func))")).unwrap();
        let err = precheck(&wasm, &limits).unwrap_err().to_string();
        assert!(err.starts_with("too costly to compile (function 1 has 1"), "{err}");
        assert!(precheck(&wasm, &CompileLimits::default()).is_ok());
    }
}

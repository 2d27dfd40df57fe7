//! The wasm engine as the front ends reach it: the sandbox they create once and hand to every service
//! call, its compile limits and cache, and the compile child's entry point (from `arena-sandbox`).

pub use arena_sandbox::{
    CACHE_MEMORY_BYTES, Compilation, CompileLimits, Compiler, FunctionFuel, Profile, ProfileSink, Sandbox, WORKER_ARG,
    compile_worker_main, last_lines,
};

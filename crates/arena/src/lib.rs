//! The `arena` command line: one of Arena's two front ends (the other is `arena_web`, which `arena
//! serve` starts). It parses flags, calls the layers below and prints what they answer.

pub mod cli;

/// The allocator of every process that links Arena's command line (the binary, its compile workers,
/// the benchmarks): mimalloc. Cranelift allocates at every step of a compile and the host's dynamic
/// values at every call; against glibc's malloc a quick compile of the Python player took 5–7% less
/// time (9% less CPU) and a Goofspiel game 6–14% less (the book's benchmarks page, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

//! The `arena` command line: one of Arena's two front ends (the other is `arena_web`, which `arena
//! serve` starts). It parses flags, calls the layers below and prints what they answer.

pub mod cli;

/// The allocator of every process that links Arena's command line (the binary, its compile workers,
/// the benchmarks): mimalloc. Cranelift allocates at every step of a compile and the host's dynamic
/// values at every call; against glibc's malloc a quick compile of the Python player takes about 7%
/// less time and a Goofspiel game about 5% less (`make bench`, and the book's benchmarks page).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

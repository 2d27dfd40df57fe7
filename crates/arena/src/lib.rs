//! The `arena` command line: one of Arena's two front ends (the other is `arena_web`, which `arena
//! serve` starts). It parses flags, calls the layers below and prints what they answer.

pub mod cli;
